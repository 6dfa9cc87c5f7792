package aer

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/pipeline"
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
// s.Multiclass and its multi-class decision (s.Decision's rule and
// metric, s.CostMatrix), on the hold-out share when it is not 0 (a grid
// needs one). s.Seed drives the folds and the fits; s.Workers bounds the
// goroutines of all the rounds together (the result does not depend on
// it). onRound, when not nil, is told of each finished round. A nil
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
	var (
		k   = 2
		fit cv.FitFunc
		err error
	)
	if t.d.Labels != nil {
		k = len(t.d.Labels)
		fit, err = classesFit(method, s, cs)
	} else {
		fit, err = twoClassFit(method, s, cs)
	}
	if err != nil {
		return nil, err
	}
	d := &learn.Data{X: t.d.X, Y: t.d.Y, W: t.d.W, Features: t.d.Features}
	return cv.Run(ctx, d, k, fit, cs, learn.Env{Seed: s.Seed, Workers: s.Workers}, onRound)
}

// twoClassFit is a round's fit of two classes: the fit protocol.
func twoClassFit(method learn.Method, s *Settings, cs *cv.Settings) (cv.FitFunc, error) {
	if (s.Grid != nil || s.Decision.Override) && cs.Holdout == 0 {
		return nil, fmt.Errorf("%w: a grid search and a decision layer asked for explicitly need a validation hold-out (cv.Settings.Holdout)", learn.ErrParam)
	}
	composed, err := compose(method, s)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, train, valid *learn.Data, _ int, env learn.Env) (learn.Model, cv.Decider, error) {
		env.Logger, env.Progress = s.Logger, s.Progress
		f, err := pipeline.Fit(ctx, composed, train, valid, env)
		if err != nil {
			return nil, nil, err
		}
		return f.Model, nil, nil
	}, nil
}

// classesFit is a round's fit of three or more classes, with its
// decision.
func classesFit(method learn.Method, s *Settings, cs *cv.Settings) (cv.FitFunc, error) {
	method, err := multiMethod(method, s)
	if err != nil {
		return nil, err
	}
	dec, err := multiDecision(s)
	if err != nil {
		return nil, err
	}
	if s.Grid != nil && cs.Holdout == 0 {
		return nil, fmt.Errorf("%w: a grid search needs a validation hold-out (cv.Settings.Holdout)", learn.ErrParam)
	}
	return func(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, cv.Decider, error) {
		env.Logger, env.Progress, env.MemoryPlan = s.Logger, s.Progress, s.MemoryPlan
		f, _, _, err := fitMultiData(ctx, method, s, dec, train, valid, k, env)
		if err != nil {
			return nil, nil, err
		}
		return f.Model, f.Layer, nil
	}, nil
}
