package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	aerlib "github.com/aer-go/aer"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

func init() {
	register(&command{
		name:    "cv",
		summary: "stratified k-fold cross-validation of a method: per-fold and mean metrics, out-of-fold predictions",
		usage: `Usage: aer cv --data FILE.csv [--method aer] [--param key=value ...] [--grid key=v1,v2 ...]
              [--folds 5] [--repeats 1] [--seed 0] [--oof oof.csv] [--jobs N] [--json]

Deals the rows of the labelled CSV file into --folds stratified folds
(each holds about 1/k of every class), fits the method on all folds but
one and scores the one left out, for every fold; --repeats R does it R
times with other fold assignments. All random choices derive from --seed:
the fold assignment of repeat r and the seed of every fit, so a run is
reproduced exactly, whatever --jobs is.

Each round fits as aer fit does without --valid: a method that tunes on
validation data (aer's lambda and delta, gbdt-tuned's threshold) holds out
part of the round's training rows itself, and the decision layer is
fitted on those held-out rows (aer) or cross-fitted on the round's
training rows (every other method: 5 more fits a round). With --grid,
which needs validation data, or with --holdout given, a stratified
--holdout share of each round's training rows (0.25 by default) is held
out instead: every round runs its own grid search and fits its own
decision layer on it. A split column, if any, is ignored: every row takes
part.

The metrics of each round are those of aer eval on the rows left out, at
the decision threshold of the round's model (its tuned threshold or
decision layer, else 0.5): balanced accuracy, ROC-AUC, PR-AUC (average
precision), F1, G-mean sqrt(TPR*TNR), Fowlkes-Mallows (the paper's
G-mean) and MCC; then their mean and sample standard deviation over the
rounds. --json prints every round's full report too.

--oof writes the out-of-fold predictions, one line per row and repeat, in
the predictions format aer eval and aer compare read: row (1-based row
number of the data file), repeat, fold, label (1 = positive), score, pred
(score >= the round's threshold) and weight (with --weight); with --id,
the id column comes first, as aer predict writes it. aer eval --data
oof.csv scores them (all repeats pooled).

Columns are read as aer fit reads them: --id, --drop, --categorical and
--max-categories mean the same; a text column is categorical.

--jobs N bounds the goroutines: up to N rounds are fitted at once, each
with an even share of the N. A line per finished round goes to stderr.

A label of three or more classes is cross-validated as aer fit fits it
(--multiclass, the decision by --threshold-rule: bayes by default, tuned
or argmax), with folds stratified on every class (each class needs at
least --folds rows). Each round is scored at its decision by the
multi-class metrics of aer eval: balanced accuracy (the mean of the
per-class recalls), macro F1, G-mean, MAUC (Hand and Till), log-loss and
Brier. --oof writes the multi-class predictions format: row, repeat,
fold, label, pred (class names), then score_<class> per class.`,
		run: runCV,
	})
}

// cvMetric is a metric aer cv tabulates and summarises: its name in
// package metrics' table and its column head.
type cvMetric struct{ key, head string }

// cvMetrics are the metrics aer cv tabulates for two classes, and
// cvClassMetrics those for three or more.
var (
	cvMetrics = []cvMetric{
		{"balanced_accuracy", "BA"}, {"roc_auc", "ROC-AUC"}, {"average_precision", "PR-AUC"},
		{"f1", "F1"}, {"gmean", "G-mean"}, {"fowlkes_mallows", "FM"}, {"mcc", "MCC"},
	}
	cvClassMetrics = []cvMetric{
		{"balanced_accuracy", "BA"}, {"macro_f1", "macro-F1"}, {"gmean", "G-mean"}, {"mauc", "MAUC"},
		{"accuracy", "accuracy"}, {"log_loss", "log-loss"}, {"brier", "Brier"},
	}
)

// cvHead and cvTail are the fields of aer cv's --json document before
// and after those of the classes.
type cvHead struct {
	Method   string `json:"method"`
	Data     string `json:"data"`
	Rows     int    `json:"rows"`
	Features int    `json:"features"`
}

type cvTail struct {
	Weight  string            `json:"weight,omitempty"`
	Folds   int               `json:"folds"`
	Repeats int               `json:"repeats"`
	Seed    uint64            `json:"seed"`
	Holdout float64           `json:"holdout,omitempty"`
	Params  map[string]string `json:"params"`
	Grid    []string          `json:"grid,omitempty"` // two classes only
	Seconds float64           `json:"seconds"`
	OOF     string            `json:"oof,omitempty"`
	Rounds  []cv.Fold         `json:"rounds"`
	Summary []cv.Summary      `json:"summary"`
}

// cvOutput is the --json document of aer cv on a table of two classes.
type cvOutput struct {
	cvHead
	Positives int       `json:"positives"`
	Classes   [2]string `json:"classes"`
	cvTail
}

// cvClassesOutput is the --json document of aer cv on a table of three
// or more classes.
type cvClassesOutput struct {
	cvHead
	Labels     []string `json:"labels"`
	Counts     []int    `json:"class_counts"`
	Multiclass string   `json:"multiclass,omitempty"`
	cvTail
}

func runCV(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["cv"]
	fs := newFlagSet(c, stderr)
	var ff fitFlags
	ff.register(fs)
	data := fs.String("data", "", "labelled CSV `file` to cross-validate on (required)")
	weight := fs.String("weight", "", "`column` of non-negative row weights")
	folds := fs.Int("folds", 5, "number of stratified folds `k` (at least 2, at most the minority rows)")
	repeats := fs.Int("repeats", 1, "repeat the k-fold `R` times with other fold assignments")
	holdout := fs.Float64("holdout", 0.25, "`share` of each round's training rows held out as validation data (with --grid, or when given)")
	seed := fs.Uint64("seed", 0, "random seed (fold assignments and fits)")
	oof := fs.String("oof", "", "write the out-of-fold predictions as CSV to `file`")
	jobs := fs.Int("jobs", 0, "worker goroutines in all, shared by the rounds fitted at once (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	var df dataFlags
	df.register(fs)
	df.registerCategorical(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := cvCheckFlags(*data, *folds, *repeats, *jobs, *oof); err != nil {
		return err
	}
	setFittingGC(*data)
	plan, err := ff.plan("cv")
	if err != nil {
		return err
	}
	set := cv.Settings{Folds: *folds, Repeats: *repeats}
	if plan.needsValid() || flagGiven(fs, "holdout") {
		if !(*holdout > 0 && *holdout < 1) {
			return usageErrorf("cv: --holdout %v: want a share in (0, 1)", *holdout)
		}
		set.Holdout = *holdout
	}
	// The progress shows from the first byte read (reading, then the
	// folds done); while it shows, the command's lines go through it.
	bar := newProgress(stderr, "cv "+plan.method.Name())
	d, res, elapsed, err := cvLoadRun(ctx, plan, &df, &set, cvRunArgs{*data, *weight, *seed, *jobs}, bar, stderr)
	bar.done(err)
	if err != nil {
		return err
	}
	list := cvMetrics
	if d.NumClasses() > 2 {
		list = cvClassMetrics
	}
	sum, err := res.Summaries(cvMetricKeys(list)...)
	if err != nil {
		return fmt.Errorf("cv: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if *oof != "" {
		ld := learnData(d)
		if err := writeFileAtomic(ctx, *oof, func(w io.Writer) error { return cv.WriteOOF(w, ld, res, d.Classes, d.IDColumn, d.IDs) }); err != nil {
			return fmt.Errorf("cv: writing --oof: %w", err)
		}
	}
	head := cvHead{Method: plan.method.Name(), Data: *data, Rows: d.Rows(), Features: d.Cols()}
	tail := cvTail{Weight: d.WeightColumn, Folds: *folds, Repeats: *repeats, Seed: *seed, Holdout: set.Holdout,
		Params: learn.ParamMap(plan.method.Params()), Seconds: elapsed.Seconds(), OOF: *oof, Rounds: res.Rounds, Summary: sum}
	doc, classes := cvDocument(d, plan, ff.grid, head, tail)
	if *asJSON {
		return writeJSON(stdout, doc)
	}
	writeCVText(stdout, &head, classes, &tail)
	return nil
}

// cvDocument is aer cv's JSON document of d's classes (the grid is
// listed for two classes, as it always was) and the text line of its
// classes.
func cvDocument(d *dataset.Dataset, plan *fitPlan, grid []string, head cvHead, tail cvTail) (doc any, classes string) {
	if d.NumClasses() > 2 {
		counts := d.ClassCounts()
		names := make([]string, len(d.Classes))
		for c, name := range d.Classes {
			names[c] = fmt.Sprintf("%s %d", name, counts[c])
		}
		return cvClassesOutput{cvHead: head, Labels: d.Classes, Counts: counts, Multiclass: plan.spec.Decomposition, cvTail: tail},
			fmt.Sprintf("%d classes (%s)", len(d.Classes), strings.Join(names, ", "))
	}
	pos := d.ClassCounts()[1]
	tail.Grid = grid
	return cvOutput{cvHead: head, Positives: pos, Classes: dataset.ClassPair(d.Classes), cvTail: tail},
		fmt.Sprintf("%d positive (%s)", pos, d.Classes[1])
}

// cvRunArgs are the flags of aer cv that cvLoadRun reads.
type cvRunArgs struct {
	data, weight string
	seed         uint64
	jobs         int
}

// cvLoadRun reads the data and cross-validates plan on it, its progress
// on bar (whose writer takes the lines meant for stderr meanwhile).
func cvLoadRun(ctx context.Context, plan *fitPlan, df *dataFlags, set *cv.Settings, a cvRunArgs, bar *progress, stderr io.Writer) (*dataset.Dataset, *cv.Result, time.Duration, error) {
	w := bar.writer(stderr)
	d, err := cvLoad(bar.reading(ctx), df, a.data, a.weight, set.Folds, w)
	if err != nil {
		return nil, nil, 0, err
	}
	if warn := d.ContinuousLabel(); warn != "" {
		fmt.Fprintf(w, "cv: warning: %s\n", warn)
	}
	notes := noteLoggerOnce(w, "cv")
	defer flushNotes(notes, w)
	res, elapsed, err := cvRun(ctx, plan, d, set, learn.Env{Seed: a.seed, Workers: a.jobs, Progress: bar.update, Logger: notes}, w)
	return d, res, elapsed, err
}

// cvRun cross-validates plan on d with set, a line per finished round
// on stderr, and returns the result and how long it took. The notes go
// to env.Logger, noteLoggerOnce's.
func cvRun(ctx context.Context, plan *fitPlan, d *dataset.Dataset, set *cv.Settings, env learn.Env, stderr io.Writer) (*cv.Result, time.Duration, error) {
	if env.Logger == nil {
		env.Logger = noteLoggerOnce(stderr, "cv")
	}
	start := time.Now()
	fresh, _ := learn.New(plan.method.Name())
	res, err := aerlib.CrossValidate(ctx, aerlib.TableOf(d), plan.settings(env), fresh, set, func(f cv.Fold) {
		ba, _ := f.Value("balanced_accuracy")
		if f.Classes() > 2 {
			fmt.Fprintf(stderr, "cv: repeat %d/%d, fold %d/%d: %d test rows, balanced accuracy %s, %.2f s\n",
				f.Repeat, set.Repeats, f.Fold, set.Folds, f.TestRows, cvFmt(ba), f.Seconds)
			return
		}
		fmt.Fprintf(stderr, "cv: repeat %d/%d, fold %d/%d: %d test rows (%d positive), balanced accuracy %s at threshold %.4g, %.2f s\n",
			f.Repeat, set.Repeats, f.Fold, set.Folds, f.TestRows, f.TestPositives, cvFmt(ba), f.Threshold, f.Seconds)
	})
	switch {
	case err == nil:
		return res, time.Since(start), nil
	case isParamError(err):
		return nil, 0, usageErrorf("cv: %v", err)
	case isUsageError(err) || strings.HasPrefix(err.Error(), "cv: "):
		return nil, 0, err
	}
	return nil, 0, fmt.Errorf("cv: %w", err)
}

// cvCheckFlags checks aer cv's flags: --data given and the numbers in range.
func cvCheckFlags(data string, folds, repeats, jobs int, oof string) error {
	switch {
	case data == "":
		return usageErrorf("cv: --data is required")
	case folds < 2:
		return usageErrorf("cv: --folds %d: need at least 2", folds)
	case repeats < 1:
		return usageErrorf("cv: --repeats %d: need at least 1", repeats)
	case folds > cv.MaxFits || repeats > cv.MaxFits/folds:
		return usageErrorf("cv: --folds %d x --repeats %d: more than %d fits", folds, repeats, cv.MaxFits)
	case jobs < 0:
		return usageErrorf("cv: --jobs must be at least 0, not %d", jobs)
	}
	return refuseOverwrite("cv", "--oof", oof, input{"--data", data})
}

// cvLoad reads the data of aer cv as aer fit reads training data, and
// checks that every one of the folds can hold a row of every class.
func cvLoad(ctx context.Context, df *dataFlags, path, weight string, folds int, stderr io.Writer) (*dataset.Dataset, error) {
	opt := df.trainingOptions()
	opt.Weight = weight
	d, err := loadData(ctx, path, opt)
	if err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	noteMixed(stderr, "cv", d, path)
	if err := df.checkDropped(d, path); err != nil {
		return nil, usageErrorf("cv: %v", err)
	}
	if err := df.checkPositive(d, path); err != nil {
		return nil, usageErrorf("cv: %v", err)
	}
	if d.Split != nil {
		fmt.Fprintf(stderr, "cv: %s: split column ignored: every row takes part in the folds\n", path)
	}
	if err := cv.CheckFolds(d.Y, d.Classes, folds); err != nil {
		return nil, fmt.Errorf("cv: --folds %d: %s: %w", folds, path, err)
	}
	return d, nil
}

// cvMetricKeys are the keys of list.
func cvMetricKeys(list []cvMetric) []string {
	keys := make([]string, len(list))
	for i, m := range list {
		keys[i] = m.key
	}
	return keys
}

// writeCVText renders a cross-validation as text: the rounds' table,
// their mean and deviation. For two classes the table has each round's
// positive rows and threshold.
func writeCVText(w io.Writer, h *cvHead, classes string, o *cvTail) {
	fmt.Fprintf(w, "method     %s\n", h.Method)
	fmt.Fprintf(w, "data       %s: %d rows, %d features, %s\n", h.Data, h.Rows, h.Features, classes)
	how := ""
	if o.Holdout > 0 {
		how = fmt.Sprintf("; %.3g of each round's training rows held out for tuning", o.Holdout)
	}
	fmt.Fprintf(w, "cv         %d folds x %d repeats, seed %d%s, %d rounds in %.3f s\n\n", o.Folds, o.Repeats, o.Seed, how, o.Folds*o.Repeats, o.Seconds)
	two := len(o.Rounds) == 0 || o.Rounds[0].Classes() == 2
	head, list := []string{"repeat", "fold", "train", "test"}, cvClassMetrics
	legend := "(BA: balanced accuracy, the mean of the per-class recalls; G-mean: their geometric mean; MAUC: Hand and Till's multi-class AUC)"
	if two {
		head, list = append(head, "pos", "threshold"), cvMetrics
		legend = "(BA: balanced accuracy; PR-AUC: average precision; G-mean: sqrt(TPR*TNR); FM: Fowlkes-Mallows, the paper's G-mean)"
	}
	lead := len(head)
	align := strings.Repeat("r", lead+len(list))
	for _, m := range list {
		head = append(head, m.head)
	}
	rows := [][]string{head}
	for _, f := range o.Rounds {
		row := []string{strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), strconv.Itoa(f.TrainRows), strconv.Itoa(f.TestRows)}
		if two {
			row = append(row, strconv.Itoa(f.TestPositives), strconv.FormatFloat(f.Threshold, 'g', 4, 64))
		}
		for _, m := range list {
			v, _ := f.Value(m.key)
			row = append(row, cvFmt(v))
		}
		rows = append(rows, row)
	}
	mean, sd := make([]string, lead), make([]string, lead)
	mean[0], sd[0] = "mean", "sd"
	for _, s := range o.Summary {
		mean, sd = append(mean, cvFmt(s.Mean)), append(sd, cvFmt(s.SD))
	}
	rows = append(rows, mean, sd)
	evalWriteTable(w, align, rows)
	fmt.Fprintln(w, legend)
	if o.OOF != "" {
		fmt.Fprintf(w, "oof        %s\n", o.OOF)
	}
}

// cvFmt formats a metric with 4 decimals, "-" when undefined.
func cvFmt(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}
