package aer

import (
	"fmt"
	"math"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
)

// Leaf precisions of a quantised model (QuantizeOptions.Precision).
const (
	// PrecisionInt16: each leaf value a 16-bit integer times a scale of
	// its tree (the default).
	PrecisionInt16 = learn.PrecisionInt16
	// PrecisionInt8: each leaf value an 8-bit integer times the scale.
	PrecisionInt8 = learn.PrecisionInt8
)

// QuantizeOptions says how Quantize rounds a model. Its zero value is the
// default: 16-bit leaves.
type QuantizeOptions struct {
	// Precision of the leaf values: PrecisionInt16 (empty) or
	// PrecisionInt8.
	Precision string
}

// Quantization says how a quantised model differs from the
// full-precision model it was quantised from (Model.Quantization).
// Routing is exact; only the rounding of leaf values moves the scores.
type Quantization struct {
	// Precision is the leaf values' precision (PrecisionInt16,
	// PrecisionInt8).
	Precision string `json:"precision"`
	// Trees is the number of quantised trees.
	Trees int `json:"trees"`
	// Bound is the largest difference, on any row, between a probability
	// Predict gives (the decision layer's calibration included) and the
	// full-precision model's.
	Bound float64 `json:"bound"`
	// ScoreBound is the same for the method's own score, before the
	// decision layer's calibration (Bound without a calibration).
	ScoreBound float64 `json:"score_bound"`
	// LogitBound is the largest difference of the method's log-odds (a
	// boosted model's margin), 0 when the method states none.
	LogitBound float64 `json:"logit_bound,omitempty"`
}

// Quantize returns a quantised copy of the model: every tree's thresholds
// stored as indices into per-feature tables of the original cut values
// (a row reaches the same leaves), and its leaf values as integers of
// opt.Precision times a scale of the tree, saved in a compact encoding
// that Load, aer predict, aer serve and aer explain read. Boosted trees
// (gbdt and its variants, binary and native multi-class) and AER's
// boosted members are quantised; a model behind a decision layer, a
// resampling or a preprocessing keeps them around its quantised copy.
// A method with no quantised form gives an error wrapping
// learn.ErrNotQuantizable. Its Quantization states the bound of its
// probabilities against m's. m is left as it is.
func (m *Model) Quantize(opt QuantizeOptions) (*Model, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	lo := learn.QuantizeOptions{Precision: opt.Precision}
	h := *m.header
	out := &Model{header: &h, layer: m.layer, report: m.report, density: m.density}
	if s := m.scorer(); s != nil {
		q, err := learn.Quantize(decision.Detach(s), lo)
		if err != nil {
			return nil, fmt.Errorf("quantizing the %s model: %w", m.Method(), err)
		}
		qs, ok := q.(learn.Scorer)
		if !ok {
			return nil, fmt.Errorf("quantizing the %s model: %w: the copy is not a two-class scorer", m.Method(), learn.ErrNotQuantizable)
		}
		out.model = qs
		if m.layer != nil {
			out.model = decision.Attach(qs, m.layer)
		}
		return out, nil
	}
	q, err := learn.Quantize(m.model, lo)
	if err != nil {
		return nil, fmt.Errorf("quantizing the %s model: %w", m.Method(), err)
	}
	out.model = q
	return out, nil
}

// Quantization says how the model was quantised (Quantize), with the
// bound of its probabilities, and whether it was.
func (m *Model) Quantization() (Quantization, bool) {
	if m.usable() != nil {
		return Quantization{}, false
	}
	inner := m.model
	if s := m.scorer(); s != nil {
		inner = decision.Detach(s)
	}
	q, ok := learn.QuantizationOf(inner)
	if !ok {
		return Quantization{}, false
	}
	out := Quantization{Precision: q.Precision, Trees: q.Trees, Bound: q.Bound, ScoreBound: q.Bound, LogitBound: q.LogitBound}
	if m.scorer() != nil && m.layer != nil && m.layer.Calibration != nil {
		out.Bound = calibratedBound(m.layer.Calibration, q)
	}
	return out, true
}

// calibratedBound is the bound on calibrated probabilities of scores
// within q's bounds: the calibration is monotone
// (quantize.MonotoneBound); a sigmoid of the log-odds with slope a moves
// by at most tanh(|a| l/4) when the log-odds move by l.
func calibratedBound(c *decision.Calibration, q learn.Quantization) float64 {
	b := quantize.MonotoneBound(c.Apply, q.Bound)
	if c.Method == decision.Sigmoid {
		l := q.LogitBound
		if !c.Logit {
			l = q.Bound
		}
		if l > 0 || !c.Logit {
			b = math.Min(b, quantize.SigmoidBound(math.Abs(c.A)*l))
		}
	}
	return b
}
