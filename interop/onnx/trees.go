package onnx

import (
	"fmt"
	"math"
)

// Trees collects trees into the attributes of one ai.onnx.ml
// TreeEnsembleRegressor (opset 3), each tree adding its leaf values to
// targets of the ensemble's output. Node ids are the trees' own node
// indices. Thresholds and leaf values are written as double tensors
// (nodes_values_as_tensor, target_weights_as_tensor) and the input is
// double. Split thresholds and rules are those of the float32 input
// (package doc: Float32 input and tree thresholds).
type Trees struct {
	in *Features

	treeIDs, nodeIDs, featureIDs []int64
	trueIDs, falseIDs, missing   []int64
	modes                        []string
	values                       []float64

	targetTree, targetNode, targetID []int64
	weights                          []float64

	trees int64
}

// NewTrees returns an empty ensemble on in's features.
func NewTrees(in *Features) *Trees { return &Trees{in: in} }

// Nodes is one tree for Trees.Add, in the layout of aer's trees: node i
// is a leaf when Left[i] < 0, giving Values[i*K+c] to target first+c
// (c < K); else it splits on feature Feature[i], sending a row to
// Left[i] (the true branch) when its value is below Threshold[i] (at
// most it when LEQ), to Right[i] otherwise, and a missing value to the
// left when DefaultLeft[i]; behind imputation, a missing value goes
// where the imputed value goes.
type Nodes struct {
	Feature     []int32
	Threshold   []float64
	DefaultLeft []bool
	Left        []int32
	// Right is each split's right child; nil for the layout of boosted
	// trees, whose right child is Left[i]+1.
	Right []int32
	// LEQ: a row goes left when its value is at most the threshold
	// (CART's rule, BRANCH_LEQ), else when below it (boosted trees',
	// BRANCH_LT).
	LEQ    bool
	Values []float64
	// K is the number of values per leaf (0 counts as 1).
	K int
}

// Add adds the tree t, its leaves giving their values to targets first
// to first+K-1. A malformed tree (mismatched lengths, a child outside
// the tree or the node itself, a feature outside the input, a NaN
// threshold) gives an error naming the node.
func (e *Trees) Add(t Nodes, first int64) error {
	n, k := len(t.Feature), max(t.K, 1)
	if n == 0 || len(t.Threshold) != n || len(t.DefaultLeft) != n || len(t.Left) != n || (t.Right != nil && len(t.Right) != n) || len(t.Values) != n*k {
		return fmt.Errorf("malformed tree of %d nodes", n)
	}
	id := e.trees
	e.trees++
	for i := range n {
		l := t.Left[i]
		if l < 0 {
			e.leaf(id, int64(i), first, t.Values[i*k:(i+1)*k]...)
			continue
		}
		r := l + 1
		if t.Right != nil {
			r = t.Right[i]
		}
		if int(l) >= n || int(r) >= n || r < 0 || int(l) == i || int(r) == i {
			return fmt.Errorf("node %d has children %d and %d of %d nodes", i, l, r, n)
		}
		if err := e.split(id, int64(i), t.Feature[i], t.Threshold[i], t.LEQ, int64(l), int64(r), t.DefaultLeft[i]); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	return nil
}

// split adds a split node: a row goes left (the true branch) when its
// value is below thr, or at most thr when leq.
func (e *Trees) split(tree, node int64, feature int32, thr float64, leq bool, left, right int64, missingLeft bool) error {
	if feature < 0 || int(feature) >= e.in.nf {
		return fmt.Errorf("feature %d of %d", feature, e.in.nf)
	}
	if math.IsNaN(thr) {
		return fmt.Errorf("threshold is NaN")
	}
	if v := e.in.missing(int(feature)); !math.IsNaN(v) {
		// Behind imputation: a missing value goes where the imputed one
		// goes in aer.
		missingLeft = v < thr || (leq && v == thr)
	}
	t, bucketLeft := e.in.split(int(feature), thr, leq)
	mode := "BRANCH_LT"
	if bucketLeft {
		mode = "BRANCH_LEQ"
	}
	e.treeIDs = append(e.treeIDs, tree)
	e.nodeIDs = append(e.nodeIDs, node)
	e.featureIDs = append(e.featureIDs, int64(feature))
	e.modes = append(e.modes, mode)
	e.values = append(e.values, t)
	e.trueIDs = append(e.trueIDs, left)
	e.falseIDs = append(e.falseIDs, right)
	e.missing = append(e.missing, b2i(missingLeft))
	return nil
}

// leaf adds a leaf node giving vs[c] to target first+c.
func (e *Trees) leaf(tree, node, first int64, vs ...float64) {
	e.treeIDs = append(e.treeIDs, tree)
	e.nodeIDs = append(e.nodeIDs, node)
	e.featureIDs = append(e.featureIDs, 0)
	e.modes = append(e.modes, "LEAF")
	e.values = append(e.values, 0)
	e.trueIDs = append(e.trueIDs, 0)
	e.falseIDs = append(e.falseIDs, 0)
	e.missing = append(e.missing, 0)
	for c, v := range vs {
		e.targetTree = append(e.targetTree, tree)
		e.targetNode = append(e.targetNode, node)
		e.targetID = append(e.targetID, first+int64(c))
		e.weights = append(e.weights, v)
	}
}

// Emit adds the TreeEnsembleRegressor node on the input's features, NaN
// kept (double), and returns its output cast to double: [N, targets],
// each target the sum of its trees' leaf values (float32, the operator's
// output type). Without any tree, the sums are zeros.
func (e *Trees) Emit(b *Builder, targets int) Value {
	x := e.in.nanKept(b)
	if len(e.treeIDs) == 0 {
		n := b.Op("Slice", []Value{b.Op("Shape", []Value{x}), b.Int64s("start", []int64{1}, []int64{0}), b.Int64s("end", []int64{1}, []int64{1})})
		shape := b.Op("Concat", []Value{n, b.Int64s("targets", []int64{1}, []int64{int64(targets)})}, IntAttr("axis", 0))
		return b.Op("ConstantOfShape", []Value{shape}, Attr{name: "value", typ: attrTensor, t: &tensor{dims: []int64{1}, dtype: typeDouble, doubles: []float64{0}}})
	}
	return b.CastDouble(b.opML("TreeEnsembleRegressor", []Value{x},
		IntAttr("n_targets", int64(targets)),
		stringAttr("aggregate_function", "SUM"),
		stringAttr("post_transform", "NONE"),
		IntsAttr("nodes_treeids", e.treeIDs),
		IntsAttr("nodes_nodeids", e.nodeIDs),
		IntsAttr("nodes_featureids", e.featureIDs),
		stringsAttr("nodes_modes", e.modes),
		doublesAttr("nodes_values_as_tensor", e.values),
		IntsAttr("nodes_truenodeids", e.trueIDs),
		IntsAttr("nodes_falsenodeids", e.falseIDs),
		IntsAttr("nodes_missing_value_tracks_true", e.missing),
		IntsAttr("target_treeids", e.targetTree),
		IntsAttr("target_nodeids", e.targetNode),
		IntsAttr("target_ids", e.targetID),
		doublesAttr("target_weights_as_tensor", e.weights),
	))
}
