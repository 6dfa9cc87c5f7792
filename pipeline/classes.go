package pipeline

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/decompose"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/search"
)

// searchClasses is fitClasses over a grid: every point of axes is set on
// a fresh newMethod(), fitted with its decision, and scored on the
// validation rows at that decision by what the decision is for (balanced
// accuracy, or dec.Metric; the mean cost under a cost matrix, lower
// better). The best point is kept (of equal values, the first listed),
// with the search's outcome. Every point fits with the same env.
func searchClasses(ctx context.Context, newMethod func() (learn.Method, error), axes []search.Axis, strategy string, dec decision.Options,
	train, valid *learn.Data, k int, env learn.Env) (*Fitted, error) {
	if valid == nil {
		return nil, fmt.Errorf("%w: a grid search needs validation data", learn.ErrParam)
	}
	var fits []*Fitted
	try := func(ctx context.Context, m learn.Method, env learn.Env) (learn.Model, search.Result, error) {
		f, err := fitClasses(ctx, m, strategy, dec, train, valid, k, env)
		if err != nil {
			return nil, search.Result{}, err
		}
		v, err := validValue(f, valid, k)
		if err != nil {
			return nil, search.Result{}, err
		}
		fits = append(fits, f)
		return f.Model, search.Result{Value: v}, nil // no threshold: a decision of k classes
	}
	out, err := search.Best(ctx, newMethod, axes, objectiveName(dec), dec.Goal().Matrix != nil, try, env)
	if err != nil {
		return nil, err
	}
	f := fits[out.Chosen]
	f.Method, f.Search = out.Method, out
	return f, nil
}

// objectiveName names what a multi-class grid point is scored by.
func objectiveName(dec decision.Options) string {
	if dec.Goal().Matrix != nil {
		return "mean cost (cost matrix)"
	}
	switch dec.Goal().Metric {
	case metrics.F1:
		return "macro_f1"
	case metrics.GMean:
		return "gmean"
	}
	return "balanced_accuracy"
}

// validValue scores f's decision on the validation rows.
func validValue(f *Fitted, valid *learn.Data, k int) (float64, error) {
	p, err := f.Model.PredictProba(valid.X, nil)
	if err != nil {
		return 0, err
	}
	pred := make([]int, valid.Rows())
	f.Layer.Predict(p, pred)
	if f.Layer.Cost != nil {
		total, wsum := 0.0, 0.0
		for i, y := range valid.Y {
			w := 1.0
			if valid.W != nil {
				w = valid.W[i]
			}
			total += w * f.Layer.Cost[y][pred[i]]
			wsum += w
		}
		return total / wsum, nil
	}
	r, err := metrics.EvaluateMulti(valid.Y, pred, nil, k, valid.W)
	if err != nil {
		return 0, err
	}
	switch f.Layer.Metric {
	case "macro_f1":
		return r.MacroF1, nil
	case "gmean":
		return r.GMean, nil
	}
	return r.BalancedAccuracy, nil
}

// fitClasses fits method to train (labels 0..k-1, every class present,
// k >= 3) by strategy ("" is decompose.DefaultStrategy's), then its
// decision as dec says (decision.FitWeights; the zero value is the Bayes
// rule for balanced accuracy) on the validation rows' probabilities when
// valid is not nil: Plan.Fit's path for three or more classes.
func fitClasses(ctx context.Context, method learn.Method, strategy string, dec decision.Options, train, valid *learn.Data, k int, env learn.Env) (*Fitted, error) {
	if err := decompose.CheckLabels(train.Y, k); err != nil {
		return nil, fmt.Errorf("training data: %w", err)
	}
	if strategy == "" {
		strategy = decompose.DefaultStrategy(method)
	}
	var (
		mm  learn.Model
		err error
	)
	switch strategy {
	case decompose.Native:
		mf, ok := method.(learn.ClassFitter)
		if !ok {
			return nil, fmt.Errorf("%w: method %s has no multi-class model of its own: use multiclass ovr or ovo", learn.ErrParam, method.Name())
		}
		mm, err = mf.FitClasses(ctx, train, valid, k, env)
	case decompose.OneVsRest, decompose.OneVsOne:
		mm, err = decompose.Fit(ctx, method, strategy, train, valid, k, env)
	default:
		return nil, fmt.Errorf("%w: multiclass %q: want native, ovr or ovo", learn.ErrParam, strategy)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var vy []int
	var vp []float64
	if rule := dec.Rule; valid != nil && rule != decision.RuleArgmax && rule != decision.RuleCost && dec.Goal().Matrix == nil {
		vy = valid.Y
		if vp, err = mm.PredictProba(valid.X, nil); err != nil {
			return nil, err
		}
	}
	layer, err := decision.FitWeights(dec, k, train.Y, train.W, vy, vp)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	return &Fitted{Method: method, Model: mm, Layer: layer, Strategy: strategy}, nil
}
