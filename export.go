package aer

import (
	"context"
	"io"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/interop/onnx"
)

// Formats a model exports to (ExportONNX, aer export --format).
const (
	// FormatONNX: an ONNX file (package interop/onnx).
	FormatONNX = "onnx"
)

// ExportONNX writes the model as an ONNX file to w: a graph with one
// float32 input X [N, F], the model's features in Schema().Features
// order (a categorical column as its one-hot features, column=value; NaN
// for a missing value), and two outputs: probability (float32 [N], the
// score Predict gives, the decision layer's calibration included) and
// label (int64 [N], 1 when the probability is at least the model's
// Threshold). Package interop/onnx says how each method is written and
// how closely ONNX Runtime reproduces Predict. A method, or a part of a
// model, without an ONNX graph gives an error wrapping
// onnx.ErrUnsupported that names it, and nothing is written.
func (m *Model) ExportONNX(w io.Writer) error {
	b, err := m.marshalONNX()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// ExportONNXFile writes the ONNX file to path ("-": the standard output),
// whole or not at all (see ExportONNX); it stops with ctx's error when
// ctx is cancelled before the file is complete.
func (m *Model) ExportONNXFile(ctx context.Context, path string) error {
	b, err := m.marshalONNX()
	if err != nil {
		return err
	}
	return atomicfile.WriteContext(ctx, path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

func (m *Model) marshalONNX() ([]byte, error) {
	t, _ := m.Threshold()
	s := m.Schema()
	spec := &onnx.Spec{
		Model: decision.Detach(m.model), Threshold: t, Method: m.Method(),
		Features: s.Features, Classes: s.Classes, ProducerVersion: Version,
	}
	if m.layer != nil {
		spec.Calibration = m.layer.Calibration
	}
	return onnx.Marshal(spec)
}
