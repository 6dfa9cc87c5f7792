package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/pipeline"
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
	crossFit   *int
	multiclass *string
	costMatrix *string
}

func (f *fitFlags) register(fs *flag.FlagSet) {
	f.method = fs.String("method", aerlib.DefaultMethodName, "classifier to train (aer help fit lists them)")
	fs.Var(&f.params, "param", "method parameter `key=value` (repeatable)")
	fs.Var(&f.grid, "grid", "try every value of a parameter, `key=v1,v2` (repeatable: every combination), or paper for the paper's grid of the method")
	f.tuneMetric = fs.String("tune-metric", "", "choose the decision threshold on validation rows for `metric` (balanced_accuracy, f1, mcc, gmean, ...)")
	f.cost = fs.String("cost", "", "choose the threshold of least validation cost `fn=A,fp=B` (A per missed positive, B per false alarm)")
	f.minRecall = fs.String("min-recall", "", "choose the threshold of highest validation precision at a minority recall of at least `R`")
	f.calibrate = fs.String("calibrate", "", "calibrate the scores on validation rows: `sigmoid` (the default under the bayes rule), isotonic or none (the default under the tuned rule)")
	f.rule = fs.String("threshold-rule", "", "how the threshold is found on validation rows: `bayes` (the default for balanced accuracy and costs: the Bayes-optimal probability of the calibrated scores) or tuned (the best candidate)")
	f.multiclass = fs.String("multiclass", "", "how a label of three or more classes is fitted: `native` (the method's own multi-class model: gbdt, logreg and tree by default; balanced-rf, balanced-bagging, rusboost, easy-ensemble and aer on request), ovr (one binary model per class) or ovo (one per pair); default native for gbdt, logreg and tree, else ovr")
	f.costMatrix = fs.String("cost-matrix", "", "three or more classes: predict the class of least expected cost, costs `C` row by row (true class) in the label order, e.g. \"0,1,4;1,0,4;9,9,0\"")
	f.crossFit = fs.Int("cross-fit", 0, "fit the decision layer on out-of-fold scores of the training rows too, refitting the method once per fold: `K` folds, 0 for the default (5 folds when the validation rows hold fewer than 10 positives), -1 never")
	usage := fs.Usage
	fs.Usage = func() {
		// The methods (or --method's parameters) go between the flags
		// and the details: they are flags too, in effect.
		w := fs.Output()
		var help bytes.Buffer
		fs.SetOutput(&help)
		usage()
		fs.SetOutput(w)
		head, details, hasDetails := strings.Cut(help.String(), "\n"+detailsHeading+"\n")
		io.WriteString(w, head)
		method := ""
		fs.Visit(func(fl *flag.Flag) {
			if fl.Name == "method" {
				method = *f.method
			}
		})
		if err := writeMethodHelp(w, method); err != nil {
			fmt.Fprintf(w, "\n%v\n", err)
		}
		if hasDetails {
			fmt.Fprintf(w, "\n%s\n%s", detailsHeading, details)
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
	opt, err := f.decision(cmd)
	if err != nil {
		return nil, err
	}
	if err := gridAxes(cmd, method, f.grid); err != nil {
		return nil, err
	}
	spec := pipeline.Spec{Params: f.params.texts(), Grid: f.grid, Decomposition: *f.multiclass, Decision: opt}
	// The spec sets the parameters on a fresh copy, as the fit will.
	fresh, err := learn.New(method.Name())
	if err != nil {
		return nil, err
	}
	if err := spec.Check(fresh); err != nil {
		if isParamError(err) {
			return nil, usageErrorf("%s: %v", cmd, err)
		}
		return nil, err
	}
	switch *f.multiclass {
	case "", aerlib.Native, aerlib.OneVsRest, aerlib.OneVsOne:
	default:
		return nil, usageErrorf("%s: --multiclass %q: want native, ovr or ovo", cmd, *f.multiclass)
	}
	return &fitPlan{cmd: cmd, spec: spec, method: method}, nil
}

// decision checks the decision flags and returns the options they
// describe; cmd prefixes error messages.
func (f *fitFlags) decision(cmd string) (decision.Options, error) {
	obj, explicit, err := tuneObjective(cmd, *f.tuneMetric, *f.cost, *f.minRecall, *f.calibrate)
	if err != nil {
		return decision.Options{}, err
	}
	switch *f.rule {
	case "":
	case decision.RuleTuned:
		explicit = true
	case decision.RuleBayes:
		explicit = true
		if _, berr := decision.BayesProbability(obj, 0.5); berr != nil {
			return decision.Options{}, usageErrorf("%s: --threshold-rule bayes: %v", cmd, berr)
		}
	default:
		return decision.Options{}, usageErrorf("%s: --threshold-rule %q: want tuned or bayes", cmd, *f.rule)
	}
	if *f.crossFit > 0 {
		explicit = true
	}
	if *f.crossFit == 1 || *f.crossFit < -1 {
		return decision.Options{}, usageErrorf("%s: --cross-fit %d: want 2 or more folds, 0 for the default rule or -1 for never", cmd, *f.crossFit)
	}
	if *f.costMatrix != "" {
		if obj.Matrix, err = decision.ParseCostMatrix(*f.costMatrix); err != nil {
			return decision.Options{}, usageErrorf("%s: --cost-matrix: %v", cmd, err)
		}
	}
	return decision.Options{Objective: &obj, Rule: *f.rule, Calibrate: *f.calibrate, Override: explicit, CrossFit: *f.crossFit}, nil
}

// fitPlan is one way of fitting: the fit protocol of package pipeline
// (the method's own fit or a grid search over it, then, with validation
// data, the decision layer) as the flags describe it.
type fitPlan struct {
	cmd    string
	spec   pipeline.Spec
	method learn.Method // the method with its parameters (names, help, memory)
}

// needsValid tells whether the plan cannot run without validation data:
// a grid search.
func (p *fitPlan) needsValid() bool { return p.spec.NeedsValid() }

// checkValid returns the usage error of a plan that needs validation data
// when there is none.
func (p *fitPlan) checkValid(have bool) error {
	switch {
	case have:
		return nil
	case len(p.spec.Grid) > 0:
		return usageErrorf("%s: --grid needs validation data (--valid, or valid rows in a split column)", p.cmd)
	}
	return nil
}

// settings are the library's fit settings of the plan (aerlib.Fit), with
// the run-time choices of env.
func (p *fitPlan) settings(env learn.Env) *aerlib.Settings {
	return &aerlib.Settings{Spec: p.spec, Env: env}
}
