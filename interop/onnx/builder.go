package onnx

import (
	"fmt"
	"math"
)

// Value names a tensor of the graph being built: the graph's input, an
// initializer or a node's output. Every value an exporter computes is a
// double tensor unless said otherwise.
type Value string

// Builder builds the nodes and initializers of one graph: what a model's
// ExportONNX adds its part of the graph with. Values are named by the
// builder (prefix_N), so that no two collide; the graph's bytes follow
// the order of the calls, so an exporter adds its nodes in a fixed
// order.
type Builder struct {
	nodes  []*node
	inits  []*tensor
	n      int
	method string
}

// Method is the registered name of the method being exported, for
// messages.
func (b *Builder) Method() string { return b.method }

// fresh returns a new value name.
func (b *Builder) fresh(prefix string) Value {
	b.n++
	return Value(fmt.Sprintf("%s_%d", prefix, b.n))
}

// Doubles adds a double initializer of the given shape and returns it.
func (b *Builder) Doubles(prefix string, dims []int64, v []float64) Value {
	name := b.fresh(prefix)
	b.inits = append(b.inits, &tensor{name: string(name), dims: dims, dtype: typeDouble, doubles: v})
	return name
}

// Scalar adds a double scalar initializer.
func (b *Builder) Scalar(prefix string, v float64) Value {
	return b.Doubles(prefix, nil, []float64{v})
}

// Filled adds a double initializer of the given shape with every entry
// v.
func (b *Builder) Filled(prefix string, dims []int64, v float64) Value {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return b.Doubles(prefix, dims, out)
}

// Int64s adds an int64 initializer of the given shape.
func (b *Builder) Int64s(prefix string, dims []int64, v []int64) Value {
	name := b.fresh(prefix)
	b.inits = append(b.inits, &tensor{name: string(name), dims: dims, dtype: typeInt64, int64s: v})
	return name
}

// Op adds a node of the default domain ("ai.onnx", opset Opset) with one
// output and returns the output.
func (b *Builder) Op(opType string, inputs []Value, attrs ...Attr) Value {
	return b.add(opType, "", inputs, attrs)
}

// opML adds a node of the ai.onnx.ml domain with one output.
func (b *Builder) opML(opType string, inputs []Value, attrs ...Attr) Value {
	return b.add(opType, mlDomain, inputs, attrs)
}

func (b *Builder) add(opType, domain string, inputs []Value, attrs []Attr) Value {
	out := b.fresh(opType)
	b.nodes = append(b.nodes, &node{inputs: names(inputs), outputs: []string{string(out)}, name: string(out), opType: opType, domain: domain, attrs: attrs})
	return out
}

// named adds a node whose output has the given name (a graph output).
func (b *Builder) named(out, opType string, inputs []Value, attrs ...Attr) {
	b.nodes = append(b.nodes, &node{inputs: names(inputs), outputs: []string{out}, name: out, opType: opType, attrs: attrs})
}

func names(vs []Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// Shorthands for the operators the exporters use.

// Add is a + b, broadcasting.
func (b *Builder) Add(x, y Value) Value { return b.Op("Add", []Value{x, y}) }

// Sub is x - y, broadcasting.
func (b *Builder) Sub(x, y Value) Value { return b.Op("Sub", []Value{x, y}) }

// Mul is x * y, broadcasting.
func (b *Builder) Mul(x, y Value) Value { return b.Op("Mul", []Value{x, y}) }

// Div is x / y, broadcasting.
func (b *Builder) Div(x, y Value) Value { return b.Op("Div", []Value{x, y}) }

// Sigmoid is 1/(1+exp(-x)).
func (b *Builder) Sigmoid(x Value) Value { return b.Op("Sigmoid", []Value{x}) }

// CastDouble casts x to double.
func (b *Builder) CastDouble(x Value) Value {
	return b.Op("Cast", []Value{x}, IntAttr("to", typeDouble))
}

// Clip clips x to [lo, hi].
func (b *Builder) Clip(x Value, lo, hi float64) Value {
	return b.Op("Clip", []Value{x, b.Scalar("lo", lo), b.Scalar("hi", hi)})
}

// Logit is log(p/(1-p)) of p clipped to [eps, 1-eps], as aer computes it.
func (b *Builder) Logit(p Value, eps float64) Value {
	c := b.Clip(p, eps, 1-eps)
	return b.Op("Log", []Value{b.Div(c, b.Sub(b.Scalar("one", 1), c))})
}

// Gather takes the entries idx of x along axis.
func (b *Builder) Gather(x Value, idx []int64, axis int64) Value {
	return b.Op("Gather", []Value{x, b.Int64s("idx", []int64{int64(len(idx))}, idx)}, IntAttr("axis", axis))
}

// Concat concatenates along axis; one value is itself.
func (b *Builder) Concat(axis int64, xs ...Value) Value {
	if len(xs) == 1 {
		return xs[0]
	}
	return b.Op("Concat", xs, IntAttr("axis", axis))
}

// Unsqueeze inserts axes of length 1.
func (b *Builder) Unsqueeze(x Value, axes ...int64) Value {
	return b.Op("Unsqueeze", []Value{x, b.Int64s("axes", []int64{int64(len(axes))}, axes)})
}

// ReduceSum sums over axes, keeping them when keep.
func (b *Builder) ReduceSum(x Value, keep bool, axes ...int64) Value {
	return b.Op("ReduceSum", []Value{x, b.Int64s("axes", []int64{int64(len(axes))}, axes)}, IntAttr("keepdims", b2i(keep)))
}

// ReduceSumSquare sums the squares over axes (an attribute up to opset
// 17).
func (b *Builder) ReduceSumSquare(x Value, keep bool, axes ...int64) Value {
	return b.Op("ReduceSumSquare", []Value{x}, IntsAttr("axes", axes), IntAttr("keepdims", b2i(keep)))
}

// MatMul multiplies matrices (with broadcasting of leading dimensions).
func (b *Builder) MatMul(x, y Value) Value { return b.Op("MatMul", []Value{x, y}) }

// Softmax is exp(z - max) / sum exp(z - max) along axis 1 ([N, K]), as
// packages boost and logreg compute it.
func (b *Builder) Softmax(z Value) Value {
	hi := b.Op("ReduceMax", []Value{z}, IntsAttr("axes", []int64{1}), IntAttr("keepdims", 1))
	e := b.Op("Exp", []Value{b.Sub(z, hi)})
	return b.Div(e, b.ReduceSum(e, true, 1))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Attribute constructors.

// IntAttr is an integer attribute.
func IntAttr(name string, v int64) Attr { return Attr{name: name, typ: attrInt, i: v} }

// IntsAttr is an attribute of integers.
func IntsAttr(name string, v []int64) Attr {
	return Attr{name: name, typ: attrInts, ints: v}
}
func stringAttr(name, v string) Attr { return Attr{name: name, typ: attrString, s: v} }
func stringsAttr(name string, v []string) Attr {
	return Attr{name: name, typ: attrStrings, strings: v}
}
func doublesAttr(name string, v []float64) Attr {
	return Attr{name: name, typ: attrTensor, t: &tensor{dims: []int64{int64(len(v))}, dtype: typeDouble, doubles: v}}
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

// CheckFinite returns an error naming the first of v, "what i", that is
// not finite.
func CheckFinite(what string, v ...float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("onnx: %s %d is %v", what, i, x)
		}
	}
	return nil
}
