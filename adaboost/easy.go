package adaboost

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// EasySettings configure an EasyEnsemble: imbalanced-learn 0.10's
// EasyEnsembleClassifier. The zero value is its default,
// EasyEnsembleClassifier(n_estimators=10): 10 ensembles of
// AdaBoostClassifier(), each on a balanced random under-sample drawn
// without replacement.
type EasySettings struct {
	// NEstimators is the number of ensembles; 0 means 10.
	NEstimators int
	// Replacement draws the under-samples with replacement.
	Replacement bool
	// Boost configures every ensemble (its UnderSample must be false).
	Boost Settings
}

// Resolved returns the settings with every default filled in.
func (s EasySettings) Resolved() EasySettings {
	if s.NEstimators == 0 {
		s.NEstimators = 10
	}
	s.Boost = s.Boost.Resolved()
	return s
}

// Check validates the settings.
func (s EasySettings) Check() error {
	if s.NEstimators < 0 || s.NEstimators > learn.MaxTrees {
		return fmt.Errorf("%w: n_estimators %d is not in [0, %d]", learn.ErrParam, s.NEstimators, learn.MaxTrees)
	}
	if r := s.Resolved(); int64(r.NEstimators)*int64(r.Boost.NEstimators) > learn.MaxTrees {
		return fmt.Errorf("%w: n_estimators %d x rounds %d is %d trees, more than %d (a tree takes about 50 µs even on 80 rows): lower n_estimators or rounds",
			learn.ErrParam, r.NEstimators, r.Boost.NEstimators, int64(r.NEstimators)*int64(r.Boost.NEstimators), learn.MaxTrees)
	}
	if s.Boost.UnderSample {
		return fmt.Errorf("%w: the ensembles of an EasyEnsemble do not under-sample", learn.ErrParam)
	}
	return s.Boost.Check()
}

// FitEasy fits an EasyEnsemble on train: ensemble k draws its balanced
// sample from the stream k of seed and boosts on it with the seed
// rng.DeriveSeed(seed, k), so the result does not depend on workers
// (goroutines boosting at once; 0: all cores). Each sample is every row
// of the smaller class and as many rows of the larger; row weights, when
// given, are the initial boosting weights of the rows drawn.
// progress, when not nil, is called after each ensemble from the calling
// goroutine.
func FitEasy(ctx context.Context, train *learn.Data, s EasySettings, seed uint64, workers int, progress func(done, total int)) ([]*Ensemble, error) {
	return fitEasy(ctx, train, 0, s, seed, workers, progress, (*booster).run)
}

// FitEasyMulti fits an EasyEnsemble on train, whose labels are 0..k-1:
// ensemble j boosts (SAMME.R on K classes) on its own under-sample, every
// class but the smallest drawn down to the smallest's size from the
// stream j of seed, with the seed rng.DeriveSeed(seed, j), so the result
// does not depend on workers.
func FitEasyMulti(ctx context.Context, train *learn.Data, k int, s EasySettings, seed uint64, workers int, progress func(done, total int)) ([]*MultiEnsemble, error) {
	return fitEasy(ctx, train, k, s, seed, workers, progress, (*booster).runMulti)
}

// fitEasy is FitEasy (k = 0) and FitEasyMulti: run boosts each ensemble.
func fitEasy[E any](ctx context.Context, train *learn.Data, k int, s EasySettings, seed uint64, workers int, progress func(done, total int),
	run func(*booster, context.Context, uint64, func(done, total int)) (E, error)) ([]E, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	s = s.Resolved()
	workers = learn.Env{Workers: workers}.Threads()
	g, bs, err := newGrower(ctx, train, k, s.Boost, workers)
	if err != nil {
		return nil, err
	}
	out := make([]E, s.NEstimators)
	j, err := learn.ForEach(ctx, workers, s.NEstimators, func() func(context.Context, int) error {
		return func(ctx context.Context, j int) error {
			rows, cnt := balancedSample(train.Y, max(k, 2), s.Replacement, k == 0, rng.Derive(seed, uint64(j)))
			b, err := newBooster(ctx, g, train.X, train.Y, rows, learn.Pick(train.W, rows), cnt, bs)
			if err != nil {
				return err
			}
			out[j], err = run(b, ctx, rng.DeriveSeed(seed, uint64(j)), nil)
			return err
		}
	}, progress)
	switch {
	case j >= 0:
		return nil, fmt.Errorf("ensemble %d: %w", j+1, err)
	case err != nil:
		return nil, err
	}
	return out, nil
}

// balancedSample draws imbalanced-learn's RandomUnderSampler
// (sampling_strategy "auto") from labels y of k classes, as drawBalanced
// does (lastOnTie for two classes), and returns the rows drawn in
// increasing order with the times each was drawn (nil when every row was
// drawn once).
func balancedSample(y []int, k int, replacement, lastOnTie bool, r *rand.Rand) (rows []int, cnt []int32) {
	cls := make([][]int, k)
	for i, v := range y {
		cls[v] = append(cls[v], i)
	}
	count := make([]int32, len(y))
	drawBalanced(cls, count, replacement, lastOnTie, r)
	repeated := false
	for i, c := range count {
		if c > 0 {
			rows = append(rows, i)
			cnt = append(cnt, c)
			repeated = repeated || c > 1
		}
	}
	if !repeated {
		cnt = nil
	}
	return rows, cnt
}

// drawBalanced adds to count[i] the times position i is drawn by
// imbalanced-learn's RandomUnderSampler (sampling_strategy "auto") from
// the positions cls of each class: every position of the smallest
// non-empty class once (the first of the smallest, or the last with
// lastOnTie: imbalanced-learn's rule for two classes, where class 0 is
// the larger when they are equal), and as many of every other non-empty
// class, class by class, without replacement unless replacement is set.
// The order of the positions of the classes drawn changes.
func drawBalanced(cls [][]int, count []int32, replacement, lastOnTie bool, r *rand.Rand) {
	minority, m := -1, 0
	for c, rows := range cls {
		if len(rows) > 0 && (minority < 0 || len(rows) < m || lastOnTie && len(rows) == m) {
			minority, m = c, len(rows)
		}
	}
	for c, rows := range cls {
		switch {
		case c == minority || len(rows) == 0:
			for _, i := range rows {
				count[i]++
			}
		case replacement:
			for range m {
				count[rows[r.IntN(len(rows))]]++
			}
		default:
			// A partial Fisher-Yates shuffle draws m of the class.
			for j := range m {
				t := j + r.IntN(len(rows)-j)
				rows[j], rows[t] = rows[t], rows[j]
				count[rows[j]]++
			}
		}
	}
}
