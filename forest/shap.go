package forest

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/treeshap"
	"github.com/aer-go/aer/learn"
)

// shapTrees are the forest's trees prepared for TreeSHAP, and the base
// value: the mean of their expected outputs.
func (m *Model) shapTrees() *treeshap.Set {
	m.shapOnce.Do(func() {
		s := treeshap.Prepare("forest", len(m.forest.Trees), 0, func(k int) (*treeshap.Tree, error) { return m.forest.Trees[k].SHAPTree() })
		s.Base /= float64(len(m.forest.Trees))
		m.shap = s
	})
	return m.shap
}

// Importances returns scikit-learn's feature_importances_ of the forest
// as kind "impurity": the learn.Importancer contract.
func (m *Model) Importances() []learn.Importance {
	return []learn.Importance{{Kind: "impurity", Values: m.forest.Importance()}}
}

// Attribute returns the exact TreeSHAP values of the rows of x in
// probability space: the mean of the trees' values (SHAP values are linear
// in the model), so base + sum is the forest's probability. The
// learn.Attributor contract.
func (m *Model) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	if err := m.checkFeatures(x); err != nil {
		return nil, err
	}
	n, c := x.Dims()
	st := m.shapTrees()
	if st.Err != nil {
		return nil, st.Err
	}
	a := &learn.Attribution{Space: learn.Probability, Method: "the mean of the trees' exact path-dependent TreeSHAP values of their probabilities", Base: make([]float64, n), Phi: mat.NewDense(n, c, nil)}
	var w treeshap.Workspace
	scale := 1 / float64(len(st.Trees))
	for i := range n {
		a.Base[i] = st.Base
		phi, row := a.Phi.RawRowView(i), x.RawRowView(i)
		for _, t := range st.Trees {
			t.Add(phi, row, scale, &w)
		}
	}
	return a, nil
}

// AttributeClasses returns, per class, the exact TreeSHAP values of the
// rows of x in probability space: the mean over the trees of each tree's
// values for the class's leaf share (SHAP values are linear in the
// model), so base + sum is the forest's probability of the class. The
// learn.ClassAttributor contract.
func (m *MultiModel) AttributeClasses(x *mat.Dense) ([]*learn.Attribution, error) {
	if err := m.checkFeatures(x); err != nil {
		return nil, err
	}
	n, c := x.Dims()
	k := m.forest.Classes()
	out := make([]*learn.Attribution, k)
	for j := range out {
		out[j] = &learn.Attribution{Space: learn.Probability, Method: "the mean of the trees' exact path-dependent TreeSHAP values of each class's leaf share (its probability)",
			Base: make([]float64, n), Phi: mat.NewDense(n, c, nil)}
	}
	scale := 1 / float64(len(m.forest.Trees))
	var w treeshap.Workspace
	for t, tr := range m.forest.Trees {
		trees, err := tr.ClassSHAPTrees()
		if err != nil {
			return nil, fmt.Errorf("forest: tree %d: %w", t, err)
		}
		for j, st := range trees {
			a, base := out[j], st.Expected()*scale
			for i := range n {
				a.Base[i] += base
				st.Add(a.Phi.RawRowView(i), x.RawRowView(i), scale, &w)
			}
		}
	}
	return out, nil
}
