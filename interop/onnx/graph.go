package onnx

import (
	"fmt"
	"math"
)

// graph builds the nodes and initializers of one GraphProto. Values are
// named by the builder (prefix_N), so that no two collide; every value
// computed is a double tensor unless said otherwise.
type graph struct {
	nodes []*node
	inits []*tensor
	n     int
}

// fresh returns a new value name.
func (g *graph) fresh(prefix string) string {
	g.n++
	return fmt.Sprintf("%s_%d", prefix, g.n)
}

// doubles adds a double initializer of the given shape and returns its
// name.
func (g *graph) doubles(prefix string, dims []int64, v []float64) string {
	name := g.fresh(prefix)
	g.inits = append(g.inits, &tensor{name: name, dims: dims, dtype: typeDouble, doubles: v})
	return name
}

// scalar adds a double scalar initializer.
func (g *graph) scalar(prefix string, v float64) string {
	return g.doubles(prefix, nil, []float64{v})
}

// int64s adds an int64 initializer of the given shape.
func (g *graph) int64s(prefix string, dims []int64, v []int64) string {
	name := g.fresh(prefix)
	g.inits = append(g.inits, &tensor{name: name, dims: dims, dtype: typeInt64, int64s: v})
	return name
}

// op adds a node of the default domain with one output and returns the
// output's name.
func (g *graph) op(opType string, inputs []string, attrs ...attribute) string {
	out := g.fresh(opType)
	g.nodes = append(g.nodes, &node{inputs: inputs, outputs: []string{out}, name: out, opType: opType, attrs: attrs})
	return out
}

// opML adds a node of the ai.onnx.ml domain with one output.
func (g *graph) opML(opType string, inputs []string, attrs ...attribute) string {
	out := g.fresh(opType)
	g.nodes = append(g.nodes, &node{inputs: inputs, outputs: []string{out}, name: out, opType: opType, domain: mlDomain, attrs: attrs})
	return out
}

// named adds a node whose output has the given name (a graph output).
func (g *graph) named(out, opType string, inputs []string, attrs ...attribute) string {
	g.nodes = append(g.nodes, &node{inputs: inputs, outputs: []string{out}, name: out, opType: opType, attrs: attrs})
	return out
}

// Shorthands for the operators used.

func (g *graph) add(a, b string) string { return g.op("Add", []string{a, b}) }
func (g *graph) sub(a, b string) string { return g.op("Sub", []string{a, b}) }
func (g *graph) mul(a, b string) string { return g.op("Mul", []string{a, b}) }
func (g *graph) div(a, b string) string { return g.op("Div", []string{a, b}) }

// sigmoid is 1/(1+exp(-x)).
func (g *graph) sigmoid(x string) string { return g.op("Sigmoid", []string{x}) }

// castDouble casts x to double.
func (g *graph) castDouble(x string) string {
	return g.op("Cast", []string{x}, intAttr("to", typeDouble))
}

// clip clips x to [lo, hi].
func (g *graph) clip(x string, lo, hi float64) string {
	return g.op("Clip", []string{x, g.scalar("lo", lo), g.scalar("hi", hi)})
}

// logit is log(p/(1-p)) of p clipped to [eps, 1-eps], as aer computes it.
func (g *graph) logit(p string, eps float64) string {
	c := g.clip(p, eps, 1-eps)
	return g.op("Log", []string{g.div(c, g.sub(g.scalar("one", 1), c))})
}

// gather takes the entries idx of x along axis.
func (g *graph) gather(x string, idx []int64, axis int64) string {
	return g.op("Gather", []string{x, g.int64s("idx", []int64{int64(len(idx))}, idx)}, intAttr("axis", axis))
}

// concat concatenates along axis.
func (g *graph) concat(axis int64, xs ...string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return g.op("Concat", xs, intAttr("axis", axis))
}

// unsqueeze inserts axes of length 1.
func (g *graph) unsqueeze(x string, axes ...int64) string {
	return g.op("Unsqueeze", []string{x, g.int64s("axes", []int64{int64(len(axes))}, axes)})
}

// reduceSum sums over axes, keeping them when keep.
func (g *graph) reduceSum(x string, keep bool, axes ...int64) string {
	return g.op("ReduceSum", []string{x, g.int64s("axes", []int64{int64(len(axes))}, axes)}, intAttr("keepdims", b2i(keep)))
}

// reduceSumSquare sums the squares over axes (an attribute up to opset 17).
func (g *graph) reduceSumSquare(x string, keep bool, axes ...int64) string {
	return g.op("ReduceSumSquare", []string{x}, intsAttr("axes", axes), intAttr("keepdims", b2i(keep)))
}

// matmul multiplies matrices (with broadcasting of leading dimensions).
func (g *graph) matmul(a, b string) string { return g.op("MatMul", []string{a, b}) }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Attribute constructors.

func intAttr(name string, v int64) attribute { return attribute{name: name, typ: attrInt, i: v} }
func intsAttr(name string, v []int64) attribute {
	return attribute{name: name, typ: attrInts, ints: v}
}
func stringAttr(name, v string) attribute { return attribute{name: name, typ: attrString, s: v} }
func stringsAttr(name string, v []string) attribute {
	return attribute{name: name, typ: attrStrings, strings: v}
}
func floatsAttr(name string, v []float32) attribute {
	return attribute{name: name, typ: attrFloats, floats: v}
}
func doublesAttr(name string, v []float64) attribute {
	return attribute{name: name, typ: attrTensor, t: &tensor{dims: []int64{int64(len(v))}, dtype: typeDouble, doubles: v}}
}

// finite reports whether every value is finite.
func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
