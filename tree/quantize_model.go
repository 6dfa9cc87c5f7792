package tree

import (
	"bytes"
	"fmt"
	"math"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
)

// The magic bytes of a quantised tree model's payload; the last byte is
// the format's version.
var (
	quantMagic      = []byte("aer.tree.quant\x01")
	quantMagicMulti = []byte("aer.tree.quant.multi\x01")
)

// Quantization says how the tree was quantised, and whether it was
// (learn.Quantized).
func (m *fitted) Quantization() (learn.Quantization, bool) { return m.quant.Held() }

// quantize returns the quantised copy of m: its thresholds indices into
// a cut table, its leaves' class shares integers of opt.Precision times
// a scale (AppendQuant); a probability moves by at most the largest
// change of a leaf's share.
func (m *fitted) quantize(opt learn.QuantizeOptions, magic []byte, classes int) (*fitted, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	body, errs, err := EncodeQuant([]*Tree{m.tree}, m.tree.NumFeatures, opt.Precision)
	if err != nil {
		return nil, err
	}
	q := learn.Quantization{Precision: opt.Precision, Bound: quantize.MarginBound(errs), Trees: 1}
	if m.quant != nil {
		// Rounding again adds to the first rounding's bound.
		q.Bound += m.quant.Bound
	}
	q.Bound = math.Min(1, q.Bound)
	b, err := QuantPayload(magic, QuantMeta{NumFeatures: m.tree.NumFeatures, Features: m.features, Quantization: q}, body)
	if err != nil {
		return nil, err
	}
	return loadQuantFitted(b, magic, classes)
}

// marshalQuant encodes a quantised tree again (its leaves are on their
// scale already, so they encode to the same integers).
func (m *fitted) marshalQuant(magic []byte) ([]byte, error) {
	body, _, err := EncodeQuant([]*Tree{m.tree}, m.tree.NumFeatures, m.quant.Precision)
	if err != nil {
		return nil, err
	}
	return QuantPayload(magic, QuantMeta{NumFeatures: m.tree.NumFeatures, Features: m.features, Quantization: *m.quant}, body)
}

func loadQuantFitted(payload, magic []byte, classes int) (*fitted, error) {
	meta, trees, err := DecodeQuantPayload(payload, magic, classes)
	if err != nil {
		return nil, err
	}
	if len(trees) != 1 {
		return nil, fmt.Errorf("tree: a quantised decision tree of %d trees", len(trees))
	}
	q := meta.Quantization
	return &fitted{tree: trees[0], features: meta.Features, quant: &q}, nil
}

// Quantize returns a quantised copy of the tree (learn.Quantizer).
func (m *Model) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	f, err := m.quantize(opt, quantMagic, 0)
	if err != nil {
		return nil, err
	}
	return &Model{fitted: *f}, nil
}

// Quantize returns a quantised copy of the tree (learn.Quantizer): each
// class share moves by at most the bound.
func (m *MultiModel) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	f, err := m.quantize(opt, quantMagicMulti, m.tree.Classes)
	if err != nil {
		return nil, err
	}
	return &MultiModel{*f}, nil
}

// loadQuant decodes a quantised payload, or says it is none.
func loadQuant(payload []byte, multi bool) (*fitted, bool, error) {
	magic := quantMagic
	if multi {
		magic = quantMagicMulti
	}
	if !bytes.HasPrefix(payload, magic) {
		return nil, false, nil
	}
	classes := 0
	if multi {
		classes = -1
	}
	f, err := loadQuantFitted(payload, magic, classes)
	return f, true, err
}
