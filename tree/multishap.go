package tree

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/treeshap"
	"github.com/aer-go/aer/learn"
)

// ClassSHAPTree returns a multi-class tree prepared for exact TreeSHAP of
// class c's share: leaf values are the class's share, node weights the
// cover.
func (t *Tree) ClassSHAPTree(c int) (*treeshap.Tree, error) {
	k := t.Classes
	if k < 2 || c < 0 || c >= k {
		return nil, fmt.Errorf("tree: class %d of a tree of %d classes", c, k)
	}
	v := make([]float64, len(t.Feature))
	for i := range v {
		v[i] = t.Dist[i*k+c]
	}
	return treeshap.New(treeshap.Nodes{Feature: t.Feature, Left: t.Left, Right: t.Right, Threshold: t.Threshold,
		DefaultLeft: t.DefaultLeft, Cover: t.Weight, Value: v, LessEqual: true})
}

// ClassSHAPTrees returns the TreeSHAP trees of every class of t.
func (t *Tree) ClassSHAPTrees() ([]*treeshap.Tree, error) {
	out := make([]*treeshap.Tree, t.Classes)
	for c := range out {
		st, err := t.ClassSHAPTree(c)
		if err != nil {
			return nil, err
		}
		out[c] = st
	}
	return out, nil
}

// AttributeClasses returns, per class, the exact TreeSHAP values of the
// rows of x in probability space: base + sum is the class's probability
// (its share in the row's leaf). The learn.ClassAttributor contract.
func (m *MultiModel) AttributeClasses(x *mat.Dense) ([]*learn.Attribution, error) {
	n, c := x.Dims()
	if c != m.tree.NumFeatures {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.tree.NumFeatures)
	}
	trees, err := m.tree.ClassSHAPTrees()
	if err != nil {
		return nil, err
	}
	out := make([]*learn.Attribution, len(trees))
	var w treeshap.Workspace
	for k, st := range trees {
		a := &learn.Attribution{Space: learn.Probability, Method: "exact path-dependent TreeSHAP of each class's share in the leaf (its probability), the training weights as background",
			Base: make([]float64, n), Phi: mat.NewDense(n, c, nil)}
		for i := range n {
			a.Base[i] = st.Expected()
			st.Add(a.Phi.RawRowView(i), x.RawRowView(i), 1, &w)
		}
		out[k] = a
	}
	return out, nil
}
