package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/predfile"
)

// stump is a method defined only in this test: it predicts from one
// feature, the probability of the positive class rising with the distance
// above that feature's weighted mean. Registering it is all it takes for
// fit, predict, explain and help to reach it.
type stump struct {
	s stumpSettings
}

type stumpSettings struct {
	Feature int     `json:"feature"`
	Scale   float64 `json:"scale"`
}

var stumpParams = learn.ParamTable[stumpSettings]{
	learn.Int("feature", "the feature the stump reads (0-based)", 0, 1<<20, func(s *stumpSettings) *int { return &s.Feature }),
	learn.Float("scale", "slope of the logistic curve", 0, math.Inf(1), func(s *stumpSettings) *float64 { return &s.Scale }),
}

func (m *stump) Name() string                { return "test-stump" }
func (m *stump) Describe() string            { return "a one-feature logistic stump defined in a test" }
func (m *stump) Set(key, value string) error { return stumpParams.Set(&m.s, key, value) }
func (m *stump) Params() []learn.Param {
	def := stumpSettings{Scale: 1}
	return stumpParams.List(&m.s, &def)
}

func (m *stump) Fit(ctx context.Context, train, _ *learn.Data, _ learn.Env) (learn.Scorer, error) {
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	if m.s.Feature >= train.Cols() {
		return nil, fmt.Errorf("%w: feature %d of %d", learn.ErrParam, m.s.Feature, train.Cols())
	}
	var sum, sw float64
	for i := range train.Rows() {
		if v := train.X.At(i, m.s.Feature); !math.IsNaN(v) {
			sum += train.Weight(i) * v
			sw += train.Weight(i)
		}
	}
	return &stumpModel{Feature: m.s.Feature, Scale: m.s.Scale, Mean: sum / sw, Features: train.Cols()}, nil
}

func (m *stump) Load(b []byte) (learn.Scorer, error) {
	var sm stumpModel
	if err := json.Unmarshal(b, &sm); err != nil {
		return nil, err
	}
	return &sm, nil
}

type stumpModel struct {
	Feature, Features int
	Scale, Mean       float64
}

func (s *stumpModel) p(v float64) float64 {
	if math.IsNaN(v) {
		v = s.Mean
	}
	return 1 / (1 + math.Exp(-s.Scale*(v-s.Mean)))
}

func (s *stumpModel) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	if len(dst) < r {
		dst = make([]float64, r)
	}
	for i := range r {
		dst[i] = s.p(x.At(i, s.Feature))
	}
	return dst[:r], nil
}

func (s *stumpModel) NumFeatures() int               { return s.Features }
func (s *stumpModel) MarshalBinary() ([]byte, error) { return json.Marshal(s) }
func (s *stumpModel) Threshold() float64             { return 0.4 }

type stumpExplanation struct {
	Value float64 `json:"value"`
	Mean  float64 `json:"mean"`
	Score float64 `json:"score"`
}

func (e stumpExplanation) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "value %g against mean %g: score %.4f\n", e.Value, e.Mean, e.Score)
	return err
}

func (s *stumpModel) Explain(row []float64) (learn.Explanation, error) {
	return stumpExplanation{row[s.Feature], s.Mean, s.p(row[s.Feature])}, nil
}

func init() { learn.Register(func() learn.Method { return &stump{s: stumpSettings{Scale: 1}} }) }

// TestNewMethodEndToEnd: a method that exists only in this test file is
// fitted, saved, loaded, used for predictions and explanations, and listed
// in help, with no change anywhere but its registration.
func TestNewMethodEndToEnd(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "stump.aer")
	out, errOut, code := aer(t, "fit", "--method", "test-stump", "--train", "testdata/fit/train.csv",
		"--param", "feature=1", "--param", "scale=2", "--out", model, "--json")
	if code != 0 {
		t.Fatalf("fit: %s", errOut)
	}
	var fit struct {
		Method    string            `json:"method"`
		Params    map[string]string `json:"params"`
		Threshold float64           `json:"threshold"`
	}
	if err := json.Unmarshal([]byte(out), &fit); err != nil {
		t.Fatal(err)
	}
	if fit.Method != "test-stump" || fit.Params["feature"] != "1" || fit.Params["scale"] != "2" || fit.Threshold != 0.4 {
		t.Errorf("fit --json: %s", out)
	}

	preds := filepath.Join(dir, "p.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", "testdata/fit/valid.csv", "--out", preds); code != 0 {
		t.Fatalf("predict: %s", errOut)
	}
	p, err := predfile.LoadPredictions(preds)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.Load("testdata/fit/valid.csv", dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	train, _ := dataset.Load("testdata/fit/train.csv", dataset.Options{})
	var mean float64
	n := 0
	for i := range train.Rows() {
		if v := train.X.At(i, 1); !math.IsNaN(v) {
			mean += v
			n++
		}
	}
	mean /= float64(n)
	for i, s := range p.Score {
		v := d.X.At(i, 1)
		if math.IsNaN(v) {
			v = mean
		}
		want := 1 / (1 + math.Exp(-2*(v-mean)))
		if math.Abs(s-want) > 1e-12 || (s >= 0.4) != (p.Pred[i] == 1) {
			t.Fatalf("row %d: score %v pred %d, want score %v at threshold 0.4", i+1, s, p.Pred[i], want)
		}
	}

	out, errOut, code = aer(t, "explain", "--model", model, "--data", "testdata/fit/valid.csv", "--rows", "2", "--json")
	if code != 0 || !strings.Contains(out, `"score": `+trimFloat(p.Score[1])) {
		t.Errorf("explain: %s %s", out, errOut)
	}
	if out, _, code := aer(t, "explain", "--model", model, "--data", "testdata/fit/valid.csv", "--rows", "2"); code != 0 || !strings.HasPrefix(out, "row 2, label ") || !strings.Contains(out, "against mean") {
		t.Errorf("explain text: %s", out)
	}

	out, _, code = aer(t, "help", "fit", "--method", "test-stump")
	if code != 0 || !strings.Contains(out, "a one-feature logistic stump") || !strings.Contains(out, "slope of the logistic curve") {
		t.Errorf("help fit --method test-stump:\n%s", out)
	}
	if out, _, _ := aer(t, "help", "fit"); !strings.Contains(out, "test-stump") || !strings.Contains(out, "gbdt-tuned") {
		t.Errorf("help fit does not list the methods:\n%s", out)
	}
	if _, errOut, code := aer(t, "fit", "--method", "test-stump", "--train", "testdata/fit/train.csv", "--param", "scale=-1", "--out", model); code != 2 {
		t.Errorf("a bad parameter: exit %d, %s", code, errOut)
	}
}

// TestDynamicEnsembleLocked: dynens refuses to become AER silently.
func TestDynamicEnsembleLocked(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.aer")
	_, errOut, code := aer(t, "fit", "--method", "dynens", "--train", "testdata/fit/train.csv", "--param", "dynamic_ensemble=false", "--out", model)
	if code != 2 || !strings.Contains(errOut, "Dynamic Ensemble") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestInterrupt: a cancelled fit stops promptly, writes nothing and fails.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "big.csv")
	if _, errOut, code := aer(t, "gen", "--rows", "20000", "--features", "20", "--ratio", "9", "--seed", "1", "--out", data); code != 0 {
		t.Fatal(errOut)
	}
	for _, method := range []string{"gbdt", "aer"} {
		model := filepath.Join(dir, method+".aer")
		ctx, cancel := context.WithCancel(context.Background())
		timer := time.AfterFunc(300*time.Millisecond, cancel)
		start := time.Now()
		var stdout, stderr strings.Builder
		err := runContext(ctx, []string{"fit", "--method", method, "--train", data, "--param", "n_estimators=5000", "--out", model}, &stdout, &stderr)
		took := time.Since(start)
		timer.Stop()
		cancel()
		if err == nil || exitCode(err, io.Discard) != 1 || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("%s: cancelled fit returned %v", method, err)
		}
		// The fit would take minutes; cancelled at 0.3 s it must stop
		// within a second (a loose bound for a loaded machine).
		if took > 3*time.Second {
			t.Errorf("%s: a fit cancelled after 0.3 s returned after %v", method, took)
		}
		if _, err := os.Stat(model); err == nil {
			t.Errorf("%s: a cancelled fit wrote %s", method, model)
		}
	}
}

// NumClasses is 2: stumpModel scores the positive class (PositiveProba).
func (s *stumpModel) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (s *stumpModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(s, x, dst)
}
