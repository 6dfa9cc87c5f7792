package multiclass

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// Native is the strategy of a method's own multi-class model
// (learn.MultiFitter: softmax boosted trees, multinomial logistic
// regression), beside OneVsRest and OneVsOne.
const Native = "native"

// Decomposer is implemented by a learn.MultiFitter whose own
// multi-class model is not its default: PreferDecomposition returns the
// strategy (OneVsRest or OneVsOne) DefaultStrategy gives it, its native
// model reachable by asking for Native.
type Decomposer interface {
	PreferDecomposition() string
}

// DefaultStrategy is the strategy of method when none is asked for:
// Native for a learn.MultiFitter (unless it is a Decomposer), else
// OneVsRest.
func DefaultStrategy(method learn.Method) string {
	if d, ok := method.(Decomposer); ok {
		if s := d.PreferDecomposition(); s != "" {
			return s
		}
	}
	if _, ok := method.(learn.MultiFitter); ok {
		return Native
	}
	return OneVsRest
}

// Fitted is a multi-class model and its decision.
type Fitted struct {
	Model learn.Model
	Layer *decision.Layer
	// Strategy is how the model holds its classes: Native, OneVsRest or
	// OneVsOne.
	Strategy string
}

// FitDecided fits method to train (labels 0..k-1, every class present)
// by strategy ("" is DefaultStrategy's), then its decision as dec says
// (decision.FitWeights; the zero value is the Bayes rule for balanced
// accuracy) on the validation rows' probabilities when valid is not nil.
// It is the multi-class fit of aer fit, aer cv and aer bench.
func FitDecided(ctx context.Context, method learn.Method, strategy string, dec decision.Options, train, valid *learn.Data, k int, env learn.Env) (*Fitted, error) {
	if err := CheckLabels(train.Y, k); err != nil {
		return nil, fmt.Errorf("training data: %w", err)
	}
	if strategy == "" {
		strategy = DefaultStrategy(method)
	}
	var (
		mm  learn.Model
		err error
	)
	switch strategy {
	case Native:
		mf, ok := method.(learn.MultiFitter)
		if !ok {
			return nil, fmt.Errorf("%w: method %s has no multi-class model of its own: use multiclass ovr or ovo", learn.ErrParam, method.Name())
		}
		mm, err = mf.FitMulti(ctx, train, valid, k, env)
	case OneVsRest, OneVsOne:
		mm, err = Fit(ctx, method, strategy, train, valid, k, env)
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
	return &Fitted{Model: mm, Layer: layer, Strategy: strategy}, nil
}
