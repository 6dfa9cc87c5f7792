package forest

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/treeshap"
	"github.com/aer-go/aer/learn"
)

// AttributeClasses returns, per class, the exact TreeSHAP values of the
// rows of x in probability space: the mean over the trees of each tree's
// values for the class's leaf share (SHAP values are linear in the
// model), so base + sum is the forest's probability of the class. The
// learn.ClassAttributor contract.
func (m *MultiModel) AttributeClasses(x *mat.Dense) ([]*learn.Attribution, error) {
	n, c := x.Dims()
	if c != m.forest.NumFeatures {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.forest.NumFeatures)
	}
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
