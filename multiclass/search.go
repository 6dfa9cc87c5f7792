package multiclass

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/search"
)

// SearchDecided is FitDecided over a grid: every point of axes is set on
// a fresh newMethod(), fitted with its decision, and scored on the
// validation rows at that decision by what the decision is for (balanced
// accuracy, or dec.Metric; the mean cost under a cost matrix, lower
// better). The best point is kept (of equal values, the first listed),
// with the search's outcome. Every point fits with the same env.
func SearchDecided(ctx context.Context, newMethod func() (learn.Method, error), axes []search.Axis, strategy string, dec decision.Options,
	train, valid *learn.Data, k int, env learn.Env) (*Fitted, learn.Method, *search.Outcome, error) {
	if valid == nil {
		return nil, nil, nil, fmt.Errorf("%w: a grid search needs validation data", learn.ErrParam)
	}
	var fits []*Fitted
	try := func(ctx context.Context, m learn.Method, env learn.Env) (learn.Model, search.Result, error) {
		f, err := FitDecided(ctx, m, strategy, dec, train, valid, k, env)
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
		return nil, nil, nil, err
	}
	return fits[out.Chosen], out.Method, out, nil
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
