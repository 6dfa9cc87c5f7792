package prep

import (
	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/learn"
)

// BuildONNX adds the model's graph (onnx.Exporter): the imputation and
// standardisation in front of the inner model's graph.
func (m *Model) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	return m.Prep.buildONNX(b, m.Inner, in)
}

// BuildONNX adds the model's graph (onnx.Exporter): the imputation and
// standardisation in front of the inner model's graph.
func (m *MultiModel) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	return m.Prep.buildONNX(b, m.Inner, in)
}

// buildONNX is inner's graph reading in behind p.
func (p *Prep) buildONNX(b *onnx.Builder, inner learn.Model, in *onnx.Features) (onnx.Value, error) {
	behind, err := in.With(p.Means, p.Scaler)
	if err != nil {
		return "", b.Wrap(err)
	}
	return b.Proba(inner, behind)
}
