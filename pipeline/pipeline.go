package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/search"
)

// Spec is what a fit fits, as the command line says it: the method's
// parameters as text, a grid search, the decision and, for three or more
// classes, how they are held. The method itself is given beside it (Plan,
// Check). aer.Settings embeds it beside the run's learn.Env.
type Spec struct {
	// Params are the method's parameters as key=value (aer fit --param),
	// set on a copy of the method: the method given is never changed.
	Params []string
	// Grid are grid axes, key=v1,v2 (key=v1|v2 for values with commas),
	// or "paper" for the method's grid of the paper's appendix; nil: no
	// grid search. Every combination is fitted and the best on the
	// validation rows kept.
	Grid []string
	// Decision says how the decision is fitted on the validation rows:
	// its objective (also the grid's; a cost matrix for three or more
	// classes), rule and calibration, and whether it overrides a
	// threshold the method tuned itself.
	Decision decision.Options
	// Decomposition is how three or more classes are fitted:
	// decompose.Native (the method's own model of k classes), OneVsRest
	// or OneVsOne (two-class models of the method); "" means native when
	// the method has one, else one-vs-rest. Two classes ignore it.
	Decomposition string
}

// NewMethod returns the registered method name with params (key=value)
// set; errors wrap learn.ErrParam or learn.ErrUnknownMethod.
func NewMethod(name string, params []string) (learn.Method, error) {
	m, err := learn.New(name)
	if err != nil {
		return nil, err
	}
	return m, SetParams(m, params)
}

// SetParams sets params (key=value, spaces around either trimmed) on m,
// in order; errors wrap learn.ErrParam.
func SetParams(m learn.Method, params []string) error {
	for _, kv := range params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return fmt.Errorf("%w: want key=value, got %q", learn.ErrParam, kv)
		}
		if err := m.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return err
		}
	}
	return nil
}

// Axes reads grid specs: "paper" for the method's paper grid (an error
// when it has none), else key=v1,v2 axes. nil means no grid search. A
// key given twice, a value repeated within an axis, or more than
// MaxGridPoints points is an error.
func Axes(m learn.Method, specs []string) ([]search.Axis, error) {
	var flat []string
	for _, f := range specs {
		if strings.TrimSpace(f) != "paper" {
			flat = append(flat, f)
			continue
		}
		g, ok := m.(learn.Gridder)
		if !ok || len(g.PaperGrid()) == 0 {
			return nil, fmt.Errorf("%w: grid paper: the paper gives no grid for method %s", learn.ErrParam, m.Name())
		}
		flat = append(flat, g.PaperGrid()...)
	}
	var axes []search.Axis
	seen := map[string]bool{}
	points := 1
	for _, s := range flat {
		a, err := search.ParseAxis(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
		}
		if seen[a.Key] {
			return nil, fmt.Errorf("%w: grid: %s is given twice (one --grid per key, its values separated by commas)", learn.ErrParam, a.Key)
		}
		seen[a.Key] = true
		vals := map[string]bool{}
		for _, v := range a.Values {
			if vals[v] {
				return nil, fmt.Errorf("%w: grid %s: the value %s is given twice", learn.ErrParam, a.Key, v)
			}
			vals[v] = true
		}
		if points > MaxGridPoints/len(a.Values) {
			return nil, fmt.Errorf("%w: grid: more than %d points (every point is a fit); give fewer values", learn.ErrParam, MaxGridPoints)
		}
		points *= len(a.Values)
		axes = append(axes, a)
	}
	return axes, nil
}

// MaxGridPoints bounds a grid search: every point is a fit.
const MaxGridPoints = 10000

// Plan is the fit s describes of method: a copy of it (learn.Clone,
// from the registry) with s's parameters set at every grid point, or
// method itself when s sets none and has no grid.
func (s Spec) Plan(method learn.Method) Plan {
	p := Plan{Grid: s.Grid, Decision: s.Decision, Decomposition: s.Decomposition}
	p.New = func() (learn.Method, error) { return method, nil }
	if len(s.Params) > 0 || s.Grid != nil {
		p.New = func() (learn.Method, error) {
			m, err := learn.Clone(method)
			if errors.Is(err, learn.ErrUnknownMethod) {
				return nil, fmt.Errorf("%w (a method given with Settings.Params or Settings.Grid must be registered, so that Fit can make copies of it)", err)
			}
			if err != nil {
				return nil, err
			}
			return m, SetParams(m, s.Params)
		}
	}
	return p
}

// Check reports a spec that cannot fit method: parameters the method
// refuses, a grid it cannot search, decision options that cannot be
// used, a key both set and searched (the grid would silently win).
func (s Spec) Check(method learn.Method) error {
	p := s.Plan(method)
	l, err := Compose(p.New, s.Grid, s.Decision)
	if err != nil {
		return err
	}
	if g, ok := l.Unwrap().(*search.Grid); ok {
		for _, a := range g.Axes() {
			for _, kv := range s.Params {
				if k, _, _ := strings.Cut(kv, "="); strings.TrimSpace(k) == a.Key {
					return fmt.Errorf("%w: %s is both a --param and a --grid key: give it in one of them", learn.ErrParam, a.Key)
				}
			}
		}
	}
	return nil
}

// Compose returns the composition of the methods newMethod makes: one of
// them, or a grid search over fresh ones when grid has axes (see Axes),
// inside a decision layer fitted as opt says (whose objective the grid
// optimises too).
func Compose(newMethod func() (learn.Method, error), grid []string, opt decision.Options) (*decision.Layered, error) {
	m, err := newMethod()
	if err != nil {
		return nil, err
	}
	if err := opt.Check(); err != nil {
		return nil, err
	}
	axes, err := Axes(m, grid)
	if err != nil {
		return nil, err
	}
	if axes != nil {
		if m, err = search.NewGrid(newMethod, axes, opt.Goal()); err != nil {
			return nil, err
		}
	}
	return decision.Wrap(m, opt), nil
}

// NeedsValid tells whether the fit cannot run without validation rows:
// a grid search. (A decision layer is fitted without them on the
// training rows: decision.Layered.FitLayer.)
func (s Spec) NeedsValid() bool { return len(s.Grid) > 0 }

// Fitted is what a fit gives: the method that fitted the model (the
// chosen grid point's copy), the model (of two classes a learn.Scorer,
// behind its decision layer when there is one), the grid search's
// outcome (nil without a grid), the decision (of two classes nil without
// a layer; of three or more the class weights or cost matrix, never
// nil), and how a model of three or more classes holds them.
type Fitted struct {
	Method   learn.Method
	Model    learn.Model
	Search   *search.Outcome
	Layer    *decision.Layer
	Strategy string
}

// Fit fits m on train, with valid (nil: none) for tuning: m may be a
// decision.Layered around a search.Grid around a method, or any part of
// that composition, or any other method. Training data without positive
// weight on both labels is an error (learn.ErrData).
func Fit(ctx context.Context, m learn.Method, train, valid *learn.Data, env learn.Env) (*Fitted, error) {
	// No weight on a class leaves every method a constant to learn (the
	// boosted trees and the bagging ensembles wrote one without a word).
	if err := train.CheckClassWeights("training data"); err != nil {
		return nil, err
	}
	layered, _ := m.(*decision.Layered)
	inner, fenv := m, env
	var (
		model learn.Scorer
		err   error
	)
	if layered != nil {
		if fenv, err = layered.Begin(valid, env); err != nil {
			return nil, err
		}
		inner = layered.Unwrap()
	}
	out := &Fitted{Method: inner}
	if g, ok := inner.(*search.Grid); ok {
		if out.Search, err = g.Search(ctx, train, valid, fenv); err != nil {
			return nil, err
		}
		out.Method, model = out.Search.Method, out.Search.Model.(learn.Scorer)
	} else if model, err = inner.Fit(ctx, train, valid, fenv); err != nil {
		return nil, err
	}
	if layered != nil {
		// Cross-fitting refits the method the search chose, not the grid.
		if model, err = layered.Finish(ctx, model, out.Method, train, valid, env); err != nil {
			return nil, err
		}
		out.Layer = decision.LayerOf(model)
	}
	out.Model = model
	return out, nil
}

// Plan is a fit for any number of classes, the one every fit of aer
// runs (aer fit, cross-validation, the benchmark): the method, its grid,
// its decision and, for three or more classes, how they are held.
type Plan struct {
	// New returns the method to fit, its parameters set: a fresh copy
	// at every call when there is a grid (one per point).
	New func() (learn.Method, error)
	// Grid lists the grid's axes ("key=v1,v2", or "paper"); nil for none.
	Grid []string
	// Decision says how the decision is fitted.
	Decision decision.Options
	// Decomposition is how three or more classes are fitted:
	// decompose.Native, OneVsRest or OneVsOne; "" is the method's
	// default (decompose.DefaultStrategy).
	Decomposition string
}

// Fit fits the plan on train, whose labels are 0..k-1, tuning on valid
// (nil for none). Two classes: the method (at every grid point, kept at
// its best threshold on valid) behind a decision layer, as Compose and
// Fit do. Three or more: the method's own model or a decomposition
// (decompose.FitDecided), with class weights or a cost matrix fitted as
// p.Decision says, at every grid point with its decision, the best on
// valid kept (decompose.SearchDecided); the training rows are not
// consumed there (learn.Env.ConsumeTrain), since a decomposition reads
// them once per class.
func (p Plan) Fit(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (*Fitted, error) {
	if k <= 2 {
		composed, err := Compose(p.New, p.Grid, p.Decision)
		if err != nil {
			return nil, err
		}
		return Fit(ctx, composed, train, valid, env)
	}
	if err := p.Decision.CheckClasses(k); err != nil {
		return nil, err
	}
	m, err := p.New()
	if err != nil {
		return nil, err
	}
	env.ConsumeTrain = false
	if p.Grid == nil {
		return fitClasses(ctx, m, p.Decomposition, p.Decision, train, valid, k, env)
	}
	if valid == nil {
		return nil, fmt.Errorf("%w: a grid search needs validation rows", learn.ErrParam)
	}
	axes, err := Axes(m, p.Grid)
	if err != nil {
		return nil, err
	}
	return searchClasses(ctx, p.New, axes, p.Decomposition, p.Decision, train, valid, k, env)
}
