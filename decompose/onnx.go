package decompose

import (
	"fmt"

	"github.com/aer-go/aer/interop/onnx"
)

// BuildONNX adds the model's graph (onnx.Exporter): for a one-vs-rest
// model, each member's probability of its class (its graph, by
// b.Proba), through its decision layer's calibration, clipped to
// [0, 1] (NaN 0), divided by their sum (1/K each when it is 0), as
// PredictProba combines them. A one-vs-one model, whose pairwise
// probabilities are coupled by an iteration, gives an error wrapping
// onnx.ErrUnsupported.
func (m *Model) BuildONNX(b *onnx.Builder, in *onnx.Features) (onnx.Value, error) {
	if m.Strategy != OneVsRest {
		return "", b.Unsupported("a one-vs-one model (multiclass %s): its pairwise probabilities are coupled by an iteration the graph does not hold; one-vs-rest models (multiclass ovr) export", m.Strategy)
	}
	k := m.NumClasses()
	if len(m.Members) != k {
		return "", b.Wrap(fmt.Errorf("one-vs-rest model of %d members for %d classes", len(m.Members), k))
	}
	parts := make([]onnx.Value, k)
	for i := range m.Members {
		mb := &m.Members[i]
		if mb.A != i || mb.B >= 0 {
			return "", b.Wrap(fmt.Errorf("member %d is class %d against %d, want class %d against the rest", i, mb.A, mb.B, i))
		}
		p, err := b.Proba(mb.Model, in)
		if err != nil {
			return "", fmt.Errorf("class %d vs rest: %w", i, err)
		}
		if mb.Layer != nil && mb.Layer.Calibration != nil {
			cal := onnx.Calibration(*mb.Layer.Calibration)
			if p, err = b.Calibrate(&cal, p); err != nil {
				return "", fmt.Errorf("class %d vs rest: %w", i, err)
			}
		}
		parts[i] = p
	}
	p := b.Concat(1, parts...) // [N, K]
	zero := b.Scalar("zero", 0)
	p = b.Op("Where", []onnx.Value{b.Op("IsNaN", []onnx.Value{p}), zero, p})
	p = b.Op("Min", []onnx.Value{b.Op("Max", []onnx.Value{p, zero}), b.Scalar("one", 1)})
	sum := b.ReduceSum(p, true, 1) // [N, 1]
	norm := b.Div(p, b.Op("Where", []onnx.Value{b.Op("Greater", []onnx.Value{sum, zero}), sum, b.Scalar("one", 1)}))
	uniform := b.Filled("uniform", []int64{1, int64(k)}, 1/float64(k))
	return b.Op("Where", []onnx.Value{b.Op("Greater", []onnx.Value{sum, zero}), norm, uniform}), nil
}
