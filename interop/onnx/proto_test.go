package onnx_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// msg is a decoded protobuf message: each field number's values, in
// order (varints and fixed values as uint64, bytes as []byte).
type msg map[protowire.Number][]any

// decode reads a message with protowire, failing t on malformed bytes.
func decode(t *testing.T, b []byte) msg {
	t.Helper()
	m := msg{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		var v any
		switch typ {
		case protowire.VarintType:
			x, k := protowire.ConsumeVarint(b)
			v, n = x, k
		case protowire.Fixed32Type:
			x, k := protowire.ConsumeFixed32(b)
			v, n = uint64(x), k
		case protowire.Fixed64Type:
			x, k := protowire.ConsumeFixed64(b)
			v, n = x, k
		case protowire.BytesType:
			x, k := protowire.ConsumeBytes(b)
			v, n = x, k
		default:
			t.Fatalf("field %d: wire type %d", num, typ)
		}
		if n < 0 {
			t.Fatalf("field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
		m[num] = append(m[num], v)
	}
	return m
}

func (m msg) str(num protowire.Number) string {
	if len(m[num]) == 0 {
		return ""
	}
	return string(m[num][0].([]byte))
}

func (m msg) int(num protowire.Number) int64 {
	if len(m[num]) == 0 {
		return 0
	}
	return int64(m[num][0].(uint64))
}

func (m msg) msgs(t *testing.T, num protowire.Number) []msg {
	var out []msg
	for _, v := range m[num] {
		out = append(out, decode(t, v.([]byte)))
	}
	return out
}

// ints reads a repeated varint field, packed or not.
func (m msg) ints(t *testing.T, num protowire.Number) []int64 {
	var out []int64
	for _, v := range m[num] {
		if x, ok := v.(uint64); ok {
			out = append(out, int64(x))
			continue
		}
		b := v.([]byte)
		for len(b) > 0 {
			x, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatal("bad packed varint")
			}
			out = append(out, int64(x))
			b = b[n:]
		}
	}
	return out
}

// model is what the tests read back of a ModelProto.
type model struct {
	ir       int64
	producer string
	opsets   map[string]int64
	metadata map[string]string
	nodes    []msg
	inits    map[string]msg
	inputs   []msg
	outputs  []msg
}

func readModel(t *testing.T, b []byte) *model {
	t.Helper()
	m := decode(t, b)
	out := &model{ir: m.int(1), producer: m.str(2), opsets: map[string]int64{}, metadata: map[string]string{}, inits: map[string]msg{}}
	for _, o := range m.msgs(t, 8) {
		out.opsets[o.str(1)] = o.int(2)
	}
	for _, kv := range m.msgs(t, 14) {
		out.metadata[kv.str(1)] = kv.str(2)
	}
	gs := m.msgs(t, 7)
	if len(gs) != 1 {
		t.Fatalf("%d graphs", len(gs))
	}
	g := gs[0]
	out.nodes = g.msgs(t, 1)
	for _, init := range g.msgs(t, 5) {
		out.inits[init.str(8)] = init
	}
	out.inputs, out.outputs = g.msgs(t, 11), g.msgs(t, 12)
	return out
}

// attr returns the node's attribute of that name, nil without one.
func attr(t *testing.T, n msg, name string) msg {
	for _, a := range n.msgs(t, 5) {
		if a.str(1) == name {
			return a
		}
	}
	return nil
}

// doubles reads a double tensor's raw_data.
func doubles(t *testing.T, tensor msg) []float64 {
	if tensor.int(2) != 11 {
		t.Fatalf("tensor %q has data type %d, want double (11)", tensor.str(8), tensor.int(2))
	}
	raw := tensor.str(9)
	out := make([]float64, len(raw)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64([]byte(raw[8*i:])))
	}
	return out
}

// checkGraph checks what every exported graph has: the versions, the
// input and outputs, every node's inputs defined before it, and every
// initializer's data matching its shape.
func checkGraph(t *testing.T, m *model, nf int) {
	t.Helper()
	if m.ir != onnx.IRVersion || m.producer != "aer" || m.opsets[""] != onnx.Opset || m.opsets["ai.onnx.ml"] != onnx.MLOpset {
		t.Fatalf("ir %d, producer %q, opsets %v", m.ir, m.producer, m.opsets)
	}
	shape := func(v msg) (int64, []string) {
		tp := v.msgs(t, 2)[0].msgs(t, 1)[0]
		var dims []string
		for _, d := range tp.msgs(t, 2)[0].msgs(t, 1) {
			if p := d.str(2); p != "" {
				dims = append(dims, p)
			} else {
				dims = append(dims, fmt.Sprint(d.int(1)))
			}
		}
		return tp.int(1), dims
	}
	if len(m.inputs) != 1 || m.inputs[0].str(1) != onnx.Input {
		t.Fatalf("inputs %v", m.inputs)
	}
	if ty, dims := shape(m.inputs[0]); ty != 1 || !slices.Equal(dims, []string{"N", fmt.Sprint(nf)}) {
		t.Errorf("input X: type %d, shape %v; want float (1) [N %d]", ty, dims, nf)
	}
	if len(m.outputs) != 2 || m.outputs[0].str(1) != onnx.Probability || m.outputs[1].str(1) != onnx.Label {
		t.Fatalf("outputs %v", m.outputs)
	}
	if ty, dims := shape(m.outputs[0]); ty != 1 || !slices.Equal(dims, []string{"N"}) {
		t.Errorf("probability: type %d, shape %v", ty, dims)
	}
	if ty, dims := shape(m.outputs[1]); ty != 7 || !slices.Equal(dims, []string{"N"}) {
		t.Errorf("label: type %d, shape %v", ty, dims)
	}
	defined := map[string]bool{onnx.Input: true}
	for name, init := range m.inits {
		defined[name] = true
		n := int64(1)
		for _, d := range init.ints(t, 1) {
			n *= d
		}
		size := map[int64]int64{7: 8, 11: 8}[init.int(2)]
		if size == 0 || int64(len(init.str(9))) != n*size {
			t.Errorf("initializer %s: type %d, %d bytes for %d values", name, init.int(2), len(init.str(9)), n)
		}
	}
	for _, n := range m.nodes {
		for _, in := range n[1] {
			if !defined[string(in.([]byte))] {
				t.Errorf("node %s (%s) reads %s before it is defined", n.str(3), n.str(4), in)
			}
		}
		for _, out := range n[2] {
			defined[string(out.([]byte))] = true
		}
	}
	if !defined[onnx.Probability] || !defined[onnx.Label] {
		t.Error("the outputs are not computed")
	}
}

// summary lists a graph's operators (domain:op and count, in order of
// first use) and its initializers' shapes, for the golden files.
func summary(t *testing.T, m *model) string {
	var ops []string
	count := map[string]int{}
	for _, n := range m.nodes {
		op := n.str(4)
		if d := n.str(7); d != "" {
			op = d + ":" + op
		}
		if count[op] == 0 {
			ops = append(ops, op)
		}
		count[op]++
	}
	var b strings.Builder
	for _, op := range ops {
		fmt.Fprintf(&b, "op %s x%d\n", op, count[op])
	}
	var inits []string
	for name, init := range m.inits {
		base := name[:strings.LastIndex(name, "_")]
		inits = append(inits, fmt.Sprintf("init %s %v type %d", base, init.ints(t, 1), init.int(2)))
	}
	slices.Sort(inits)
	b.WriteString(strings.Join(inits, "\n") + "\n")
	for _, n := range m.nodes {
		if n.str(4) == "TreeEnsembleRegressor" {
			fmt.Fprintf(&b, "trees: n_targets %d, %d nodes, %d leaves\n", attr(t, n, "n_targets").int(3),
				len(attr(t, n, "nodes_nodeids").ints(t, 8)), len(attr(t, n, "target_ids").ints(t, 8)))
		}
	}
	return b.String()
}

// clinic fits method on the module's clinic tables.
func clinic(t *testing.T, method string, params ...string) *aer.Model {
	t.Helper()
	read := &aer.ReadOptions{ID: "id", Label: "outcome"}
	train, err := aer.ReadTable(filepath.Join("..", "..", "testdata", "clinic.train.csv"), read)
	if err != nil {
		t.Fatal(err)
	}
	valid, err := aer.ReadTable(filepath.Join("..", "..", "testdata", "clinic.valid.csv"), read)
	if err != nil {
		t.Fatal(err)
	}
	m, err := learn.New(method)
	if err != nil {
		t.Fatal(err)
	}
	model, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Spec: aer.Spec{Params: params}, Env: aer.Env{Seed: 1}}, m)
	if err != nil {
		t.Fatal(err)
	}
	return model
}

// The files of gbdt, logreg, svm, balanced-rf and AER models read back as
// ModelProtos with the versions, input, outputs and operators expected,
// every initializer's data the size of its shape (golden summaries in
// testdata/<name>.txt). aer_dynamic keeps the competence part (lambda 1,
// no fallback) in a graph, which the default aer on the clinic table
// tunes away.
func TestGraphs(t *testing.T) {
	for _, c := range []struct {
		name, method string
		params       []string
	}{
		{"gbdt", "gbdt", nil}, {"logreg", "logreg", nil}, {"svm", "svm", nil},
		{"balanced-rf", "balanced-rf", []string{"n_estimators=5"}}, {"aer", "aer", nil},
		{"aer_dynamic", "aer", []string{"fallback=-1", "dynamic_ensemble=true"}},
	} {
		method := c.method
		t.Run(c.name, func(t *testing.T) {
			model := clinic(t, method, c.params...)
			var buf bytes.Buffer
			if err := model.ExportONNX(&buf); err != nil {
				t.Fatal(err)
			}
			m := readModel(t, buf.Bytes())
			// The clinic table's text column enters as one raw column,
			// one-hot encoded inside the graph.
			sch := model.Schema()
			if len(sch.Categories) == 0 {
				t.Fatal("the clinic table has no categorical column")
			}
			checkGraph(t, m, len(sch.RawColumns()))
			if m.metadata["method"] != method || m.metadata["features"] != strings.Join(model.Schema().Features, ",") {
				t.Errorf("metadata %v", m.metadata)
			}
			th, _ := model.Threshold()
			if m.metadata["threshold"] != fmt.Sprint(th) {
				t.Errorf("metadata threshold %s, model's %v", m.metadata["threshold"], th)
			}
			got := summary(t, m)
			golden := filepath.Join("testdata", c.name+".txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("graph summary differs from %s (go test -update rewrites it):\n%s", golden, got)
			}
		})
	}
}

// A method without an ONNX graph, and a boosted tree with a categorical
// partition split or a zero-as-missing split, are refused with
// ErrUnsupported naming them.
func TestUnsupported(t *testing.T) {
	model := clinic(t, "mlp-focal", "max_epochs=5")
	err := model.ExportONNX(&bytes.Buffer{})
	if !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), "mlp-focal") {
		t.Errorf("mlp-focal: %v", err)
	}
	bt := boost.Tree{Feature: []int32{0, -1, -1}, Threshold: []float64{0, 0, 0}, DefaultLeft: make([]bool, 3),
		Left: []int32{1, -1, -1}, Value: []float64{0, 1, 2}, Gain: make([]float64, 3), Cover: make([]float64, 3),
		Categories: [][]int32{{1, 3}, nil, nil}}
	_, err = onnx.Marshal(&onnx.Spec{Model: &boost.Fitted{Model: &boost.Model{NumFeatures: 1, Trees: []boost.Tree{bt}}}, Method: "gbdt"})
	if !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), "categorical") {
		t.Errorf("categorical split: %v", err)
	}
	bt.Categories, bt.ZeroMissing = nil, []bool{true, false, false}
	_, err = onnx.Marshal(&onnx.Spec{Model: &boost.Fitted{Model: &boost.Model{NumFeatures: 1, Trees: []boost.Tree{bt}}}, Method: "gbdt"})
	if !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), "zero_as_missing") {
		t.Errorf("zero-as-missing split: %v", err)
	}
	if _, err := onnx.Marshal(&onnx.Spec{Model: &logreg.Model{Coef: []float64{1}}, Threshold: 2}); err == nil {
		t.Error("a threshold of 2 was taken")
	}
}
