package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/search"
)

// fitFlags are the flags that say how a method is fitted, shared by aer
// fit and aer cv: the method and its parameters, a grid over them, and
// the decision layer's objective, calibration and rule.
type fitFlags struct {
	method     *string
	params     paramFlags
	grid       stringsFlag
	tuneMetric *string
	cost       *string
	minRecall  *string
	calibrate  *string
	rule       *string
}

func (f *fitFlags) register(fs *flag.FlagSet) {
	f.method = fs.String("method", "gbdt", "classifier to train (aer help fit lists them)")
	fs.Var(&f.params, "param", "method parameter `key=value` (repeatable)")
	fs.Var(&f.grid, "grid", "try every value of a parameter, `key=v1,v2` (repeatable: every combination), or paper for the paper's grid of the method")
	f.tuneMetric = fs.String("tune-metric", "", "choose the decision threshold on validation rows for `metric` (balanced_accuracy, f1, mcc, gmean, ...)")
	f.cost = fs.String("cost", "", "choose the threshold of least validation cost `fn=A,fp=B` (A per missed positive, B per false alarm)")
	f.minRecall = fs.String("min-recall", "", "choose the threshold of highest validation precision at a minority recall of at least `R`")
	f.calibrate = fs.String("calibrate", "", "calibrate the scores on validation rows: `sigmoid` or isotonic")
	f.rule = fs.String("threshold-rule", "", "how the threshold is found on validation rows: `tuned` (the best candidate) or bayes (where a sigmoid calibration reaches the Bayes-optimal probability)")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		method := ""
		fs.Visit(func(fl *flag.Flag) {
			if fl.Name == "method" {
				method = *f.method
			}
		})
		if err := writeMethodHelp(fs.Output(), method); err != nil {
			fmt.Fprintf(fs.Output(), "\n%v\n", err)
		}
	}
}

// plan checks the flags and returns the fit they describe; cmd prefixes
// error messages.
func (f *fitFlags) plan(cmd string) (*fitPlan, error) {
	method, err := newMethod(cmd, *f.method, f.params)
	if err != nil {
		return nil, err
	}
	obj, explicit, err := tuneObjective(cmd, *f.tuneMetric, *f.cost, *f.minRecall, *f.calibrate)
	if err != nil {
		return nil, err
	}
	switch *f.rule {
	case "", decision.RuleTuned:
	case decision.RuleBayes:
		explicit = true
		if *f.calibrate != "" {
			return nil, usageErrorf("%s: --threshold-rule bayes calibrates the scores itself; leave out --calibrate", cmd)
		} else if _, berr := decision.BayesProbability(obj, 0.5); berr != nil {
			return nil, usageErrorf("%s: --threshold-rule bayes: %v", cmd, berr)
		}
	default:
		return nil, usageErrorf("%s: --threshold-rule %q: want tuned or bayes", cmd, *f.rule)
	}
	axes, err := gridAxes(cmd, method, f.grid)
	if err != nil {
		return nil, err
	}
	return &fitPlan{cmd: cmd, methodName: *f.method, params: f.params, method: method, axes: axes,
		obj: obj, explicit: explicit, rule: *f.rule, calibrate: *f.calibrate}, nil
}

// fitPlan is one way of fitting: the method's own fit or a grid search
// over it, then, with validation data, the decision layer.
type fitPlan struct {
	cmd        string
	methodName string
	params     paramFlags
	method     learn.Method
	axes       []search.Axis      // nil: no grid search
	obj        decision.Objective // what the grid and the threshold optimise
	explicit   bool               // a threshold flag was given
	rule       string
	calibrate  string
}

// needsValid tells whether the plan cannot run without validation data:
// a grid search, or a threshold flag.
func (p *fitPlan) needsValid() bool { return p.axes != nil || p.explicit }

// checkValid returns the usage error of a plan that needs validation data
// when there is none.
func (p *fitPlan) checkValid(have bool) error {
	switch {
	case have:
		return nil
	case p.axes != nil:
		return usageErrorf("%s: --grid needs validation data (--valid, or valid rows in a split column)", p.cmd)
	case p.explicit:
		return usageErrorf("%s: --tune-metric, --cost, --min-recall, --calibrate and --threshold-rule need validation data (--valid, or valid rows in a split column)", p.cmd)
	}
	return nil
}

// fitted is what a plan's fit found.
type fitted struct {
	method learn.Method // the configured method (the grid's chosen point)
	model  learn.Model  // behind the decision layer when there is one
	found  *search.Outcome
	layer  *decision.Layer
}

// fit runs the plan on train, with valid (maybe nil) for tuning. The
// decision layer is fitted on valid for every method, except that a method
// that tunes its own threshold (aer's delta) keeps it unless a threshold
// flag asks otherwise.
func (p *fitPlan) fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (*fitted, error) {
	if err := p.checkValid(valid != nil); err != nil {
		return nil, err
	}
	out := &fitted{method: p.method}
	var err error
	if p.axes != nil {
		env.ConsumeTrain = false // a grid fits many times on the same rows
		env.MemoryPlan = nil     // and one fit's plan is not the next one's
	}
	if p.axes == nil {
		out.model, err = p.method.Fit(ctx, train, valid, env)
	} else {
		out.found, err = search.Run(ctx, func() (learn.Method, error) { return newMethod(p.cmd, p.methodName, p.params) }, p.axes,
			train, valid, p.obj, env)
		if err == nil {
			out.method, out.model = out.found.Method, out.found.Model
		}
	}
	if err != nil {
		if isParamError(err) {
			return nil, usageErrorf("%s: %v", p.cmd, err)
		}
		return nil, err
	}
	if _, own := learn.TunedThreshold(out.model); valid == nil || own && !p.explicit {
		return out, nil
	}
	score, err := learn.Predict(ctx, out.model, valid.X, env.Workers)
	if err != nil {
		return nil, fmt.Errorf("scoring the validation rows: %w", err)
	}
	if p.rule == decision.RuleBayes {
		out.layer, err = decision.FitBayesLayer(valid.Y, score, valid.W, p.obj, train.PositiveShare())
	} else {
		out.layer, err = decision.FitLayer(valid.Y, score, valid.W, p.obj, p.calibrate)
	}
	if err != nil {
		return nil, fmt.Errorf("decision layer on the validation rows: %w", err)
	}
	out.model = decision.Attach(out.model, out.layer)
	return out, nil
}
