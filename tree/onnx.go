package tree

import (
	"fmt"

	"github.com/aer-go/aer/interop/onnx"
)

// BuildONNX adds the model's graph (onnx.Exporter): the tree in a
// TreeEnsembleRegressor, its leaves giving their probability.
func (m *Model) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	e := onnx.NewTrees(in)
	if err := m.Tree().AddONNX(e, 0); err != nil {
		return "", b.Wrap(err)
	}
	return e.Emit(b, 1), nil
}

// BuildONNX adds the model's graph (onnx.Exporter): the tree's leaf
// class shares (ONNXClassShares).
func (m *MultiModel) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	return ONNXClassShares(b, []*Tree{m.Tree()}, m.NumClasses(), in)
}

// AddONNX adds t to e, its leaves giving their Value to target: a row
// goes left (the true branch) when its value is at most the threshold
// (BRANCH_LEQ), a missing value where DefaultLeft says, as Leaf decides.
// A multi-class tree, whose leaves hold class shares, gives an error
// wrapping onnx.ErrUnsupported.
func (t *Tree) AddONNX(e *onnx.Trees, target int64) error {
	if t.Classes != 0 || t.Dist != nil {
		return fmt.Errorf("a multi-class tree of %d classes: %w", t.Classes, onnx.ErrUnsupported)
	}
	return t.AddONNXValues(e, t.Value, 1, target)
}

// AddONNXValues adds t to e, its leaf i giving values[i*k+c] to target
// first+c, for c < k.
func (t *Tree) AddONNXValues(e *onnx.Trees, values []float64, k int, first int64) error {
	if t.Right == nil {
		// The layout of onnx.Nodes without Right is a boosted tree's.
		return fmt.Errorf("malformed tree of %d nodes", len(t.Feature))
	}
	return e.Add(onnx.Nodes{Feature: t.Feature, Threshold: t.Threshold, DefaultLeft: t.DefaultLeft, Left: t.Left, Right: t.Right, LEQ: true, Values: values, K: k}, first)
}

// ONNXClassShares adds the mean of the multi-class trees' leaf class
// shares ([N, k] double), as Tree.DistRow and forest.Forest give them:
// one TreeEnsembleRegressor with a target per class, each leaf giving
// its k shares, the sums divided by the number of trees.
func ONNXClassShares(b *onnx.Builder, ts []*Tree, k int, in *onnx.Features) (onnx.Value, error) {
	if len(ts) == 0 {
		return "", b.Wrap(fmt.Errorf("the forest has no trees"))
	}
	e := onnx.NewTrees(in)
	for i, t := range ts {
		if t.Classes != k {
			return "", b.Wrap(fmt.Errorf("tree %d has %d classes, the model %d", i, t.Classes, k))
		}
		if t.Classes < 2 || len(t.Dist) != t.Classes*len(t.Feature) {
			return "", b.Wrap(fmt.Errorf("tree %d: not a multi-class tree: %d classes, %d class shares for %d nodes", i, t.Classes, len(t.Dist), len(t.Feature)))
		}
		if err := t.AddONNXValues(e, t.Dist, t.Classes, 0); err != nil {
			return "", b.Wrap(fmt.Errorf("tree %d: %w", i, err))
		}
	}
	sum := e.Emit(b, k)
	if len(ts) == 1 {
		return sum, nil
	}
	return b.Div(sum, b.Scalar("trees", float64(len(ts)))), nil
}
