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
func (t *Tree) SHAPTree() (*treeshap.Tree, error) {
	return treeshap.New(treeshap.Nodes{Feature: t.Feature, Left: t.Left, Right: t.Right, Threshold: t.Threshold,
		DefaultLeft: t.DefaultLeft, Cover: t.Weight, Value: t.Value, LessEqual: true})
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
	n, c := x.Dims()
	if c != m.tree.NumFeatures {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.tree.NumFeatures)
	}
	st, err := m.shapTree()
	if err != nil {
		return nil, fmt.Errorf("tree: %w", err)
	}
	a := &learn.Attribution{Space: learn.Probability, Method: "exact path-dependent TreeSHAP of the leaf probability, the training weights as background", Base: make([]float64, n), Phi: mat.NewDense(n, c, nil)}
	var w treeshap.Workspace
	for i := range n {
		a.Base[i] = st.Expected()
		st.Add(a.Phi.RawRowView(i), x.RawRowView(i), 1, &w)
	}
	return a, nil
}
