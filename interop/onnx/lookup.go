package onnx

import (
	"fmt"

	"github.com/aer-go/aer/learn"
)

// Exporter is a model with an ONNX graph. BuildONNX adds to b the nodes
// that compute the model's probabilities from in and returns them as a
// double value: [N, 1], the probability of class 1 (PositiveProba), for
// a two-class model with the learn.Scorer fast path; [N, K], every
// class's probability in the model's order (PredictProba), for any
// other model. It reads its features by in.Features (imputed and
// standardised by the wrappers above it) or through NewTrees (NaN kept,
// for tree splits), and builds a wrapped model's part with b.Proba. An
// error says what cannot be exported (b.Wrap, and b.Unsupported for a
// part that has no graph).
//
// A model type implements Exporter in its own package; the exporter
// finds it by a type assertion. A type that embeds an Exporter and
// scores otherwise must not promote its BuildONNX (it implements its
// own, or hides the embedded one).
type Exporter interface {
	BuildONNX(b *Builder, in *Features) (Value, error)
}

// Proba adds the nodes computing m's probabilities from in: m's
// BuildONNX, or, for a learn.Unwrapper that changes neither the rows nor
// the scores (a tuned threshold, a model fitted on resampled rows), the
// graph of the model it wraps. A model that is neither gives an error
// wrapping ErrUnsupported that names its type.
func (b *Builder) Proba(m learn.Model, in *Features) (Value, error) {
	if m.NumFeatures() != in.nf {
		return "", fmt.Errorf("onnx: %s model: a part reads %d features, its input has %d", b.method, m.NumFeatures(), in.nf)
	}
	if e, ok := m.(Exporter); ok {
		return e.BuildONNX(b, in)
	}
	if _, ok := m.(learn.Scorer); !ok {
		return "", b.Unsupported("multi-class %T has no ONNX graph (exported: %s)", m, ExportedMulti)
	}
	if u, ok := m.(learn.Unwrapper); ok {
		if ch, ok := m.(learn.Changer); !ok || ch.Changes() == 0 {
			return b.Proba(u.Unwrap(), in)
		}
	}
	return "", b.Unsupported("%T has no ONNX graph (exported: %s)", m, Exported)
}

// Wrap prefixes err with the method being exported.
func (b *Builder) Wrap(err error) error {
	return fmt.Errorf("onnx: %s model: %w", b.method, err)
}

// Unsupported returns an error wrapping ErrUnsupported, naming the
// method being exported and the part that has no graph.
func (b *Builder) Unsupported(format string, a ...any) error {
	return fmt.Errorf("onnx: %s model: %s: %w", b.method, fmt.Sprintf(format, a...), ErrUnsupported)
}
