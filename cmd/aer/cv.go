package main

import (
	"context"
	"fmt"
	aerlib "github.com/aer-go/aer"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

func init() {
	register(&command{
		name:    "cv",
		summary: "stratified k-fold cross-validation of a method: per-fold and mean metrics, out-of-fold predictions",
		usage: `Usage: aer cv --data FILE.csv [--method gbdt] [--param key=value ...] [--grid key=v1,v2 ...]
              [--folds 5] [--repeats 1] [--seed 0] [--oof oof.csv] [--jobs N] [--json]

Deals the rows of the labelled CSV file into --folds stratified folds
(each holds about 1/k of every class), fits the method on all folds but
one and scores the one left out, for every fold; --repeats R does it R
times with other fold assignments. All random choices derive from --seed:
the fold assignment of repeat r and the seed of every fit, so a run is
reproduced exactly, whatever --jobs is.

Each round fits as aer fit does without --valid: a method that tunes on
validation data (aer's lambda and delta, gbdt-tuned's threshold) holds out
part of the round's training rows itself. With --grid or a threshold flag
(--tune-metric, --cost, --min-recall, --calibrate, --threshold-rule),
which need validation data, a stratified --holdout share of each round's
training rows (0.25 by default) is held out instead: every round runs its
own grid search and fits its own decision layer on it. A split column, if
any, is ignored: every row takes part.

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

// cvMetrics are the metrics aer cv tabulates and summarises.
var cvMetrics = []struct{ key, head string }{
	{"balanced_accuracy", "BA"}, {"roc_auc", "ROC-AUC"}, {"average_precision", "PR-AUC"},
	{"f1", "F1"}, {"gmean", "G-mean"}, {"fowlkes_mallows", "FM"}, {"mcc", "MCC"},
}

// cvOutput is the --json document of aer cv.
type cvOutput struct {
	Method    string            `json:"method"`
	Data      string            `json:"data"`
	Rows      int               `json:"rows"`
	Features  int               `json:"features"`
	Positives int               `json:"positives"`
	Classes   [2]string         `json:"classes"`
	Weight    string            `json:"weight,omitempty"`
	Folds     int               `json:"folds"`
	Repeats   int               `json:"repeats"`
	Seed      uint64            `json:"seed"`
	Holdout   float64           `json:"holdout,omitempty"`
	Params    map[string]string `json:"params"`
	Grid      []string          `json:"grid,omitempty"`
	Seconds   float64           `json:"seconds"`
	OOF       string            `json:"oof,omitempty"`
	Rounds    []cv.Fold         `json:"rounds"`
	Summary   []cv.Summary      `json:"summary"`
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
	holdout := fs.Float64("holdout", 0.25, "with --grid or a threshold flag: `share` of each round's training rows held out as validation data")
	seed := fs.Uint64("seed", 0, "random seed (fold assignments and fits)")
	oof := fs.String("oof", "", "write the out-of-fold predictions as CSV to `file`")
	jobs := fs.Int("jobs", 0, "worker goroutines in all, shared by the rounds fitted at once (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	var df dataFlags
	df.register(fs)
	df.registerCategorical(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := cvCheckFlags(rest, *data, *folds, *repeats, *jobs, *oof); err != nil {
		return err
	}
	plan, err := ff.plan("cv")
	if err != nil {
		return err
	}
	set := cv.Settings{Folds: *folds, Repeats: *repeats}
	if plan.needsValid() {
		if !(*holdout > 0 && *holdout < 1) {
			return usageErrorf("cv: --holdout %v: want a share in (0, 1)", *holdout)
		}
		set.Holdout = *holdout
	}
	d, err := cvLoad(ctx, &df, *data, *weight, *folds, stderr)
	if err != nil {
		return err
	}
	if d.NumClasses() > 2 {
		return runCVMulti(ctx, &cvMultiRun{plan: plan, d: d, set: &set, data: *data, oof: *oof, asJSON: *asJSON, grid: ff.grid,
			env: learn.Env{Seed: *seed, Workers: *jobs}}, stdout, stderr)
	}
	ld := learnData(d)
	res, elapsed, err := cvRun(ctx, plan, d, &set, learn.Env{Seed: *seed, Workers: *jobs}, stderr)
	if err != nil {
		return err
	}
	sum, err := res.Summaries(cvMetricKeys()...)
	if err != nil {
		return fmt.Errorf("cv: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if *oof != "" {
		if err := writeFileAtomic(ctx, *oof, func(w io.Writer) error { return cv.WriteOOFIDs(w, ld, res, d.IDColumn, d.IDs) }); err != nil {
			return fmt.Errorf("cv: writing --oof: %w", err)
		}
	}
	pos := d.ClassCounts()[1]
	o := cvOutput{
		Method: plan.method.Name(), Data: *data, Rows: d.Rows(), Features: d.Cols(), Positives: pos, Classes: dataset.ClassPair(d.Classes),
		Weight: d.WeightColumn, Folds: *folds, Repeats: *repeats, Seed: *seed, Holdout: set.Holdout,
		Params: learn.ParamMap(plan.method.Params()), Grid: ff.grid, Seconds: elapsed.Seconds(), OOF: *oof,
		Rounds: res.Rounds, Summary: sum,
	}
	if *asJSON {
		return writeJSON(stdout, o)
	}
	writeCVText(stdout, &o)
	return nil
}

// cvRun cross-validates plan on d with set, a line per finished round
// on stderr, and returns the result and how long it took.
func cvRun(ctx context.Context, plan *fitPlan, d *dataset.Dataset, set *cv.Settings, env learn.Env, stderr io.Writer) (*cv.Result, time.Duration, error) {
	env.Logger = noteLoggerOnce(stderr, "cv")
	start := time.Now()
	fresh, _ := learn.New(plan.method.Name())
	res, err := aerlib.CrossValidate(ctx, aerlib.TableOf(d), plan.settings(env), fresh, set, func(f cv.Fold) {
		fmt.Fprintf(stderr, "cv: repeat %d/%d, fold %d/%d: %d test rows (%d positive), balanced accuracy %s at threshold %.4g, %.2f s\n",
			f.Repeat, set.Repeats, f.Fold, set.Folds, f.TestRows, f.TestPositives, cvFmt(f.Report.BalancedAccuracy), f.Threshold, f.Seconds)
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

// cvCheckFlags checks aer cv's arguments past the flags and its numbers.
func cvCheckFlags(rest []string, data string, folds, repeats, jobs int, oof string) error {
	switch {
	case len(rest) > 0:
		return usageErrorf("cv: unexpected argument %q", rest[0])
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
// checks that every one of the folds can hold a positive row.
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
	if d.NumClasses() > 2 {
		for c, n := range d.ClassCounts() {
			if folds > n {
				return nil, fmt.Errorf("cv: --folds %d: %s has only %d rows of the class %q, and every fold needs one; use --folds %d or fewer",
					folds, path, n, d.Classes[c], n)
			}
		}
		return d, nil
	}
	if pos := d.ClassCounts()[1]; folds > pos {
		return nil, fmt.Errorf("cv: --folds %d: %s has only %d rows of the positive (minority) class %q, and every fold needs one; use --folds %d or fewer",
			folds, path, pos, d.Classes[1], pos)
	}
	return d, nil
}

// cvMetricKeys are the keys of cvMetrics.
func cvMetricKeys() []string {
	keys := make([]string, len(cvMetrics))
	for i, m := range cvMetrics {
		keys[i] = m.key
	}
	return keys
}

// writeCVText renders o as text: the rounds' table, their mean and
// deviation.
func writeCVText(w io.Writer, o *cvOutput) {
	fmt.Fprintf(w, "method     %s\n", o.Method)
	fmt.Fprintf(w, "data       %s: %d rows, %d features, %d positive (%s)\n", o.Data, o.Rows, o.Features, o.Positives, o.Classes[1])
	how := ""
	if o.Holdout > 0 {
		how = fmt.Sprintf("; %.3g of each round's training rows held out for tuning", o.Holdout)
	}
	fmt.Fprintf(w, "cv         %d folds x %d repeats, seed %d%s, %d rounds in %.3f s\n\n", o.Folds, o.Repeats, o.Seed, how, o.Folds*o.Repeats, o.Seconds)
	head := []string{"repeat", "fold", "train", "test", "pos", "threshold"}
	align := "rrrrrr"
	for _, m := range cvMetrics {
		head = append(head, m.head)
		align += "r"
	}
	rows := [][]string{head}
	for _, f := range o.Rounds {
		row := []string{strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), strconv.Itoa(f.TrainRows), strconv.Itoa(f.TestRows),
			strconv.Itoa(f.TestPositives), strconv.FormatFloat(f.Threshold, 'g', 4, 64)}
		for _, m := range cvMetrics {
			v, _ := cv.Value(&f.Report, m.key)
			row = append(row, cvFmt(v))
		}
		rows = append(rows, row)
	}
	mean, sd := []string{"mean", "", "", "", "", ""}, []string{"sd", "", "", "", "", ""}
	for _, s := range o.Summary {
		mean, sd = append(mean, cvFmt(s.Mean)), append(sd, cvFmt(s.SD))
	}
	rows = append(rows, mean, sd)
	evalWriteTable(w, align, rows)
	fmt.Fprintln(w, "(BA: balanced accuracy; PR-AUC: average precision; G-mean: sqrt(TPR*TNR); FM: Fowlkes-Mallows, the paper's G-mean)")
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
