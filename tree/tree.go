package tree

import (
	"fmt"
	"math"
)

// Tree is a fitted classification tree in flat arrays indexed by node id,
// as scikit-learn's tree_: node 0 is the root, nodes are numbered depth
// first with the left child first, and a child's id is above its
// parent's.
type Tree struct {
	// NumFeatures is the number of input features.
	NumFeatures int
	// Feature is the feature a node splits on, -1 for a leaf.
	Feature []int32
	// Threshold: a row goes left when its value is <= Threshold.
	Threshold []float64
	// DefaultLeft tells where a row whose value is missing (NaN) goes:
	// to the child that held more training weight.
	DefaultLeft []bool
	// Left and Right are the children of a split node, -1 for a leaf.
	Left, Right []int32
	// Value is the weighted share of class 1 among the node's training
	// rows (row weights times class weights): the probability a leaf
	// predicts.
	Value []float64
	// Weight is the node's weighted number of training rows
	// (scikit-learn's weighted_n_node_samples).
	Weight []float64
	// Samples is the node's number of training rows, a row drawn k times
	// counting k (scikit-learn's n_node_samples).
	Samples []int32
	// Impurity is the node's gini or entropy (in bits).
	Impurity []float64
	// Classes is the number of classes of a multi-class tree (grown by a
	// multi-class Grower), 0 for a tree of labels 0 and 1.
	Classes int
	// Dist holds, for a multi-class tree, each node's weighted share of
	// every class, Classes per node (node i's at Dist[i*Classes:]): the
	// class probabilities a leaf predicts, scikit-learn's normalised
	// tree_.value. Value is then 0. Nil for a tree of labels 0 and 1.
	Dist []float64
}

// NumNodes returns the number of nodes.
func (t *Tree) NumNodes() int { return len(t.Feature) }

// NumLeaves returns the number of leaves.
func (t *Tree) NumLeaves() int {
	n := 0
	for _, f := range t.Feature {
		if f < 0 {
			n++
		}
	}
	return n
}

// Depth returns the length of the longest path from the root to a leaf.
func (t *Tree) Depth() int {
	if len(t.Feature) == 0 {
		return 0
	}
	// Children have larger ids than their parent, so one pass in id order
	// knows every parent's depth before its children's.
	depth := make([]int32, len(t.Feature))
	best := int32(0)
	for i, l := range t.Left {
		if l < 0 {
			best = max(best, depth[i])
			continue
		}
		depth[l], depth[t.Right[i]] = depth[i]+1, depth[i]+1
	}
	return int(best)
}

// Leaf returns the id of the leaf a row reaches.
func (t *Tree) Leaf(row []float64) int {
	i := int32(0)
	for t.Left[i] >= 0 {
		v, th := row[t.Feature[i]], t.Threshold[i]
		switch {
		case v <= th:
			i = t.Left[i]
		case v > th || !t.DefaultLeft[i]:
			i = t.Right[i]
		default: // missing, and missing goes left
			i = t.Left[i]
		}
	}
	return int(i)
}

// PredictRow returns the probability of class 1 for one row.
func (t *Tree) PredictRow(row []float64) float64 { return t.Value[t.Leaf(row)] }

// DistRow returns the class probabilities of a multi-class tree for one
// row: the class shares of the leaf it reaches (the tree's storage, not
// to be changed).
func (t *Tree) DistRow(row []float64) []float64 {
	l := t.Leaf(row)
	return t.Dist[l*t.Classes : (l+1)*t.Classes]
}

// Importance adds to imp (one entry per feature) the weighted impurity
// decrease of the tree's splits, scikit-learn's unnormalised
// feature_importances_: per split node w*I - w_l*I_l - w_r*I_r, divided by
// the root's weight.
func (t *Tree) Importance(imp []float64) {
	if len(t.Weight) == 0 || t.Weight[0] <= 0 {
		return
	}
	for i, f := range t.Feature {
		if f < 0 {
			continue
		}
		l, r := t.Left[i], t.Right[i]
		imp[f] += (t.Weight[i]*t.Impurity[i] - t.Weight[l]*t.Impurity[l] - t.Weight[r]*t.Impurity[r]) / t.Weight[0]
	}
}

// Normalize scales v to sum to 1 (leaves it when its sum is not
// positive), as scikit-learn normalises feature importances.
func Normalize(v []float64) {
	s := 0.0
	for _, x := range v {
		s += x
	}
	if s > 0 {
		for i := range v {
			v[i] /= s
		}
	}
}

// validate checks the structure of a decoded tree, so that prediction
// cannot index out of range or loop.
func (t *Tree) validate() error {
	n := len(t.Feature)
	if n == 0 {
		return fmt.Errorf("tree has no nodes")
	}
	if t.NumFeatures <= 0 {
		return fmt.Errorf("tree has %d features", t.NumFeatures)
	}
	if len(t.Threshold) != n || len(t.DefaultLeft) != n || len(t.Left) != n || len(t.Right) != n ||
		len(t.Value) != n || len(t.Weight) != n || len(t.Samples) != n || len(t.Impurity) != n {
		return fmt.Errorf("node arrays have different lengths")
	}
	if t.Classes != 0 || t.Dist != nil {
		if t.Classes < 2 || t.Classes > MaxClasses || len(t.Dist) != n*t.Classes {
			return fmt.Errorf("%d class shares for %d nodes of %d classes", len(t.Dist), n, t.Classes)
		}
		for i, v := range t.Dist {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("node %d: class share %v is not a probability", i/t.Classes, v)
			}
		}
	}
	for i := range n {
		if !(t.Value[i] >= 0 && t.Value[i] <= 1) {
			return fmt.Errorf("node %d: value %v is not a probability", i, t.Value[i])
		}
		if t.Feature[i] < 0 {
			if t.Left[i] != -1 || t.Right[i] != -1 {
				return fmt.Errorf("node %d: a leaf with children", i)
			}
			continue
		}
		// Children come after their parent, so walks end.
		if l, r := int(t.Left[i]), int(t.Right[i]); l <= i || r <= i || l >= n || r >= n {
			return fmt.Errorf("node %d: bad children %d, %d", i, l, r)
		}
		if int(t.Feature[i]) >= t.NumFeatures {
			return fmt.Errorf("node %d: feature %d out of range", i, t.Feature[i])
		}
		if math.IsNaN(t.Threshold[i]) {
			return fmt.Errorf("node %d: threshold is NaN", i)
		}
	}
	return nil
}
