package explain

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// ROCAUC is the default metric of permutation importance.
const ROCAUC = "roc_auc"

// PermutationSettings configure Permutation. The zero value is the
// default: ROC-AUC, 5 shuffles per feature.
type PermutationSettings struct {
	// Metric is ROCAUC ("" means ROCAUC) or the name of a metric of a
	// confusion matrix ("balanced_accuracy", "f1", "mcc", ...) at the
	// model's threshold (learn.ThresholdOf: 0.5 when it has none).
	Metric string
	// Repeats is the number of shuffles per feature; 0 means 5.
	Repeats int
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
// (labelled, NaN = missing) for model m: for each feature and shuffle, the
// metric of the model's scores with that feature's column permuted across
// the rows, subtracted from the metric on the data as is. Rows carry d's
// weights. Shuffles run on env's workers, each from stream j*Repeats+r of
// env.Seed, so the result is the same for any number of workers.
func Permutation(ctx context.Context, m learn.Scorer, d *learn.Data, s *PermutationSettings, env learn.Env) (*PermutationResult, error) {
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
	if err := d.Check("data"); err != nil {
		return nil, err
	}
	_, p := d.X.Dims()
	if p != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, p, m.NumFeatures())
	}
	score, name, threshold, err := scorer(st.Metric, m, d)
	if err != nil {
		return nil, err
	}
	base, err := learn.Predict(ctx, m, d.X, env.Workers)
	if err != nil {
		return nil, err
	}
	res := &PermutationResult{Metric: name, Threshold: threshold, Baseline: score(base), Repeats: st.Repeats, Seed: env.Seed,
		Features: make([]Importance, p)}
	if math.IsNaN(res.Baseline) {
		return nil, fmt.Errorf("%w: %s is undefined on the data (it needs rows of both labels)", learn.ErrData, name)
	}
	if err := permute(ctx, d, m.PositiveProba, score, res, env); err != nil {
		return nil, err
	}
	return res, nil
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

// scorer returns the metric of scores on d's labels, its name and the
// threshold it uses.
func scorer(metric string, m learn.Scorer, d *learn.Data) (func([]float64) float64, string, float64, error) {
	if metric == "" || metric == ROCAUC {
		return func(s []float64) float64 { return metrics.ROCAUC(d.Y, s, d.W) }, ROCAUC, 0, nil
	}
	mt, err := metrics.ParseMetric(metric)
	if err != nil {
		return nil, "", 0, fmt.Errorf("explain: %w", err)
	}
	th := learn.ThresholdOf(m)
	return func(s []float64) float64 { return mt.Of(metrics.FromScores(d.Y, s, th, d.W)) }, mt.String(), th, nil
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
