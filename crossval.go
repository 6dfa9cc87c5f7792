package aer

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/pipeline"
)

// CrossValidate estimates how method does on unseen rows of t by
// stratified k-fold cross-validation (package cv), each round fitted by
// the fit protocol Fit runs (s's parameters, grid and decision layer,
// tuned on a hold-out share of the round's training rows, cs.Holdout,
// which a grid or an explicit decision layer needs). s.Seed drives the
// folds and the fits; s.Workers bounds the goroutines of all the rounds
// together (the result does not depend on it). onRound, when not nil, is
// told of each finished round. A nil method means DefaultMethod; nil s
// and cs the defaults.
func CrossValidate(ctx context.Context, t *Table, s *Settings, method learn.Method, cs *cv.Settings, onRound func(cv.Fold)) (*cv.Result, error) {
	if t != nil && t.d.NumClasses() > 2 {
		return nil, fmt.Errorf("%w: the table has %d classes: cross-validate it with CrossValidateMulti", learn.ErrParam, t.d.NumClasses())
	}
	if s == nil {
		s = &Settings{}
	}
	if cs == nil {
		cs = &cv.Settings{}
	}
	if t == nil || !t.Labelled() {
		return nil, fmt.Errorf("%w: the table has no label", learn.ErrData)
	}
	if (s.Grid != nil || s.Decision.Override) && cs.Holdout == 0 {
		return nil, fmt.Errorf("%w: a grid search and a decision layer asked for explicitly need a validation hold-out (cv.Settings.Holdout)", learn.ErrParam)
	}
	composed, err := compose(method, s)
	if err != nil {
		return nil, err
	}
	fit := func(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
		env.Logger, env.Progress = s.Logger, s.Progress
		f, err := pipeline.Fit(ctx, composed, train, valid, env)
		if err != nil {
			return nil, err
		}
		return f.Model, nil
	}
	d := &learn.Data{X: t.d.X, Y: t.d.Y, W: t.d.W, Features: t.d.Features}
	return cv.Run(ctx, d, fit, cs, learn.Env{Seed: s.Seed, Workers: s.Workers}, onRound)
}

// CrossValidateMulti is CrossValidate for a table of three or more
// classes: each round fits as Fit does on multi-class labels (s's
// parameters, s.Multiclass and its multi-class decision (s.Decision's
// rule and metric, s.CostMatrix), on a
// hold-out share cs.Holdout of the round's training rows when it is not
// 0), and is scored by every multi-class metric at its decision. Every
// class needs at least cs.Folds rows.
func CrossValidateMulti(ctx context.Context, t *Table, s *Settings, method learn.Method, cs *cv.Settings, onRound func(cv.MultiFold)) (*cv.MultiResult, error) {
	if s == nil {
		s = &Settings{}
	}
	if t == nil || !t.Labelled() {
		return nil, fmt.Errorf("%w: the table has no label", learn.ErrData)
	}
	if t.d.NumClasses() == 2 {
		return nil, fmt.Errorf("%w: the table has two classes: cross-validate it with CrossValidate", learn.ErrParam)
	}
	method, err := multiMethod(method, s)
	if err != nil {
		return nil, err
	}
	dec, err := multiDecision(s)
	if err != nil {
		return nil, err
	}
	if s.Grid != nil && (cs == nil || cs.Holdout == 0) {
		return nil, fmt.Errorf("%w: a grid search needs a validation hold-out (cv.Settings.Holdout)", learn.ErrParam)
	}
	fit := func(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, cv.Decider, error) {
		env.Logger, env.Progress, env.MemoryPlan = s.Logger, s.Progress, s.MemoryPlan
		f, _, _, err := fitMultiData(ctx, method, s, dec, train, valid, k, env)
		if err != nil {
			return nil, nil, err
		}
		return f.Model, f.Layer, nil
	}
	d := &learn.Data{X: t.d.X, Y: t.d.Y, W: t.d.W, Features: t.d.Features}
	return cv.RunMulti(ctx, d, t.d.NumClasses(), fit, cs, learn.Env{Seed: s.Seed, Workers: s.Workers}, onRound)
}
