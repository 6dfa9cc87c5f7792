package cv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
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

// FitFunc fits a model of k classes on train (labels 0..k-1); valid is
// the held-out share of the training rows (Settings.Holdout) or nil. env
// carries the fit's seed and worker bound. It returns the model and its
// decision: a model of two classes is a learn.Scorer that decides at its
// threshold (learn.ThresholdOf), and its Decider is not used (nil); a
// model of more classes decides by its Decider (nil: the most probable
// class).
type FitFunc func(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, Decider, error)

// Decider turns class probabilities into classes: the decision of a
// model of three or more classes.
type Decider interface {
	// Predict writes each row's class of proba (row-major, K per row)
	// into pred.
	Predict(proba []float64, pred []int)
}

// Report is a fold's report of every built-in metric of its test rows:
// a *metrics.Report for two classes (the model's scores at its
// threshold), a *metrics.MultiReport for more.
type Report interface {
	// Get returns the value of the metric named name the report holds;
	// ok is false for a metric it does not hold.
	Get(name string) (v float64, ok bool)
}

// Fold is the outcome of one round: the model fitted on the other folds,
// scored on this one at its own decision.
type Fold struct {
	Repeat    int // from 1
	Fold      int // from 1
	TrainRows int
	ValidRows int
	TestRows  int
	// TestPositives (the test rows of class 1) and Threshold (the
	// model's decision threshold) are set for two classes.
	TestPositives int
	Threshold     float64
	Seconds       float64
	// Report holds every built-in metric of the fold's test rows.
	Report Report
	// outcome is the test rows' decisions, for the metrics Report does
	// not hold (Value).
	outcome *metrics.Outcome
}

// Classes is the number of classes of the fold's labels.
func (f *Fold) Classes() int {
	if f.outcome != nil {
		return f.outcome.Classes
	}
	if r, ok := f.Report.(*metrics.MultiReport); ok {
		return r.Classes
	}
	return 2
}

// Value returns the fold's value of the metric named name, of package
// metrics' table (metrics.Lookup): the report's, or computed from the
// fold's test rows for a metric it does not hold (one registered with
// metrics.Register). It is an error for a metric not defined for the
// fold's number of classes.
func (f *Fold) Value(name string) (float64, error) {
	m, err := metrics.Lookup(name)
	if err != nil {
		return 0, fmt.Errorf("cv: %w", err)
	}
	if k := f.Classes(); !m.For(k) {
		return 0, fmt.Errorf("cv: metric %q is not defined for %d classes", name, k)
	}
	if f.Report != nil {
		if v, ok := f.Report.Get(m.String()); ok {
			return v, nil
		}
	}
	return m.Value(f.outcome), nil
}

// MarshalJSON writes the fold as aer cv --json does: repeat, fold,
// train_rows, valid_rows (when not 0), test_rows, for two classes
// test_positives and threshold, seconds, and the report as metrics.
func (f Fold) MarshalJSON() ([]byte, error) {
	type common struct {
		Repeat    int `json:"repeat"`
		Fold      int `json:"fold"`
		TrainRows int `json:"train_rows"`
		ValidRows int `json:"valid_rows,omitempty"`
		TestRows  int `json:"test_rows"`
	}
	c := common{f.Repeat, f.Fold, f.TrainRows, f.ValidRows, f.TestRows}
	if f.Classes() == 2 {
		return json.Marshal(struct {
			common
			TestPositives int     `json:"test_positives"`
			Threshold     float64 `json:"threshold"`
			Seconds       float64 `json:"seconds"`
			Report        Report  `json:"metrics"`
		}{c, f.TestPositives, f.Threshold, f.Seconds, f.Report})
	}
	return json.Marshal(struct {
		common
		Seconds float64 `json:"seconds"`
		Report  Report  `json:"metrics"`
	}{c, f.Seconds, f.Report})
}

// Result is a finished cross-validation.
type Result struct {
	Folds   int
	Repeats int
	Classes int
	// Rounds lists every round, repeat by repeat, fold by fold.
	Rounds []Fold
	// Proba holds the out-of-fold class probabilities of every row for
	// each repeat, row-major (Classes per row): Proba[r][i*Classes+c]
	// came from the model that did not see row i in repeat r. Pred holds
	// the class that model's decision gave the row.
	Proba [][]float64
	Pred  [][]int
	// FoldOf[r][i] is the fold (from 1) row i was in during repeat r.
	FoldOf [][]int
	// Threshold[r][i] is, for two classes, the decision threshold of the
	// model that scored row i in repeat r; nil for more classes.
	Threshold [][]float64
}

// Positive returns the out-of-fold probability of class 1 of every row
// in repeat r, for two classes: the model's score.
func (r *Result) Positive(rep int) []float64 {
	n := len(r.Proba[rep]) / r.Classes
	out := make([]float64, n)
	for i := range out {
		out[i] = r.Proba[rep][i*r.Classes+1]
	}
	return out
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

// Run cross-validates fit on d, whose labels are k classes 0..k-1
// (k >= 2): stratified folds of every class (each class needs a row in
// every fold), each round fitted on the other folds and scored on its
// own at the model's decision. env.Seed is the seed every random choice
// derives from; env.Workers bounds the goroutines in all: up to that many
// rounds are fitted at once, each fit getting an even share of the rest
// (so Workers=1 fits one round at a time on one goroutine). The result
// does not depend on env.Workers when fit does not. onRound, when not
// nil, is called after each round, one call at a time, in completion
// order.
func Run(ctx context.Context, d *learn.Data, k int, fit FitFunc, s *Settings, env learn.Env, onRound func(Fold)) (*Result, error) {
	set, err := withDefaults(s)
	if err != nil {
		return nil, err
	}
	if err := d.CheckClasses("cv data", k); err != nil {
		return nil, err
	}
	if err := checkFolds(d.Y, k, set.Folds); err != nil {
		return nil, err
	}
	foldOf, tasks, err := planFolds(d.Y, set, env.Seed)
	if err != nil {
		return nil, err
	}
	n := d.Rows()
	res := &Result{Folds: set.Folds, Repeats: set.Repeats, Classes: k, FoldOf: foldOf, Rounds: make([]Fold, len(tasks))}
	for range set.Repeats {
		res.Proba = append(res.Proba, make([]float64, n*k))
		res.Pred = append(res.Pred, make([]int, n))
		if k == 2 {
			res.Threshold = append(res.Threshold, make([]float64, n))
		}
	}
	err = forRounds(ctx, set, env, tasks, func(t task, idx int, fenv learn.Env, holdoutSeed uint64) (func(), error) {
		f, err := round(ctx, d, k, fit, set, fenv, holdoutSeed, t, res)
		if err != nil {
			return nil, err
		}
		res.Rounds[idx] = f
		return func() {
			if onRound != nil {
				onRound(f)
			}
		}, nil
	})
	if err != nil {
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

// checkFolds says whether every class of y (0..k-1) has a row for each
// of the folds (CheckFolds with the classes named by index).
func checkFolds(y []int, k, folds int) error {
	for _, c := range y {
		if c < 0 || c >= k {
			return fmt.Errorf("cv: label %d is not a class of 0..%d", c, k-1)
		}
	}
	names := make([]string, k)
	for c := range names {
		names[c] = strconv.Itoa(c)
	}
	if err := CheckFolds(y, names, folds); err != nil {
		return fmt.Errorf("cv: %w", err)
	}
	return nil
}

// CheckFolds says whether labels y (class indices of classes, whose
// names they are) fill folds stratified folds: every fold needs a row of
// every class. The error wraps ErrFolds, names the smallest class and its
// rows, and gives the most folds the data can fill, or, when a class has
// a single row (or none), says that no fold count can: at least 2 folds
// are needed, so each class needs at least 2 rows.
func CheckFolds(y []int, classes []string, folds int) error {
	if folds < 2 {
		return fmt.Errorf("%w: %d folds, need at least 2", ErrFolds, folds)
	}
	count := make([]int, len(classes))
	for _, c := range y {
		if c >= 0 && c < len(count) {
			count[c]++
		}
	}
	if len(count) == 0 {
		return nil
	}
	small := 0
	for c, n := range count {
		if n < count[small] {
			small = c
		}
	}
	n := count[small]
	if folds <= n {
		return nil
	}
	name := strconv.Quote(classes[small])
	if len(classes) == 2 {
		name += map[int]string{0: " (negative)", 1: " (positive)"}[small]
	}
	if n < 2 {
		fix := "add rows of it"
		if len(classes) > 2 {
			fix += " or leave its rows out"
		}
		return fmt.Errorf("%w: class %s has %d %s, and stratified folds need a row of every class in each of at least 2 folds, so no number of folds works: %s",
			ErrFolds, name, n, plural(n, "row", "rows"), fix)
	}
	return fmt.Errorf("%w: %d folds but class %s has only %d rows, and every fold needs one of each class; use %d folds or fewer", ErrFolds, folds, name, n, n)
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// task is one round: repeat r, fold k, and its training and test rows.
type task struct {
	r, k        int
	train, test []int
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
	env.Report("folds", 0, len(tasks))
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
				after()
				env.Report("folds", done, len(tasks))
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

// round fits on task t's training rows (less a validation share when
// asked) and scores its test rows into res.
func round(ctx context.Context, d *learn.Data, k int, fit FitFunc, set Settings, env learn.Env, holdoutSeed uint64, t task, res *Result) (Fold, error) {
	if err := learn.Interrupted(ctx); err != nil {
		return Fold{}, err
	}
	start := time.Now()
	tr := d.Subset(t.train)
	var va *learn.Data
	if set.Holdout > 0 {
		parts, err := dataset.StratifiedSplit(tr.Y, []float64{1 - set.Holdout, set.Holdout}, holdoutSeed)
		if err != nil {
			return Fold{}, err
		}
		tr, va = tr.Subset(parts[0]), tr.Subset(parts[1])
	}
	model, decide, err := fit(ctx, tr, va, k, env)
	if err != nil {
		return Fold{}, err
	}
	te := d.Subset(t.test)
	f := Fold{Repeat: t.r + 1, Fold: t.k + 1, TrainRows: tr.Rows(), ValidRows: va.Rows(), TestRows: te.Rows()}
	pred := make([]int, te.Rows())
	var proba []float64
	if k == 2 {
		proba, err = decideTwo(ctx, model, te, env, pred, &f)
	} else {
		proba, err = decideMany(ctx, model, decide, te, k, pred, &f)
	}
	if err != nil {
		return Fold{}, fmt.Errorf("scoring the fold: %w", err)
	}
	if f.outcome, err = metrics.NewOutcome(te.Y, pred, proba, k, te.W); err != nil {
		return Fold{}, fmt.Errorf("scoring the fold: %w", err)
	}
	for j, i := range t.test {
		copy(res.Proba[t.r][i*k:(i+1)*k], proba[j*k:(j+1)*k])
		res.Pred[t.r][i] = pred[j]
		if k == 2 {
			res.Threshold[t.r][i] = f.Threshold
		}
	}
	f.Seconds = time.Since(start).Seconds()
	return f, nil
}

// decideTwo scores the test rows te with a two-class model, decides at
// its threshold into pred and reports into f; it returns both classes'
// probabilities.
func decideTwo(ctx context.Context, model learn.Model, te *learn.Data, env learn.Env, pred []int, f *Fold) ([]float64, error) {
	scorer, ok := model.(learn.Scorer)
	if !ok {
		return nil, fmt.Errorf("%w: a model of two classes without its score (learn.Scorer)", learn.ErrData)
	}
	p, err := learn.Predict(ctx, scorer, te.X, env.Workers)
	if err != nil {
		return nil, err
	}
	f.Threshold = learn.ThresholdOf(scorer)
	proba := make([]float64, 2*len(p))
	for i, v := range p {
		proba[2*i], proba[2*i+1] = 1-v, v
		if v >= f.Threshold {
			pred[i] = 1
		}
	}
	for _, y := range te.Y {
		f.TestPositives += y
	}
	rep := metrics.Evaluate(te.Y, p, f.Threshold, te.W)
	f.Report = &rep
	return proba, nil
}

// decideMany scores the test rows te with a model of k classes, decides
// by decide (nil: the most probable class) into pred and reports into f;
// it returns the probabilities.
func decideMany(ctx context.Context, model learn.Model, decide Decider, te *learn.Data, k int, pred []int, f *Fold) ([]float64, error) {
	proba, err := model.PredictProba(te.X, nil)
	if err != nil {
		return nil, err
	}
	if len(proba) != te.Rows()*k {
		return nil, fmt.Errorf("%w: %d probabilities for %d rows of %d classes", learn.ErrData, len(proba), te.Rows(), k)
	}
	if decide != nil {
		decide.Predict(proba, pred)
	} else {
		for i := range pred {
			pred[i] = argmax(proba[i*k : (i+1)*k])
		}
	}
	rep, err := metrics.EvaluateMultiContext(ctx, te.Y, pred, proba, k, te.W)
	if err != nil {
		return nil, err
	}
	f.Report = &rep
	return proba, nil
}

// argmax is the first class of largest probability.
func argmax(p []float64) int {
	best := 0
	for c, v := range p {
		if v > p[best] {
			best = c
		}
	}
	return best
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
// metrics of package metrics' table (metrics.Lookup) defined for r's
// number of classes, such as balanced_accuracy, roc_auc and
// average_precision (PR-AUC) for two classes, macro_f1 and mauc for
// more, and any registered.
func (r *Result) Summaries(names ...string) ([]Summary, error) {
	out := make([]Summary, 0, len(names))
	for _, name := range names {
		if _, err := metrics.Lookup(name); err != nil {
			return nil, fmt.Errorf("cv: %w", err)
		}
		vals := make([]float64, len(r.Rounds))
		for i := range r.Rounds {
			v, err := r.Rounds[i].Value(name)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		out = append(out, summarise(name, vals))
	}
	return out, nil
}

// summarise is the mean and sample deviation of the defined values.
func summarise(name string, all []float64) Summary {
	var vals []float64
	for _, v := range all {
		if !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	s := Summary{Metric: name, Mean: math.NaN(), SD: math.NaN(), Rounds: len(vals)}
	if len(vals) == 0 {
		return s
	}
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	s.Mean = sum / float64(len(vals))
	ss := 0.0
	for _, v := range vals {
		ss += (v - s.Mean) * (v - s.Mean)
	}
	s.SD = 0
	if len(vals) > 1 {
		s.SD = math.Sqrt(ss / float64(len(vals)-1))
	}
	return s
}

// MaxFits bounds Folds x Repeats: every fold of every repeat is a fit,
// and its results are held until the end.
const MaxFits = 100_000
