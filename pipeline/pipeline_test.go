package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods"
	"github.com/aer-go/aer/pipeline"
	"github.com/aer-go/aer/search"
	"github.com/aer-go/aer/synth"
)

func data(t *testing.T) (train, valid *learn.Data) {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: 600, Features: 5, Informative: 3, Ratio: 6}, 3)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := dataset.StratifiedSplit(g.Y, []float64{3, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := &learn.Data{X: g.X, Y: g.Y}
	return d.Subset(parts[0]), d.Subset(parts[1])
}

// TestSpecPlan: a spec's plan fits the method itself when it sets no
// parameter and has no grid, a registered copy with its parameters
// otherwise (the method given unchanged), composed inside a grid search
// when there is a grid; mistakes are ErrParam, an unregistered method
// given parameters ErrUnknownMethod.
func TestSpecPlan(t *testing.T) {
	gbdt, err := learn.New("gbdt")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := (pipeline.Spec{}).Plan(gbdt).New(); err != nil || m != gbdt {
		t.Errorf("no parameters: %v, %v, want the method itself", m, err)
	}
	s := pipeline.Spec{Params: []string{"n_estimators=5"}}
	m, err := s.Plan(gbdt).New()
	if err != nil || m == gbdt || learn.ParamMap(m.Params())["n_estimators"] != "5" || learn.ParamMap(gbdt.Params())["n_estimators"] == "5" {
		t.Errorf("parameters: %v, %v; a copy with n_estimators=5 and the method unchanged", m, err)
	}
	p := pipeline.Spec{Grid: []string{"max_depth=2,3"}}.Plan(gbdt)
	l, err := pipeline.Compose(p.New, p.Grid, p.Decision)
	if err != nil {
		t.Fatal(err)
	}
	if _, grid := l.Unwrap().(*search.Grid); !grid {
		t.Errorf("grid: inner %T, want *search.Grid", l.Unwrap())
	}
	minRecall, err := decision.MinRecallObjective(0.9)
	if err != nil {
		t.Fatal(err)
	}
	logreg, err := learn.New("logreg")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		s pipeline.Spec
		m learn.Method
	}{
		{pipeline.Spec{Params: []string{"no_such=1"}}, gbdt},
		{pipeline.Spec{Params: []string{"n_estimators"}}, gbdt},
		{pipeline.Spec{Grid: []string{"paper"}}, logreg},
		{pipeline.Spec{Grid: []string{"max_depth="}}, gbdt},
		{pipeline.Spec{Params: []string{"max_depth=3"}, Grid: []string{"max_depth=2,4"}}, gbdt},
		{pipeline.Spec{Decision: decision.Options{Rule: "magic"}}, gbdt},
		{pipeline.Spec{Decision: decision.Options{Rule: decision.RuleBayes, Calibrate: "platt"}}, gbdt},
		{pipeline.Spec{Decision: decision.Options{Rule: decision.RuleBayes, Objective: &minRecall}}, gbdt},
	} {
		if err := bad.s.Check(bad.m); !errors.Is(err, learn.ErrParam) {
			t.Errorf("%+v: %v, want ErrParam", bad.s, err)
		}
	}
}

// TestFit: a grid reports every point and fits with the chosen one; the
// layer is fitted with validation rows, kept off a model with its own
// threshold unless overridden, and an override without validation rows is
// refused.
func TestFit(t *testing.T) {
	ctx := context.Background()
	train, valid := data(t)
	env := learn.Env{Seed: 1, Workers: 1}
	l, _ := compose(t, "gbdt", pipeline.Spec{Params: []string{"n_estimators=5"}, Grid: []string{"max_depth=1,3"}})
	f, err := pipeline.Fit(ctx, l, train, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	if f.Search == nil || len(f.Search.Points) != 2 || f.Layer == nil || decision.LayerOf(f.Model) != f.Layer {
		t.Fatalf("fitted %+v", f)
	}
	chosen := f.Search.Points[f.Search.Chosen].Params[0]
	if got := "max_depth=" + learn.ParamMap(f.Method.Params())["max_depth"]; got != chosen || learn.ParamMap(f.Method.Params())["n_estimators"] != "5" {
		t.Errorf("method %s, chosen %s", got, chosen)
	}
	if f, err := pipeline.Fit(ctx, l, train, nil, env); err == nil {
		t.Errorf("a grid without validation rows: %+v", f)
	}

	own, _ := compose(t, "gbdt-tuned", pipeline.Spec{Params: []string{"n_estimators=5"}})
	if f, err := pipeline.Fit(ctx, own, train, valid, env); err != nil || f.Layer != nil {
		t.Errorf("a tuned threshold is kept: layer %v, %v", f.Layer, err)
	}
	over, _ := compose(t, "gbdt-tuned", pipeline.Spec{Params: []string{"n_estimators=5"}, Decision: decision.Options{Override: true}})
	f, err = pipeline.Fit(ctx, over, train, valid, env)
	if err != nil || f.Layer == nil || learn.ThresholdOf(f.Model) != f.Layer.Threshold {
		t.Errorf("override: layer %v, %v", f.Layer, err)
	}
	// Without validation rows the layer is cross-fitted on the training
	// rows, in front of the model fitted on all of them.
	if f, err := pipeline.Fit(ctx, over, train, nil, env); err != nil || f.Layer == nil || f.Layer.Source != decision.SourceCrossFit || f.Layer.Folds != decision.DefaultFolds {
		t.Errorf("override without validation rows: layer %+v, %v", f.Layer, err)
	}
	plain, _ := compose(t, "gbdt", pipeline.Spec{Params: []string{"n_estimators=5"}})
	f, err = pipeline.Fit(ctx, plain, train, nil, env)
	if err != nil || f.Layer == nil || f.Layer.Source != decision.SourceCrossFit || f.Layer.Calibration == nil || f.Layer.Rule != decision.RuleBayes {
		t.Fatalf("no validation rows: layer %+v, %v", f.Layer, err)
	}
	never, _ := compose(t, "gbdt", pipeline.Spec{Params: []string{"n_estimators=5"}, Decision: decision.Options{CrossFit: -1}})
	bare, err := pipeline.Fit(ctx, never, train, nil, env)
	if err != nil || bare.Layer != nil {
		t.Fatalf("no validation rows, cross-fitting refused: layer %+v, %v", bare.Layer, err)
	}
	a, _ := decision.Detach(f.Model.(learn.Scorer)).MarshalBinary()
	b, _ := bare.Model.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("the model behind a cross-fitted layer is not the one fitted on all the training rows")
	}
}

// TestGridMistakes: a key searched twice, a value repeated, a key both
// set and searched (the grid silently won), and a grid of more points
// than MaxGridPoints (built up front: 10^12 points exhausted memory) are
// parameter errors; a good grid builds.
func TestGridMistakes(t *testing.T) {
	many := make([]string, 101)
	for i := range many {
		many[i] = fmt.Sprint(i + 1)
	}
	long := strings.Join(many, ",")
	for _, c := range []struct {
		params, grid []string
		want         string
	}{
		{nil, []string{"eta=0.1,0.3", "eta=0.5"}, "eta is given twice"},
		{nil, []string{"eta=0.1,0.1"}, "the value 0.1 is given twice"},
		{[]string{"eta=0.2"}, []string{"eta=0.1,0.3"}, "both a --param and a --grid key"},
		{nil, []string{"max_depth=" + long, "n_estimators=" + long}, "more than 10000 points"},
		{[]string{"max_depth=3"}, []string{"eta=0.1,0.3", "n_estimators=5,10"}, ""},
	} {
		gbdt, err := learn.New("gbdt")
		if err != nil {
			t.Fatal(err)
		}
		err = pipeline.Spec{Params: c.params, Grid: c.grid}.Check(gbdt)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v %v: %v", c.params, c.grid, err)
		case c.want != "" && (!errors.Is(err, learn.ErrParam) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v %v: error %v, want %q", c.params, c.grid, err, c.want)
		}
	}
}

// compose is spec's composition of the registered method name.
func compose(t *testing.T, name string, spec pipeline.Spec) (*decision.Layered, error) {
	t.Helper()
	m, err := learn.New(name)
	if err != nil {
		t.Fatal(err)
	}
	p := spec.Plan(m)
	return pipeline.Compose(p.New, p.Grid, p.Decision)
}
