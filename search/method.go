package search

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// Grid is a learn.Method that runs a grid search: every point of its axes
// is a fresh method from newMethod with the point's parameters set, fitted
// on the training rows and judged on the validation rows (Run); its model
// is the chosen point's. It is the grid search of the one fit protocol
// (package pipeline), as a wrapper around any method.
type Grid struct {
	newMethod func() (learn.Method, error)
	proto     learn.Method // newMethod() with sets applied: name, params, Load
	axes      []Axis
	obj       decision.Objective
	sets      [][2]string // Set calls, applied to every point before its own
}

// NewGrid returns the grid search of newMethod over axes, judged by o.
// A key the method refuses fails the fit, naming the grid point.
func NewGrid(newMethod func() (learn.Method, error), axes []Axis, o decision.Objective) (*Grid, error) {
	proto, err := newMethod()
	if err != nil {
		return nil, err
	}
	if len(axes) == 0 {
		return nil, fmt.Errorf("%w: a grid search needs at least one axis", learn.ErrParam)
	}
	return &Grid{newMethod: newMethod, proto: proto, axes: axes, obj: o}, nil
}

// Axes returns the grid's axes.
func (g *Grid) Axes() []Axis { return g.axes }

// Name is the searched method's.
func (g *Grid) Name() string { return g.proto.Name() }

// Set sets a parameter of every point's method (the grid's own values of
// its axes come after, and win).
func (g *Grid) Set(key, value string) error {
	if err := g.proto.Set(key, value); err != nil {
		return err
	}
	g.sets = append(g.sets, [2]string{key, value})
	return nil
}

// Params lists the searched method's parameters, as Set left them.
func (g *Grid) Params() []learn.Param { return g.proto.Params() }

// Load decodes a payload of the searched method.
func (g *Grid) Load(payload []byte) (learn.Scorer, error) { return g.proto.Load(payload) }

// Describe is the searched method's description.
func (g *Grid) Describe() string { return learn.Describe(g.proto) }

// point returns a fresh method with the Set calls applied.
func (g *Grid) point() (learn.Method, error) {
	m, err := g.newMethod()
	if err != nil {
		return nil, err
	}
	for _, kv := range g.sets {
		if err := m.Set(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Search runs the search and returns every point's outcome, the chosen
// method and its model. A grid fits many times on the same rows, so the
// fits never consume the training rows, and one fit's memory plan is not
// the next one's.
func (g *Grid) Search(ctx context.Context, train, valid *learn.Data, env learn.Env) (*Outcome, error) {
	env.ConsumeTrain = false
	env.MemoryPlan = nil
	return Run(ctx, g.point, g.axes, train, valid, g.obj, env)
}

// Fit runs the search and returns the chosen point's model.
func (g *Grid) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	out, err := g.Search(ctx, train, valid, env)
	if err != nil {
		return nil, err
	}
	return out.Model.(learn.Scorer), nil // Run's models are its methods' fits
}
