package onnx

import (
	"fmt"
	"math"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/tree"
)

// treeSet collects trees into the attributes of one ai.onnx.ml
// TreeEnsembleRegressor (opset 3), each tree adding its leaf values to
// one target. Node ids are the trees' own node indices. Thresholds and
// leaf values are written as double tensors (nodes_values_as_tensor,
// target_weights_as_tensor) and the input is double.
type treeSet struct {
	in *input

	treeIDs, nodeIDs, featureIDs []int64
	trueIDs, falseIDs, missing   []int64
	modes                        []string
	values                       []float64

	targetTree, targetNode, targetID []int64
	weights                          []float64

	trees int64
}

// addBoost adds a boosted tree: a row goes to the left child (the true
// branch) when its value is below the threshold (BRANCH_LT), a missing
// value where DefaultLeft says (nodes_missing_value_tracks_true), as
// boost.Tree.Leaf decides; behind imputation, where the imputed value
// goes. Thresholds and rules are those of input.split.
func (e *treeSet) addBoost(t *boost.Tree, target int64) error {
	n := len(t.Feature)
	if n == 0 || len(t.Threshold) != n || len(t.DefaultLeft) != n || len(t.Left) != n || len(t.Value) != n {
		return fmt.Errorf("malformed tree of %d nodes", n)
	}
	if t.Categories != nil {
		for i, cats := range t.Categories {
			if cats != nil {
				return fmt.Errorf("node %d is a categorical partition split (an imported XGBoost model's): %w", i, ErrUnsupported)
			}
		}
	}
	for i, z := range t.ZeroMissing {
		if z {
			return fmt.Errorf("node %d treats a zero as missing (a LightGBM import's zero_as_missing split): %w", i, ErrUnsupported)
		}
	}
	id := e.trees
	e.trees++
	for i := range n {
		l := t.Left[i]
		if l < 0 {
			e.leaf(id, int64(i), target, t.Value[i])
			continue
		}
		if int(l)+1 >= n || l == int32(i) || l+1 == int32(i) {
			return fmt.Errorf("node %d has children %d and %d of %d nodes", i, l, l+1, n)
		}
		if err := e.split(id, int64(i), t.Feature[i], t.Threshold[i], false, int64(l), int64(l)+1, t.DefaultLeft[i]); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	return nil
}

// addCART adds a CART tree whose leaves give their Value: a row goes left
// (the true branch) when its value is at most the threshold
// (BRANCH_LEQ), a missing value where DefaultLeft says, as
// tree.Tree.Leaf decides.
func (e *treeSet) addCART(t *tree.Tree, target int64) error {
	if t.Classes != 0 || t.Dist != nil {
		// Its leaves hold class shares (Dist), not one value.
		return fmt.Errorf("a multi-class tree of %d classes: %w", t.Classes, ErrUnsupported)
	}
	return e.addCARTValues(t, t.Value, target)
}

// addCARTValues adds a CART tree whose leaf i gives values[i].
func (e *treeSet) addCARTValues(t *tree.Tree, values []float64, target int64) error {
	return e.addCARTTargets(t, values, 1, target)
}

// addCARTDist adds a multi-class CART tree whose leaf gives its class
// shares, class c's to target c (tree.Tree.DistRow).
func (e *treeSet) addCARTDist(t *tree.Tree) error {
	if t.Classes < 2 || len(t.Dist) != t.Classes*len(t.Feature) {
		return fmt.Errorf("not a multi-class tree: %d classes, %d class shares for %d nodes", t.Classes, len(t.Dist), len(t.Feature))
	}
	return e.addCARTTargets(t, t.Dist, t.Classes, 0)
}

// addCARTTargets adds a CART tree whose leaf i gives values[i*k+c] to
// target first+c, for c < k.
func (e *treeSet) addCARTTargets(t *tree.Tree, values []float64, k int, first int64) error {
	n := len(t.Feature)
	if n == 0 || len(t.Threshold) != n || len(t.DefaultLeft) != n || len(t.Left) != n || len(t.Right) != n || len(values) != n*k {
		return fmt.Errorf("malformed tree of %d nodes", n)
	}
	id := e.trees
	e.trees++
	for i := range n {
		l, r := t.Left[i], t.Right[i]
		if l < 0 {
			e.leaf(id, int64(i), first, values[i*k:(i+1)*k]...)
			continue
		}
		if int(l) >= n || int(r) >= n || l < 0 || r < 0 {
			return fmt.Errorf("node %d has children %d and %d of %d nodes", i, l, r, n)
		}
		if err := e.split(id, int64(i), t.Feature[i], t.Threshold[i], true, int64(l), int64(r), t.DefaultLeft[i]); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	return nil
}

// split adds a split node: a row goes left (the true branch) when its
// value is below thr, or at most thr when leq.
func (e *treeSet) split(tree, node int64, feature int32, thr float64, leq bool, left, right int64, missingLeft bool) error {
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
func (e *treeSet) leaf(tree, node, first int64, vs ...float64) {
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

// emit adds the TreeEnsembleRegressor node on the input's features, NaN
// kept (double), and returns its output cast to double: [N, targets],
// each target the sum of its trees' leaf values (float32, the operator's
// output type). Without any tree, the sums are zeros.
func (e *treeSet) emit(g *graph, targets int) string {
	x := e.in.nanKept(g)
	if len(e.treeIDs) == 0 {
		n := g.op("Slice", []string{g.op("Shape", []string{x}), g.int64s("start", []int64{1}, []int64{0}), g.int64s("end", []int64{1}, []int64{1})})
		shape := g.op("Concat", []string{n, g.int64s("targets", []int64{1}, []int64{int64(targets)})}, intAttr("axis", 0))
		return g.op("ConstantOfShape", []string{shape}, attribute{name: "value", typ: attrTensor, t: &tensor{dims: []int64{1}, dtype: typeDouble, doubles: []float64{0}}})
	}
	return g.castDouble(g.opML("TreeEnsembleRegressor", []string{x},
		intAttr("n_targets", int64(targets)),
		stringAttr("aggregate_function", "SUM"),
		stringAttr("post_transform", "NONE"),
		intsAttr("nodes_treeids", e.treeIDs),
		intsAttr("nodes_nodeids", e.nodeIDs),
		intsAttr("nodes_featureids", e.featureIDs),
		stringsAttr("nodes_modes", e.modes),
		doublesAttr("nodes_values_as_tensor", e.values),
		intsAttr("nodes_truenodeids", e.trueIDs),
		intsAttr("nodes_falsenodeids", e.falseIDs),
		intsAttr("nodes_missing_value_tracks_true", e.missing),
		intsAttr("target_treeids", e.targetTree),
		intsAttr("target_nodeids", e.targetNode),
		intsAttr("target_ids", e.targetID),
		doublesAttr("target_weights_as_tensor", e.weights),
	))
}
