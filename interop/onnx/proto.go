package onnx

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// The few ONNX messages the exporter writes, encoded field by field with
// protowire. Field numbers are those of onnx/onnx.proto (proto2); only
// the fields written are declared.

// Tensor element types (TensorProto.DataType).
const (
	typeFloat  = 1
	typeInt64  = 7
	typeBool   = 9
	typeDouble = 11
)

// Attribute types (AttributeProto.AttributeType).
const (
	attrFloat   = 1
	attrInt     = 2
	attrString  = 3
	attrTensor  = 4
	attrFloats  = 6
	attrInts    = 7
	attrStrings = 8
)

// tensor is a TensorProto: dims, data type, name and the values, stored
// as raw_data (little-endian, IEEE 754), which keeps every float64 and
// int64 exact.
type tensor struct {
	name    string
	dims    []int64
	dtype   int32
	doubles []float64
	int64s  []int64
}

func (t *tensor) append(b []byte) []byte {
	for _, d := range t.dims {
		b = appendVarint(b, 1, uint64(d))
	}
	b = appendVarint(b, 2, uint64(t.dtype))
	if t.name != "" {
		b = appendString(b, 8, t.name)
	}
	var raw []byte
	switch t.dtype {
	case typeDouble:
		raw = make([]byte, 0, 8*len(t.doubles))
		for _, v := range t.doubles {
			raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(v))
		}
	case typeInt64:
		raw = make([]byte, 0, 8*len(t.int64s))
		for _, v := range t.int64s {
			raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
		}
	}
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

// Attr is a node's attribute (an AttributeProto of one of the kinds the
// exporter uses), made by IntAttr and IntsAttr for an exporter's nodes.
type Attr struct {
	name    string
	typ     int32
	f       float32
	i       int64
	s       string
	t       *tensor
	floats  []float32
	ints    []int64
	strings []string
}

func (a *Attr) append(b []byte) []byte {
	b = appendString(b, 1, a.name)
	switch a.typ {
	case attrFloat:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.f))
	case attrInt:
		b = appendVarint(b, 3, uint64(a.i))
	case attrString:
		b = appendString(b, 4, a.s)
	case attrTensor:
		b = appendMessage(b, 5, a.t.append(nil))
	case attrFloats:
		var p []byte
		for _, v := range a.floats {
			p = protowire.AppendFixed32(p, math.Float32bits(v))
		}
		b = protowire.AppendTag(b, 7, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	case attrInts:
		var p []byte
		for _, v := range a.ints {
			p = protowire.AppendVarint(p, uint64(v))
		}
		b = protowire.AppendTag(b, 8, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	case attrStrings:
		for _, s := range a.strings {
			b = appendString(b, 9, s)
		}
	}
	return appendVarint(b, 20, uint64(a.typ))
}

// node is a NodeProto.
type node struct {
	inputs, outputs []string
	name, opType    string
	domain          string
	attrs           []Attr
}

func (n *node) append(b []byte) []byte {
	for _, s := range n.inputs {
		b = appendString(b, 1, s)
	}
	for _, s := range n.outputs {
		b = appendString(b, 2, s)
	}
	b = appendString(b, 3, n.name)
	b = appendString(b, 4, n.opType)
	for i := range n.attrs {
		b = appendMessage(b, 5, n.attrs[i].append(nil))
	}
	if n.domain != "" {
		b = appendString(b, 7, n.domain)
	}
	return b
}

// valueInfo is a ValueInfoProto of a tensor: its element type and shape,
// each dimension a number or, when param is set, a symbolic name.
type valueInfo struct {
	name  string
	dtype int32
	dims  []dim
	doc   string
}

// dim is one dimension of a valueInfo's shape.
type dim struct {
	value int64
	param string
}

func (v *valueInfo) append(b []byte) []byte {
	b = appendString(b, 1, v.name)
	var shape []byte
	for _, d := range v.dims {
		var db []byte
		if d.param != "" {
			db = appendString(db, 2, d.param)
		} else {
			db = appendVarint(db, 1, uint64(d.value))
		}
		shape = appendMessage(shape, 1, db)
	}
	var tt []byte
	tt = appendVarint(tt, 1, uint64(v.dtype))
	tt = appendMessage(tt, 2, shape)
	b = appendMessage(b, 2, appendMessage(nil, 1, tt))
	if v.doc != "" {
		b = appendString(b, 3, v.doc)
	}
	return b
}

// graphProto is a GraphProto.
type graphProto struct {
	name           string
	doc            string
	nodes          []*node
	initializers   []*tensor
	inputs, output []valueInfo
}

func (g *graphProto) append(b []byte) []byte {
	for _, n := range g.nodes {
		b = appendMessage(b, 1, n.append(nil))
	}
	b = appendString(b, 2, g.name)
	for _, t := range g.initializers {
		b = appendMessage(b, 5, t.append(nil))
	}
	if g.doc != "" {
		b = appendString(b, 10, g.doc)
	}
	for i := range g.inputs {
		b = appendMessage(b, 11, g.inputs[i].append(nil))
	}
	for i := range g.output {
		b = appendMessage(b, 12, g.output[i].append(nil))
	}
	return b
}

// opset is an OperatorSetIdProto.
type opset struct {
	domain  string
	version int64
}

// modelProto is a ModelProto.
type modelProto struct {
	irVersion       int64
	opsets          []opset
	producerName    string
	producerVersion string
	doc             string
	graph           *graphProto
	metadata        [][2]string
}

func (m *modelProto) marshal() []byte {
	var b []byte
	b = appendVarint(b, 1, uint64(m.irVersion))
	b = appendString(b, 2, m.producerName)
	b = appendString(b, 3, m.producerVersion)
	if m.doc != "" {
		b = appendString(b, 6, m.doc)
	}
	b = appendMessage(b, 7, m.graph.append(nil))
	for _, o := range m.opsets {
		var ob []byte
		ob = appendString(ob, 1, o.domain)
		ob = appendVarint(ob, 2, uint64(o.version))
		b = appendMessage(b, 8, ob)
	}
	for _, kv := range m.metadata {
		var e []byte
		e = appendString(e, 1, kv[0])
		e = appendString(e, 2, kv[1])
		b = appendMessage(b, 14, e)
	}
	return b
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendMessage(b []byte, num protowire.Number, m []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}
