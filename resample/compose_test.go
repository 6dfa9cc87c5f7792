package resample

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// recorder is a method that remembers the data its fits get and predicts
// the share of positive training rows.
type recorder struct {
	seen *[2]*learn.Data // train, valid of the last fit
	c    float64
}

var recParams = learn.ParamTable[recorder]{
	learn.Float("c", "a constant", 0, 1, func(r *recorder) *float64 { return &r.c }),
}

func (r *recorder) Name() string                { return "recorder" }
func (r *recorder) Set(key, value string) error { return recParams.Set(r, key, value) }
func (r *recorder) Params() []learn.Param       { d := recorder{}; return recParams.List(r, &d) }
func (r *recorder) Fit(_ context.Context, train, valid *learn.Data, _ learn.Env) (learn.Scorer, error) {
	*r.seen = [2]*learn.Data{train, valid}
	c := CountRows(train)
	sh := &share{P: float64(c.Positive) / float64(c.Rows), F: train.Cols()}
	if r.c == 1 {
		return explained{sh}, nil
	}
	return sh, nil
}
func (r *recorder) Load(b []byte) (learn.Scorer, error) {
	var s share
	return &s, json.Unmarshal(b, &s)
}

type share struct {
	P float64
	F int
}

func (s *share) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	dst = dst[:0]
	for range r {
		dst = append(dst, s.P)
	}
	return dst, nil
}
func (s *share) NumFeatures() int               { return s.F }
func (s *share) MarshalBinary() ([]byte, error) { return json.Marshal(s) }

// explained is a share model with per-row explanations.
type explained struct{ *share }

type shareExplanation float64

func (e shareExplanation) WriteText(w io.Writer) error {
	_, err := fmt.Fprintln(w, float64(e))
	return err
}

func (e explained) Explain(row []float64) (learn.Explanation, error) {
	return shareExplanation(e.P), nil
}

func TestResampledFit(t *testing.T) {
	ctx := context.Background()
	var seen [2]*learn.Data
	m := Resampled("smote-rec", "test", &SMOTE{}, &recorder{seen: &seen})
	if err := m.Set("k_neighbors", "3"); err != nil {
		t.Fatal(err)
	}
	if err := m.Set("c", "0.5"); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, p := range m.Params() {
		keys = append(keys, p.Key+"="+p.Value)
	}
	if got := strings.Join(keys, " "); got != "k_neighbors=3 sampling_strategy=1 c=0.5" {
		t.Errorf("params %s", got)
	}
	if err := m.Set("nope", "1"); !errors.Is(err, learn.ErrParam) {
		t.Errorf("unknown key: %v", err)
	}

	train, valid := blobs(90, 12, 2, 1, false), blobs(30, 4, 2, 2, false)
	env := learn.Env{Seed: 8}
	model, err := m.Fit(ctx, train, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := (&SMOTE{KNeighbors: 3}).Resample(ctx, train, env)
	if !bitEqualData(seen[0], want) {
		t.Error("the inner method did not get the SMOTE resample of the training rows with the fit's seed")
	}
	if seen[1] != valid {
		t.Error("the inner method did not get the validation rows as they are")
	}
	if p, _ := model.PositiveProba(valid.X, nil); p[0] != 0.5 {
		t.Errorf("prediction %v, want the inner model's 0.5 (balanced rows)", p[0])
	}
	sum, _ := json.Marshal(model.(learn.Summarizer).Summary())
	if string(sum) != `{"sampler":"smote","before":{"rows":102,"negative":90,"positive":12},"after":{"rows":180,"negative":90,"positive":90}}` {
		t.Errorf("summary %s", sum)
	}
	if _, ok := learn.TunedThreshold(model); ok {
		t.Error("the model has a threshold its inner model has not")
	}

	payload, _ := model.MarshalBinary()
	loaded, err := m.Load(payload)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := loaded.MarshalBinary(); !bytes.Equal(again, payload) {
		t.Error("the loaded model encodes differently")
	}
	other := Resampled("rus-rec", "test", &RUS{}, &recorder{seen: &seen})
	if _, err := other.Load(payload); err == nil || !strings.Contains(err.Error(), `resampled by "smote", not "rus"`) {
		t.Errorf("Load by another sampler: %v", err)
	}

	// The inner model's explanations stay reachable.
	m.Set("c", "1")
	model, err = m.Fit(ctx, train, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	if ex, ok := learn.ExplainerOf(model); !ok {
		t.Error("the composition hides its inner model's explanations")
	} else if e, err := ex.Explain(valid.X.RawRowView(0)); err != nil || e != shareExplanation(0.5) {
		t.Errorf("Explain = %v, %v", e, err)
	}
	if _, ok := learn.TunedThreshold(model); ok {
		t.Error("the model has a threshold its inner model has not")
	}

	// Errors of the sampler reach the caller, the inner method unfitted.
	seen = [2]*learn.Data{}
	if _, err := m.Fit(ctx, blobs(90, 3, 2, 1, false), nil, env); !errors.Is(err, learn.ErrData) || seen[0] != nil {
		t.Errorf("3 minority rows with k_neighbors 3: %v", err)
	}
}

// The composition with boosted trees equals resampling then fitting the
// trees, with the same seed, and keeps an inner threshold.
func TestResampledBoost(t *testing.T) {
	ctx := context.Background()
	train, valid := blobs(300, 30, 3, 3, true), blobs(100, 10, 3, 4, false)
	env := learn.Env{Seed: 11, Workers: 2}
	inner := boost.NewMethod()
	inner.Set("n_estimators", "10")
	inner.Set("subsample", "0.7") // so the trees use the seed too
	for _, s := range []Sampler{&RUS{}, &SMOTE{}, &SMOTETomek{}} {
		m := Resampled(s.Name()+"-gbdt", "", s, inner)
		model, err := m.Fit(ctx, train, valid, env)
		if err != nil {
			t.Fatal(err)
		}
		rs, _ := s.Resample(ctx, train, env)
		direct, err := inner.Fit(ctx, rs, valid, env)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := model.(*Model).Inner.MarshalBinary()
		b, _ := direct.MarshalBinary()
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the composition's trees differ from trees fitted on the resampled rows", s.Name())
		}
	}
	tune := decision.Tune("t", "", inner)
	model, err := Resampled("rus-tuned", "", &RUS{}, tune).Fit(ctx, train, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := (&RUS{}).Resample(ctx, train, env)
	direct, err := tune.Fit(ctx, rs, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	th, ok := learn.TunedThreshold(model)
	if !ok || th != learn.ThresholdOf(direct) {
		t.Errorf("the composition's threshold %v (%v), its inner model's %v", th, ok, learn.ThresholdOf(direct))
	}
}

func TestResampledKeyClash(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"sampling_strategy" is both`) {
			t.Errorf("recover() = %v", r)
		}
	}()
	Resampled("x", "", &RUS{}, Resampled("y", "", &SMOTE{}, boost.NewMethod()))
}

// NumClasses is 2: share scores the positive class (PositiveProba).
func (s *share) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (s *share) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(s, x, dst)
}
