package onnx

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/forest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/multiclass"
	"github.com/aer-go/aer/prep"
	"github.com/aer-go/aer/tree"
)

// Probabilities is the float32 [N, K] output of a multi-class model's
// graph: each row's class probabilities, in the model's class order (the
// scores aer predict writes, score_<class>).
const Probabilities = "probabilities"

// ExportedMulti lists the multi-class models Write converts, for
// messages.
const ExportedMulti = "gbdt's native softmax model (and models imported from XGBoost or LightGBM), logreg's multinomial one, the native multi-class tree and forests (tree, balanced-rf, balanced-bagging), and one-vs-rest models (--multiclass ovr) of any exported method"

// MultiSpec is what Write exports for a multi-class model: the model,
// its decision's class weights and descriptive fields.
type MultiSpec struct {
	// Model is the multi-class model (learn.MultiModel), scoring rows of
	// Features.
	Model learn.Model
	// Weights are the decision's class weights (decision.MultiLayer): a
	// row's label is the class c of largest Weights[c] p_c, the first
	// on a tie.
	Weights []float64
	// Labels are the class names, in the model's order (metadata).
	Labels []string
	// Cost, when not nil, is the decision's cost matrix
	// (decision.MultiLayer.Cost, K x K, rows the true class): the label
	// is then the class j of least expected cost sum_c p_c Cost[c][j],
	// the first on a tie, and Weights are unused.
	Cost [][]float64
}

// marshalMulti is Marshal of a multi-class model (s.Multi): outputs
// Probabilities (float32 [N, K]) and Label (int64 [N], the index of the
// decided class in Labels).
func marshalMulti(s *Spec) ([]byte, error) {
	ms := s.Multi
	k := ms.Model.NumClasses()
	if len(ms.Weights) != k || (len(ms.Labels) != 0 && len(ms.Labels) != k) {
		return nil, fmt.Errorf("onnx: a multi-class model of %d classes with %d decision weights and %d labels", k, len(ms.Weights), len(ms.Labels))
	}
	if !finite(ms.Weights...) {
		return nil, errors.New("onnx: multi-class decision weights are not finite")
	}
	nf := ms.Model.NumFeatures()
	if len(s.Features) != 0 && len(s.Features) != nf {
		return nil, fmt.Errorf("onnx: the model reads %d features, the spec names %d", nf, len(s.Features))
	}
	method := s.Method
	if method == "" {
		method = fmt.Sprintf("%T", ms.Model)
	}
	c := &converter{g: &graph{}, method: method}
	x, width, err := c.encode(s, nf)
	if err != nil {
		return nil, err
	}
	p, err := c.multiProba(ms.Model, &input{raw: x, nf: nf})
	if err != nil {
		return nil, err
	}
	g := c.g
	g.named(Probabilities, "Cast", []string{p}, intAttr("to", typeFloat))
	rule := "the class c of largest w_c p_c"
	if ms.Cost != nil {
		cost := make([]float64, 0, k*k)
		for _, row := range ms.Cost {
			if len(row) != k {
				return nil, fmt.Errorf("onnx: a cost matrix row of %d costs for %d classes", len(row), k)
			}
			cost = append(cost, row...)
		}
		if len(ms.Cost) != k || !finite(cost...) {
			return nil, fmt.Errorf("onnx: the cost matrix is not %d x %d finite costs", k, k)
		}
		expected := g.matmul(p, g.doubles("cost", []int64{int64(k), int64(k)}, cost)) // [N, K]
		g.named(Label, "ArgMin", []string{expected}, intAttr("axis", 1), intAttr("keepdims", 0))
		rule = "the class j of least expected cost sum_c p_c cost[c][j]"
	} else {
		wp := g.mul(p, g.doubles("class_weights", []int64{int64(k)}, ms.Weights))
		g.named(Label, "ArgMax", []string{wp}, intAttr("axis", 1), intAttr("keepdims", 0))
		rule += ", w = "
	}

	n := dim{param: "N"}
	weights := make([]string, k)
	for i, w := range ms.Weights {
		weights[i] = strconv.FormatFloat(w, 'g', -1, 64)
	}
	if ms.Cost == nil {
		rule += strings.Join(weights, ",")
	}
	doc := fmt.Sprintf("aer %s multi-class model: %s [N, %d] float32 columns (NaN missing) to %s [N, %d] float32 (class probabilities) and %s [N] int64 (%s)",
		method, Input, width, Probabilities, k, Label, rule)
	gp := &graphProto{
		name:         "aer_" + strings.ReplaceAll(method, "-", "_"),
		doc:          doc,
		nodes:        g.nodes,
		initializers: g.inits,
		inputs:       []valueInfo{{name: Input, dtype: typeFloat, dims: []dim{n, {value: int64(width)}}, doc: inputDoc(s)}},
		output: []valueInfo{
			{name: Probabilities, dtype: typeFloat, dims: []dim{n, {value: int64(k)}}, doc: "class probabilities, in the order of the metadata's classes"},
			{name: Label, dtype: typeInt64, dims: []dim{n}, doc: "predicted class: its index in the metadata's classes"},
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
			{"class_weights", strings.Join(weights, ",")},
			{"features", strings.Join(s.Features, ",")},
			{"classes", strings.Join(ms.Labels, ",")},
		},
	}
	return mp.marshal(), nil
}

// multiProba adds the nodes computing m's class probabilities from in
// and returns the [N, K] double value.
func (c *converter) multiProba(m learn.Model, in *input) (string, error) {
	if m.NumFeatures() != in.nf {
		return "", fmt.Errorf("onnx: %s model: a part reads %d features, its input has %d", c.method, m.NumFeatures(), in.nf)
	}
	switch t := m.(type) {
	case *prep.MultiModel:
		var sc = t.Prep.Scaler
		inner, err := in.with(stage{t.Prep.Means, sc})
		if err != nil {
			return "", c.wrap(err)
		}
		return c.multiProba(t.Inner, inner)
	case *boost.MultiModel:
		ms := make([]*boost.Model, t.NumClasses())
		for k := range ms {
			ms[k] = t.Class(k)
		}
		mg, err := c.boostMargins(ms, in)
		if err != nil {
			return "", err
		}
		return c.g.softmax(mg), nil
	case *logreg.MultiModel:
		return c.multinomial(t, in.features(c.g))
	case *tree.MultiModel:
		return c.multiTrees([]*tree.Tree{t.Tree()}, t.NumClasses(), in)
	case *forest.MultiModel:
		return c.multiTrees(t.Forest().Trees, t.NumClasses(), in)
	case *multiclass.Model:
		if t.Strategy != multiclass.OneVsRest {
			return "", c.unsupported("a one-vs-one model (multiclass %s): its pairwise probabilities are coupled by an iteration the graph does not hold; one-vs-rest models (multiclass ovr) export", t.Strategy)
		}
		return c.oneVsRest(t, in)
	}
	return "", c.unsupported("multi-class %T has no ONNX graph (exported: %s)", m, ExportedMulti)
}

// multiTrees is the mean of the multi-class CART trees' leaf class
// shares, as tree.Tree.DistRow and forest.Forest.PredictClassProba give
// them: one TreeEnsembleRegressor with a target per class, each leaf
// giving its k shares, the sums divided by the number of trees.
func (c *converter) multiTrees(ts []*tree.Tree, k int, in *input) (string, error) {
	if len(ts) == 0 {
		return "", c.wrap(fmt.Errorf("the forest has no trees"))
	}
	e := &treeSet{in: in}
	for i, t := range ts {
		if t.Classes != k {
			return "", c.wrap(fmt.Errorf("tree %d has %d classes, the model %d", i, t.Classes, k))
		}
		if err := e.addCARTDist(t); err != nil {
			return "", c.wrap(fmt.Errorf("tree %d: %w", i, err))
		}
	}
	sum := e.emit(c.g, k)
	if len(ts) == 1 {
		return sum, nil
	}
	return c.g.div(sum, c.g.scalar("trees", float64(len(ts)))), nil
}

// multinomial is the softmax of x W^T + b.
func (c *converter) multinomial(m *logreg.MultiModel, x string) (string, error) {
	k, nf := m.NumClasses(), m.NumFeatures()
	if len(m.Intercept) != k {
		return "", c.wrap(fmt.Errorf("%d intercepts for %d classes", len(m.Intercept), k))
	}
	w := make([]float64, nf*k) // [nf, k]
	for cl, row := range m.Coef {
		if len(row) != nf {
			return "", c.wrap(fmt.Errorf("class %d has %d coefficients for %d features", cl, len(row), nf))
		}
		for j, v := range row {
			w[j*k+cl] = v
		}
	}
	if err := checkFinite("coefficient", append(append([]float64(nil), m.Intercept...), w...)...); err != nil {
		return "", c.wrap(err)
	}
	z := c.g.add(c.g.matmul(x, c.g.doubles("coef", []int64{int64(nf), int64(k)}, w)), c.g.doubles("intercept", []int64{int64(k)}, m.Intercept))
	return c.g.softmax(z), nil
}

// oneVsRest is the one-vs-rest model's probabilities: each member's
// probability of its class, through its decision layer's calibration,
// clipped to [0, 1] (NaN 0), divided by their sum (1/K each when it is 0).
func (c *converter) oneVsRest(m *multiclass.Model, in *input) (string, error) {
	g := c.g
	k := m.NumClasses()
	if len(m.Members) != k {
		return "", c.wrap(fmt.Errorf("one-vs-rest model of %d members for %d classes", len(m.Members), k))
	}
	parts := make([]string, k)
	for i := range m.Members {
		mb := &m.Members[i]
		if mb.A != i || mb.B >= 0 {
			return "", c.wrap(fmt.Errorf("member %d is class %d against %d, want class %d against the rest", i, mb.A, mb.B, i))
		}
		p, err := c.proba(mb.Model, in)
		if err != nil {
			return "", fmt.Errorf("class %d vs rest: %w", i, err)
		}
		if mb.Layer != nil && mb.Layer.Calibration != nil {
			if p, err = c.calibrate(mb.Layer.Calibration, p); err != nil {
				return "", fmt.Errorf("class %d vs rest: %w", i, err)
			}
		}
		parts[i] = p
	}
	p := g.concat(1, parts...) // [N, K]
	zero := g.scalar("zero", 0)
	p = g.op("Where", []string{g.op("IsNaN", []string{p}), zero, p})
	p = g.op("Min", []string{g.op("Max", []string{p, zero}), g.scalar("one", 1)})
	sum := g.reduceSum(p, true, 1) // [N, 1]
	norm := g.div(p, g.op("Where", []string{g.op("Greater", []string{sum, zero}), sum, g.scalar("one", 1)}))
	uniform := g.doubles("uniform", []int64{1, int64(k)}, filled(k, 1/float64(k)))
	return g.op("Where", []string{g.op("Greater", []string{sum, zero}), norm, uniform}), nil
}

func filled(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// softmax is exp(z - max) / sum exp(z - max) along axis 1 ([N, K]), as
// package boost and logreg compute it.
func (g *graph) softmax(z string) string {
	hi := g.op("ReduceMax", []string{z}, intsAttr("axes", []int64{1}), intAttr("keepdims", 1))
	e := g.op("Exp", []string{g.sub(z, hi)})
	return g.div(e, g.reduceSum(e, true, 1))
}
