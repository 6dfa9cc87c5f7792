package boost

import (
	"fmt"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/treeshap"
	"github.com/aer-go/aer/learn"
)

// shapTrees are the model's trees prepared for TreeSHAP, and the base
// value: BaseMargin plus each tree's cover-weighted mean leaf value.
func (m *Model) shapTrees() *treeshap.Set {
	m.shapOnce.Do(func() {
		m.shap = treeshap.Prepare("boost", len(m.Trees), m.BaseMargin, func(ti int) (*treeshap.Tree, error) {
			t := &m.Trees[ti]
			right := make([]int32, len(t.Left))
			for i, l := range t.Left {
				right[i] = -1
				if l >= 0 {
					right[i] = l + 1
				}
			}
			return treeshap.New(treeshap.Nodes{Feature: t.Feature, Left: t.Left, Right: right,
				Threshold: t.Threshold, DefaultLeft: t.DefaultLeft, Cover: t.Cover, Value: t.Value, Categories: t.Categories,
				CategoryRule: t.CategoryRule, ZeroMissing: t.ZeroMissing})
		})
	})
	return m.shap
}

// SHAPBase returns the base value of the model's SHAP values: the margin
// expected over the training cover, BaseMargin plus each tree's
// cover-weighted mean leaf value (XGBoost's bias term of pred_contribs).
func (m *Model) SHAPBase() float64 { return m.shapTrees().Base }

// SHAP returns the exact path-dependent TreeSHAP values of the rows of x
// (Lundberg et al. 2018): one per row and feature, in margin (log-odds)
// space, with covers as the background, so that SHAPBase() + the sum of
// row i is row i's margin. Missing values follow each split's default
// direction as prediction does; a feature no tree splits on gets 0. Rows
// are spread over Settings.Threads goroutines (0: all cores); the values
// do not depend on the number. dst, when not nil, must be rows x features
// and receives the values.
func (m *Model) SHAP(x *mat.Dense, dst *mat.Dense) (*mat.Dense, error) {
	n, nf := x.Dims()
	if nf != m.NumFeatures {
		return nil, fmt.Errorf("boost: data has %d features, model has %d", nf, m.NumFeatures)
	}
	st := m.shapTrees()
	if st.Err != nil {
		return nil, st.Err
	}
	if dst == nil {
		dst = mat.NewDense(n, nf, nil)
	} else if r, c := dst.Dims(); r != n || c != nf {
		return nil, fmt.Errorf("boost: SHAP destination is %dx%d, want %dx%d", r, c, n, nf)
	} else {
		dst.Zero()
	}
	threads := m.Settings.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	const rowsPerTask = 64
	raw, out := x.RawMatrix(), dst.RawMatrix()
	par.For(threads, (n+rowsPerTask-1)/rowsPerTask, func(b int) {
		var w treeshap.Workspace
		for i := b * rowsPerTask; i < min(n, (b+1)*rowsPerTask); i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+nf]
			phi := out.Data[i*out.Stride : i*out.Stride+nf]
			for _, t := range st.Trees {
				t.Add(phi, row, 1, &w)
			}
		}
	})
	return dst, nil
}

// Importances returns XGBoost's built-in importances: gain (mean loss
// reduction of a feature's splits), total_gain, cover (mean hessian sum
// of the rows reaching its splits) and weight (number of splits); the
// learn.Importancer contract.
func (f *Fitted) Importances() []learn.Importance {
	var out []learn.Importance
	for _, k := range []string{Gain, TotalGain, Cover, Count} {
		v, _ := f.Importance(k)
		out = append(out, learn.Importance{Kind: k, Values: v})
	}
	return out
}

// Attribute returns the TreeSHAP values of the rows of x in logit
// (margin) space: the learn.Attributor contract.
func (f *Fitted) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	if _, c := x.Dims(); c != f.Model.NumFeatures {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, f.Model.NumFeatures)
	}
	phi, err := f.SHAP(x, nil)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	base := make([]float64, n)
	b := f.SHAPBase()
	for i := range base {
		base[i] = b
	}
	return &learn.Attribution{Space: learn.Logit, Base: base, Phi: phi,
		Method: "exact path-dependent TreeSHAP of the margin (log-odds), the training covers as background"}, nil
}

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
// Settings.Threads goroutines (1 in a model from Method.FitClasses or
// LoadClasses).
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
