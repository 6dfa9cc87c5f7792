package adaptive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
)

// quantMagic opens the encoding of a model whose members are quantised
// (a full model's is JSON and opens with '{'); its last byte is the
// format's version. Then come the model's JSON without the members'
// payloads, then each member's payload, raw: a quantised member is
// compact binary, which the JSON's base64 would grow by a third.
const quantMagic = "AERQAER\x01"

// quantEncoded is the JSON of a quantised model.
type quantEncoded struct {
	encoded
	Quantization learn.Quantization `json:"quantization"`
}

// Quantization says how the model's members were quantised and the bound
// it implies on the score, and whether they were (learn.Quantized).
func (m *Model) Quantization() (learn.Quantization, bool) { return m.quant.Held() }

// Quantize returns a copy of the model whose members are quantised
// (learn.Quantize: boosted trees, the other tree methods and an RBF svm
// peer); members without a quantised form (a logistic-regression peer)
// are kept as they are, exactly. The mixture and the combiner are kept, so every row gets
// the same dynamic weights, and the score moves by at most the bound of
// the combination: in probability space a convex combination of the
// members' probabilities, so the largest member bound; in log-odds space
// the largest member log-odds bound (a probability bound b of a member
// without one gives b/(eps(1-eps)), the clipped logit's slope), through
// the sigmoid. A model without a quantisable member is an error wrapping
// learn.ErrNotQuantizable.
func (m *Model) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	out := *m
	out.members = make([]Member, len(m.members))
	quantised := 0
	for j, mb := range m.members {
		out.members[j] = mb
		q, err := learn.Quantize(mb.Model, opt)
		if errors.Is(err, learn.ErrNotQuantizable) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("aer: member %d (%s): %w", j, mb.Name, err)
		}
		s, ok := q.(learn.Scorer)
		if !ok {
			return nil, fmt.Errorf("aer: member %d (%s): the quantised member is not a two-class scorer", j, mb.Name)
		}
		out.members[j].Model = s
		quantised++
	}
	if quantised == 0 {
		return nil, fmt.Errorf("%w: aer: no member has a quantised form", learn.ErrNotQuantizable)
	}
	q, _ := out.memberBound()
	q.Precision = opt.Precision
	out.quant = &q
	return &out, nil
}

// memberBound is the bound on the score implied by the members' bounds,
// their number of trees, and the number of quantised members.
func (m *Model) memberBound() (learn.Quantization, int) {
	var q learn.Quantization
	eps := m.combiner.OutputEps()
	quantised := 0
	for _, mb := range m.members {
		mq, ok := learn.QuantizationOf(mb.Model)
		if !ok {
			continue
		}
		quantised++
		q.Trees += mq.Trees
		q.Bound = math.Max(q.Bound, mq.Bound)
		lb := mq.LogitBound
		if lb == 0 {
			lb = mq.Bound / (eps * (1 - eps))
		}
		q.LogitBound = math.Max(q.LogitBound, lb)
	}
	if m.combiner.Space == ensemble.LogitSpace {
		q.Bound = quantize.SigmoidBound(q.LogitBound)
	} else {
		q.LogitBound = 0
	}
	return q, quantised
}

// marshalQuant encodes a model with quantised members.
func (m *Model) marshalQuant() ([]byte, error) {
	e := quantEncoded{encoded: encoded{Format: formatV2, Means: m.means, Scaler: m.scaler, Mixture: m.mixture, Combiner: m.combiner, Config: m.config, OOD: m.ood}, Quantization: *m.quant}
	pl, err := payloads(len(m.members), func(j int) learn.Model { return m.members[j].Model })
	if err != nil {
		return nil, err
	}
	for _, mb := range m.members {
		e.Members = append(e.Members, encodedMember{Method: mb.Method, Name: mb.Name})
	}
	js, err := json.Marshal(&e)
	if err != nil {
		return nil, fmt.Errorf("aer: encoding model: %w", err)
	}
	w := quantize.Writer{B: []byte(quantMagic)}
	w.Bytes(js)
	for _, p := range pl {
		w.Bytes(p)
	}
	return w.B, nil
}

// loadQuant decodes a model written by marshalQuant and checks that the
// bound it states is at least the one its members imply.
func loadQuant(b []byte) (*Model, error) {
	r := quantize.NewReader(b[len(quantMagic):])
	js := r.Bytes("model bytes")
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("aer: decoding quantised model: %w", err)
	}
	var e quantEncoded
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("aer: decoding quantised model: %w", err)
	}
	if e.Format != formatV2 {
		return nil, fmt.Errorf("aer: quantised model format %q, this build reads %q", e.Format, formatV2)
	}
	for k := range e.Members {
		e.Members[k].Payload = r.Bytes("member bytes")
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("aer: decoding quantised member %d: %w", k, err)
		}
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("aer: decoding quantised model: %w", err)
	}
	nm, err := fromEncoded(&e.encoded)
	if err != nil {
		return nil, err
	}
	q := e.Quantization
	implied, quantised := nm.memberBound()
	if _, err := quantize.Levels(q.Precision); err != nil || q.Precision == "" || quantised == 0 ||
		!(q.Bound >= implied.Bound && q.Bound <= 1) || !(q.LogitBound >= implied.LogitBound) || math.IsInf(q.LogitBound, 0) || q.Trees != implied.Trees {
		return nil, fmt.Errorf("aer: quantised model states %+v; its members imply %+v", q, implied)
	}
	nm.quant = &q
	return nm, nil
}
