package pipeline_test

import (
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

// TestSpecBuild: the composition is the method inside a grid search when
// there is a grid, inside a decision layer always; mistakes are ErrParam.
func TestSpecBuild(t *testing.T) {
	l, err := pipeline.Spec{Method: "gbdt", Params: []string{"n_estimators=5"}}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, grid := l.Unwrap().(*search.Grid); grid || learn.ParamMap(l.Params())["n_estimators"] != "5" {
		t.Errorf("no grid: inner %T, params %v", l.Unwrap(), learn.ParamMap(l.Params()))
	}
	l, err = pipeline.Spec{Method: "gbdt", Grid: []string{"max_depth=2,3"}}.Build()
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
	for _, bad := range []pipeline.Spec{
		{Method: "gbdt", Params: []string{"no_such=1"}},
		{Method: "gbdt", Params: []string{"n_estimators"}},
		{Method: "logreg", Grid: []string{"paper"}},
		{Method: "gbdt", Grid: []string{"max_depth="}},
		{Method: "gbdt", Decision: decision.Options{Rule: "magic"}},
		{Method: "gbdt", Decision: decision.Options{Rule: decision.RuleBayes, Calibrate: "platt"}},
		{Method: "gbdt", Decision: decision.Options{Rule: decision.RuleBayes, Objective: &minRecall}},
	} {
		if _, err := bad.Build(); !errors.Is(err, learn.ErrParam) {
			t.Errorf("%+v: %v, want ErrParam", bad, err)
		}
	}
	if _, err := (pipeline.Spec{Method: "nosuch"}).Build(); !errors.Is(err, learn.ErrUnknownMethod) {
		t.Errorf("unknown method: %v", err)
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
	l, _ := pipeline.Spec{Method: "gbdt", Params: []string{"n_estimators=5"}, Grid: []string{"max_depth=1,3"}}.Build()
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

	own, _ := pipeline.Spec{Method: "gbdt-tuned", Params: []string{"n_estimators=5"}}.Build()
	if f, err := pipeline.Fit(ctx, own, train, valid, env); err != nil || f.Layer != nil {
		t.Errorf("a tuned threshold is kept: layer %v, %v", f.Layer, err)
	}
	over, _ := pipeline.Spec{Method: "gbdt-tuned", Params: []string{"n_estimators=5"}, Decision: decision.Options{Override: true}}.Build()
	f, err = pipeline.Fit(ctx, over, train, valid, env)
	if err != nil || f.Layer == nil || learn.ThresholdOf(f.Model) != f.Layer.Threshold {
		t.Errorf("override: layer %v, %v", f.Layer, err)
	}
	if _, err := pipeline.Fit(ctx, over, train, nil, env); !errors.Is(err, decision.ErrNoValid) {
		t.Errorf("override without validation rows: %v", err)
	}
	plain, _ := pipeline.Spec{Method: "gbdt", Params: []string{"n_estimators=5"}}.Build()
	if f, err := pipeline.Fit(ctx, plain, train, nil, env); err != nil || f.Layer != nil {
		t.Errorf("no validation rows: layer %v, %v", f.Layer, err)
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
		_, err := pipeline.Spec{Method: "gbdt", Params: c.params, Grid: c.grid}.Build()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v %v: %v", c.params, c.grid, err)
		case c.want != "" && (!errors.Is(err, learn.ErrParam) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v %v: error %v, want %q", c.params, c.grid, err, c.want)
		}
	}
}
