package onnx

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
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
	// Probabilities is the float32 [N, K] output of a model of more
	// classes: each row's class probabilities, in the model's class
	// order (the scores aer predict writes, score_<class>).
	Probabilities = "probabilities"
	// Label is the int64 [N] output: for a two-class model, 1 when the
	// probability is at least the model's threshold, else 0; for more
	// classes, the index of the class decided; aer predict's prediction.
	Label = "label"
)

// Exported lists the two-class methods aer's packages export, for
// messages (a model that has no graph is named beside it).
const Exported = "gbdt and its variants (gbdt-tuned, gbdt-focal, gbdt-leafwise, rus-gbdt, smote-gbdt), logreg, svm, tree, balanced-rf, balanced-bagging, rusboost, easy-ensemble, aer and dynens"

// ExportedMulti lists the models of more classes aer's packages export,
// for messages.
const ExportedMulti = "gbdt's native softmax model (and models imported from XGBoost or LightGBM), logreg's multinomial one, the native multi-class tree and forests (tree, balanced-rf, balanced-bagging), and one-vs-rest models (--multiclass ovr) of any exported method"

// ErrUnsupported is wrapped by the errors about a model the exporter
// cannot write (a method, or a part of one, that has no ONNX graph here).
var ErrUnsupported = errors.New("not supported by the ONNX export")

// Spec is what Write exports: a fitted model (without its decision
// layer), the layer's decision and descriptive fields kept in the
// file's metadata. A two-class model with the learn.Scorer fast path
// gets the outputs Probability and Label, the threshold's decision
// (Calibration, Threshold); a model of more classes (any other model)
// the outputs Probabilities and Label, the class weights' or the cost
// matrix's decision (Weights, Cost).
type Spec struct {
	// Model is the method's fitted model, scoring rows of Features.
	Model learn.Model
	// Calibration is the decision layer's calibration of a two-class
	// model's scores, nil for none.
	Calibration *Calibration
	// Threshold is the threshold of a two-class model's label output: a
	// row is labelled 1 when its probability is at least it.
	Threshold float64
	// Weights are the decision's class weights for more classes: a row's
	// label is the class c of largest Weights[c] p_c, the first on a
	// tie.
	Weights []float64
	// Cost, when not nil, is the decision's cost matrix for more classes
	// (K x K, rows the true class): the label is then the class j of
	// least expected cost sum_c p_c Cost[c][j], the first on a tie, and
	// Weights are unused.
	Cost [][]float64
	// Classes are the class names, in the model's order: class 0 and
	// class 1 of a two-class model (metadata).
	Classes []string
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
	// ProducerVersion is the producer_version written (aer's version).
	ProducerVersion string
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

// outputs are a graph's outputs and what the file says of them.
type outputs struct {
	kind     string      // "model" or "multi-class model", for the doc
	doc      string      // the graph's doc after the input
	values   []valueInfo // the outputs
	metadata [2]string   // the metadata after the method: the decision
	extra    [][2]string // the metadata after the classes
}

// Marshal is Write's bytes: the model's graph (its Exporter, found by
// Builder.Proba), then the decision of a two-class model or of more
// classes.
func Marshal(s *Spec) ([]byte, error) {
	if s == nil || s.Model == nil {
		return nil, errors.New("onnx: no model to export")
	}
	_, two := s.Model.(learn.Scorer)
	if two {
		if !(s.Threshold >= 0 && s.Threshold <= 1) {
			return nil, fmt.Errorf("onnx: threshold %v lies outside [0, 1]", s.Threshold)
		}
		if len(s.Classes) > 2 {
			return nil, fmt.Errorf("onnx: a two-class model with %d class names", len(s.Classes))
		}
	} else if err := checkDecision(s); err != nil {
		return nil, err
	}
	nf := s.Model.NumFeatures()
	if len(s.Features) != 0 && len(s.Features) != nf {
		return nil, fmt.Errorf("onnx: the model reads %d features, the spec names %d", nf, len(s.Features))
	}
	method := s.Method
	if method == "" {
		method = fmt.Sprintf("%T", s.Model)
	}
	b := &Builder{method: method}
	x, width, err := b.encode(s, nf)
	if err != nil {
		return nil, err
	}
	p, err := b.Proba(s.Model, &Features{raw: x, nf: nf})
	if err != nil {
		return nil, err
	}
	var out *outputs
	if two {
		out, err = b.thresholdOutputs(s, p)
	} else {
		out, err = b.classOutputs(s, p)
	}
	if err != nil {
		return nil, err
	}
	classes := strings.Join(s.Classes, ",")
	if two {
		var cl [2]string
		copy(cl[:], s.Classes)
		classes = cl[0] + "," + cl[1]
	}
	doc := fmt.Sprintf("aer %s %s: %s [N, %d] float32 columns (NaN missing) to %s", method, out.kind, Input, width, out.doc)
	gp := &graphProto{
		name:         "aer_" + strings.ReplaceAll(method, "-", "_"),
		doc:          doc,
		nodes:        b.nodes,
		initializers: b.inits,
		inputs:       []valueInfo{{name: Input, dtype: typeFloat, dims: []dim{{param: "N"}, {value: int64(width)}}, doc: inputDoc(s)}},
		output:       out.values,
	}
	mp := &modelProto{
		irVersion:       IRVersion,
		opsets:          []opset{{"", Opset}, {mlDomain, MLOpset}},
		producerName:    Producer,
		producerVersion: s.ProducerVersion,
		doc:             doc,
		graph:           gp,
		metadata: append([][2]string{
			{"method", method},
			out.metadata,
			{"features", strings.Join(s.Features, ",")},
			{"classes", classes},
		}, out.extra...),
	}
	return mp.marshal(), nil
}

// thresholdOutputs adds a two-class model's outputs: p ([N, 1] double)
// through the calibration; the probability output its float32 copy, the
// label the double value compared with the threshold, as aer predict
// compares its float64 score.
func (b *Builder) thresholdOutputs(s *Spec, p Value) (*outputs, error) {
	if s.Calibration != nil {
		var err error
		if p, err = b.Calibrate(s.Calibration, p); err != nil {
			return nil, err
		}
	}
	flat := b.Op("Reshape", []Value{p, b.Int64s("shape", []int64{1}, []int64{-1})})
	b.named(Probability, "Cast", []Value{flat}, IntAttr("to", typeFloat))
	ge := b.Op("GreaterOrEqual", []Value{flat, b.Scalar("threshold", s.Threshold)})
	b.named(Label, "Cast", []Value{ge}, IntAttr("to", typeInt64))
	n := dim{param: "N"}
	th := strconv.FormatFloat(s.Threshold, 'g', -1, 64)
	out := &outputs{
		kind: "model",
		doc:  fmt.Sprintf("%s [N] float32 (positive-class probability) and %s [N] int64 (1 when probability >= %s)", Probability, Label, th),
		values: []valueInfo{
			{name: Probability, dtype: typeFloat, dims: []dim{n}, doc: "probability of the positive class"},
			{name: Label, dtype: typeInt64, dims: []dim{n}, doc: "predicted class: 1 when probability >= the threshold"},
		},
		metadata: [2]string{"threshold", th},
	}
	if s.Calibration != nil {
		out.extra = [][2]string{{"calibration", s.Calibration.Method}}
	}
	return out, nil
}

// checkDecision checks the decision of a model of more classes.
func checkDecision(s *Spec) error {
	k := s.Model.NumClasses()
	if len(s.Weights) != k || (len(s.Classes) != 0 && len(s.Classes) != k) {
		return fmt.Errorf("onnx: a multi-class model of %d classes with %d decision weights and %d labels", k, len(s.Weights), len(s.Classes))
	}
	if !finite(s.Weights...) {
		return errors.New("onnx: multi-class decision weights are not finite")
	}
	return nil
}

// classOutputs adds the outputs of a model of more classes:
// Probabilities, p's ([N, K] double) float32 copy, and Label, the index
// of the class of largest w_c p_c, or of least expected cost.
func (b *Builder) classOutputs(s *Spec, p Value) (*outputs, error) {
	k := s.Model.NumClasses()
	b.named(Probabilities, "Cast", []Value{p}, IntAttr("to", typeFloat))
	rule := "the class c of largest w_c p_c"
	weights := make([]string, k)
	for i, w := range s.Weights {
		weights[i] = strconv.FormatFloat(w, 'g', -1, 64)
	}
	if s.Cost != nil {
		cost := make([]float64, 0, k*k)
		for _, row := range s.Cost {
			if len(row) != k {
				return nil, fmt.Errorf("onnx: a cost matrix row of %d costs for %d classes", len(row), k)
			}
			cost = append(cost, row...)
		}
		if len(s.Cost) != k || !finite(cost...) {
			return nil, fmt.Errorf("onnx: the cost matrix is not %d x %d finite costs", k, k)
		}
		expected := b.MatMul(p, b.Doubles("cost", []int64{int64(k), int64(k)}, cost)) // [N, K]
		b.named(Label, "ArgMin", []Value{expected}, IntAttr("axis", 1), IntAttr("keepdims", 0))
		rule = "the class j of least expected cost sum_c p_c cost[c][j]"
	} else {
		wp := b.Mul(p, b.Doubles("class_weights", []int64{int64(k)}, s.Weights))
		b.named(Label, "ArgMax", []Value{wp}, IntAttr("axis", 1), IntAttr("keepdims", 0))
		rule += ", w = " + strings.Join(weights, ",")
	}
	n := dim{param: "N"}
	return &outputs{
		kind: "multi-class model",
		doc:  fmt.Sprintf("%s [N, %d] float32 (class probabilities) and %s [N] int64 (%s)", Probabilities, k, Label, rule),
		values: []valueInfo{
			{name: Probabilities, dtype: typeFloat, dims: []dim{n, {value: int64(k)}}, doc: "class probabilities, in the order of the metadata's classes"},
			{name: Label, dtype: typeInt64, dims: []dim{n}, doc: "predicted class: its index in the metadata's classes"},
		},
		metadata: [2]string{"class_weights", strings.Join(weights, ",")},
	}, nil
}

// encode returns the graph's features as double [N, nf]: X cast to
// double, or, with categorical columns, X's raw columns with each
// categorical one one-hot encoded (Equal against its value indices), in
// the features' order; and the width of X.
func (b *Builder) encode(s *Spec, nf int) (Value, int, error) {
	x := b.CastDouble(Input)
	if len(s.Categories) == 0 {
		return x, nf, nil
	}
	cats := map[string]dataset.Category{}
	for _, cat := range s.Categories {
		cats[cat.Column] = cat
	}
	var parts []Value
	width := 0
	for j, col := range s.Raw {
		cat, ok := cats[col]
		if !ok {
			parts = append(parts, b.Gather(x, []int64{int64(j)}, 1))
			width++
			continue
		}
		idx := make([]float64, len(cat.Values))
		for k := range idx {
			idx[k] = float64(k)
		}
		code := b.Gather(x, []int64{int64(j)}, 1) // [N, 1]
		eq := b.Op("Equal", []Value{code, b.Doubles("codes", []int64{int64(len(idx))}, idx)})
		parts = append(parts, b.Op("Cast", []Value{eq}, IntAttr("to", typeDouble)))
		width += len(cat.Values)
		delete(cats, col)
	}
	if len(cats) != 0 || width != nf {
		return "", 0, fmt.Errorf("onnx: raw columns %q with %d categorical columns give %d features, the model reads %d", s.Raw, len(s.Categories), width, nf)
	}
	return b.Concat(1, parts...), len(s.Raw), nil
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

// Calibration is a two-class decision layer's calibration of the
// scores: decision.Calibration's fields, in its order, so that a
// conversion, onnx.Calibration(*c), turns one into the other (and stops
// compiling when decision.Calibration gains a field the graph would
// have to know). Package onnx does not import package decision, whose
// tests import the methods that import package onnx.
type Calibration struct {
	// Method is "sigmoid" (decision.Sigmoid: 1/(1+exp(A f + B)), f the
	// score or, when Logit, its logit) or "isotonic" (decision.Isotonic:
	// linear interpolation between the points X, Y).
	Method string
	Logit  bool
	A, B   float64
	X, Y   []float64
}

// The calibration methods (decision.Sigmoid, decision.Isotonic).
const (
	sigmoid  = "sigmoid"
	isotonic = "isotonic"
)

// Calibrate applies a decision layer's calibration to p ([N, 1], a
// two-class model's probability of class 1), as
// decision.Calibration.Apply does.
func (b *Builder) Calibrate(cal *Calibration, p Value) (Value, error) {
	switch cal.Method {
	case sigmoid:
		if !finite(cal.A, cal.B) {
			return "", fmt.Errorf("onnx: sigmoid calibration A=%v, B=%v", cal.A, cal.B)
		}
		f := p
		if cal.Logit {
			f = b.Logit(p, 1e-12)
		}
		// 1/(1+exp(A f + B)) = sigmoid(-(A f + B)).
		z := b.Add(b.Mul(f, b.Scalar("platt_a", -cal.A)), b.Scalar("platt_b", -cal.B))
		return b.Sigmoid(z), nil
	case isotonic:
		return b.isotonic(cal.X, cal.Y, p)
	}
	return "", b.Unsupported("calibration %q", cal.Method)
}

// isotonic maps p ([N, 1]) by linear interpolation between the points
// (x, y), clipped at both ends, as decision.Calibration.Apply: the index
// j of the first point not below the (clipped) score is counted, and the
// score interpolated between points j-1 and j.
func (b *Builder) isotonic(x, y []float64, p Value) (Value, error) {
	n := len(x)
	if n == 0 || n != len(y) || !finite(x...) || !finite(y...) {
		return "", errors.New("onnx: isotonic calibration has no points, mismatched or non-finite points")
	}
	if n == 1 {
		// Every score maps to the one value (NaN stays NaN).
		return b.Add(b.Mul(p, b.Scalar("zero", 0)), b.Scalar("iso_y", y[0])), nil
	}
	s := b.Clip(p, x[0], x[n-1])
	xs := b.Doubles("iso_x", []int64{1, int64(n)}, x)
	less := b.Op("Cast", []Value{b.Op("Less", []Value{xs, s})}, IntAttr("to", typeInt64))
	j := b.ReduceSum(less, false, 1) // [N]: points below s
	j = b.Op("Max", []Value{j, b.Int64s("one", nil, []int64{1})})
	j = b.Op("Min", []Value{j, b.Int64s("last", nil, []int64{int64(n - 1)})})
	j0 := b.Sub(j, b.Int64s("one", nil, []int64{1}))
	xv := b.Doubles("iso_x", []int64{int64(n)}, x)
	yv := b.Doubles("iso_y", []int64{int64(n)}, y)
	take := func(v, idx Value) Value {
		return b.Unsqueeze(b.Op("Gather", []Value{v, idx}, IntAttr("axis", 0)), 1)
	}
	x0, x1, y0, y1 := take(xv, j0), take(xv, j), take(yv, j0), take(yv, j)
	f := b.Div(b.Sub(s, x0), b.Sub(x1, x0))
	v := b.Add(y0, b.Mul(f, b.Sub(y1, y0)))
	// A score on a point takes its value exactly.
	return b.Op("Where", []Value{b.Op("Equal", []Value{s, x1}), y1, v}), nil
}
