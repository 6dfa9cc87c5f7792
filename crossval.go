package aer

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/learn"
)

// CrossValidate estimates how method does on unseen rows of t by
// stratified k-fold cross-validation (package cv), for any number of
// classes: folds stratified on every class (each class needs at least
// cs.Folds rows), each round fitted as Fit fits the table and scored at
// its decision by every metric of its number of classes. For two
// classes a round runs the fit protocol (s's parameters, grid and
// decision layer, tuned on a hold-out share of the round's training
// rows, cs.Holdout, which a grid or an explicit decision layer needs)
// and is scored at its threshold; for more, it fits s's parameters,
// s.Decomposition and its multi-class decision (s.Decision's rule and
// metric or cost matrix), on the hold-out share when it is not 0 (a grid
// needs one). s.Seed drives the folds and the fits; s.Workers bounds the
// goroutines of all the rounds together (the result does not depend on
// it). s.Progress, when not nil, is told the rounds done (stage
// "folds"); onRound, when not nil, of each finished round. A nil
// method means DefaultMethod; nil s and cs the defaults.
func CrossValidate(ctx context.Context, t *Table, s *Settings, method learn.Method, cs *cv.Settings, onRound func(cv.Fold)) (*cv.Result, error) {
	if s == nil {
		s = &Settings{}
	}
	if cs == nil {
		cs = &cv.Settings{}
	}
	if t == nil || !t.Labelled() {
		return nil, fmt.Errorf("%w: the table has no label", learn.ErrData)
	}
	sch := t.Schema()
	k := sch.NumClasses()
	p := s.Spec.Plan(orDefault(method))
	if err := p.Decision.CheckClasses(k); err != nil {
		return nil, err
	}
	switch {
	case cs.Holdout != 0:
	case s.Grid != nil:
		return nil, fmt.Errorf("%w: a grid search needs a validation hold-out (cv.Settings.Holdout)", learn.ErrParam)
	}
	fit := func(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, cv.Decider, error) {
		// A round's fit is quiet (cv.Run reports the rounds done).
		env.Logger = s.Logger
		if k > 2 {
			env.MemoryPlan = s.MemoryPlan
		}
		f, err := p.Fit(ctx, train, valid, k, env)
		if err != nil {
			return nil, nil, err
		}
		if k == 2 {
			return f.Model, nil, nil // the two-class decision is the model's
		}
		return f.Model, f.Layer, nil
	}
	d := &learn.Data{X: t.d.X, Y: t.d.Y, W: t.d.W, Features: t.d.Features}
	return cv.Run(ctx, d, k, fit, cs, Env{Seed: s.Seed, Workers: s.Workers, Progress: s.Progress}, onRound)
}
