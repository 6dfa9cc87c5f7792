package boost

import (
	"fmt"

	"github.com/aer-go/aer/internal/catsplit"
	"github.com/aer-go/aer/interop/onnx"
)

// BuildONNX adds the model's graph (onnx.Exporter): its trees' margin
// (ONNXMargins), then Sigmoid.
func (f *Fitted) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	mg, err := ONNXMargins(b, []*Model{f.Model}, in)
	if err != nil {
		return "", err
	}
	return b.Sigmoid(mg), nil
}

// BuildONNX adds the model's graph (onnx.Exporter): every class's
// margin from one tree ensemble (ONNXMargins), then the softmax.
func (m *MultiModel) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	ms := make([]*Model, m.NumClasses())
	for k := range ms {
		ms[k] = m.Class(k)
	}
	mg, err := ONNXMargins(b, ms, in)
	if err != nil {
		return "", err
	}
	return b.Softmax(mg), nil
}

// ONNXMargins adds one TreeEnsembleRegressor holding the trees of every
// model, one target per model, and returns their margins ([N, len(ms)]
// double): the trees' sum plus the model's base margin. A tree with a
// split the graph cannot express (an imported model's categorical or
// zero-as-missing split) gives an error wrapping onnx.ErrUnsupported.
func ONNXMargins(b *onnx.Builder, ms []*Model, in *onnx.Features) (onnx.Value, error) {
	e := onnx.NewTrees(in)
	nf := in.Len()
	base := make([]float64, len(ms))
	for k, m := range ms {
		if m.NumFeatures != nf {
			return "", fmt.Errorf("onnx: %s model: boosted trees of %d features, input of %d", b.Method(), m.NumFeatures, nf)
		}
		for ti := range m.Trees {
			if err := addONNX(e, &m.Trees[ti], int64(k)); err != nil {
				return "", b.Wrap(fmt.Errorf("tree %d: %w", ti, err))
			}
		}
		base[k] = m.BaseMargin
	}
	if err := onnx.CheckFinite("base margin", base...); err != nil {
		return "", b.Wrap(err)
	}
	sum := e.Emit(b, len(ms))
	return b.Add(sum, b.Doubles("base_margin", []int64{int64(len(ms))}, base)), nil
}

// addONNX adds a boosted tree to e: a row goes to the left child (the
// true branch) when its value is below the threshold (BRANCH_LT), a
// missing value where DefaultLeft says, as Tree.Leaf decides.
func addONNX(e *onnx.Trees, t *Tree, target int64) error {
	for i, cats := range t.Categories {
		if cats != nil {
			what := "an imported XGBoost model's categorical partition split (its category set)"
			if t.CategoryRule == catsplit.LightGBM {
				what = "an imported LightGBM model's categorical split (its bitset of codes)"
			}
			return fmt.Errorf("node %d is %s: %w", i, what, onnx.ErrUnsupported)
		}
	}
	for i, z := range t.ZeroMissing {
		if z {
			return fmt.Errorf("node %d treats a zero as missing (a LightGBM import's zero_as_missing split): %w", i, onnx.ErrUnsupported)
		}
	}
	return e.Add(onnx.Nodes{Feature: t.Feature, Threshold: t.Threshold, DefaultLeft: t.DefaultLeft, Left: t.Left, Values: t.Value}, target)
}
