package learn

import (
	"errors"
	"fmt"
)

// Leaf precisions of a quantised model (QuantizeOptions.Precision): a
// leaf value is stored as a signed integer times a scale of its tree, the
// largest magnitude of the tree's leaves over the integer's largest value.
const (
	// PrecisionInt16: 16-bit integers (the default): a leaf is off by at
	// most 1/65534 of its tree's largest leaf magnitude.
	PrecisionInt16 = "int16"
	// PrecisionInt8: 8-bit integers: off by at most 1/254 of it.
	PrecisionInt8 = "int8"
)

// ErrNotQuantizable says a model, or a part of it, has no quantised form.
var ErrNotQuantizable = errors.New("the model cannot be quantised")

// QuantizeOptions says how to quantise a model. Its zero value is the
// default: 16-bit leaves.
type QuantizeOptions struct {
	// Precision of the leaf values: PrecisionInt16 (empty) or
	// PrecisionInt8.
	Precision string
}

// Resolved returns o with its defaults filled in, or an error wrapping
// ErrParam for an unknown precision.
func (o QuantizeOptions) Resolved() (QuantizeOptions, error) {
	switch o.Precision {
	case "":
		o.Precision = PrecisionInt16
	case PrecisionInt16, PrecisionInt8:
	default:
		return o, fmt.Errorf("%w: leaf precision %q (want %s or %s)", ErrParam, o.Precision, PrecisionInt16, PrecisionInt8)
	}
	return o, nil
}

// Quantization says how a quantised model differs from the model it was
// quantised from. Routing is exact (thresholds are indices into a table of
// the original cut values); only the rounding of the leaf values changes
// the scores, by at most Bound.
type Quantization struct {
	// Precision is the leaf values' precision (PrecisionInt16,
	// PrecisionInt8).
	Precision string `json:"precision"`
	// Bound is the largest difference, on any row, between a class
	// probability of the quantised model and the full-precision model's.
	Bound float64 `json:"bound"`
	// LogitBound is the largest difference between their log-odds of the
	// positive class (a boosted model's margin), where the model knows
	// one; 0 when it does not.
	LogitBound float64 `json:"logit_bound,omitempty"`
	// Trees is the number of quantised trees.
	Trees int `json:"trees"`
}

// Held returns *q and true, or the zero value and false when q is nil:
// the Quantized method of a model that keeps its quantisation, when it
// has one, in a *Quantization.
func (q *Quantization) Held() (Quantization, bool) {
	if q == nil {
		return Quantization{}, false
	}
	return *q, true
}

// Quantizer is a model that gives a quantised copy of itself: tree
// thresholds as indices into per-feature cut tables, leaf values in
// reduced precision, the copy saved in a compact encoding its method's
// Load reads. The copy is a Quantized model that says it is.
type Quantizer interface {
	Quantize(opt QuantizeOptions) (Model, error)
}

// Quantized is a model that may be quantised: Quantization says how,
// and whether it is.
type Quantized interface {
	Quantization() (Quantization, bool)
}

// Rewrapper is a wrapper (Unwrapper) that can wrap another model in its
// place: Rewrap returns a wrapper like itself around inner, a model of
// the same features scoring rows as its own inner model does up to a
// stated bound (a quantised copy). Quantize rewraps through it.
type Rewrapper interface {
	Rewrap(inner Scorer) Scorer
}

// Quantize returns a quantised copy of m: m's own (Quantizer) or, for a
// wrapper, the same wrapper around its inner model's quantised copy
// (Rewrapper), walking the chain inwards. A model with neither gives an
// error wrapping ErrNotQuantizable.
func Quantize(m Model, opt QuantizeOptions) (Model, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	return quantize(m, opt)
}

func quantize(m Model, opt QuantizeOptions) (Model, error) {
	if q, ok := m.(Quantizer); ok {
		return q.Quantize(opt)
	}
	u, ok := m.(Unwrapper)
	if !ok {
		return nil, fmt.Errorf("%w: a %T model has no quantised form", ErrNotQuantizable, m)
	}
	r, ok := m.(Rewrapper)
	if !ok {
		return nil, fmt.Errorf("%w: a %T wrapper cannot wrap a quantised model", ErrNotQuantizable, m)
	}
	inner, err := quantize(u.Unwrap(), opt)
	if err != nil {
		return nil, err
	}
	s, ok := inner.(Scorer)
	if !ok {
		return nil, fmt.Errorf("%w: the quantised copy of a %T model is not a two-class scorer", ErrNotQuantizable, u.Unwrap())
	}
	return r.Rewrap(s), nil
}

// QuantizationOf returns how m, or a model it wraps without changing its
// scores, was quantised (Quantized), and whether it was.
func QuantizationOf(m Model) (Quantization, bool) {
	if q, ok := Find[Quantized](m, ScoreChanged); ok {
		return q.Quantization()
	}
	return Quantization{}, false
}
