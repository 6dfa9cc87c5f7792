package svm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
)

// quantMagic opens a quantised model's payload (a full one opens with
// magic); its last byte is the format's version.
//
// The payload: quantMagic; the JSON header (header, plus the
// Quantization) after its length; then, per support vector, its training
// row as a zigzag varint of the difference to the previous one's; per
// support vector its dual coefficient as a float32; per feature the
// offset and scale (float32) of its support-vector values; per
// support vector, feature by feature, the integer k of its value
// offset + k*scale (int16, or int8 for learn.PrecisionInt8); for the
// linear kernel, the weight vector w (float64 per feature), exactly;
// last a byte, 1 when the training means follow (float64 per feature,
// exactly; binary rather than the JSON header's text, a third of the
// bytes), 0 for a model without them.
const quantMagic = "AERQSV\x00\x01"

// quantHeader is the JSON header of a quantised payload.
type quantHeader struct {
	header
	Quantization learn.Quantization `json:"quantization"`
}

// Quantization says how m was quantised, and whether it was
// (learn.Quantized).
func (m *Model) Quantization() (learn.Quantization, bool) { return m.quant.Held() }

// Quantize returns a quantised copy of m (learn.Quantizer): each support
// vector's feature values stored as integers of opt.Precision (int16 by
// default, or int8) times a scale of the feature, about an offset of the
// feature (the middle of its support vectors' range), each off by at
// most half a step; the dual coefficients as float32; the intercept,
// kernel, Platt sigmoid, training means (the attributions' reference) and
// summary exactly. The copy is what its encoding decodes to, in the same
// in-memory layout as a full model, so it predicts as fast.
//
// Its Quantization states the bound on the decision value's change over
// every row x, D = sum_s |c_s| min(1, L ||s' - s||) + |c'_s - c_s| (c_s
// the coefficient, s the support vector, primed the quantised ones), with
// L = sqrt(2 gamma / e) the RBF kernel's Lipschitz constant in s (its
// gradient 2 gamma (x - s) K has largest norm sqrt(2 gamma / e), at
// |x - s|^2 = 1/(2 gamma)) and K' <= 1, plus a slack for the
// floating-point arithmetic; the log-odds -(A f + B) change by at most
// |A| D (LogitBound), the probability by at most tanh(|A| D / 4) (Bound).
// A linear kernel predicts from its weight vector w = sum_s c_s s, which
// is kept exactly: its scores do not change (bound 0; only
// SupportVectors and DualCoef are rounded). The polynomial kernel's
// change grows without bound with the row, so it has no quantised form:
// an error wrapping learn.ErrNotQuantizable. Quantising a quantised
// model adds its bound to the first rounding's.
func (m *Model) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	if m.k.kind == kPoly {
		return nil, fmt.Errorf("%w: svm: the polynomial kernel's change under rounding grows with the row", learn.ErrNotQuantizable)
	}
	levels, err := quantize.Levels(opt.Precision)
	if err != nil {
		return nil, err
	}
	enc, svs, coefs := m.encodeQuant(quantize.Ints{Levels: levels})
	if enc == nil {
		return nil, fmt.Errorf("%w: svm: a coefficient or support-vector value beyond float32's range", learn.ErrNotQuantizable)
	}
	lb := math.Abs(m.plattA) * m.decisionBound(svs, coefs)
	if m.quant != nil {
		lb += m.quant.LogitBound
	}
	q := learn.Quantization{Precision: opt.Precision, LogitBound: lb, Bound: quantize.SigmoidBound(lb)}
	b, err := m.finishQuant(q, enc)
	if err != nil {
		return nil, err
	}
	out, err := decodeQuant(b)
	if err != nil {
		return nil, fmt.Errorf("svm: the quantised model does not decode: %w", err)
	}
	return out, nil
}

// encodeQuant writes the arrays of a quantised payload (everything after
// the header) and returns them with the support vectors and coefficients
// they decode to; nil when a value is beyond float32's range.
func (m *Model) encodeQuant(ints quantize.Ints) (enc []byte, svs *mat.Dense, coefs []float64) {
	n, d := len(m.coef), m.sv.d
	var w quantize.Writer
	prev := 0
	for _, r := range m.support {
		delta := int64(r - prev)
		w.Uvarint(uint64(delta<<1) ^ uint64(delta>>63))
		prev = r
	}
	coefs = make([]float64, n)
	for s, c := range m.coef {
		f := float32(c)
		if math.IsInf(float64(f), 0) {
			return nil, nil, nil
		}
		w.Float32(f)
		coefs[s] = float64(f)
	}
	full := m.SupportVectors()
	off := make([]float64, d)
	scale := make([]float32, d)
	for f := range d {
		var sc float32
		if n > 0 {
			lo, hi := math.Inf(1), math.Inf(-1)
			for s := range n {
				lo, hi = math.Min(lo, full.At(s, f)), math.Max(hi, full.At(s, f))
			}
			off[f] = float64(float32(lo/2 + hi/2))
			if math.IsInf(off[f], 0) {
				return nil, nil, nil
			}
			var err error
			if sc, err = ints.Scale(math.Max(hi-off[f], off[f]-lo)); err != nil {
				return nil, nil, nil
			}
		}
		scale[f] = sc
		w.Float32(float32(off[f]))
		w.Float32(sc)
	}
	if n > 0 {
		svs = mat.NewDense(n, d, nil)
	}
	for s := range n {
		for f := range d {
			svs.Set(s, f, off[f]+ints.Put(&w, full.At(s, f)-off[f], scale[f]))
		}
	}
	if m.k.kind == kLinear {
		for _, v := range m.w {
			w.Float64(v)
		}
	}
	if m.means == nil {
		w.Byte(0)
	} else {
		w.Byte(1)
		for _, v := range m.means {
			w.Float64(v)
		}
	}
	return w.B, svs, coefs
}

// decisionBound is the bound D (Quantize) on the change of the decision
// value when the support vectors become svs and the coefficients coefs:
// 0 for the linear kernel (its weights are kept), for RBF the sum over
// support vectors of |c_s| min(1, L ||s' - s||) + |c'_s - c_s|, plus a
// slack for the arithmetic of either model's kernel sums: the expanded
// squared distance |x|^2 + |s|^2 - 2 x.s is off by at most about
// 2 d 2^-52 (|x|^2 + |s|^2), which moves K(s, x) = exp(-gamma r^2) by at
// most 2 d 2^-52 (3 gamma |s|^2 + sqrt(gamma) |s| + 1) over all x (the
// largest of gamma (|x|^2 + |s|^2) exp(-gamma (|x| - |s|)^2)), taken
// twice with room to spare, plus the rounding of the sums.
func (m *Model) decisionBound(svs *mat.Dense, coefs []float64) float64 {
	if m.k.kind == kLinear || len(m.coef) == 0 {
		return 0
	}
	const eps = 0x1p-52
	g := m.k.gamma
	lip := math.Sqrt(2 * g / math.E)
	d := float64(m.sv.d)
	row := make([]float64, m.sv.d)
	var bound, slack, sumAbs float64
	for s, c := range m.coef {
		full := m.sv.row(s, row)
		var dist, sq float64
		for f, v := range full {
			dv := svs.At(s, f) - v
			dist += dv * dv
			sq += math.Max(v*v, svs.At(s, f)*svs.At(s, f))
		}
		dist = math.Sqrt(dist) * (1 + 1e-12)
		bound += math.Abs(c)*math.Min(1, lip*dist) + math.Abs(coefs[s]-c)
		slack += math.Abs(c) * 8 * (d + 2) * eps * (3*g*sq + math.Sqrt(g*sq) + 1)
		sumAbs += math.Abs(c)
	}
	n := float64(len(m.coef))
	slack += 4*(n+2)*eps*(sumAbs+math.Abs(m.intercept)) + 1e-12
	return bound*(1+1e-12) + slack
}

// finishQuant prepends the magic and header to the arrays enc.
func (m *Model) finishQuant(q learn.Quantization, enc []byte) ([]byte, error) {
	h := quantHeader{header: header{Kernel: kernelNames[m.k.kind], Gamma: m.k.gamma, Coef0: m.k.coef0, Degree: m.k.degree,
		Features: m.sv.d, Support: len(m.coef), Intercept: m.intercept, PlattA: m.plattA, PlattB: m.plattB, Summary: m.summary},
		Quantization: q}
	js, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("svm: encoding the quantised model: %w", err)
	}
	w := quantize.Writer{B: []byte(quantMagic)}
	w.Bytes(js)
	w.B = append(w.B, enc...)
	return w.B, nil
}

// maxSupportRow bounds a support vector's training row in a quantised
// payload.
const maxSupportRow = 1 << 48

// decodeQuant reads a payload written by Quantize, checking everything:
// sizes before anything is allocated, every value finite.
func decodeQuant(p []byte) (*Model, error) {
	bad := func(err error) (*Model, error) {
		return nil, fmt.Errorf("svm: decoding the quantised model: %w", err)
	}
	r := quantize.NewReader(p[len(quantMagic):])
	js := r.Bytes("header bytes")
	if err := r.Err(); err != nil {
		return bad(err)
	}
	var h quantHeader
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return bad(err)
	}
	kind, err := checkHeader(&h.header)
	if err != nil {
		return bad(err)
	}
	if h.Means != nil {
		return bad(fmt.Errorf("training means in the header"))
	}
	q := h.Quantization
	levels, err := quantize.Levels(q.Precision)
	switch {
	case err != nil || q.Precision == "":
		return bad(fmt.Errorf("precision %q", q.Precision))
	case kind == kPoly:
		return bad(fmt.Errorf("a quantised polynomial kernel"))
	case !(q.Bound >= 0 && q.Bound <= 1) || !(q.LogitBound >= 0) || math.IsInf(q.LogitBound, 0) || q.Trees != 0:
		return bad(fmt.Errorf("bound %v (log-odds %v, %d trees)", q.Bound, q.LogitBound, q.Trees))
	}
	ints := quantize.Ints{Levels: levels}
	n, d := h.Support, h.Features
	width := 2
	if levels <= math.MaxInt8 {
		width = 1
	}
	// The least bytes the arrays take: a varint, a float32 and d integers
	// per support vector, 8 bytes per feature, w for linear, the means'
	// byte.
	need := uint64(n)*(5+uint64(d)*uint64(width)) + 8*uint64(d) + 1
	if kind == kLinear {
		need += 8 * uint64(d)
	}
	if n > r.Len() || d > r.Len() || need > uint64(r.Len()) {
		return bad(fmt.Errorf("%d bytes of arrays, at least %d for %d support vectors of %d features", r.Len(), need, n, d))
	}
	support := make([]int, n)
	prev := int64(0)
	for s := range support {
		u := r.Uvarint()
		delta := int64(u>>1) ^ -int64(u&1)
		if delta < -maxSupportRow || delta > maxSupportRow || prev+delta < 0 || prev+delta > maxSupportRow {
			r.Fail("support vector %d: training row %d%+d", s+1, prev, delta)
		}
		prev += delta
		support[s] = int(prev)
	}
	coef := make([]float64, n)
	for s := range coef {
		coef[s] = float64(r.Float32())
		if !finite(coef[s]) {
			r.Fail("coefficient %d is not finite", s+1)
		}
	}
	off := make([]float64, d)
	scale := make([]float32, d)
	for f := range d {
		off[f] = float64(r.Float32())
		scale[f] = quantize.GetScale(r)
		if !finite(off[f]) {
			r.Fail("offset of feature %d is not finite", f+1)
		}
	}
	vals := make([]float64, n*d)
	for i := range vals {
		f := i % d
		vals[i] = off[f] + ints.Get(r, scale[f])
		if !finite(vals[i]) {
			r.Fail("support vector %d, feature %d is not finite", i/d+1, f+1)
		}
	}
	var w []float64
	if kind == kLinear {
		w = make([]float64, d)
		for f := range w {
			w[f] = r.Float64()
			if !finite(w[f]) {
				r.Fail("weight %d is not finite", f+1)
			}
		}
	}
	switch r.Byte() {
	case 0:
	case 1:
		if r.Len() < 8*d {
			r.Fail("%d bytes for %d training means", r.Len(), d)
			break
		}
		h.Means = make([]float64, d)
		for f := range h.Means {
			h.Means[f] = r.Float64()
			if !finite(h.Means[f]) {
				r.Fail("training mean %d is not finite", f+1)
			}
		}
	default:
		r.Fail("training means flag")
	}
	if err := r.Done(); err != nil {
		return bad(err)
	}
	sv := &lanes{d: d}
	if n > 0 {
		sv = newLanes(mat.NewDense(n, d, vals), nil)
	}
	m := newModel(kernelFunc{kind: kind, gamma: h.Gamma, coef0: h.Coef0, degree: h.Degree}, sv, support, coef, h.Intercept)
	if w != nil {
		m.w = w
	}
	m.plattA, m.plattB, m.summary, m.means = h.PlattA, h.PlattB, h.Summary, h.Means
	m.quant, m.qpayload = &q, bytes.Clone(p)
	return m, nil
}
