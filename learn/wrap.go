package learn

import (
	"errors"

	"gonum.org/v1/gonum/mat"
)

// Unwrapper is a Model that wraps another on the same features (a
// decision layer, a resampling or preprocessing composition). Unwrap
// returns the wrapped model; the chain of a model is the model, then what
// it unwraps to, and so on until a model that is not an Unwrapper.
type Unwrapper interface {
	Unwrap() Scorer
}

// Change says what a wrapper changes between its caller and the model it
// wraps, for the capabilities that depend on it (see Find). The zero
// Change is a wrapper that changes neither: it scores exactly the rows
// it is given as its inner model does (a tuned threshold, a model fitted
// on resampled rows).
type Change uint8

const (
	// InputChanged: the wrapper transforms the rows before its inner
	// model sees them, each feature into the same feature (imputation,
	// standardisation). What takes raw rows (Attributor, Explainer)
	// cannot be taken from the inner model as it is.
	InputChanged Change = 1 << iota
	// ScoreChanged: the wrapper's probabilities are not its inner
	// model's (a calibration). What is about the score (Thresholder,
	// Attributor, Explainer) cannot be taken from the inner model.
	ScoreChanged
)

// Changer is an Unwrapper that declares what it changes; an Unwrapper
// that is not a Changer changes nothing.
type Changer interface {
	Changes() Change
}

// changes returns what m declares it changes.
func changes(m Model) Change {
	if c, ok := m.(Changer); ok {
		return c.Changes()
	}
	return 0
}

// Wrapped is the base of a Model that wraps another on the same
// features: embedded in the wrapper, it gives it Unwrap, NumFeatures and
// PositiveProba (the inner model's), and Changes (the Changed field), so
// that capabilities are found through it by Find and As and the wrapper
// writes only what it changes. A wrapper that changes the rows or the
// scores overrides PositiveProba and sets Changed to say so; it writes
// MarshalBinary itself, since what it saves is its own.
type Wrapped struct {
	// Inner is the wrapped model.
	Inner Scorer
	// Changed is what the wrapper changes between its caller and Inner.
	Changed Change
}

// Unwrap returns the inner model.
func (w Wrapped) Unwrap() Scorer { return w.Inner }

// Changes returns w.Changed.
func (w Wrapped) Changes() Change { return w.Changed }

// NumFeatures is the inner model's.
func (w Wrapped) NumFeatures() int { return w.Inner.NumFeatures() }

// PositiveProba is the inner model's.
func (w Wrapped) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return w.Inner.PositiveProba(x, dst)
}

// Find returns the first model of m's chain that implements T, walking
// from a wrapper to its inner model only while the wrapper changes none
// of stop: the capability is then valid for m's rows and scores. m itself
// is always looked at; a nil m has nothing.
//
// Score-dependent capabilities stop at ScoreChanged (Thresholder), those
// that take raw rows and explain the score at InputChanged|ScoreChanged
// (Attributor, Explainer); the helpers ThresholdOf, TunedThreshold,
// ExplainerOf and Attribute say so once. Capabilities about the model's
// make-up pass every wrapper (As).
func Find[T any](m Model, stop Change) (T, bool) {
	var zero T
	for m != nil {
		if c, ok := m.(T); ok {
			return c, true
		}
		u, ok := m.(Unwrapper)
		if !ok || changes(m)&stop != 0 {
			return zero, false
		}
		m = u.Unwrap()
	}
	return zero, false
}

// As returns the first model of m's whole chain that implements T, as
// errors.As does for errors: for capabilities about the model's make-up
// (Summarizer, Warner, Sizer, Importancer, Inspector), which hold whatever a
// wrapper changes. It is Find with no stop.
func As[T any](m Model) (T, bool) {
	return Find[T](m, 0)
}

// TunedThreshold returns the threshold m predicts at when m or a model
// it wraps without changing its scores tuned one (Thresholder), and
// whether there is one.
func TunedThreshold(m Model) (float64, bool) {
	if t, ok := Find[Thresholder](m, ScoreChanged); ok {
		return t.Threshold(), true
	}
	return 0, false
}

// DefersThreshold reports whether m's tuned threshold (TunedThreshold)
// gives way to a decision layer (Deferrer).
func DefersThreshold(m Model) bool {
	t, ok := Find[Thresholder](m, ScoreChanged)
	d, defers := t.(Deferrer)
	return ok && defers && d.DefersThreshold()
}

// ThresholdOf returns m's tuned threshold (TunedThreshold), or 0.5 when
// it has none.
func ThresholdOf(m Model) float64 {
	if t, ok := TunedThreshold(m); ok {
		return t
	}
	return 0.5
}

// ExplainerOf returns what explains m's score for one raw row: m, or a
// model it wraps that sees the same rows and gives the same scores.
func ExplainerOf(m Model) (Explainer, bool) {
	return Find[Explainer](m, InputChanged|ScoreChanged)
}

// ErrNoOOD says a model has no out-of-distribution score (OODOf).
var ErrNoOOD = errors.New("the model has no out-of-distribution score")

// OODOf returns what scores m's rows for being out of distribution
// (OODScorer): m, or a model it wraps that sees the same rows, when it
// has a threshold; false otherwise.
func OODOf(m Model) (OODScorer, bool) {
	o, ok := Find[OODScorer](m, InputChanged)
	if !ok {
		return nil, false
	}
	if _, has := o.OODThreshold(); !has {
		return nil, false
	}
	return o, true
}

// SummaryOf returns the summary of the first Summarizer in m's chain
// (a wrapper with a report of its own includes its inner model's), or
// nil when none has one.
func SummaryOf(m Model) any {
	if s, ok := As[Summarizer](m); ok {
		return s.Summary()
	}
	return nil
}

// WarningsOf returns the fit warnings of the first Warner in m's chain
// (a model behind a decision layer, a resampling or a preprocessing),
// nil when none has some.
func WarningsOf(m Model) []string {
	if w, ok := As[Warner](m); ok {
		return w.Warnings()
	}
	return nil
}

// NumParams returns the parameter count of the first Sizer in m's chain,
// or 1 when none says.
func NumParams(m Model) int {
	if s, ok := As[Sizer](m); ok {
		return s.NumParams()
	}
	return 1
}

// ImportancesOf returns the built-in importances of the first Importancer
// in m's chain (its features are m's); nil when none has some.
func ImportancesOf(m Model) []Importance {
	if im, ok := As[Importancer](m); ok {
		return im.Importances()
	}
	return nil
}

// MembersOf returns the member table of the first Inspector in m's chain
// (an ensemble behind a decision layer or a composition), or nil.
func MembersOf(m Model) []MemberInfo {
	if in, ok := As[Inspector](m); ok {
		return in.MemberTable()
	}
	return nil
}

// WrappedMethod is the base of a Method that wraps another (a
// preprocessing, a resampling, a threshold tuning in front of it):
// embedded in the wrapper, it gives it Unwrap and the inner method's Name,
// Describe, Set and Params, so the wrapper writes Fit and Load and
// overrides only what it adds (its own parameters, its own name).
//
// The capabilities of a Method (Gridder, MemoryEstimator, MappedFitter)
// are about how it fits, which a wrapper changes: they are not found
// through the wrapper, which offers each itself when it holds for it.
type WrappedMethod struct {
	// Inner is the wrapped method.
	Inner Method
}

// Unwrap returns the inner method.
func (w WrappedMethod) Unwrap() Method { return w.Inner }

// Name is the inner method's.
func (w WrappedMethod) Name() string { return w.Inner.Name() }

// Describe is the inner method's description, "" when it has none.
func (w WrappedMethod) Describe() string { return Describe(w.Inner) }

// Set sets one of the inner method's parameters.
func (w WrappedMethod) Set(key, value string) error { return w.Inner.Set(key, value) }

// Params lists the inner method's parameters.
func (w WrappedMethod) Params() []Param { return w.Inner.Params() }

// NumClasses is 2: Wrapped scores the positive class (PositiveProba).
func (w Wrapped) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (w Wrapped) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return ScorerProba(w, x, dst)
}
