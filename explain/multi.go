package explain

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// MacroBalancedAccuracy is the metric of PermutationMulti: the mean
// recall over the classes, of the model's decision.
const MacroBalancedAccuracy = "macro_balanced_accuracy"

// PermutationMulti is Permutation for a multi-class model m whose
// decision decide turns class probabilities (row-major, m.Classes() per
// row) into classes: the metric is the macro balanced accuracy of the
// decision (s.Metric "", MacroBalancedAccuracy or "balanced_accuracy";
// any other is an error), on d's labels 0..m.Classes()-1 and weights.
// Shuffles are drawn as Permutation draws them.
func PermutationMulti(ctx context.Context, m learn.Model, decide func(proba []float64, pred []int), d *learn.Data, s *PermutationSettings, env learn.Env) (*PermutationResult, error) {
	var st PermutationSettings
	if s != nil {
		st = *s
	}
	switch st.Metric {
	case "", MacroBalancedAccuracy, "balanced_accuracy":
	default:
		return nil, fmt.Errorf("explain: metric %s: a multi-class model's permutation importance is of the macro balanced accuracy", st.Metric)
	}
	if st.Repeats == 0 {
		st.Repeats = 5
	}
	if st.Repeats < 0 {
		return nil, fmt.Errorf("explain: %d repeats", st.Repeats)
	}
	n, p := d.X.Dims()
	k := m.NumClasses()
	switch {
	case n == 0:
		return nil, fmt.Errorf("%w: data has no rows", learn.ErrData)
	case p != m.NumFeatures():
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, p, m.NumFeatures())
	case len(d.Y) != n || (d.W != nil && len(d.W) != n):
		return nil, fmt.Errorf("%w: data has %d rows, %d labels and %d weights", learn.ErrData, n, len(d.Y), len(d.W))
	}
	for i, y := range d.Y {
		if y < 0 || y >= k {
			return nil, fmt.Errorf("%w: row %d: label %d is not a class of 0..%d", learn.ErrData, i+1, y, k-1)
		}
	}
	score := func(proba []float64) float64 {
		pred := make([]int, n)
		decide(proba, pred)
		r, err := metrics.EvaluateMulti(d.Y, pred, nil, k, d.W)
		if err != nil {
			return math.NaN()
		}
		return r.BalancedAccuracy
	}
	base, err := m.PredictProba(d.X, nil)
	if err != nil {
		return nil, err
	}
	res := &PermutationResult{Metric: MacroBalancedAccuracy, Baseline: score(base), Repeats: st.Repeats, Seed: env.Seed,
		Features: make([]Importance, p)}
	if math.IsNaN(res.Baseline) {
		return nil, fmt.Errorf("%w: %s is undefined on the data", learn.ErrData, MacroBalancedAccuracy)
	}
	if err := permute(ctx, d, m.PredictProba, score, res, env); err != nil {
		return nil, err
	}
	return res, nil
}

// GlobalMulti is Global for a multi-class model: the permutation
// importance of the macro balanced accuracy of its decision
// (PermutationMulti), which needs labels, largest first. It gives no
// mean absolute attribution (NoAttribution says so) nor built-in
// importances.
func GlobalMulti(ctx context.Context, m learn.Model, decide func(proba []float64, pred []int), d *learn.Data, s *PermutationSettings, env learn.Env) (*GlobalImportance, error) {
	if d.Y == nil {
		return nil, fmt.Errorf("%w: a multi-class model's global importance is its permutation importance, which needs labels", ErrNoImportance)
	}
	res, err := PermutationMulti(ctx, m, decide, d, s, env)
	if err != nil {
		return nil, fmt.Errorf("permutation importance: %w", err)
	}
	n, p := d.X.Dims()
	g := &GlobalImportance{Rows: n, Features: make([]FeatureImportance, p),
		NoAttribution: errors.New("a multi-class model's attributions are per class and per row (aer explain without --global), not averaged")}
	for j, im := range res.Features {
		g.Features[j] = FeatureImportance{Feature: im.Feature, PermutationMean: &im.Mean, PermutationStd: &im.Std}
	}
	res.Features = nil
	g.Permutation = res
	slices.SortStableFunc(g.Features, func(a, b FeatureImportance) int { return cmp.Compare(*b.PermutationMean, *a.PermutationMean) })
	return g, nil
}
