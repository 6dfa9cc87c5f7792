package logreg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Scores writes the linear score of every class, Coef[k]·x + Intercept[k],
// for the rows of x into dst, row-major, Classes() per row (allocated
// when too short), and returns it: the log-probabilities up to a constant
// per row (the probabilities are their softmax).
func (m *MultiModel) Scores(x *mat.Dense, dst []float64) ([]float64, error) {
	r, c := x.Dims()
	k := m.NumClasses()
	if c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	if cap(dst) < r*k {
		dst = make([]float64, r*k)
	}
	dst = dst[:r*k]
	for i := range r {
		row := x.RawRowView(i)
		for j := range k {
			dst[i*k+j] = floats.Dot(m.Coef[j], row) + m.Intercept[j]
		}
	}
	return dst, nil
}

// AttributeClassesAround returns, for each class k, the exact SHAP values
// of class k's linear score (Scores) for the rows of x, for a linear
// model with independent features whose reference is ref (the training
// means of the features the model sees): phi_kj = Coef[k][j] (x_j -
// ref_j) and base Intercept[k] + Coef[k]·ref, so base + sum is the row's
// score of class k, in logit space (the class probabilities are the
// softmax of the scores). The registered logreg's model, behind its
// imputation and standardisation, gets ref from them
// (prep.MultiModel.AttributeClasses: the standardised training means,
// about 0), as the binary model's Attribute takes its training means. A
// missing or infinite value is an error wrapping learn.ErrData.
func (m *MultiModel) AttributeClassesAround(x *mat.Dense, ref []float64) ([]*learn.Attribution, error) {
	r, c := x.Dims()
	if c != m.NumFeatures() || len(ref) != c {
		return nil, fmt.Errorf("%w: data has %d features and the reference %d, the model %d", learn.ErrData, c, len(ref), m.NumFeatures())
	}
	out := make([]*learn.Attribution, m.NumClasses())
	for k, coef := range m.Coef {
		base := m.Intercept[k] + floats.Dot(coef, ref)
		a := &learn.Attribution{Space: learn.Logit, Base: make([]float64, r), Phi: mat.NewDense(r, c, nil),
			Method: "exact SHAP of each class's linear score: w_kj (x_j - training mean of x_j) (the class probabilities are the softmax of the scores)"}
		for i := range r {
			a.Base[i] = base
			row, phi := x.RawRowView(i), a.Phi.RawRowView(i)
			for j, w := range coef {
				phi[j] = w * (row[j] - ref[j])
				if math.IsNaN(phi[j]) || math.IsInf(phi[j], 0) {
					return nil, fmt.Errorf("%w: row %d, feature %d: missing or infinite value the model cannot attribute", learn.ErrData, i+1, j+1)
				}
			}
		}
		out[k] = a
	}
	return out, nil
}
