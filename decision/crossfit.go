package decision

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// Cross-fitting's default rule (Options.CrossFit).
const (
	// DefaultFolds is the number of folds of cross-fitting by default.
	DefaultFolds = 5
	// CrossFitBelow is the count of positive validation rows below which
	// the layer is cross-fitted by default: with fewer, a calibration and
	// a threshold fitted on the validation rows alone rest on a handful
	// of positives.
	CrossFitBelow = 10
)

// streamCrossFit derives the seeds of cross-fitting from the fit's.
const streamCrossFit = 0xc405f17

// Folds returns the number of folds the layer is cross-fitted with on
// these validation rows: CrossFit when positive, none when negative, and
// by default DefaultFolds when valid holds fewer than CrossFitBelow
// positive rows.
func (o Options) Folds(valid *learn.Data) int {
	switch {
	case o.CrossFit > 0:
		return o.CrossFit
	case o.CrossFit < 0 || valid == nil:
		return 0
	}
	if positives(valid.Y) < CrossFitBelow {
		return DefaultFolds
	}
	return 0
}

// stratifiedFolds assigns each row of y to one of k folds, every class
// spread evenly over them in an order drawn from seed.
func stratifiedFolds(y []int, k int, seed uint64) []int {
	fold := make([]int, len(y))
	r := rng.Derive(seed, streamCrossFit)
	for class := range 2 {
		var rows []int
		for i, v := range y {
			if v == class {
				rows = append(rows, i)
			}
		}
		r.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		for j, i := range rows {
			fold[i] = j % k
		}
	}
	return fold
}

// positives counts the rows labelled 1.
func positives(y []int) int {
	n := 0
	for _, v := range y {
		n += v
	}
	return n
}

// fillsFolds reports whether every class of y has at least k rows, one
// per fold.
func fillsFolds(y []int, k int) bool {
	pos := positives(y)
	return pos >= k && len(y)-pos >= k
}

// outOfFold returns the out-of-fold scores of train's rows: method is
// fitted k times, each time on train without one fold (and valid for its
// own tuning), and scores the rows of that fold. Each fit's seed derives
// from env's.
func outOfFold(ctx context.Context, method learn.Method, train, valid *learn.Data, k int, env learn.Env) ([]float64, error) {
	if !fillsFolds(train.Y, k) {
		pos := positives(train.Y)
		return nil, fmt.Errorf("cross-fitting: %d folds need at least %d training rows of each class (%d positive, %d negative)", k, k, pos, len(train.Y)-pos)
	}
	fold := stratifiedFolds(train.Y, k, env.Seed)
	oof := make([]float64, len(train.Y))
	fenv := learn.Env{Workers: env.Workers, Logger: env.Logger, SharedWorkers: env.SharedWorkers}
	for f := range k {
		var in, out []int
		for i, g := range fold {
			if g == f {
				out = append(out, i)
			} else {
				in = append(in, i)
			}
		}
		env.Report("cross-fit", f, k) // the folds' fits are quiet
		fenv.Seed = rng.DeriveSeed(rng.DeriveSeed(env.Seed, streamCrossFit), uint64(f))
		m, err := method.Fit(ctx, train.Subset(in), valid, fenv)
		if err != nil {
			return nil, fmt.Errorf("cross-fitting, fold %d of %d: %w", f+1, k, err)
		}
		held := train.Subset(out)
		s, err := learn.Predict(ctx, m, held.X, env.Workers)
		if err != nil {
			return nil, fmt.Errorf("cross-fitting, fold %d of %d: scoring the held-out rows: %w", f+1, k, err)
		}
		for j, i := range out {
			oof[i] = s[j]
		}
	}
	env.Report("cross-fit", k, k)
	return oof, nil
}

// appendRows returns the labels, scores and weights of the two row sets
// one after the other (weights nil when both are).
func appendRows(y1 []int, s1, w1 []float64, y2 []int, s2, w2 []float64) ([]int, []float64, []float64) {
	y := append(append(make([]int, 0, len(y1)+len(y2)), y1...), y2...)
	s := append(append(make([]float64, 0, len(s1)+len(s2)), s1...), s2...)
	return y, s, learn.AppendWeights(w1, len(y1), w2, len(y2))
}
