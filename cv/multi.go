package cv

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
)

// Decider turns class probabilities into classes: a multi-class model's
// decision (decision.MultiLayer).
type Decider interface {
	// Predict writes each row's class of proba (row-major, K per row)
	// into pred.
	Predict(proba []float64, pred []int)
}

// MultiFitFunc fits a multi-class model on train (labels 0..k-1) and
// returns it with its decision; valid is the held-out share of the
// training rows (Settings.Holdout) or nil.
type MultiFitFunc func(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, Decider, error)

// MultiFold is the outcome of one round of a multi-class
// cross-validation: the model fitted on the other folds, scored on this
// one at its own decision.
type MultiFold struct {
	Repeat    int     `json:"repeat"` // from 1
	Fold      int     `json:"fold"`   // from 1
	TrainRows int     `json:"train_rows"`
	ValidRows int     `json:"valid_rows,omitempty"`
	TestRows  int     `json:"test_rows"`
	Seconds   float64 `json:"seconds"`
	// Report holds every multi-class metric of the fold's test rows.
	Report metrics.MultiReport `json:"metrics"`
}

// MultiResult is a finished multi-class cross-validation.
type MultiResult struct {
	Folds   int
	Repeats int
	Classes int
	// Rounds lists every round, repeat by repeat, fold by fold.
	Rounds []MultiFold
	// Proba holds the out-of-fold class probabilities of every row for
	// each repeat, row-major (Classes per row); Pred the class the
	// round's decision gave it.
	Proba [][]float64
	Pred  [][]int
	// FoldOf[r][i] is the fold (from 1) row i was in during repeat r.
	FoldOf [][]int
}

// RunMulti cross-validates a multi-class fit on d (labels 0..k-1, k >= 3)
// as Run does a binary one: stratified folds of every class, the same
// seeds, workers and hold-out. Every class needs at least Folds rows.
func RunMulti(ctx context.Context, d *learn.Data, k int, fit MultiFitFunc, s *Settings, env learn.Env, onRound func(MultiFold)) (*MultiResult, error) {
	set, err := withDefaults(s)
	if err != nil {
		return nil, err
	}
	if err := d.CheckClasses("cv data", k); err != nil {
		return nil, err
	}
	if err := checkMultiFolds(d.Y, k, set.Folds); err != nil {
		return nil, err
	}
	foldOf, tasks, err := planFolds(d.Y, set, env.Seed)
	if err != nil {
		return nil, err
	}
	n := d.Rows()
	res := &MultiResult{Folds: set.Folds, Repeats: set.Repeats, Classes: k, FoldOf: foldOf, Rounds: make([]MultiFold, len(tasks))}
	for range set.Repeats {
		res.Proba = append(res.Proba, make([]float64, n*k))
		res.Pred = append(res.Pred, make([]int, n))
	}
	err = forRounds(ctx, set, env, tasks, func(t task, idx int, fenv learn.Env, holdoutSeed uint64) (func(), error) {
		f, err := multiRound(ctx, d, k, fit, set, fenv, holdoutSeed, t, res)
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

// checkMultiFolds says whether every class of y has a row for each fold.
func checkMultiFolds(y []int, k, folds int) error {
	if folds < 2 {
		return fmt.Errorf("cv: %w: %d folds, need at least 2", ErrFolds, folds)
	}
	count := make([]int, k)
	for _, c := range y {
		if c < 0 || c >= k {
			return fmt.Errorf("cv: label %d is not a class of 0..%d", c, k-1)
		}
		count[c]++
	}
	for c, n := range count {
		if n < folds {
			return fmt.Errorf("cv: %w: %d folds but class %d has only %d rows, and every fold needs one", ErrFolds, folds, c, n)
		}
	}
	return nil
}

// multiRound fits on task t's training rows (less a validation share
// when asked) and scores its test rows into res.
func multiRound(ctx context.Context, d *learn.Data, k int, fit MultiFitFunc, set Settings, env learn.Env, holdoutSeed uint64, t task, res *MultiResult) (MultiFold, error) {
	if err := learn.Interrupted(ctx); err != nil {
		return MultiFold{}, err
	}
	start := time.Now()
	tr := d.Subset(t.train)
	var va *learn.Data
	if set.Holdout > 0 {
		parts, err := dataset.StratifiedSplit(tr.Y, []float64{1 - set.Holdout, set.Holdout}, holdoutSeed)
		if err != nil {
			return MultiFold{}, err
		}
		tr, va = tr.Subset(parts[0]), tr.Subset(parts[1])
	}
	model, decide, err := fit(ctx, tr, va, k, env)
	if err != nil {
		return MultiFold{}, err
	}
	te := d.Subset(t.test)
	p, err := model.PredictProba(te.X, nil)
	if err != nil {
		return MultiFold{}, fmt.Errorf("scoring the fold: %w", err)
	}
	pred := make([]int, te.Rows())
	decide.Predict(p, pred)
	for j, i := range t.test {
		copy(res.Proba[t.r][i*k:(i+1)*k], p[j*k:(j+1)*k])
		res.Pred[t.r][i] = pred[j]
	}
	rep, err := metrics.EvaluateMulti(te.Y, pred, p, k, te.W)
	if err != nil {
		return MultiFold{}, fmt.Errorf("scoring the fold: %w", err)
	}
	return MultiFold{Repeat: t.r + 1, Fold: t.k + 1, TrainRows: tr.Rows(), ValidRows: va.Rows(), TestRows: te.Rows(),
		Report: rep, Seconds: time.Since(start).Seconds()}, nil
}

// MultiValue returns the named metric of a multi-class report:
// balanced_accuracy, accuracy, macro_f1, weighted_f1, gmean, mauc,
// ovr_roc_auc, log_loss or brier.
func MultiValue(rep *metrics.MultiReport, name string) (float64, error) {
	switch name {
	case "balanced_accuracy":
		return rep.BalancedAccuracy, nil
	case "accuracy":
		return rep.Accuracy, nil
	case "macro_f1":
		return rep.MacroF1, nil
	case "weighted_f1":
		return rep.WeightedF1, nil
	case "gmean":
		return rep.GMean, nil
	case "mauc":
		return rep.MAUC, nil
	case "ovr_roc_auc":
		return rep.OvRAUC, nil
	case "log_loss":
		return rep.LogLoss, nil
	case "brier":
		return rep.Brier, nil
	}
	return 0, fmt.Errorf("cv: unknown multi-class metric %q: want one of %v", name, MultiMetrics)
}

// MultiMetrics are the names MultiValue knows.
var MultiMetrics = []string{"balanced_accuracy", "accuracy", "macro_f1", "weighted_f1", "gmean", "mauc", "ovr_roc_auc", "log_loss", "brier"}

// Summaries returns the Summary of each named metric (MultiValue's
// names) over r's rounds.
func (r *MultiResult) Summaries(names ...string) ([]Summary, error) {
	out := make([]Summary, 0, len(names))
	for _, name := range names {
		vals := make([]float64, 0, len(r.Rounds))
		for i := range r.Rounds {
			v, err := MultiValue(&r.Rounds[i].Report, name)
			if err != nil {
				return nil, err
			}
			vals = append(vals, v)
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

// WriteMultiOOF writes r's out-of-fold predictions of the rows of d as
// CSV in the multi-class predictions format aer eval and aer compare
// read: the id column (when ids is not nil), row (from 1), repeat, fold,
// label and pred (class names), score_<class> per class (exact), and
// weight when d has weights.
func WriteMultiOOF(w io.Writer, d *learn.Data, r *MultiResult, classes []string, idColumn string, ids []string) error {
	k := r.Classes
	if len(classes) != k {
		return fmt.Errorf("cv: %d class names for %d classes", len(classes), k)
	}
	if ids != nil && len(ids) != d.Rows() {
		return fmt.Errorf("cv: %d ids for %d rows", len(ids), d.Rows())
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if ids != nil {
		bw.WriteString(csvField(idColumn) + ",")
	}
	bw.WriteString("row,repeat,fold,label,pred")
	for _, c := range classes {
		bw.WriteString("," + csvField(predfile.ScorePrefix+c))
	}
	if d.W != nil {
		bw.WriteString(",weight")
	}
	bw.WriteByte('\n')
	buf := make([]byte, 0, 64+16*k)
	for rep := range r.Proba {
		for i := range d.Rows() {
			buf = buf[:0]
			if ids != nil {
				buf = append(buf, csvField(ids[i])...)
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(i+1), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(rep+1), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(r.FoldOf[rep][i]), 10)
			buf = append(buf, ',')
			buf = append(buf, csvField(classes[d.Y[i]])...)
			buf = append(buf, ',')
			buf = append(buf, csvField(classes[r.Pred[rep][i]])...)
			for _, v := range r.Proba[rep][i*k : (i+1)*k] {
				if v != v {
					return fmt.Errorf("cv: repeat %d, row %d: a probability is NaN", rep+1, i+1)
				}
				buf = append(buf, ',')
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
			if d.W != nil {
				buf = append(buf, ',')
				buf = strconv.AppendFloat(buf, d.W[i], 'g', -1, 64)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
