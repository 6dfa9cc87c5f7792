package boost

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// AttributeClasses returns, for each class c, the exact path-dependent
// TreeSHAP values of class c's margin for the rows of x (NaN = missing),
// the learn.ClassAttributor contract: class c's trees (Class(c).SHAP),
// with their training covers as the background, so that the base
// (Class(c).SHAPBase: base_score plus each tree's cover-weighted mean
// leaf) plus the sum of row i's values is row i's margin of class c, in
// logit space. They are XGBoost's pred_contribs of a multi:softprob
// model, one set per class. The class probabilities are the softmax of
// the margins, so a value that raises one class's margin raises that
// class's probability against the others. Rows are spread over
// Settings.Threads goroutines (1 in a model from Method.FitMulti or
// LoadMulti).
func (m *MultiModel) AttributeClasses(x *mat.Dense) ([]*learn.Attribution, error) {
	n, nf := x.Dims()
	if nf != m.nf {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, nf, m.nf)
	}
	out := make([]*learn.Attribution, m.NumClasses())
	for c, cm := range m.classes() {
		phi, err := cm.SHAP(x, nil)
		if err != nil {
			return nil, fmt.Errorf("class %d: %w", c, err)
		}
		base := make([]float64, n)
		b := cm.SHAPBase()
		for i := range base {
			base[i] = b
		}
		out[c] = &learn.Attribution{Space: learn.Logit, Base: base, Phi: phi,
			Method: "exact path-dependent TreeSHAP of each class's margin (its trees; the class probabilities are the softmax of the margins), the training covers as background"}
	}
	return out, nil
}

var _ learn.ClassAttributor = (*MultiModel)(nil)
