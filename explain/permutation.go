package explain

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// ROCAUC is the default metric of a two-class model's permutation
// importance.
const ROCAUC = "roc_auc"

// MacroBalancedAccuracy is the metric of the permutation importance of a
// model of three or more classes: the mean recall over the classes, of
// the model's decision.
const MacroBalancedAccuracy = "macro_balanced_accuracy"

// PermutationSettings configure Permutation. The zero value is the
// default: ROC-AUC (three or more classes: the macro balanced accuracy of
// each row's most probable class), 5 shuffles per feature.
type PermutationSettings struct {
	// Metric is, for a two-class model, ROCAUC ("" means ROCAUC) or the
	// name of a metric of a confusion matrix ("balanced_accuracy", "f1",
	// "mcc", ...) at the model's threshold (learn.ThresholdOf: 0.5 when it
	// has none). For three or more classes it is MacroBalancedAccuracy
	// ("" and "balanced_accuracy" mean it too); any other is an error.
	Metric string
	// Repeats is the number of shuffles per feature; 0 means 5.
	Repeats int
	// Decide is the decision of a model of three or more classes: it
	// turns class probabilities (row-major, NumClasses per row) into
	// classes, as decision.Layer.Predict does; nil means each row's most
	// probable class. A two-class model is decided at its threshold.
	Decide func(proba []float64, pred []int)
}

// Importance is one feature's permutation importance: the baseline metric
// minus the metric with the feature shuffled, per shuffle, with their mean
// and standard deviation (population, as scikit-learn's).
type Importance struct {
	Feature string    `json:"feature"`
	Mean    float64   `json:"mean"`
	Std     float64   `json:"std"`
	Drops   []float64 `json:"drops"`
}

// PermutationResult is the permutation importance of every feature, in
// feature order.
type PermutationResult struct {
	Metric    string  `json:"metric"`
	Threshold float64 `json:"threshold,omitempty"`
	Baseline  float64 `json:"baseline"`
	Repeats   int     `json:"repeats"`
	Seed      uint64  `json:"seed"`
	// Features are in the data's feature order.
	Features []Importance `json:"features"`
}

// Permutation returns the permutation importance of every feature of d
// (labelled 0..m.NumClasses()-1, NaN = missing) for model m: for each
// feature and shuffle, the metric of the model's predictions with that
// feature's column permuted across the rows, subtracted from the metric
// on the data as is (s.Metric: of a two-class model's scores, of the
// decision s.Decide of a model of more classes). Rows carry d's weights.
// Shuffles run on env's workers, each from stream j*Repeats+r of
// env.Seed, so the result is the same for any number of workers.
func Permutation(ctx context.Context, m learn.Model, d *learn.Data, s *PermutationSettings, env learn.Env) (*PermutationResult, error) {
	var st PermutationSettings
	if s != nil {
		st = *s
	}
	if st.Repeats == 0 {
		st.Repeats = 5
	}
	if st.Repeats < 0 {
		return nil, fmt.Errorf("explain: %d repeats", st.Repeats)
	}
	if err := d.CheckClasses("data", m.NumClasses()); err != nil {
		return nil, err
	}
	_, p := d.X.Dims()
	if p != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, p, m.NumFeatures())
	}
	mt, err := metricOf(&st, m, d)
	if err != nil {
		return nil, err
	}
	base, err := mt.baseline(ctx, d.X, env.Workers)
	if err != nil {
		return nil, err
	}
	res := &PermutationResult{Metric: mt.name, Threshold: mt.threshold, Baseline: mt.score(base), Repeats: st.Repeats, Seed: env.Seed,
		Features: make([]Importance, p)}
	if math.IsNaN(res.Baseline) {
		return nil, fmt.Errorf("%w: %s is undefined on the data%s", learn.ErrData, mt.name, mt.undefined)
	}
	if err := permute(ctx, d, mt.predict, mt.score, res, env); err != nil {
		return nil, err
	}
	return res, nil
}

// metric is what permutation importance measures of a model on labelled
// data: score of predict's output (one goroutine) or of baseline's (on
// workers, the same numbers).
type metric struct {
	name      string
	threshold float64
	predict   func(x *mat.Dense, dst []float64) ([]float64, error)
	baseline  func(ctx context.Context, x *mat.Dense, workers int) ([]float64, error)
	score     func([]float64) float64
	// undefined says, after the metric's name, why it can be undefined.
	undefined string
}

// metricOf returns the metric of s for m on d's labels: of a two-class
// model's scores (ROC-AUC, or a metric of the confusion matrix at its
// threshold), else the macro balanced accuracy of the decision s.Decide.
func metricOf(s *PermutationSettings, m learn.Model, d *learn.Data) (*metric, error) {
	if k := m.NumClasses(); k > 2 {
		return decisionMetric(s, m, d, k)
	}
	sc, ok := m.(learn.Scorer)
	if !ok {
		return nil, fmt.Errorf("explain: a two-class model without its positive class's score")
	}
	mt := &metric{name: ROCAUC, predict: sc.PositiveProba, undefined: " (it needs rows of both labels)",
		baseline: func(ctx context.Context, x *mat.Dense, workers int) ([]float64, error) {
			return learn.Predict(ctx, sc, x, workers)
		},
		score: func(s []float64) float64 { return metrics.ROCAUC(d.Y, s, d.W) }}
	if s.Metric == "" || s.Metric == ROCAUC {
		return mt, nil
	}
	cm, err := metrics.ParseMetric(s.Metric)
	if err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	th := learn.ThresholdOf(m)
	mt.name, mt.threshold = cm.String(), th
	mt.score = func(s []float64) float64 { return cm.Of(metrics.FromScores(d.Y, s, th, d.W)) }
	return mt, nil
}

// decisionMetric is metricOf for a model of k > 2 classes: the macro
// balanced accuracy of s.Decide (each row's most probable class when nil).
func decisionMetric(s *PermutationSettings, m learn.Model, d *learn.Data, k int) (*metric, error) {
	switch s.Metric {
	case "", MacroBalancedAccuracy, "balanced_accuracy":
	default:
		return nil, fmt.Errorf("explain: metric %s: a multi-class model's permutation importance is of the macro balanced accuracy", s.Metric)
	}
	decide := s.Decide
	if decide == nil {
		decide = func(proba []float64, pred []int) {
			for i := range pred {
				p := proba[i*k : (i+1)*k]
				pred[i] = slices.Index(p, slices.Max(p))
			}
		}
	}
	n := len(d.Y)
	return &metric{name: MacroBalancedAccuracy, predict: m.PredictProba,
		baseline: func(_ context.Context, x *mat.Dense, _ int) ([]float64, error) { return m.PredictProba(x, nil) },
		score: func(proba []float64) float64 {
			pred := make([]int, n)
			decide(proba, pred)
			r, err := metrics.EvaluateMulti(d.Y, pred, nil, k, d.W)
			if err != nil {
				return math.NaN()
			}
			return r.BalancedAccuracy
		}}, nil
}

// permute fills res.Features with the permutation importance of every
// feature of d: for each feature and shuffle, res.Baseline minus score of
// predict's output with that feature's column permuted across the rows
// (shuffle r of feature j from stream j*res.Repeats+r of env.Seed).
func permute(ctx context.Context, d *learn.Data, predict func(x *mat.Dense, dst []float64) ([]float64, error), score func([]float64) float64, res *PermutationResult, env learn.Env) error {
	n, p := d.X.Dims()
	st := PermutationSettings{Repeats: res.Repeats}
	drops := make([]float64, p*st.Repeats)
	newWorker := func() func(ctx context.Context, k int) error {
		x := mat.DenseCopyOf(d.X)
		col := make([]float64, n)
		perm := make([]int, n)
		var proba []float64
		return func(ctx context.Context, k int) error {
			j := k / st.Repeats
			mat.Col(col, j, d.X)
			r := rng.Derive(env.Seed, uint64(k))
			for i := range perm {
				perm[i] = i
			}
			r.Shuffle(n, func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
			for i, from := range perm {
				x.Set(i, j, col[from])
			}
			var err error
			proba, err = predict(x, proba)
			x.SetCol(j, col)
			if err != nil {
				return err
			}
			drops[k] = res.Baseline - score(proba)
			return nil
		}
	}
	if _, err := learn.ForEach(ctx, env.Workers, len(drops), newWorker, nil); err != nil {
		return err
	}
	for j := range p {
		v := drops[j*st.Repeats : (j+1)*st.Repeats]
		mean := 0.0
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		ss := 0.0
		for _, x := range v {
			ss += (x - mean) * (x - mean)
		}
		name := fmt.Sprintf("f%d", j+1)
		if j < len(d.Features) {
			name = d.Features[j]
		}
		res.Features[j] = Importance{Feature: name, Mean: mean, Std: math.Sqrt(ss / float64(len(v))), Drops: v}
	}
	return nil
}

// MeanAbs returns the mean absolute attribution of each feature over the
// rows of a: the global importance of SHAP values.
func MeanAbs(a *learn.Attribution) []float64 {
	r, c := a.Phi.Dims()
	out := make([]float64, c)
	for i := range r {
		for j, v := range a.Phi.RawRowView(i) {
			out[j] += math.Abs(v)
		}
	}
	for j := range out {
		out[j] /= float64(r)
	}
	return out
}
