package forest

import (
	"bytes"
	"math"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
	"github.com/aer-go/aer/tree"
)

// The magic bytes of a quantised forest's payload; the last byte is the
// format's version.
var (
	quantMagic      = []byte("aer.forest.quant\x01")
	quantMagicMulti = []byte("aer.forest.quant.multi\x01")
)

// Quantization says how the forest was quantised, and whether it was
// (learn.Quantized).
func (m *fitted) Quantization() (learn.Quantization, bool) { return m.quant.Held() }

// quantize returns the quantised copy of m: its trees' thresholds
// indices into one cut table, their leaves' class shares integers of
// opt.Precision times a scale per tree (tree.EncodeQuant); a probability,
// the trees' mean, moves by at most the mean of the trees' largest
// changes of a leaf.
func (m *fitted) quantize(opt learn.QuantizeOptions, magic []byte, classes int) (*fitted, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	body, errs, err := tree.EncodeQuant(m.forest.Trees, m.forest.NumFeatures, opt.Precision)
	if err != nil {
		return nil, err
	}
	q := learn.Quantization{Precision: opt.Precision, Bound: quantize.MarginBound(errs) / float64(len(errs)), Trees: len(errs)}
	if m.quant != nil {
		// Rounding again adds to the first rounding's bound.
		q.Bound += m.quant.Bound
	}
	q.Bound = math.Min(1, q.Bound)
	b, err := tree.QuantPayload(magic, tree.QuantMeta{NumFeatures: m.forest.NumFeatures, Features: m.features, Quantization: q}, body)
	if err != nil {
		return nil, err
	}
	return loadQuant(b, magic, classes)
}

// marshalQuant encodes a quantised forest again (its leaves are on their
// scales already, so they encode to the same integers).
func (m *fitted) marshalQuant(magic []byte) ([]byte, error) {
	body, _, err := tree.EncodeQuant(m.forest.Trees, m.forest.NumFeatures, m.quant.Precision)
	if err != nil {
		return nil, err
	}
	return tree.QuantPayload(magic, tree.QuantMeta{NumFeatures: m.forest.NumFeatures, Features: m.features, Quantization: *m.quant}, body)
}

// loadQuant decodes a quantised forest's payload (classes: 0 for labels
// 0 and 1, -1 for a multi-class forest).
func loadQuant(payload, magic []byte, classes int) (*fitted, error) {
	meta, trees, err := tree.DecodeQuantPayload(payload, magic, classes)
	if err != nil {
		return nil, err
	}
	q := meta.Quantization
	return &fitted{forest: &Forest{NumFeatures: meta.NumFeatures, Trees: trees}, features: meta.Features, quant: &q}, nil
}

// Quantize returns a quantised copy of the forest (learn.Quantizer).
func (m *Model) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	f, err := m.quantize(opt, quantMagic, 0)
	if err != nil {
		return nil, err
	}
	return &Model{fitted: *f}, nil
}

// Quantize returns a quantised copy of the forest (learn.Quantizer):
// each class probability moves by at most the bound.
func (m *MultiModel) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	f, err := m.quantize(opt, quantMagicMulti, -1)
	if err != nil {
		return nil, err
	}
	return &MultiModel{*f}, nil
}

// isQuant reports whether payload is a quantised forest's.
func isQuant(payload, magic []byte) bool { return bytes.HasPrefix(payload, magic) }
