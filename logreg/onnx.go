package logreg

import (
	"fmt"

	"github.com/aer-go/aer/interop/onnx"
)

// BuildONNX adds the model's graph (onnx.Exporter): sigmoid(x.w + b),
// on the features imputed and standardised by the wrapper in front of
// it.
func (m *Model) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	x := in.Values(b)
	if err := onnx.CheckFinite("coefficient", append([]float64{m.Intercept}, m.Coef...)...); err != nil {
		return "", b.Wrap(err)
	}
	z := b.MatMul(x, b.Doubles("coef", []int64{int64(len(m.Coef)), 1}, m.Coef))
	return b.Sigmoid(b.Add(z, b.Scalar("intercept", m.Intercept))), nil
}

// BuildONNX adds the model's graph (onnx.Exporter): the softmax of
// x W^T + b.
func (m *MultiModel) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	x := in.Values(b)
	k, nf := m.NumClasses(), m.NumFeatures()
	if len(m.Intercept) != k {
		return "", b.Wrap(fmt.Errorf("%d intercepts for %d classes", len(m.Intercept), k))
	}
	w := make([]float64, nf*k) // [nf, k]
	for cl, row := range m.Coef {
		if len(row) != nf {
			return "", b.Wrap(fmt.Errorf("class %d has %d coefficients for %d features", cl, len(row), nf))
		}
		for j, v := range row {
			w[j*k+cl] = v
		}
	}
	if err := onnx.CheckFinite("coefficient", append(append([]float64(nil), m.Intercept...), w...)...); err != nil {
		return "", b.Wrap(err)
	}
	z := b.Add(b.MatMul(x, b.Doubles("coef", []int64{int64(nf), int64(k)}, w)), b.Doubles("intercept", []int64{int64(k)}, m.Intercept))
	return b.Softmax(z), nil
}
