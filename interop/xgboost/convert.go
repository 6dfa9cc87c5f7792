package xgboost

import (
	"fmt"
	"math"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/interop/internal/treeimport"
)

// Threshold returns the float64 threshold t that decides as XGBoost's
// float32 split condition c does: for every float64 v that is not NaN,
// v < t exactly when float32(v) < c (XGBoost rounds each feature value to
// float32, to nearest with ties to even, before it compares). t is the
// midpoint between c and the float32 just below it, or the float64 just
// above that midpoint when the midpoint rounds down (the float32 below c
// has the even mantissa); the midpoint of two float32s is a float64
// exactly. So a boosted tree of package boost, which compares float64
// values with v < t, sends every row where XGBoost does.
func Threshold(c float32) float64 {
	if math.IsNaN(float64(c)) || math.IsInf(float64(c), -1) {
		// NaN: no value is below it; -Inf: none either.
		return float64(c)
	}
	const maxUlp = 0x1p104 // the spacing of float32s at the top of their range
	hi := float64(c)
	if math.IsInf(hi, 1) {
		// Values round to +Inf from MaxFloat32 + maxUlp/2 up: as if
		// +Inf were the float32 after MaxFloat32, 2^128, whose
		// mantissa is even.
		hi = math.MaxFloat32 + maxUlp
	}
	below := math.Nextafter32(c, float32(math.Inf(-1)))
	lo := float64(below)
	if math.IsInf(lo, -1) {
		lo = -math.MaxFloat32 - maxUlp
	}
	mid := lo + (hi-lo)/2
	// At the midpoint itself, rounding goes to the even mantissa: to c
	// (not below it, so the midpoint goes right) unless c is odd.
	if math.IsInf(float64(c), 1) || math.Float32bits(c)&1 == 0 {
		return mid
	}
	return math.Nextafter(mid, math.Inf(1))
}

// Boost converts the model into a boosted-tree model of package boost,
// which predicts the same margins (within float rounding: XGBoost sums
// leaves in float32, boost in float64), explains them by the same
// TreeSHAP, and saves as an ordinary aer model file. Nodes are renumbered
// breadth-first (boost keeps a node's children side by side, after it);
// numeric split conditions become Threshold's float64 thresholds, and
// categorical splits keep their category sets. A split node's value is
// the cover-weighted mean of its leaves.
func (m *Model) Boost() (*boost.Model, error) {
	if m.Multi() {
		return nil, fmt.Errorf("%w: %s model of %d classes: a multi-class model (BoostMulti)", ErrUnsupported, m.Objective, m.NumClass)
	}
	if m.NumFeature <= 0 {
		return nil, fmt.Errorf("%w: %d features", ErrFormat, m.NumFeature)
	}
	if b := m.BaseMargin(); math.IsNaN(b) || math.IsInf(b, 0) {
		return nil, fmt.Errorf("%w: base margin %v (base score %v)", ErrFormat, b, m.BaseScore)
	}
	for ti := range m.Trees {
		if err := m.Trees[ti].check(m.NumFeature); err != nil {
			return nil, fmt.Errorf("%w: tree %d: %w", ErrFormat, ti, err)
		}
	}
	out := &boost.Model{
		// What a saved model says of its training: the loss and the
		// number of trees (XGBoost's model file keeps no other setting).
		Settings: boost.Settings{Objective: boost.Logistic, NEstimators: len(m.Trees),
			BaseScore: 1 / (1 + math.Exp(-m.BaseMargin()))},
		NumFeatures: m.NumFeature,
		BaseMargin:  m.BaseMargin(),
		Trees:       make([]boost.Tree, len(m.Trees)),
	}
	for ti := range m.Trees {
		t, err := m.Trees[ti].convert(ti)
		if err != nil {
			return nil, err
		}
		out.Trees[ti] = *t
	}
	return out, nil
}

// BoostMulti converts a multi-class model (SoftProb or SoftMax) into a
// multi-class boosted-tree model of package boost, whose class margins
// are XGBoost's (within float rounding, as Boost's) and whose class
// probabilities are their softmax, XGBoost's for multi:softprob and
// XGBClassifier.predict_proba's for multi:softmax. Each tree goes to the
// class tree_info gives it, in order (several a round with
// num_parallel_tree); each class starts from its base margin
// (ClassBaseMargins). Trees convert as Boost converts them.
func (m *Model) BoostMulti() (*boost.MultiModel, error) {
	if !m.Multi() {
		return nil, fmt.Errorf("%w: %s is a binary objective (Boost)", ErrUnsupported, m.Objective)
	}
	if m.NumFeature <= 0 {
		return nil, fmt.Errorf("%w: %d features", ErrFormat, m.NumFeature)
	}
	if len(m.Class) != len(m.Trees) {
		return nil, fmt.Errorf("%w: the classes of %d trees for %d trees", ErrFormat, len(m.Class), len(m.Trees))
	}
	trees := make([]boost.Tree, len(m.Trees))
	for ti := range m.Trees {
		if err := m.Trees[ti].check(m.NumFeature); err != nil {
			return nil, fmt.Errorf("%w: tree %d: %w", ErrFormat, ti, err)
		}
		t, err := m.Trees[ti].convert(ti)
		if err != nil {
			return nil, err
		}
		trees[ti] = *t
	}
	rounds, err := boost.GroupRounds(trees, m.Class, m.NumClass)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	s := boost.Settings{Objective: boost.Softmax, NEstimators: len(rounds), BaseScore: float64(m.BaseScore)}
	mm, err := boost.NewMultiModel(s, m.NumFeature, m.ClassBaseMargins(), rounds)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return mm, nil
}

// convert converts tree ti (boost), and refuses it when a value of the
// result is not finite, naming the tree's field: a model file aer writes
// holds finite numbers only.
func (t *Tree) convert(ti int) (*boost.Tree, error) {
	b, order := t.boost()
	k, field, v, ok := treeimport.Finite(b)
	if ok {
		return b, nil
	}
	i := order[k]
	switch {
	case field == "threshold":
		return nil, fmt.Errorf("%w: tree %d: node %d: split_conditions %v: a numeric split at %v sends every value right", ErrUnsupported, ti, i, t.Condition[i], t.Condition[i])
	case field == "value" && t.Left[i] < 0:
		return nil, fmt.Errorf("%w: tree %d: node %d: the leaf's value (split_conditions %v, times the tree's weight %v) is %v", ErrUnsupported, ti, i, t.Condition[i], t.Weight, v)
	case field == "value":
		return nil, fmt.Errorf("%w: tree %d: node %d: the cover-weighted mean of its leaves' values (split_conditions, sum_hessian) is %v", ErrUnsupported, ti, i, v)
	}
	name := map[string]string{"cover": "sum_hessian", "gain": "loss_changes"}[field]
	return nil, fmt.Errorf("%w: tree %d: node %d: %s %v", ErrUnsupported, ti, i, name, v)
}

// boost converts one tree; order[k] is the XGBoost id of node k of the
// result.
func (t *Tree) boost() (b *boost.Tree, order []int32) {
	// order[k] is the XGBoost id of boost's node k.
	order = []int32{0}
	for k := 0; k < len(order); k++ {
		if i := order[k]; t.Left[i] >= 0 {
			order = append(order, t.Left[i], t.Right[i])
		}
	}
	n := len(order)
	b = &boost.Tree{
		Feature: make([]int32, n), Threshold: make([]float64, n), DefaultLeft: make([]bool, n),
		Left: make([]int32, n), Value: make([]float64, n), Gain: make([]float64, n), Cover: make([]float64, n),
	}
	if t.Categories != nil {
		b.Categories = make([][]int32, n)
	}
	next := int32(1)
	for k, i := range order {
		b.Cover[k] = float64(t.Cover[i])
		if t.Left[i] < 0 {
			b.Feature[k], b.Left[k] = -1, -1
			b.Value[k] = float64(t.Condition[i])
			if t.Weight != 1 {
				b.Value[k] *= float64(t.Weight)
			}
			continue
		}
		b.Feature[k], b.Left[k] = t.Feature[i], next
		next += 2
		b.DefaultLeft[k], b.Gain[k] = t.DefaultLeft[i], float64(t.Gain[i])
		if t.Categories != nil && t.Categories[i] != nil {
			b.Categories[k] = t.Categories[i]
		} else {
			b.Threshold[k] = Threshold(t.Condition[i])
		}
	}
	// Split values, children first: the cover-weighted mean of the two.
	treeimport.SplitValues(b)
	return b, order
}
