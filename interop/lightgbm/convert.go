package lightgbm

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/internal/catsplit"
	"github.com/aer-go/aer/internal/quote"
	"github.com/aer-go/aer/interop/internal/treeimport"
)

// Threshold returns the float64 threshold u of boost's rule (x < u goes
// left) that decides as LightGBM's numeric split at threshold t does: for
// every float64 x that is not NaN, x < u exactly when LightGBM sends x
// left, which it does when x <= t, after its predictor has read every x
// within catsplit.ZeroThreshold (1e-35f) of 0 as 0. Away from zero, u is
// the float64 just above t. For t in [-1e-35f, 0) the values read as 0
// go right and u is -1e-35f; for t in [0, 1e-35f] they go left and u is
// the float64 just above 1e-35f. t must be finite.
func Threshold(t float64) float64 {
	z := catsplit.ZeroThreshold
	switch {
	case t >= -z && t < 0:
		return -z
	case t >= 0 && t <= z:
		return math.Nextafter(z, math.Inf(1))
	}
	return math.Nextafter(t, math.Inf(1))
}

// Scale returns the factor that turns the sum of the trees' leaves into
// the margin aer scores with sigmoid(margin): the objective's sigmoid
// parameter, divided by the number of trees under average_output. For
// the multiclass objective, it turns the sum of a class's trees into the
// class's raw score: 1, or 1 over the number of iterations under
// average_output.
func (m *Model) Scale() float64 {
	if m.NumClass > 1 {
		if m.AverageOutput && len(m.Trees) >= m.NumClass {
			return 1 / float64(len(m.Trees)/m.NumClass)
		}
		return 1
	}
	s := m.Sigmoid
	if m.AverageOutput && len(m.Trees) > 0 {
		s /= float64(len(m.Trees))
	}
	return s
}

// Boost converts the model into a boosted-tree model of package boost,
// which predicts the same margins (times Scale: within float rounding of
// LightGBM's raw score times the sigmoid parameter, divided by the trees
// under average_output), explains them by the same TreeSHAP, and saves as
// an ordinary aer model file. Nodes are renumbered breadth-first (boost
// keeps a node's children side by side, after it); numeric thresholds
// become Threshold's, each split's missing type a default direction (and
// a ZeroMissing flag where needed), and categorical splits keep their
// bitsets' codes, children swapped. Covers are the training row counts.
func (m *Model) Boost() (*boost.Model, error) {
	if m.NumClass > 1 {
		return nil, fmt.Errorf("%w: objective %s of %d classes: a multi-class model (BoostMulti)", ErrUnsupported, quote.Name(m.Objective), m.NumClass)
	}
	if m.NumFeature <= 0 {
		return nil, fmt.Errorf("%w: %d features", ErrFormat, m.NumFeature)
	}
	scale := m.Scale()
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("%w: the margin's scale is %v (sigmoid %v)", ErrFormat, scale, m.Sigmoid)
	}
	out := &boost.Model{
		// What a saved model says of its training: the loss and the
		// number of trees.
		Settings:    boost.Settings{Objective: boost.Logistic, NEstimators: len(m.Trees), BaseScore: 0.5},
		NumFeatures: m.NumFeature,
		Trees:       make([]boost.Tree, len(m.Trees)),
	}
	var codes treeimport.Codes
	for ti := range m.Trees {
		t, err := m.Trees[ti].convert(ti, scale, m.NumFeature, &codes)
		if err != nil {
			return nil, err
		}
		out.Trees[ti] = *t
	}
	return out, nil
}

// BoostMulti converts a model of the multiclass objective into a
// multi-class boosted-tree model of package boost, whose class margins
// are LightGBM's raw scores (within float rounding) and whose class
// probabilities are their softmax, LightGBM's predict. Tree i goes to
// class i % NumClass (LightGBM's order: an iteration's trees, class by
// class); trees convert as Boost converts them, with leaves scaled by
// Scale, and the base margins are 0 (LightGBM's first trees hold its
// initial scores).
func (m *Model) BoostMulti() (*boost.MultiModel, error) {
	if m.NumClass < 2 {
		return nil, fmt.Errorf("%w: objective %s is binary (Boost)", ErrUnsupported, quote.Name(m.Objective))
	}
	if m.NumFeature <= 0 {
		return nil, fmt.Errorf("%w: %d features", ErrFormat, m.NumFeature)
	}
	if len(m.Trees)%m.NumClass != 0 {
		return nil, fmt.Errorf("%w: %d trees for %d classes: not a whole number of iterations", ErrFormat, len(m.Trees), m.NumClass)
	}
	scale := m.Scale()
	trees := make([]boost.Tree, len(m.Trees))
	class := make([]int, len(m.Trees))
	var codes treeimport.Codes
	for ti := range m.Trees {
		t, err := m.Trees[ti].convert(ti, scale, m.NumFeature, &codes)
		if err != nil {
			return nil, err
		}
		trees[ti], class[ti] = *t, ti%m.NumClass
	}
	rounds, err := boost.GroupRounds(trees, class, m.NumClass)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	s := boost.Settings{Objective: boost.Softmax, NEstimators: len(rounds)}
	mm, err := boost.NewMultiModel(s, m.NumFeature, make([]float64, m.NumClass), rounds)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return mm, nil
}

// convert converts tree ti (boost), and refuses it when a value of the
// result is not finite, naming the tree's field: a model file aer writes
// holds finite numbers only.
func (t *Tree) convert(ti int, scale float64, nf int, codes *treeimport.Codes) (*boost.Tree, error) {
	b, order, err := t.boost(scale, nf, codes)
	if errors.Is(err, treeimport.ErrLimit) {
		return nil, fmt.Errorf("%w: tree %d: %w", ErrUnsupported, ti, err)
	} else if err != nil {
		return nil, fmt.Errorf("%w: tree %d: %w", ErrFormat, ti, err)
	}
	k, field, v, ok := treeimport.Finite(b)
	if ok {
		return b, nil
	}
	i := order[k]
	switch {
	case i < 0 && field == "value":
		return nil, fmt.Errorf("%w: tree %d: leaf %d: leaf_value %v times the margin's scale %v is %v", ErrUnsupported, ti, ^i, t.LeafValue[^i], scale, v)
	case field == "threshold":
		return nil, fmt.Errorf("%w: tree %d: split %d: threshold %v: no float64 lies above it (aer's splits send x left when x < u)", ErrUnsupported, ti, i, t.Threshold[i])
	case field == "value":
		return nil, fmt.Errorf("%w: tree %d: split %d: the count-weighted mean of its leaves' values (leaf_value, internal_count) is %v", ErrUnsupported, ti, i, v)
	}
	return nil, fmt.Errorf("%w: tree %d: node %d: %s %v", ErrUnsupported, ti, i, field, v)
}

// boost converts one tree, its leaves scaled by scale; order[k] is the
// LightGBM node of boost's node k (c >= 0 split node c, c < 0 leaf ^c).
// Its categorical splits' codes count in codes.
func (t *Tree) boost(scale float64, nf int, codes *treeimport.Codes) (b *boost.Tree, order []int32, err error) {
	if err := t.shape(nf); err != nil {
		return nil, nil, err
	}
	order = []int32{0}
	if t.NumLeaves == 1 {
		order[0] = ^0
	}
	seen := make([]bool, 2*t.NumLeaves) // split c at c, leaf j at NumLeaves+j
	for k := 0; k < len(order); k++ {
		if i := order[k]; i >= 0 {
			l, r := t.Left[i], t.Right[i]
			for _, c := range []int32{l, r} {
				at := int(c)
				if c < 0 {
					at = t.NumLeaves + int(^c)
				}
				if seen[at] {
					return nil, nil, fmt.Errorf("split %d: child %d is reached twice", i, c)
				}
				seen[at] = true
			}
			if t.DecisionType[i]&categoricalMask != 0 {
				// The bitset's codes go left in LightGBM, right in boost.
				l, r = r, l
			}
			order = append(order, l, r)
		}
	}
	n := len(order)
	b = &boost.Tree{
		Feature: make([]int32, n), Threshold: make([]float64, n), DefaultLeft: make([]bool, n),
		Left: make([]int32, n), Value: make([]float64, n), Gain: make([]float64, n), Cover: make([]float64, n),
	}
	next := int32(1)
	for k, i := range order {
		if i < 0 {
			b.Feature[k], b.Left[k] = -1, -1
			b.Value[k] = t.LeafValue[^i] * scale
			b.Cover[k] = t.LeafCount[^i]
			continue
		}
		b.Feature[k], b.Left[k] = t.SplitFeature[i], next
		next += 2
		b.Gain[k], b.Cover[k] = t.SplitGain[i], t.InternalCount[i]
		d := t.DecisionType[i]
		if d&categoricalMask != 0 {
			if b.Categories == nil {
				b.Categories = make([][]int32, n)
				b.CategoryRule = catsplit.LightGBM
			}
			c := int(t.Threshold[i])
			if err := codes.Add(popCount(t.CatThreshold[t.CatBoundaries[c]:t.CatBoundaries[c+1]])); err != nil {
				return nil, nil, fmt.Errorf("split %d: bitset %d: %w", i, c, err)
			}
			b.Categories[k] = t.codes(c)
			// NaN goes right in LightGBM: outside the set, boost's left.
			b.DefaultLeft[k] = true
			continue
		}
		u := Threshold(t.Threshold[i])
		b.Threshold[k] = u
		switch d >> 2 {
		case MissingNone:
			// NaN is read as 0, which goes where the threshold sends it.
			b.DefaultLeft[k] = 0 < u
		case MissingNaN:
			b.DefaultLeft[k] = d&defaultLeftMask != 0
		case MissingZero:
			dl := d&defaultLeftMask != 0
			b.DefaultLeft[k] = dl
			z := catsplit.ZeroThreshold
			// Values within z of 0 go the default way: the threshold
			// says so alone when it sends them all there.
			if !(dl && z < u) && !(!dl && u <= -z) {
				if b.ZeroMissing == nil {
					b.ZeroMissing = make([]bool, n)
				}
				b.ZeroMissing[k] = true
			}
		}
	}
	// Split values, children first: the count-weighted mean of the two.
	treeimport.SplitValues(b)
	return b, order, nil
}

// shape checks that the tree's arrays agree with NumLeaves, so that a
// Tree built by hand converts or fails, never panics (Decode's trees
// always pass).
func (t *Tree) shape(nf int) error {
	n := t.NumLeaves
	if n < 1 || len(t.LeafValue) != n || len(t.LeafCount) != n {
		return fmt.Errorf("%d leaves, %d leaf values, %d leaf counts", n, len(t.LeafValue), len(t.LeafCount))
	}
	s := n - 1
	for _, l := range []int{len(t.SplitFeature), len(t.SplitGain), len(t.Threshold), len(t.DecisionType),
		len(t.Left), len(t.Right), len(t.InternalCount)} {
		if l != s {
			return fmt.Errorf("split arrays of %d values for %d leaves", l, n)
		}
	}
	for i := range s {
		if t.SplitFeature[i] < 0 || int(t.SplitFeature[i]) >= nf {
			return fmt.Errorf("split %d: feature %d out of range", i, t.SplitFeature[i])
		}
		for _, c := range []int32{t.Left[i], t.Right[i]} {
			if c >= int32(s) || c < -int32(n) || c == 0 {
				return fmt.Errorf("split %d: child %d out of range", i, c)
			}
		}
		if t.DecisionType[i]&categoricalMask != 0 {
			c := t.Threshold[i]
			if !(c >= 0 && c < float64(len(t.CatBoundaries)-1)) || c != math.Trunc(c) {
				return fmt.Errorf("split %d: bitset %v out of range", i, c)
			}
			lo, hi := t.CatBoundaries[int(c)], t.CatBoundaries[int(c)+1]
			if lo < 0 || hi <= lo || int(hi) > len(t.CatThreshold) {
				return fmt.Errorf("split %d: bitset %v spans [%d, %d) of %d words", i, c, lo, hi, len(t.CatThreshold))
			}
			if hi-lo > 1<<26 {
				// Codes beyond 2^31 are no int: LightGBM never reads them.
				return fmt.Errorf("split %d: bitset %v has %d words, more than the 2^26 that hold every int code", i, c, hi-lo)
			}
			empty := true
			for _, w := range t.CatThreshold[lo:hi] {
				empty = empty && w == 0
			}
			if empty {
				return fmt.Errorf("split %d: bitset %v is empty", i, c)
			}
		} else if math.IsNaN(t.Threshold[i]) || math.IsInf(t.Threshold[i], 0) {
			return fmt.Errorf("split %d: threshold %v", i, t.Threshold[i])
		}
	}
	return nil
}

// codes returns the codes of bitset c, ascending.
func (t *Tree) codes(c int) []int32 {
	words := t.CatThreshold[t.CatBoundaries[c]:t.CatBoundaries[c+1]]
	n := 0
	for _, w := range words {
		n += bits.OnesCount32(w)
	}
	out := make([]int32, 0, n)
	for wi, w := range words {
		for w != 0 {
			j := bits.TrailingZeros32(w)
			out = append(out, int32(32*wi+j))
			w &= w - 1
		}
	}
	return out
}
