package cv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// Settings configure a cross-validation. The zero value is 5 folds, one
// repeat, no validation hold-out.
type Settings struct {
	// Folds is the number of folds k; 0 means 5. Every fold must receive
	// a positive row, so k may not exceed the number of positive rows.
	Folds int
	// Repeats is how many times the whole k-fold is run, each time with
	// other fold assignments; 0 means 1.
	Repeats int
	// Holdout, when not 0, is the share of each round's training rows
	// held out (stratified) and passed to the FitFunc as validation data,
	// for fits that tune on validation rows (a grid search, a decision
	// threshold). 0 passes no validation data: the method does what it
	// does without it.
	Holdout float64
}

// FitFunc fits a model on train; valid is the held-out share of the
// training rows (Settings.Holdout) or nil. env carries the fit's seed and
// worker bound.
type FitFunc func(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error)

// Fold is the outcome of one round: the model fitted on the other folds,
// scored on this one at its own decision threshold.
type Fold struct {
	Repeat        int     `json:"repeat"` // from 1
	Fold          int     `json:"fold"`   // from 1
	TrainRows     int     `json:"train_rows"`
	ValidRows     int     `json:"valid_rows,omitempty"`
	TestRows      int     `json:"test_rows"`
	TestPositives int     `json:"test_positives"`
	Threshold     float64 `json:"threshold"`
	Seconds       float64 `json:"seconds"`
	// Report holds every metric of the fold's test rows.
	Report metrics.Report `json:"metrics"`
}

// Result is a finished cross-validation.
type Result struct {
	Folds   int
	Repeats int
	// Rounds lists every round, repeat by repeat, fold by fold.
	Rounds []Fold
	// Score holds the out-of-fold positive-class probability of every row
	// for each repeat: Score[r][i] came from the model that did not see
	// row i in repeat r.
	Score [][]float64
	// FoldOf[r][i] is the fold (from 1) row i was in during repeat r.
	FoldOf [][]int
	// Threshold[r][i] is the decision threshold of the model that scored
	// row i in repeat r.
	Threshold [][]float64
}

// Streams of the seed.
const (
	streamSplit = iota + 1
	streamFit
	streamHoldout
)

// fitSeed is the seed of the fit of round idx (repeat r, fold k: r*k+k,
// from 0) of a run seeded with seed.
func fitSeed(seed uint64, idx int) uint64 {
	return rng.DeriveSeed(rng.DeriveSeed(seed, streamFit), uint64(idx))
}

// ErrFolds is wrapped by the error of a fold count the data cannot fill.
var ErrFolds = errors.New("too many or too few folds")

// Run cross-validates fit on d. env.Seed is the seed every random choice
// derives from; env.Workers bounds the goroutines in all: up to that many
// rounds are fitted at once, each fit getting an even share of the rest
// (so Workers=1 fits one round at a time on one goroutine). The result
// does not depend on env.Workers when fit does not. onRound, when not nil,
// is called after each round, one call at a time, in completion order.
func Run(ctx context.Context, d *learn.Data, fit FitFunc, s *Settings, env learn.Env, onRound func(Fold)) (*Result, error) {
	set, err := withDefaults(s)
	if err != nil {
		return nil, err
	}
	if err := d.Check("cv data"); err != nil {
		return nil, err
	}
	if err := checkFolds(d, set.Folds); err != nil {
		return nil, err
	}
	res, tasks, err := planRounds(d, set, env.Seed)
	if err != nil {
		return nil, err
	}
	if err := runRounds(ctx, d, fit, set, env, onRound, res, tasks); err != nil {
		return nil, err
	}
	return res, nil
}

// withDefaults is s, or the zero Settings when nil, with 5 folds and 1
// repeat where unset, checked.
func withDefaults(s *Settings) (Settings, error) {
	var set Settings
	if s != nil {
		set = *s
	}
	if set.Folds == 0 {
		set.Folds = 5
	}
	if set.Repeats == 0 {
		set.Repeats = 1
	}
	if set.Repeats < 0 {
		return set, fmt.Errorf("cv: %d repeats: want at least 1", set.Repeats)
	}
	if set.Folds > MaxFits || set.Repeats > MaxFits/max(set.Folds, 1) {
		return set, fmt.Errorf("cv: %d folds x %d repeats: more than %d fits", set.Folds, set.Repeats, MaxFits)
	}
	if !(set.Holdout >= 0 && set.Holdout < 1) {
		return set, fmt.Errorf("cv: hold-out share %v is not in [0, 1)", set.Holdout)
	}
	return set, nil
}

// checkFolds says whether d has a positive and a negative row for each of
// the folds.
func checkFolds(d *learn.Data, folds int) error {
	n := d.Rows()
	posW := 0
	for _, y := range d.Y {
		posW += y
	}
	if folds < 2 {
		return fmt.Errorf("cv: %w: %d folds, need at least 2", ErrFolds, folds)
	}
	if folds > posW {
		return fmt.Errorf("cv: %w: %d folds but only %d positive (minority) rows, and every fold needs one", ErrFolds, folds, posW)
	}
	if folds > n-posW {
		return fmt.Errorf("cv: %w: %d folds but only %d negative rows, and every fold needs one", ErrFolds, folds, n-posW)
	}
	return nil
}

// task is one round: repeat r, fold k, and its training and test rows.
type task struct {
	r, k        int
	train, test []int
}

// planRounds draws the stratified folds of each repeat and lays out the
// result they fill, with a task per round in repeat and fold order.
func planRounds(d *learn.Data, set Settings, seed uint64) (*Result, []task, error) {
	foldOf, tasks, err := planFolds(d.Y, set, seed)
	if err != nil {
		return nil, nil, err
	}
	n := d.Rows()
	res := &Result{Folds: set.Folds, Repeats: set.Repeats, FoldOf: foldOf}
	for range set.Repeats {
		res.Score = append(res.Score, make([]float64, n))
		res.Threshold = append(res.Threshold, make([]float64, n))
	}
	res.Rounds = make([]Fold, len(tasks))
	return res, tasks, nil
}

// planFolds draws the stratified folds of each repeat (every class of y
// spread over them): each row's fold (from 1) per repeat, and a task per
// round in repeat and fold order.
func planFolds(y []int, set Settings, seed uint64) ([][]int, []task, error) {
	n := len(y)
	var (
		out   [][]int
		tasks []task
	)
	for r := range set.Repeats {
		folds, err := dataset.StratifiedKFold(y, set.Folds, rng.DeriveSeed(rng.DeriveSeed(seed, streamSplit), uint64(r)))
		if err != nil {
			return nil, nil, fmt.Errorf("cv: %w", err)
		}
		foldOf := make([]int, n)
		for k, f := range folds {
			for _, i := range f {
				foldOf[i] = k + 1
			}
		}
		out = append(out, foldOf)
		for k, f := range folds {
			train := make([]int, 0, n-len(f))
			for i := range n {
				if foldOf[i] != k+1 {
					train = append(train, i)
				}
			}
			tasks = append(tasks, task{r: r, k: k, train: train, test: f})
		}
	}
	return out, tasks, nil
}

// runRounds fits and scores the tasks' rounds into res, up to
// env.Threads() at a time; the first error stops the rounds not begun.
func runRounds(ctx context.Context, d *learn.Data, fit FitFunc, set Settings, env learn.Env, onRound func(Fold), res *Result, tasks []task) error {
	return forRounds(ctx, set, env, tasks, func(t task, idx int, fenv learn.Env, holdoutSeed uint64) (func(), error) {
		f, err := round(ctx, d, fit, set, fenv, holdoutSeed, t.train, t.test, res.Score[t.r], res.Threshold[t.r])
		if err != nil {
			return nil, err
		}
		f.Repeat, f.Fold = t.r+1, t.k+1
		res.Rounds[idx] = f
		return func() {
			if onRound != nil {
				onRound(f)
			}
		}, nil
	})
}

// forRounds runs do on each task, up to env.Threads() at a time, each
// with its seed and an even share of the workers; the function do
// returns is called after the round, one call at a time, in completion
// order. The first error stops the rounds not begun.
func forRounds(ctx context.Context, set Settings, env learn.Env, tasks []task, do func(t task, idx int, env learn.Env, holdoutSeed uint64) (func(), error)) error {
	total := env.Threads()
	par := min(total, len(tasks))
	inner := env
	inner.Workers = max(1, total/par)
	inner.Progress = nil

	var (
		mu      sync.Mutex
		done    int
		errs    = make([]error, len(tasks))
		next    = make(chan int)
		wg      sync.WaitGroup
		stopped = make(chan struct{})
		once    sync.Once
	)
	stop := func() { once.Do(func() { close(stopped) }) }
	env.Report("cv", 0, len(tasks))
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t := tasks[i]
				select {
				case <-stopped:
					continue
				default:
				}
				idx := t.r*set.Folds + t.k
				fenv := inner
				fenv.Seed = fitSeed(env.Seed, idx)
				after, err := do(t, idx, fenv, rng.DeriveSeed(rng.DeriveSeed(env.Seed, streamHoldout), uint64(idx)))
				if err != nil {
					errs[idx] = fmt.Errorf("cv: repeat %d, fold %d: %w", t.r+1, t.k+1, err)
					stop()
					continue
				}
				mu.Lock()
				done++
				env.Report("cv", done, len(tasks))
				after()
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range tasks {
		select {
		case next <- i:
		case <-stopped:
			break feed
		}
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return learn.Interrupted(ctx)
}

// round fits on the train rows (less a validation share when asked) and
// scores the test rows into score and threshold.
func round(ctx context.Context, d *learn.Data, fit FitFunc, set Settings, env learn.Env, holdoutSeed uint64, train, test []int, score, threshold []float64) (Fold, error) {
	if err := learn.Interrupted(ctx); err != nil {
		return Fold{}, err
	}
	start := time.Now()
	tr := d.Subset(train)
	var va *learn.Data
	if set.Holdout > 0 {
		parts, err := dataset.StratifiedSplit(tr.Y, []float64{1 - set.Holdout, set.Holdout}, holdoutSeed)
		if err != nil {
			return Fold{}, err
		}
		tr, va = tr.Subset(parts[0]), tr.Subset(parts[1])
	}
	model, err := fit(ctx, tr, va, env)
	if err != nil {
		return Fold{}, err
	}
	te := d.Subset(test)
	p, err := learn.Predict(ctx, model, te.X, env.Workers)
	if err != nil {
		return Fold{}, fmt.Errorf("scoring the fold: %w", err)
	}
	t := learn.ThresholdOf(model)
	for j, i := range test {
		score[i], threshold[i] = p[j], t
	}
	f := Fold{TrainRows: tr.Rows(), ValidRows: va.Rows(), TestRows: te.Rows(), Threshold: t,
		Report: metrics.Evaluate(te.Y, p, t, te.W), Seconds: time.Since(start).Seconds()}
	for _, y := range te.Y {
		f.TestPositives += y
	}
	return f, nil
}

// Summary is the mean and sample standard deviation of one metric over the
// rounds where it is defined.
type Summary struct {
	Metric string  `json:"metric"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"` // 0 for a single round
	// Rounds counts the rounds where the metric is defined (not NaN).
	Rounds int `json:"rounds"`
}

// MarshalJSON writes an undefined mean or deviation (no round defines
// the metric) as null.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain struct {
		Metric string   `json:"metric"`
		Mean   *float64 `json:"mean"`
		SD     *float64 `json:"sd"`
		Rounds int      `json:"rounds"`
	}
	num := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	return json.Marshal(plain{s.Metric, num(s.Mean), num(s.SD), s.Rounds})
}

// Summaries returns the Summary of each named metric over r's rounds:
// the names of metrics.Metric, roc_auc and average_precision (PR-AUC).
func (r *Result) Summaries(names ...string) ([]Summary, error) {
	out := make([]Summary, 0, len(names))
	for _, name := range names {
		get, err := metricOf(name)
		if err != nil {
			return nil, err
		}
		vals := make([]float64, len(r.Rounds))
		for i := range r.Rounds {
			vals[i] = get(&r.Rounds[i].Report)
		}
		out = append(out, summarise(name, vals))
	}
	return out, nil
}

// Value returns the named metric of a report: a metrics.Metric name,
// roc_auc or average_precision.
func Value(rep *metrics.Report, name string) (float64, error) {
	get, err := metricOf(name)
	if err != nil {
		return 0, err
	}
	return get(rep), nil
}

func metricOf(name string) (func(*metrics.Report) float64, error) {
	switch name {
	case "roc_auc":
		return func(r *metrics.Report) float64 { return r.ROCAUC }, nil
	case "average_precision":
		return func(r *metrics.Report) float64 { return r.AveragePrecision }, nil
	}
	m, err := metrics.ParseMetric(name)
	if err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	return func(r *metrics.Report) float64 { return r.Value(m) }, nil
}

// MaxFits bounds Folds x Repeats: every fold of every repeat is a fit,
// and its results are held until the end.
const MaxFits = 100_000
