package tree

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/treeshap"
	"github.com/aer-go/aer/learn"
)

// SHAPTree returns t prepared for exact TreeSHAP: leaf values are the
// probabilities the tree predicts, node weights (Weight) the cover, splits
// and missing values as PredictRow takes them.
func (t *Tree) SHAPTree() (*treeshap.Tree, error) { return t.shapTree(t.Value) }

// shapTree returns t prepared for exact TreeSHAP of the leaf values v,
// node weights the cover.
func (t *Tree) shapTree(v []float64) (*treeshap.Tree, error) {
	return treeshap.New(treeshap.Nodes{Feature: t.Feature, Left: t.Left, Right: t.Right, Threshold: t.Threshold,
		DefaultLeft: t.DefaultLeft, Cover: t.Weight, Value: v, LessEqual: true})
}

func (m *Model) shapTree() (*treeshap.Tree, error) {
	m.shapOnce.Do(func() { m.shap, m.shapErr = m.tree.SHAPTree() })
	return m.shap, m.shapErr
}

// Importances returns scikit-learn's feature_importances_ (the weighted
// impurity decrease, normalised) as kind "impurity": the
// learn.Importancer contract.
func (m *Model) Importances() []learn.Importance {
	imp := make([]float64, m.tree.NumFeatures)
	m.tree.Importance(imp)
	Normalize(imp)
	return []learn.Importance{{Kind: "impurity", Values: imp}}
}

// Attribute returns the exact TreeSHAP values of the rows of x in
// probability space (the tree's output): the base value is the
// training-weighted mean leaf probability, and base + sum is the
// probability PositiveProba gives. The learn.Attributor contract.
func (m *Model) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	if _, _, err := m.rows(x); err != nil {
		return nil, err
	}
	st, err := m.shapTree()
	if err != nil {
		return nil, fmt.Errorf("tree: %w", err)
	}
	return shapRows(st, x, "exact path-dependent TreeSHAP of the leaf probability, the training weights as background"), nil
}

// shapRows returns the TreeSHAP values of st for the rows of x, in
// probability space, method saying what they are.
func shapRows(st *treeshap.Tree, x *mat.Dense, method string) *learn.Attribution {
	n, c := x.Dims()
	a := &learn.Attribution{Space: learn.Probability, Method: method, Base: make([]float64, n), Phi: mat.NewDense(n, c, nil)}
	var w treeshap.Workspace
	for i := range n {
		a.Base[i] = st.Expected()
		st.Add(a.Phi.RawRowView(i), x.RawRowView(i), 1, &w)
	}
	return a
}

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
	return t.shapTree(v)
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
	if _, _, err := m.rows(x); err != nil {
		return nil, err
	}
	trees, err := m.tree.ClassSHAPTrees()
	if err != nil {
		return nil, err
	}
	out := make([]*learn.Attribution, len(trees))
	for k, st := range trees {
		out[k] = shapRows(st, x, "exact path-dependent TreeSHAP of each class's share in the leaf (its probability), the training weights as background")
	}
	return out, nil
}
