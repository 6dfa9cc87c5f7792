package explain

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aer-go/aer/learn"
)

// ErrNoImportance is returned by Global for a model that offers neither
// feature attributions nor built-in importances, on data without labels
// for permutation importance.
var ErrNoImportance = errors.New("no feature attributions, no built-in importances and no labels for permutation importance")

// FeatureImportance is one feature's global importances; a field is nil
// when the model or the data does not give it.
type FeatureImportance struct {
	Feature string `json:"feature"`
	// MeanAbs is the mean absolute attribution (mean |SHAP|).
	MeanAbs *float64 `json:"mean_abs_attribution,omitempty"`
	// BuiltIn holds the model's own importances by kind (gbdt: gain,
	// total_gain, cover, weight; trees and forests: impurity).
	BuiltIn map[string]float64 `json:"builtin,omitempty"`
	// PermutationMean and PermutationStd are the permutation
	// importance's mean and standard deviation over the shuffles.
	PermutationMean *float64 `json:"permutation_mean,omitempty"`
	PermutationStd  *float64 `json:"permutation_std,omitempty"`
}

// GlobalImportance is a model's global feature importances on a data set.
type GlobalImportance struct {
	Rows int
	// Attribution is the space and method of the attributions whose mean
	// absolute values are FeatureImportance.MeanAbs (Phi and Base left
	// nil), or nil when the model gives none: NoAttribution says why.
	Attribution   *learn.Attribution
	NoAttribution error
	// BuiltInKinds are the kinds of the model's built-in importances, in
	// the model's order.
	BuiltInKinds []string
	// Permutation is the permutation importance (its Features cleared:
	// they are in Features), or nil when the data has no labels.
	Permutation *PermutationResult
	// Features are every feature's importances, largest first by the
	// last of mean |attribution|, the first built-in kind and the
	// permutation mean that the model and data give (stable: ties keep
	// the feature order).
	Features []FeatureImportance
}

// Global returns the global importances of model m on d. Of a
// two-class model: the mean absolute attribution when m offers
// attributions (learn.Attribute), its built-in importances
// (learn.ImportancesOf) and, when d has labels, the permutation importance
// of s (see Permutation); a model that gives none of them on d is an
// error wrapping ErrNoImportance. Of a model of three or more classes:
// the permutation importance of the macro balanced accuracy of its
// decision s.Decide, which needs labels (without, an error wrapping
// ErrNoImportance); no mean absolute attribution (NoAttribution says why)
// nor built-in importances.
func Global(ctx context.Context, m learn.Model, d *learn.Data, s *PermutationSettings, env learn.Env) (*GlobalImportance, error) {
	n, p := d.X.Dims()
	g := &GlobalImportance{Rows: n, Features: make([]FeatureImportance, p)}
	for j := range g.Features {
		g.Features[j].Feature = FeatureName(d.Features, j)
	}
	key, err := g.attributions(ctx, m, d, env)
	if err != nil {
		return nil, err
	}
	if d.Y != nil {
		res, err := Permutation(ctx, m, d, s, env)
		if err != nil {
			return nil, fmt.Errorf("permutation importance: %w", err)
		}
		for j, im := range res.Features {
			g.Features[j].PermutationMean, g.Features[j].PermutationStd = &im.Mean, &im.Std
		}
		res.Features = nil
		g.Permutation = res
		key = func(f *FeatureImportance) float64 { return *f.PermutationMean }
	}
	if key == nil {
		return nil, ErrNoImportance
	}
	slices.SortStableFunc(g.Features, func(a, b FeatureImportance) int { return cmp.Compare(key(&b), key(&a)) })
	return g, nil
}

// attributions fills g's mean absolute attributions and built-in
// importances of a two-class model m on d, and returns the one to sort
// by (nil when it has neither); a model of more classes gives neither
// (but needs labels).
func (g *GlobalImportance) attributions(ctx context.Context, m learn.Model, d *learn.Data, env learn.Env) (key func(f *FeatureImportance) float64, err error) {
	sc, ok := m.(learn.Scorer)
	if m.NumClasses() > 2 || !ok {
		if d.Y == nil {
			return nil, fmt.Errorf("%w: a multi-class model's global importance is its permutation importance, which needs labels", ErrNoImportance)
		}
		g.NoAttribution = errors.New("a multi-class model's attributions are per class and per row (aer explain without --global), not averaged")
		return nil, nil
	}
	_, p := d.X.Dims()
	attr, err := learn.Attribute(ctx, sc, d.X, env.Workers)
	switch {
	case err == nil:
		g.Attribution = &learn.Attribution{Space: attr.Space, Method: attr.Method}
		for j, v := range MeanAbs(attr) {
			g.Features[j].MeanAbs = &v
		}
		key = func(f *FeatureImportance) float64 { return *f.MeanAbs }
	case errors.Is(err, learn.ErrNoAttribution):
		g.NoAttribution = err
	default:
		return nil, err
	}
	for _, im := range learn.ImportancesOf(m) {
		if len(im.Values) != p {
			return nil, fmt.Errorf("explain: the model gave %d %s importances for %d features", len(im.Values), im.Kind, p)
		}
		g.BuiltInKinds = append(g.BuiltInKinds, im.Kind)
		for j, v := range im.Values {
			if g.Features[j].BuiltIn == nil {
				g.Features[j].BuiltIn = map[string]float64{}
			}
			g.Features[j].BuiltIn[im.Kind] = v
		}
	}
	if key == nil && len(g.BuiltInKinds) > 0 {
		k := g.BuiltInKinds[0]
		key = func(f *FeatureImportance) float64 { return f.BuiltIn[k] }
	}
	return key, nil
}
