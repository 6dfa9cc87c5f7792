package learn

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// leafModel is a two-class model that quantises into a copy saying so.
type leafModel struct {
	q *Quantization
}

func (m *leafModel) NumFeatures() int { return 1 }
func (m *leafModel) NumClasses() int  { return 2 }
func (m *leafModel) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return dst, nil
}
func (m *leafModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return ScorerProba(m, x, dst)
}
func (m *leafModel) MarshalBinary() ([]byte, error) { return nil, nil }
func (m *leafModel) Quantize(opt QuantizeOptions) (Model, error) {
	return &leafModel{q: &Quantization{Precision: opt.Precision, Bound: 0.01}}, nil
}
func (m *leafModel) Quantization() (Quantization, bool) {
	if m.q == nil {
		return Quantization{}, false
	}
	return *m.q, true
}

// noQuant is a two-class model without a quantised form.
type noQuant struct{}

func (m *noQuant) NumFeatures() int { return 1 }
func (m *noQuant) NumClasses() int  { return 2 }
func (m *noQuant) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return dst, nil
}
func (m *noQuant) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return ScorerProba(m, x, dst)
}
func (m *noQuant) MarshalBinary() ([]byte, error) { return nil, nil }

// rewrapper is a wrapper that can rewrap; plain is one that cannot.
type rewrapper struct{ Wrapped }

func (w *rewrapper) MarshalBinary() ([]byte, error) { return nil, nil }
func (w *rewrapper) Rewrap(inner Scorer) Scorer {
	return &rewrapper{Wrapped{Inner: inner, Changed: w.Changed}}
}

type plain struct{ Wrapped }

func (w *plain) MarshalBinary() ([]byte, error) { return nil, nil }

// TestQuantize: learn.Quantize quantises the innermost model and rewraps
// it in every wrapper; the bound is found through wrappers that keep the
// score, not through one that changes it; a wrapper that cannot rewrap,
// a model without a quantised form and an unknown precision are errors.
func TestQuantize(t *testing.T) {
	inner := &leafModel{}
	outer := &rewrapper{Wrapped{Inner: &rewrapper{Wrapped{Inner: inner, Changed: InputChanged}}}}
	if _, ok := QuantizationOf(outer); ok {
		t.Fatal("a full model says it is quantised")
	}
	q, err := Quantize(outer, QuantizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := QuantizationOf(q)
	if !ok || got.Precision != PrecisionInt16 || got.Bound != 0.01 {
		t.Fatalf("quantization %+v %v", got, ok)
	}
	if _, isW := q.(*rewrapper); !isW {
		t.Fatalf("the quantised model is a %T, not the wrapper", q)
	}
	if q.(*rewrapper).Inner.(*rewrapper).Changed != InputChanged {
		t.Fatal("the inner wrapper lost what it changes")
	}
	calibrated := &rewrapper{Wrapped{Inner: inner, Changed: ScoreChanged}}
	qc, err := Quantize(calibrated, QuantizeOptions{Precision: PrecisionInt8})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := QuantizationOf(qc); ok {
		t.Fatal("a bound found through a wrapper that changes the score")
	}
	if _, err := Quantize(&plain{Wrapped{Inner: inner}}, QuantizeOptions{}); !errors.Is(err, ErrNotQuantizable) {
		t.Fatalf("a wrapper without Rewrap: %v", err)
	}
	if _, err := Quantize(&rewrapper{Wrapped{Inner: &noQuant{}}}, QuantizeOptions{}); !errors.Is(err, ErrNotQuantizable) {
		t.Fatalf("no quantised form: %v", err)
	}
	if _, err := Quantize(outer, QuantizeOptions{Precision: "float16"}); !errors.Is(err, ErrParam) {
		t.Fatalf("precision float16: %v", err)
	}
}

func TestQuantizationHeld(t *testing.T) {
	var none *Quantization
	if q, ok := none.Held(); ok || q != (Quantization{}) {
		t.Fatalf("nil: %+v %v", q, ok)
	}
	q := &Quantization{Precision: PrecisionInt16, Bound: 1e-4, Trees: 3}
	if got, ok := q.Held(); !ok || got != *q {
		t.Fatalf("held: %+v %v", got, ok)
	}
}
