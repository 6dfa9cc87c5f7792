package onnx

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// Versions the exporter writes.
const (
	// IRVersion is the ONNX IR version of the files (ONNX 1.10 and later
	// read it).
	IRVersion = 8
	// Opset is the version of the default ("ai.onnx") operator set.
	Opset = 17
	// MLOpset is the version of the "ai.onnx.ml" operator set: 3, the
	// one of TreeEnsembleRegressor with double thresholds and leaf values
	// (nodes_values_as_tensor, target_weights_as_tensor), which ONNX
	// Runtime runs (its opset-5 TreeEnsemble is mapped onto the same
	// kernel).
	MLOpset = 3
	// Producer is the producer_name of the files.
	Producer = "aer"
)

const mlDomain = "ai.onnx.ml"

// Names of the graph's input and outputs.
const (
	// Input is the float32 [N, F] input: the model's features in its
	// schema's order (categorical columns one-hot encoded as the schema
	// names them, column=value), NaN for a missing value.
	Input = "X"
	// Probability is the float32 [N] output: the probability of the
	// positive class, the score aer predict writes.
	Probability = "probability"
	// Label is the int64 [N] output: 1 when the probability is at least
	// the model's threshold, else 0, aer predict's prediction.
	Label = "label"
)

// Exported lists the methods Write converts, for messages.
const Exported = "gbdt and its variants (gbdt-tuned, gbdt-focal, gbdt-leafwise, rus-gbdt, smote-gbdt), logreg, svm, tree, balanced-rf, balanced-bagging, rusboost, easy-ensemble, aer and dynens"

// ErrUnsupported is wrapped by the errors about a model the exporter
// cannot write (a method, or a part of one, that has no ONNX graph here).
var ErrUnsupported = errors.New("not supported by the ONNX export")

// Spec is what Write exports: a fitted model (without its decision
// layer), the layer's calibration and the threshold, and descriptive
// fields kept in the file's metadata.
type Spec struct {
	// Model is the method's fitted model, scoring rows of Features.
	Model learn.Scorer
	// Calibration is the decision layer's calibration of the model's
	// scores, nil for none.
	Calibration *decision.Calibration
	// Threshold is the threshold of the label output: a row is labelled
	// 1 when its probability is at least it.
	Threshold float64
	// Method is the registered name of the method (for messages and the
	// metadata).
	Method string
	// Features names the model's features, in order.
	Features []string
	// Categories are the schema's categorical columns
	// (dataset.Schema.Categories), one-hot encoded inside the graph: with
	// any, the input X holds the schema's raw columns
	// (dataset.Schema.RawColumns) in Raw's order, a categorical column as
	// the index of its value in the category's Values (NaN, or any
	// number that is not an index, for a missing or unseen value: all
	// zeros, as aer's reader encodes it). Without, X holds the features.
	Categories []dataset.Category
	Raw        []string
	// Classes are the label values of class 0 and class 1 (metadata).
	Classes [2]string
	// ProducerVersion is the producer_version written (aer's version).
	ProducerVersion string
	// Multi, when not nil, is a multi-class model to export in place of
	// Model (Model, Calibration, Threshold and Classes then unused).
	Multi *MultiSpec
}

// Write converts the model of s into an ONNX graph and writes the
// ModelProto to w. A model with a part the exporter has no graph for
// gives an error wrapping ErrUnsupported that names the method and the
// part; nothing is written then.
func Write(w io.Writer, s *Spec) error {
	b, err := Marshal(s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal is Write's bytes.
func Marshal(s *Spec) ([]byte, error) {
	if s != nil && s.Multi != nil && s.Multi.Model != nil {
		return marshalMulti(s)
	}
	if s == nil || s.Model == nil {
		return nil, errors.New("onnx: no model to export")
	}
	nf := s.Model.NumFeatures()
	if len(s.Features) != 0 && len(s.Features) != nf {
		return nil, fmt.Errorf("onnx: the model reads %d features, the spec names %d", nf, len(s.Features))
	}
	if !(s.Threshold >= 0 && s.Threshold <= 1) {
		return nil, fmt.Errorf("onnx: threshold %v lies outside [0, 1]", s.Threshold)
	}
	method := s.Method
	if method == "" {
		method = fmt.Sprintf("%T", s.Model)
	}
	c := &converter{g: &graph{}, method: method}
	x, width, err := c.encode(s, nf)
	if err != nil {
		return nil, err
	}
	p, err := c.proba(s.Model, &input{raw: x, nf: nf})
	if err != nil {
		return nil, err
	}
	if s.Calibration != nil {
		if p, err = c.calibrate(s.Calibration, p); err != nil {
			return nil, err
		}
	}
	// p is [N, 1] double: the probability output is its float32 copy,
	// the label compares the double value, as aer predict compares its
	// float64 score.
	flat := c.g.op("Reshape", []string{p, c.g.int64s("shape", []int64{1}, []int64{-1})})
	c.g.named(Probability, "Cast", []string{flat}, intAttr("to", typeFloat))
	ge := c.g.op("GreaterOrEqual", []string{flat, c.g.scalar("threshold", s.Threshold)})
	c.g.named(Label, "Cast", []string{ge}, intAttr("to", typeInt64))

	n := dim{param: "N"}
	doc := fmt.Sprintf("aer %s model: %s [N, %d] float32 columns (NaN missing) to %s [N] float32 (positive-class probability) and %s [N] int64 (1 when probability >= %s)",
		method, Input, width, Probability, Label, strconv.FormatFloat(s.Threshold, 'g', -1, 64))
	gp := &graphProto{
		name:         "aer_" + strings.ReplaceAll(method, "-", "_"),
		doc:          doc,
		nodes:        c.g.nodes,
		initializers: c.g.inits,
		inputs:       []valueInfo{{name: Input, dtype: typeFloat, dims: []dim{n, {value: int64(width)}}, doc: inputDoc(s)}},
		output: []valueInfo{
			{name: Probability, dtype: typeFloat, dims: []dim{n}, doc: "probability of the positive class"},
			{name: Label, dtype: typeInt64, dims: []dim{n}, doc: "predicted class: 1 when probability >= the threshold"},
		},
	}
	mp := &modelProto{
		irVersion:       IRVersion,
		opsets:          []opset{{"", Opset}, {mlDomain, MLOpset}},
		producerName:    Producer,
		producerVersion: s.ProducerVersion,
		doc:             doc,
		graph:           gp,
		metadata: [][2]string{
			{"method", method},
			{"threshold", strconv.FormatFloat(s.Threshold, 'g', -1, 64)},
			{"features", strings.Join(s.Features, ",")},
			{"classes", s.Classes[0] + "," + s.Classes[1]},
		},
	}
	if s.Calibration != nil {
		mp.metadata = append(mp.metadata, [2]string{"calibration", s.Calibration.Method})
	}
	return mp.marshal(), nil
}

// encode returns the graph's features as double [N, nf]: X cast to
// double, or, with categorical columns, X's raw columns with each
// categorical one one-hot encoded (Equal against its value indices), in
// the features' order; and the width of X.
func (c *converter) encode(s *Spec, nf int) (string, int, error) {
	x := c.g.castDouble(Input)
	if len(s.Categories) == 0 {
		return x, nf, nil
	}
	cats := map[string]dataset.Category{}
	for _, cat := range s.Categories {
		cats[cat.Column] = cat
	}
	var parts []string
	width := 0
	for j, col := range s.Raw {
		cat, ok := cats[col]
		if !ok {
			parts = append(parts, c.g.gather(x, []int64{int64(j)}, 1))
			width++
			continue
		}
		idx := make([]float64, len(cat.Values))
		for k := range idx {
			idx[k] = float64(k)
		}
		code := c.g.gather(x, []int64{int64(j)}, 1) // [N, 1]
		eq := c.g.op("Equal", []string{code, c.g.doubles("codes", []int64{int64(len(idx))}, idx)})
		parts = append(parts, c.g.op("Cast", []string{eq}, intAttr("to", typeDouble)))
		width += len(cat.Values)
		delete(cats, col)
	}
	if len(cats) != 0 || width != nf {
		return "", 0, fmt.Errorf("onnx: raw columns %q with %d categorical columns give %d features, the model reads %d", s.Raw, len(s.Categories), width, nf)
	}
	return c.g.concat(1, parts...), len(s.Raw), nil
}

// inputDoc describes the input's columns.
func inputDoc(s *Spec) string {
	if len(s.Categories) == 0 {
		return "features in the model's order: " + strings.Join(s.Features, ", ")
	}
	var b strings.Builder
	b.WriteString("raw columns in order (a categorical column as its value's index): ")
	cats := map[string]dataset.Category{}
	for _, cat := range s.Categories {
		cats[cat.Column] = cat
	}
	for j, col := range s.Raw {
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(col)
		if cat, ok := cats[col]; ok {
			fmt.Fprintf(&b, " [%s]", strings.Join(cat.Values, "|"))
		}
	}
	return b.String()
}

// converter turns models into graph nodes.
type converter struct {
	g      *graph
	method string
}

func (c *converter) unsupported(format string, a ...any) error {
	return fmt.Errorf("onnx: %s model: %s: %w", c.method, fmt.Sprintf(format, a...), ErrUnsupported)
}

// calibrate applies the decision layer's calibration to p ([N, 1]).
func (c *converter) calibrate(cal *decision.Calibration, p string) (string, error) {
	g := c.g
	switch cal.Method {
	case decision.Sigmoid:
		if !finite(cal.A, cal.B) {
			return "", fmt.Errorf("onnx: sigmoid calibration A=%v, B=%v", cal.A, cal.B)
		}
		f := p
		if cal.Logit {
			f = g.logit(p, 1e-12)
		}
		// 1/(1+exp(A f + B)) = sigmoid(-(A f + B)).
		z := g.add(g.mul(f, g.scalar("platt_a", -cal.A)), g.scalar("platt_b", -cal.B))
		return g.sigmoid(z), nil
	case decision.Isotonic:
		return c.isotonic(cal.X, cal.Y, p)
	}
	return "", c.unsupported("calibration %q", cal.Method)
}

// isotonic maps p ([N, 1]) by linear interpolation between the points
// (x, y), clipped at both ends, as decision.Calibration.Apply: the index
// j of the first point not below the (clipped) score is counted, and the
// score interpolated between points j-1 and j.
func (c *converter) isotonic(x, y []float64, p string) (string, error) {
	g := c.g
	n := len(x)
	if n == 0 || n != len(y) || !finite(x...) || !finite(y...) {
		return "", errors.New("onnx: isotonic calibration has no points, mismatched or non-finite points")
	}
	if n == 1 {
		// Every score maps to the one value (NaN stays NaN).
		return g.add(g.mul(p, g.scalar("zero", 0)), g.scalar("iso_y", y[0])), nil
	}
	s := g.clip(p, x[0], x[n-1])
	xs := g.doubles("iso_x", []int64{1, int64(n)}, x)
	less := g.op("Cast", []string{g.op("Less", []string{xs, s})}, intAttr("to", typeInt64))
	j := g.reduceSum(less, false, 1) // [N]: points below s
	j = g.op("Max", []string{j, g.int64s("one", nil, []int64{1})})
	j = g.op("Min", []string{j, g.int64s("last", nil, []int64{int64(n - 1)})})
	j0 := g.sub(j, g.int64s("one", nil, []int64{1}))
	xv := g.doubles("iso_x", []int64{int64(n)}, x)
	yv := g.doubles("iso_y", []int64{int64(n)}, y)
	take := func(v, idx string) string {
		return g.unsqueeze(g.op("Gather", []string{v, idx}, intAttr("axis", 0)), 1)
	}
	x0, x1, y0, y1 := take(xv, j0), take(xv, j), take(yv, j0), take(yv, j)
	f := g.div(g.sub(s, x0), g.sub(x1, x0))
	v := g.add(y0, g.mul(f, g.sub(y1, y0)))
	// A score on a point takes its value exactly.
	return g.op("Where", []string{g.op("Equal", []string{s, x1}), y1, v}), nil
}

// checkFinite returns an error naming what is not finite.
func checkFinite(what string, v ...float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("onnx: %s %d is %v", what, i, x)
		}
	}
	return nil
}
