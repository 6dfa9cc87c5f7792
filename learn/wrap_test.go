package learn_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// bottom is a model with every optional capability: its probability is
// the first feature, its attributions give feature j the value x[j].
type bottom struct{}

func (bottom) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	dst = dst[:0]
	for i := range r {
		dst = append(dst, x.At(i, 0))
	}
	return dst, nil
}
func (bottom) NumFeatures() int               { return 2 }
func (bottom) MarshalBinary() ([]byte, error) { return []byte("bottom"), nil }
func (bottom) Threshold() float64             { return 0.3 }
func (bottom) Summary() any                   { return "bottom's summary" }
func (bottom) Warnings() []string             { return []string{"bottom's warning"} }
func (bottom) NumParams() int                 { return 7 }
func (bottom) Importances() []learn.Importance {
	return []learn.Importance{{Kind: "gain", Values: []float64{1, 2}}}
}
func (bottom) MemberTable() []learn.MemberInfo { return []learn.MemberInfo{{Method: "m", Name: "one"}} }
func (bottom) Explain(row []float64) (learn.Explanation, error) {
	return note(fmt.Sprintf("row %v", row)), nil
}
func (bottom) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	r, _ := x.Dims()
	return &learn.Attribution{Space: learn.Probability, Base: make([]float64, r), Phi: mat.DenseCopyOf(x)}, nil
}

type note string

func (n note) WriteText(w io.Writer) error { _, err := io.WriteString(w, string(n)); return err }

// plain wraps a model and changes nothing: it has only what learn.Wrapped
// gives, and MarshalBinary.
type plain struct{ learn.Wrapped }

func (p *plain) MarshalBinary() ([]byte, error) { return p.Inner.MarshalBinary() }

func wrapPlain(m learn.Scorer) learn.Scorer { return &plain{learn.Wrapped{Inner: m}} }

// squared changes the score: its probability is the square of its inner
// model's.
type squared struct{ learn.Wrapped }

func (s *squared) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	p, err := s.Inner.PositiveProba(x, dst)
	for i := range p {
		p[i] *= p[i]
	}
	return p, err
}
func (s *squared) MarshalBinary() ([]byte, error) { return s.Inner.MarshalBinary() }

func wrapSquared(m learn.Scorer) learn.Scorer {
	return &squared{learn.Wrapped{Inner: m, Changed: learn.ScoreChanged}}
}

// halved changes the rows: its inner model sees every feature halved. It
// attributes with its inner model on the halved rows.
type halved struct{ learn.Wrapped }

func (h *halved) half(x *mat.Dense) *mat.Dense {
	var y mat.Dense
	y.Scale(0.5, x)
	return &y
}
func (h *halved) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return h.Inner.PositiveProba(h.half(x), dst)
}
func (h *halved) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	return learn.AttributeInner(h.Inner, h.half(x))
}
func (h *halved) MarshalBinary() ([]byte, error) { return h.Inner.MarshalBinary() }

func wrapHalved(m learn.Scorer) learn.Scorer {
	return &halved{learn.Wrapped{Inner: m, Changed: learn.InputChanged}}
}

// capabilities is what the helpers find in m.
type capabilities struct {
	threshold   float64
	tuned       bool
	explains    bool
	attributes  bool
	summary     any
	warnings    []string
	params      int
	importances int
	members     int
}

func find(t *testing.T, m learn.Scorer) capabilities {
	t.Helper()
	var c capabilities
	c.threshold, c.tuned = learn.TunedThreshold(m)
	if c.tuned != (learn.ThresholdOf(m) == c.threshold) || !c.tuned && learn.ThresholdOf(m) != 0.5 {
		t.Errorf("ThresholdOf %v disagrees with TunedThreshold %v, %v", learn.ThresholdOf(m), c.threshold, c.tuned)
	}
	_, c.explains = learn.ExplainerOf(m)
	_, err := learn.Attribute(context.Background(), m, mat.NewDense(1, 2, []float64{0.4, 0.2}), 1)
	if err != nil && !errors.Is(err, learn.ErrNoAttribution) {
		t.Errorf("Attribute: %v", err)
	}
	c.attributes = err == nil
	c.summary = learn.SummaryOf(m)
	c.warnings = learn.WarningsOf(m)
	c.params = learn.NumParams(m)
	c.importances = len(learn.ImportancesOf(m))
	c.members = len(learn.MembersOf(m))
	return c
}

var (
	everything = capabilities{threshold: 0.3, tuned: true, explains: true, attributes: true, summary: "bottom's summary",
		warnings: []string{"bottom's warning"}, params: 7, importances: 1, members: 1}
	makeUpOnly = capabilities{summary: "bottom's summary", warnings: []string{"bottom's warning"}, params: 7, importances: 1, members: 1}
)

// Through wrappers that change nothing, every capability of the bottom
// model is found, and the base forwards scores and features.
func TestFindThroughPlainWrappers(t *testing.T) {
	m := wrapPlain(wrapPlain(wrapPlain(bottom{})))
	if got := find(t, m); !reflect.DeepEqual(got, everything) {
		t.Errorf("through 3 plain wrappers: %+v, want %+v", got, everything)
	}
	ex, _ := learn.ExplainerOf(m)
	if e, err := ex.Explain([]float64{0.4, 0.2}); err != nil || e != note("row [0.4 0.2]") {
		t.Errorf("Explain = %v, %v", e, err)
	}
	x := mat.NewDense(2, 2, []float64{0.4, 0.2, 0.9, 0.1})
	if p, err := m.PositiveProba(x, nil); err != nil || !reflect.DeepEqual(p, []float64{0.4, 0.9}) {
		t.Errorf("PositiveProba = %v, %v", p, err)
	}
	if m.NumFeatures() != 2 {
		t.Errorf("NumFeatures = %d", m.NumFeatures())
	}
	if b, _ := m.MarshalBinary(); string(b) != "bottom" {
		t.Errorf("MarshalBinary = %q", b)
	}
	if in := m.(learn.Unwrapper).Unwrap(); reflect.TypeOf(in) != reflect.TypeOf(&plain{}) {
		t.Errorf("Unwrap = %T", in)
	}
}

// A wrapper that changes the score hides what is about the score
// (threshold, explanation, attributions) of every model below it, and
// nothing about the models' make-up.
func TestFindStopsAtScoreChange(t *testing.T) {
	m := wrapPlain(wrapSquared(wrapPlain(bottom{})))
	if got := find(t, m); !reflect.DeepEqual(got, makeUpOnly) {
		t.Errorf("behind a score-changing wrapper: %+v, want %+v", got, makeUpOnly)
	}
	if p, _ := m.PositiveProba(mat.NewDense(1, 2, []float64{0.5, 0}), nil); p[0] != 0.25 {
		t.Errorf("PositiveProba = %v, want the squared 0.25", p)
	}
	// Below the change, everything is found again.
	inner := m.(learn.Unwrapper).Unwrap().(learn.Unwrapper).Unwrap()
	if got := find(t, inner); !reflect.DeepEqual(got, everything) {
		t.Errorf("below the score-changing wrapper: %+v, want %+v", got, everything)
	}
	// A wrapper's own capability is always its own, whatever it changes.
	own := &struct {
		*squared
		learn.Thresholder
	}{wrapSquared(bottom{}).(*squared), threshold(0.8)}
	if th, ok := learn.TunedThreshold(own); !ok || th != 0.8 {
		t.Errorf("a score-changing wrapper's own threshold: %v, %v", th, ok)
	}
}

type threshold float64

func (t threshold) Threshold() float64 { return float64(t) }

// A wrapper that changes the rows keeps the threshold found (it scores
// what its inner model scores), hides per-row explanations of raw rows,
// and attributes with its own Attribute on the rows it transforms.
func TestFindStopsAtInputChange(t *testing.T) {
	m := wrapPlain(wrapHalved(wrapPlain(bottom{})))
	want := everything
	want.explains = false
	if got := find(t, m); !reflect.DeepEqual(got, want) {
		t.Errorf("behind a row-changing wrapper: %+v, want %+v", got, want)
	}
	a, err := learn.Attribute(context.Background(), m, mat.NewDense(1, 2, []float64{0.4, 0.2}), 1)
	if err != nil || a.Phi.At(0, 0) != 0.2 || a.Phi.At(0, 1) != 0.1 {
		t.Errorf("attributions %v, %v: want those of the halved row", a, err)
	}
	// Below a score change, the row-changing wrapper's own Attribute
	// finds nothing.
	m = wrapHalved(wrapSquared(bottom{}))
	if _, err := learn.Attribute(context.Background(), m, mat.NewDense(1, 2, nil), 1); !errors.Is(err, learn.ErrNoAttribution) {
		t.Errorf("Attribute through a score change: %v", err)
	}
}

// unwrapOnly is an Unwrapper that is not a Changer: it changes nothing.
type unwrapOnly struct{ learn.Scorer }

func (u unwrapOnly) Unwrap() learn.Scorer { return u.Scorer }

func TestFindEdges(t *testing.T) {
	if _, ok := learn.Find[learn.Thresholder](nil, 0); ok {
		t.Error("Find in a nil model found something")
	}
	if learn.ThresholdOf(nil) != 0.5 || learn.NumParams(nil) != 1 || learn.SummaryOf(nil) != nil || learn.WarningsOf(nil) != nil {
		t.Error("the helpers on a nil model are not their defaults")
	}
	if th, ok := learn.TunedThreshold(unwrapOnly{bottom{}}); !ok || th != 0.3 {
		t.Errorf("through a bare Unwrapper: %v, %v", th, ok)
	}
	// The search stops at the first model that has the capability.
	m := wrapPlain(&struct {
		*plain
		learn.Thresholder
	}{wrapPlain(bottom{}).(*plain), threshold(0.6)})
	if th := learn.ThresholdOf(m); th != 0.6 {
		t.Errorf("ThresholdOf = %v, want the nearest 0.6", th)
	}
	if s, ok := learn.As[learn.Sizer](wrapSquared(wrapHalved(bottom{}))); !ok || s.NumParams() != 7 {
		t.Error("As does not walk through every wrapper")
	}
}

// namedMethod is a method with a name, a description and one parameter.
type namedMethod struct{ noEstimate }

func (namedMethod) Describe() string { return "a method" }
func (namedMethod) Set(key, value string) error {
	if key == "depth" {
		return nil
	}
	return learn.ErrParam
}
func (namedMethod) Params() []learn.Param { return []learn.Param{{Key: "depth"}} }

func TestWrappedMethod(t *testing.T) {
	w := learn.WrappedMethod{Inner: namedMethod{}}
	if w.Name() != "sized" || w.Describe() != "a method" || len(w.Params()) != 1 || w.Params()[0].Key != "depth" {
		t.Errorf("Name %q, Describe %q, Params %v: not the inner method's", w.Name(), w.Describe(), w.Params())
	}
	if w.Set("depth", "3") != nil || !errors.Is(w.Set("other", "1"), learn.ErrParam) {
		t.Error("Set does not reach the inner method")
	}
	if _, ok := w.Unwrap().(namedMethod); !ok {
		t.Errorf("Unwrap = %T", w.Unwrap())
	}
}

// A wrapper embeds learn.Wrapped and writes only what it changes; what
// its inner model offers is found through it by the helpers, unless the
// wrapper says it changes the scores.
func ExampleWrapped() {
	m := wrapPlain(bottom{})   // changes nothing
	c := wrapSquared(bottom{}) // changes the scores
	fmt.Println(learn.ThresholdOf(m), learn.ThresholdOf(c))
	fmt.Println(learn.NumParams(m), learn.NumParams(c))
	_, explains := learn.ExplainerOf(c)
	fmt.Println(explains)
	// Output:
	// 0.3 0.5
	// 7 7
	// false
}

// NumClasses is 2: squared scores the positive class (PositiveProba).
func (s *squared) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (s *squared) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(s, x, dst)
}

// NumClasses is 2: halved scores the positive class (PositiveProba).
func (h *halved) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (h *halved) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(h, x, dst)
}

func (bottom) NumClasses() int { return 2 }

func (m bottom) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}
