package forest

import (
	"fmt"

	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/tree"
)

// BuildONNX adds the model's graph (onnx.Exporter): the mean of the
// trees' leaf probabilities, their sum in one TreeEnsembleRegressor
// divided by their number, as Forest sums them.
func (m *Model) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	f := m.Forest()
	if len(f.Trees) == 0 {
		return "", b.Wrap(fmt.Errorf("the forest has no trees"))
	}
	e := onnx.NewTrees(in)
	for k, t := range f.Trees {
		if err := t.AddONNX(e, 0); err != nil {
			return "", b.Wrap(fmt.Errorf("tree %d: %w", k, err))
		}
	}
	sum := e.Emit(b, 1)
	return b.Div(sum, b.Scalar("trees", float64(len(f.Trees)))), nil
}

// BuildONNX adds the model's graph (onnx.Exporter): the mean of the
// trees' leaf class shares (tree.ONNXClassShares).
func (m *MultiModel) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	return tree.ONNXClassShares(b, m.Forest().Trees, m.NumClasses(), in)
}
