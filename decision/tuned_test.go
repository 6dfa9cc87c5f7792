package decision_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

// task is a small imbalanced problem split 3:1:1.
type task struct{ train, valid, test *learn.Data }

func newTask(t testing.TB) task {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: 600, Features: 6, Informative: 3, Ratio: 10, FlipY: 0.05}, 3)
	if err != nil {
		t.Fatal(err)
	}
	all := &learn.Data{X: g.X, Y: g.Y, Features: g.Features}
	parts, err := dataset.StratifiedSplit(g.Y, []float64{3, 1, 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	return task{all.Subset(parts[0]), all.Subset(parts[1]), all.Subset(parts[2])}
}

// tunedGBDT returns 20 boosted trees with a tuned threshold and the
// given key=value parameters.
func tunedGBDT(t testing.TB, kv ...string) *decision.Tuned {
	t.Helper()
	m := decision.Tune("tuned", "boosted trees, tuned threshold", boost.NewMethod())
	for _, p := range append([]string{"n_estimators=20"}, kv...) {
		k, v, _ := strings.Cut(p, "=")
		if err := m.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func fitTuned(t testing.TB, m learn.Method, train, valid *learn.Data, seed uint64) *decision.Model {
	t.Helper()
	model, err := m.Fit(context.Background(), train, valid, learn.Env{Seed: seed, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return model.(*decision.Model)
}

// grid is 0.01, ..., 0.99, each the double nearest k/100.
func grid() []float64 {
	g := make([]float64, 99)
	for k := range g {
		g[k] = float64(k+1) / 100
	}
	return g
}

// bestByHand returns the largest value of metric over the grid, counting
// each confusion matrix directly.
func bestByHand(y []int, score []float64, metric metrics.Metric) float64 {
	best := math.Inf(-1)
	for _, th := range grid() {
		var c metrics.Confusion
		for i, s := range score {
			switch {
			case s >= th && y[i] == 1:
				c.TP++
			case s >= th:
				c.FP++
			case y[i] == 1:
				c.FN++
			default:
				c.TN++
			}
		}
		if v := metric.Of(c); v > best {
			best = v
		}
	}
	return best
}

// checkBest: the model's threshold is the one SweepThresholds and Best
// choose on the inner model's scores of valid, and reaches the largest
// metric value over the grid.
func checkBest(t *testing.T, model *decision.Model, valid *learn.Data, metric metrics.Metric) {
	t.Helper()
	score, err := model.Inner.PositiveProba(valid.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	sw := metrics.SweepThresholds(valid.Y, score, grid(), nil)
	want := sw[sw.Best(metric)].Threshold
	if got := model.Threshold(); got != want {
		t.Errorf("%s: threshold %v, want %v (the best of the sweep)", metric, got, want)
	}
	at := metrics.SweepThresholds(valid.Y, score, []float64{model.Threshold()}, nil)[0]
	if got, best := metric.Of(at.Confusion), bestByHand(valid.Y, score, metric); got != best {
		t.Errorf("%s: %v at the threshold, the best over the grid is %v", metric, got, best)
	}
	var s struct {
		Threshold  float64 `json:"threshold"`
		Metric     string  `json:"threshold_metric"`
		ValidValue float64 `json:"valid_value"`
	}
	b, _ := json.Marshal(model.Summary())
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.Threshold != model.Threshold() || s.Metric != metric.String() || s.ValidValue != metric.Of(at.Confusion) {
		t.Errorf("%s: summary %s", metric, b)
	}
}

func TestTunedThresholdIsBestOnValidation(t *testing.T) {
	tk := newTask(t)
	thresholds := map[metrics.Metric]float64{}
	for _, metric := range []metrics.Metric{metrics.BalancedAccuracy, metrics.F1, metrics.GMean, metrics.MCC} {
		m := tunedGBDT(t, "threshold_metric="+metric.String())
		model := fitTuned(t, m, tk.train, tk.valid, 1)
		checkBest(t, model, tk.valid, metric)
		thresholds[metric] = model.Threshold()
	}
	// On imbalanced data F1, which ignores true negatives, wants a higher
	// threshold than balanced accuracy.
	if !(thresholds[metrics.F1] > thresholds[metrics.BalancedAccuracy]) {
		t.Errorf("thresholds: f1 %v, balanced accuracy %v; want f1's higher", thresholds[metrics.F1], thresholds[metrics.BalancedAccuracy])
	}
}

// TestTunedHoldout: without validation data the inner method is fitted on
// a stratified 3:1 split of train (seed derived from the Env's) and the
// threshold tuned on the held-out quarter.
func TestTunedHoldout(t *testing.T) {
	tk := newTask(t)
	const seed = 5
	for _, holdout := range []float64{0, 0.4} {
		m := tunedGBDT(t)
		share := 0.25
		if holdout != 0 {
			share = holdout
			if err := m.Set("threshold_holdout", fmt.Sprint(holdout)); err != nil {
				t.Fatal(err)
			}
		}
		model := fitTuned(t, m, tk.train, nil, seed)

		parts, err := dataset.StratifiedSplit(tk.train.Y, []float64{1 - share, share}, rng.DeriveSeed(seed, 1))
		if err != nil {
			t.Fatal(err)
		}
		fit, held := tk.train.Subset(parts[0]), tk.train.Subset(parts[1])
		inner := boost.NewMethod()
		inner.Set("n_estimators", "20")
		want, err := inner.Fit(context.Background(), fit, held, learn.Env{Seed: seed, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		wb, _ := want.MarshalBinary()
		gb, _ := model.Inner.MarshalBinary()
		if !bytes.Equal(wb, gb) {
			t.Errorf("holdout %v: the inner model is not the one fitted on the %v hold-out split", holdout, share)
		}
		checkBest(t, model, held, metrics.BalancedAccuracy)
	}
}

func TestTunedParams(t *testing.T) {
	m := decision.Tune("tuned", "", boost.NewMethod())
	ps := m.Params()
	if keys := learn.ParamMap(ps); keys["threshold_metric"] != "balanced_accuracy" || keys["threshold_step"] != "0.01" ||
		keys["threshold_holdout"] != "0.25" || keys["n_estimators"] != "100" {
		t.Errorf("default params: %v", keys)
	}
	if got := ps[3:]; !reflect.DeepEqual(got, boost.NewMethod().Params()) {
		t.Errorf("the inner method's params do not follow the threshold's:\n%v", got)
	}
	for _, kv := range [][2]string{{"threshold_metric", "f1"}, {"threshold_step", "0.05"}, {"n_estimators", "7"}, {"eta", "0.1"}} {
		if err := m.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
		if got := learn.ParamMap(m.Params())[kv[0]]; got != kv[1] {
			t.Errorf("Set(%s, %s): Params shows %s", kv[0], kv[1], got)
		}
	}
	for _, kv := range [][2]string{
		{"threshold_metric", "auc"}, {"threshold_step", "0"}, {"threshold_step", "0.5"},
		{"threshold_holdout", "1"}, {"n_estimators", "0"}, {"no_such_key", "1"},
	} {
		before := m.Params()
		if err := m.Set(kv[0], kv[1]); !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %s): %v, want ErrParam", kv[0], kv[1], err)
		}
		if !reflect.DeepEqual(before, m.Params()) {
			t.Errorf("a refused Set(%s, %s) changed the params", kv[0], kv[1])
		}
	}

	// The inner parameters reach the fit, the threshold's the tuning.
	tk := newTask(t)
	before := m.Params()
	model := fitTuned(t, m, tk.train, tk.valid, 1)
	if !reflect.DeepEqual(before, m.Params()) {
		t.Error("Fit changed the params")
	}
	if n := len(model.Inner.(*boost.Fitted).Trees); n != 7 {
		t.Errorf("n_estimators=7 gave %d trees", n)
	}
	if th := model.Threshold(); math.Abs(th*20-math.Round(th*20)) > 1e-9 {
		t.Errorf("threshold_step=0.05 gave threshold %v", th)
	}
	score, _ := model.Inner.PositiveProba(tk.valid.X, nil)
	var g []float64
	for k := 1; k < 20; k++ {
		g = append(g, float64(k)/20)
	}
	sw := metrics.SweepThresholds(tk.valid.Y, score, g, nil)
	if want := sw[sw.Best(metrics.F1)].Threshold; model.Threshold() != want {
		t.Errorf("f1 on a 0.05 grid: threshold %v, want %v", model.Threshold(), want)
	}
}

func TestTunedRoundTrip(t *testing.T) {
	tk := newTask(t)
	m := tunedGBDT(t, "threshold_metric=gmean")
	model := fitTuned(t, m, tk.train, tk.valid, 2)
	payload, err := model.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := m.Load(payload)
	if err != nil {
		t.Fatal(err)
	}
	if learn.ThresholdOf(loaded) != model.Threshold() {
		t.Errorf("loaded threshold %v, want %v", learn.ThresholdOf(loaded), model.Threshold())
	}
	want, _ := model.PositiveProba(tk.test.X, nil)
	got, err := loaded.PositiveProba(tk.test.X, nil)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("the loaded model predicts differently (%v)", err)
	}
	if again, _ := loaded.MarshalBinary(); !bytes.Equal(again, payload) {
		t.Error("the loaded model encodes to different bytes")
	}
	if learn.NumParams(loaded) != learn.NumParams(model) || loaded.NumFeatures() != 6 {
		t.Errorf("loaded: %d params, %d features", learn.NumParams(loaded), loaded.NumFeatures())
	}
	var s struct {
		Metric     string  `json:"threshold_metric"`
		ValidValue float64 `json:"valid_value"`
	}
	b, _ := json.Marshal(loaded.(learn.Summarizer).Summary())
	if json.Unmarshal(b, &s) != nil || s.Metric != "gmean" || s.ValidValue == 0 {
		t.Errorf("loaded summary %s", b)
	}

	for _, tc := range []struct{ name, payload string }{
		{"not JSON", "{"},
		{"threshold 0", `{"threshold":0,"model":""}`},
		{"threshold 1", `{"threshold":1,"model":""}`},
		{"bad inner model", `{"threshold":0.5,"model":"AAAA"}`},
	} {
		if _, err := m.Load([]byte(tc.payload)); err == nil {
			t.Errorf("Load of %s: no error", tc.name)
		}
	}
}

func TestTunedErrors(t *testing.T) {
	tk := newTask(t)
	m := tunedGBDT(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Fit(ctx, tk.train, tk.valid, learn.Env{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	bad := tk.train.Subset([]int{0, 1, 2})
	bad.Y[1] = 3
	if _, err := m.Fit(context.Background(), bad, nil, learn.Env{}); !errors.Is(err, learn.ErrData) {
		t.Errorf("a label 3: %v, want ErrData", err)
	}
	// Two validation rows of one class still give a threshold.
	if _, err := m.Fit(context.Background(), tk.train, tk.valid.Subset([]int{0, 1}), learn.Env{}); err != nil {
		t.Errorf("two validation rows: %v", err)
	}
}

// stump is an inner method that scores rows by their first feature and
// ignores the validation data: the tuning is all the decision layer's.
type stump struct{}

func (stump) Name() string                      { return "stump" }
func (stump) Set(k, _ string) error             { return fmt.Errorf("%w: %q", learn.ErrParam, k) }
func (stump) Params() []learn.Param             { return nil }
func (stump) Load([]byte) (learn.Scorer, error) { return stumpModel{}, nil }
func (stump) Fit(_ context.Context, train, _ *learn.Data, _ learn.Env) (learn.Scorer, error) {
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	return stumpModel{}, nil
}

type stumpModel struct{}

func (stumpModel) NumFeatures() int               { return 1 }
func (stumpModel) MarshalBinary() ([]byte, error) { return []byte("{}"), nil }
func (stumpModel) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	dst = make([]float64, r)
	for i := range dst {
		dst[i] = x.At(i, 0)
	}
	return dst, nil
}

// TestTunedStump: with scores known in advance the tuned threshold is
// known too. Scores 0.1..0.9 with positives at 0.6 and above: balanced
// accuracy is 1 for thresholds in (0.5, 0.6], whose middle on the grid
// is 0.55.
func TestTunedStump(t *testing.T) {
	x := mat.NewDense(9, 1, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9})
	d := &learn.Data{X: x, Y: []int{0, 0, 0, 0, 0, 1, 1, 1, 1}}
	model, err := decision.Tune("t", "", stump{}).Fit(context.Background(), d, d, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if th := learn.ThresholdOf(model); th != 0.55 {
		t.Errorf("threshold %v, want 0.55", th)
	}
}

// TestTunedBadValidation: validation data an inner method does not look at
// is checked before the sweep, which panics on bad labels: bad user data
// is an error, not a panic.
func TestTunedBadValidation(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0.1, 0.4, 0.6, 0.9})
	train := &learn.Data{X: x, Y: []int{0, 0, 1, 1}}
	for _, tc := range []struct {
		name  string
		valid *learn.Data
		want  string
	}{
		{"label 2", &learn.Data{X: x, Y: []int{0, 2, 1, 1}}, "validation data row 2: label 2"},
		{"too few labels", &learn.Data{X: x, Y: []int{0, 1, 1}}, "validation data has 4 rows but 3 labels"},
		{"no rows", &learn.Data{X: &mat.Dense{}}, "validation data has no rows"},
	} {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: Fit panicked: %v", tc.name, r)
				}
			}()
			_, err = decision.Tune("t", "", stump{}).Fit(context.Background(), train, tc.valid, learn.Env{})
		}()
		if !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an ErrData error saying %q", tc.name, err, tc.want)
		}
	}
}

func (stumpModel) NumClasses() int { return 2 }

func (m stumpModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}
