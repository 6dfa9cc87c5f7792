package aer

import (
	"context"
	"io"
	"math"

	"github.com/aer-go/aer/dataset"
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
// float32 input X, the model's features in Schema().Features order (NaN
// for a missing value), or, when the schema has categorical columns, its
// raw columns (Schema().RawColumns()) with each categorical column as
// its value's index, one-hot encoded inside the graph (ONNXInput turns
// a table into X); and two outputs: probability (float32 [N], the
// score Predict gives, the decision layer's calibration included) and
// label (int64 [N], 1 when the probability is at least the model's
// Threshold). A multi-class model's graph has the outputs probabilities
// (float32 [N, K], the class probabilities in Classes() order) and label
// (int64 [N], the index of the class its decision predicts: the largest
// w_c p_c of MultiDecision's weights, or the least expected cost under
// its cost matrix); its native gbdt (softmax), multinomial logreg,
// native tree and forest (balanced-rf, balanced-bagging) and one-vs-rest
// models export, one-vs-one models and the native adaboost and AER ones
// do not. Package interop/onnx says how each method is written and
// how closely ONNX Runtime reproduces Predict. A method, or a part of a
// model, without an ONNX graph gives an error wrapping
// onnx.ErrUnsupported that names it, and nothing is written.
func (m *Model) ExportONNX(w io.Writer) error {
	if err := writerGiven(w, "exporting ONNX"); err != nil {
		return err
	}
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
	if err := m.usable(); err != nil {
		return nil, err
	}
	s := m.Schema()
	spec := &onnx.Spec{Method: m.Method(), Features: s.Features, ProducerVersion: Version}
	if len(s.Categories) > 0 {
		spec.Categories, spec.Raw = s.Categories, s.RawColumns()
	}
	sc := m.scorer()
	if sc == nil {
		spec.Model, spec.Classes = m.model, m.Classes()
		spec.Weights, spec.Cost = m.layer.Weights, m.layer.Cost
		return onnx.Marshal(spec)
	}
	pair := dataset.ClassPair(s.Classes)
	spec.Model, spec.Classes = decision.Detach(sc), pair[:]
	spec.Threshold, _ = m.Threshold()
	if m.layer != nil && m.layer.Calibration != nil {
		cal := onnx.Calibration(*m.layer.Calibration)
		spec.Calibration = &cal
	}
	return onnx.Marshal(spec)
}

// ONNXInput returns t's rows as the input X of the model's ONNX graph
// (ExportONNX): the features in the schema's order for a schema without
// categorical columns; with them, the schema's raw columns, each
// categorical one as the index of its value in the category's Values
// (NaN for a missing or unseen value). The table's columns are matched
// by name, as Predict matches them.
func (m *Model) ONNXInput(t *Table) ([][]float64, error) {
	e, err := m.encode(t)
	if err != nil {
		return nil, err
	}
	s, enc := m.Schema(), e.Encoded
	r, c := enc.X.Dims()
	if len(s.Categories) == 0 {
		out := make([][]float64, r)
		for i := range out {
			out[i] = append([]float64(nil), enc.X.RawRowView(i)[:c]...)
		}
		return out, nil
	}
	cats := map[string]int{} // column -> number of values
	for _, cat := range s.Categories {
		cats[cat.Column] = len(cat.Values)
	}
	raw := s.RawColumns()
	out := make([][]float64, r)
	for i := range out {
		row, j := enc.X.RawRowView(i), 0
		out[i] = make([]float64, len(raw))
		for k, col := range raw {
			nv, ok := cats[col]
			if !ok {
				out[i][k] = row[j]
				j++
				continue
			}
			out[i][k] = math.NaN()
			for v := range nv {
				if row[j+v] == 1 {
					out[i][k] = float64(v)
				}
			}
			j += nv
		}
	}
	return out, nil
}
