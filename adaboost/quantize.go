package adaboost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
	"github.com/aer-go/aer/tree"
)

// quantMagic opens a quantised model's payload; its last byte is the
// format's version.
var quantMagic = []byte("aer.adaboost.quant\x01")

// quantMeta is what a quantised payload keeps as JSON beside its trees
// and terms.
type quantMeta struct {
	NumFeatures  int                `json:"num_features"`
	Features     []string           `json:"features,omitempty"`
	Errors       [][]float64        `json:"errors"`
	Quantization learn.Quantization `json:"quantization"`
}

// Quantization says how the model was quantised, and whether it was
// (learn.Quantized).
func (m *Model) Quantization() (learn.Quantization, bool) { return m.quant.Held() }

// Quantize returns a quantised copy of the model (learn.Quantizer): its
// trees' thresholds indices into one cut table and their leaves' shares
// rounded (tree.EncodeQuant), and the leaves' terms, which the decisions
// sum, integers of opt.Precision times a scale per tree. An ensemble's
// decision, the mean of its trees' terms, moves by at most the mean of
// the trees' largest changes of a term; its probability by the sigmoid
// of that (tanh of a quarter of it), and the model's, a mean of its
// ensembles', by the largest of theirs.
func (m *Model) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	body, errs, err := m.encodeQuant(opt.Precision)
	if err != nil {
		return nil, err
	}
	q := learn.Quantization{Precision: opt.Precision}
	k := 0
	for _, e := range m.ensembles {
		b := quantize.MarginBound(errs[k:k+len(e.Trees)]) / float64(len(e.Trees))
		k += len(e.Trees)
		if m.quant != nil {
			// Rounding again adds to the first rounding's bound.
			b += m.quant.LogitBound
		}
		q.LogitBound = math.Max(q.LogitBound, b)
	}
	q.Trees, q.Bound = k, quantize.SigmoidBound(q.LogitBound)
	if len(m.ensembles) > 1 {
		q.LogitBound = 0
	}
	b, err := m.payloadQuant(q, body)
	if err != nil {
		return nil, err
	}
	return loadQuant(b)
}

// encodeQuant encodes the trees, then each tree's terms: a scale and an
// integer per leaf; it returns the bytes and each tree's largest change
// of a term.
func (m *Model) encodeQuant(precision string) ([]byte, []float64, error) {
	levels, err := quantize.Levels(precision)
	if err != nil {
		return nil, nil, err
	}
	var trees []*tree.Tree
	var terms [][]float64
	for _, e := range m.ensembles {
		trees, terms = append(trees, e.Trees...), append(terms, e.Terms...)
	}
	body, _, err := tree.EncodeQuant(trees, m.NumFeatures(), precision)
	if err != nil {
		return nil, nil, err
	}
	w := quantize.Writer{B: body}
	ints := quantize.Ints{Levels: levels}
	errs := make([]float64, len(trees))
	for i, t := range trees {
		var mx float64
		for node, f := range t.Feature {
			if f < 0 {
				mx = math.Max(mx, math.Abs(terms[i][node]))
			}
		}
		s, err := ints.Scale(mx)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: adaboost: tree %d: %v", learn.ErrNotQuantizable, i, err)
		}
		w.Float32(s)
		for node, f := range t.Feature {
			if f < 0 {
				errs[i] = math.Max(errs[i], math.Abs(ints.Put(&w, terms[i][node], s)-terms[i][node]))
			}
		}
	}
	return w.B, errs, nil
}

func (m *Model) payloadQuant(q learn.Quantization, body []byte) ([]byte, error) {
	meta := quantMeta{NumFeatures: m.NumFeatures(), Features: m.features, Quantization: q}
	for _, e := range m.ensembles {
		meta.Errors = append(meta.Errors, e.Errors)
	}
	js, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("adaboost: encoding quantised model: %w", err)
	}
	w := quantize.Writer{B: bytes.Clone(quantMagic)}
	w.Bytes(js)
	w.B = append(w.B, body...)
	return w.B, nil
}

// marshalQuant encodes a quantised model again (its values are on their
// scales already, so they encode to the same integers).
func (m *Model) marshalQuant() ([]byte, error) {
	body, _, err := m.encodeQuant(m.quant.Precision)
	if err != nil {
		return nil, err
	}
	return m.payloadQuant(*m.quant, body)
}

// loadQuant decodes a payload written by marshalQuant.
func loadQuant(payload []byte) (*Model, error) {
	r := quantize.NewReader(payload[len(quantMagic):])
	js := r.Bytes("meta bytes")
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("adaboost: decoding quantised model: %w", err)
	}
	var meta quantMeta
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&meta); err != nil {
		return nil, fmt.Errorf("adaboost: decoding quantised model: %w", err)
	}
	q, nf := meta.Quantization, meta.NumFeatures
	levels, err := quantize.Levels(q.Precision)
	if err != nil || q.Precision == "" || !(q.Bound >= 0 && q.Bound <= 1) || !(q.LogitBound >= 0) || math.IsInf(q.LogitBound, 0) {
		return nil, fmt.Errorf("adaboost: quantised model states %+v", q)
	}
	if nf <= 0 || nf > r.Len() || (meta.Features != nil && len(meta.Features) != nf) || len(meta.Errors) == 0 {
		return nil, fmt.Errorf("adaboost: quantised model of %d features (%d names), %d ensembles", nf, len(meta.Features), len(meta.Errors))
	}
	total := 0
	for _, errs := range meta.Errors {
		if len(errs) == 0 {
			return nil, fmt.Errorf("adaboost: quantised model with an empty ensemble")
		}
		total += len(errs)
	}
	if total != q.Trees {
		return nil, fmt.Errorf("adaboost: quantised model of %d rounds states %d trees", total, q.Trees)
	}
	trees, err := tree.ReadQuantBody(r, nf, q, 0)
	if err != nil {
		return nil, err
	}
	ints := quantize.Ints{Levels: levels}
	terms := make([][]float64, len(trees))
	for i, t := range trees {
		s := quantize.GetScale(r)
		terms[i] = make([]float64, t.NumNodes())
		for node, f := range t.Feature {
			if f < 0 {
				terms[i][node] = ints.Get(r, s)
			}
		}
		if !(float64(s)*float64(levels) <= 37) {
			r.Fail("tree %d: term scale %v is out of range", i, s)
		}
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("adaboost: decoding quantised model: %w", err)
	}
	out := &Model{fitted[*Ensemble]{features: meta.Features, quant: &q}}
	k := 0
	for _, errs := range meta.Errors {
		n := len(errs)
		out.ensembles = append(out.ensembles, &Ensemble{NumFeatures: nf, Trees: trees[k : k+n], Errors: errs, Terms: terms[k : k+n]})
		k += n
	}
	return out, nil
}
