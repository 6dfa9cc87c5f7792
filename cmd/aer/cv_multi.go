package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// cvMultiRun is what aer cv needs of its flags for a multi-class table.
type cvMultiRun struct {
	plan   *fitPlan
	d      *dataset.Dataset
	set    *cv.Settings
	env    learn.Env
	data   string
	oof    string
	grid   []string
	asJSON bool
}

// cvMultiMetrics are the metrics aer cv tabulates for multi-class labels.
var cvMultiMetrics = []struct{ key, head string }{
	{"balanced_accuracy", "BA"}, {"macro_f1", "macro-F1"}, {"gmean", "G-mean"}, {"mauc", "MAUC"},
	{"accuracy", "accuracy"}, {"log_loss", "log-loss"}, {"brier", "Brier"},
}

// cvMultiOutput is the --json document of aer cv on a multi-class table.
type cvMultiOutput struct {
	Method     string            `json:"method"`
	Data       string            `json:"data"`
	Rows       int               `json:"rows"`
	Features   int               `json:"features"`
	Labels     []string          `json:"labels"`
	Counts     []int             `json:"class_counts"`
	Multiclass string            `json:"multiclass,omitempty"`
	Weight     string            `json:"weight,omitempty"`
	Folds      int               `json:"folds"`
	Repeats    int               `json:"repeats"`
	Seed       uint64            `json:"seed"`
	Holdout    float64           `json:"holdout,omitempty"`
	Params     map[string]string `json:"params"`
	Seconds    float64           `json:"seconds"`
	OOF        string            `json:"oof,omitempty"`
	Rounds     []cv.MultiFold    `json:"rounds"`
	Summary    []cv.Summary      `json:"summary"`
}

// runCVMulti cross-validates a multi-class table and renders it.
func runCVMulti(ctx context.Context, r *cvMultiRun, stdout, stderr io.Writer) error {
	r.env.Logger = noteLoggerOnce(stderr, "cv")
	start := time.Now()
	fresh, _ := learn.New(r.plan.method.Name())
	set := r.set
	res, err := aerlib.CrossValidateMulti(ctx, aerlib.TableOf(r.d), r.plan.settings(r.env), fresh, set, func(f cv.MultiFold) {
		fmt.Fprintf(stderr, "cv: repeat %d/%d, fold %d/%d: %d test rows, balanced accuracy %s, %.2f s\n",
			f.Repeat, set.Repeats, f.Fold, set.Folds, f.TestRows, cvFmt(f.Report.BalancedAccuracy), f.Seconds)
	})
	if err != nil {
		if isParamError(err) {
			return usageErrorf("cv: %v", err)
		}
		if strings.HasPrefix(err.Error(), "cv: ") {
			return err
		}
		return fmt.Errorf("cv: %w", err)
	}
	keys := make([]string, len(cvMultiMetrics))
	for i, m := range cvMultiMetrics {
		keys[i] = m.key
	}
	sum, err := res.Summaries(keys...)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.oof != "" {
		ld := learnData(r.d)
		if err := writeFileAtomic(ctx, r.oof, func(w io.Writer) error {
			return cv.WriteMultiOOF(w, ld, res, r.d.Classes, r.d.IDColumn, r.d.IDs)
		}); err != nil {
			return fmt.Errorf("cv: writing --oof: %w", err)
		}
	}
	o := cvMultiOutput{
		Method: r.plan.method.Name(), Data: r.data, Rows: r.d.Rows(), Features: r.d.Cols(), Labels: r.d.Classes,
		Counts: r.d.ClassCounts(), Multiclass: r.plan.multiclass, Weight: r.d.WeightColumn, Folds: set.Folds, Repeats: set.Repeats,
		Seed: r.env.Seed, Holdout: set.Holdout, Params: learn.ParamMap(r.plan.method.Params()), Seconds: time.Since(start).Seconds(),
		OOF: r.oof, Rounds: res.Rounds, Summary: sum,
	}
	if r.asJSON {
		return writeJSON(stdout, o)
	}
	writeCVMultiText(stdout, &o)
	return nil
}

// writeCVMultiText renders a multi-class cross-validation as text.
func writeCVMultiText(w io.Writer, o *cvMultiOutput) {
	fmt.Fprintf(w, "method     %s\n", o.Method)
	counts := make([]string, len(o.Labels))
	for c, name := range o.Labels {
		counts[c] = fmt.Sprintf("%s %d", name, o.Counts[c])
	}
	fmt.Fprintf(w, "data       %s: %d rows, %d features, %d classes (%s)\n", o.Data, o.Rows, o.Features, len(o.Labels), strings.Join(counts, ", "))
	how := ""
	if o.Holdout > 0 {
		how = fmt.Sprintf("; %.3g of each round's training rows held out for tuning", o.Holdout)
	}
	fmt.Fprintf(w, "cv         %d folds x %d repeats, seed %d%s, %d rounds in %.3f s\n\n", o.Folds, o.Repeats, o.Seed, how, o.Folds*o.Repeats, o.Seconds)
	head := []string{"repeat", "fold", "train", "test"}
	align := "rrrr"
	for _, m := range cvMultiMetrics {
		head = append(head, m.head)
		align += "r"
	}
	rows := [][]string{head}
	for _, f := range o.Rounds {
		row := []string{strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), strconv.Itoa(f.TrainRows), strconv.Itoa(f.TestRows)}
		for _, m := range cvMultiMetrics {
			v, _ := cv.MultiValue(&f.Report, m.key)
			row = append(row, cvFmt(v))
		}
		rows = append(rows, row)
	}
	mean, sd := []string{"mean", "", "", ""}, []string{"sd", "", "", ""}
	for _, s := range o.Summary {
		mean, sd = append(mean, cvFmt(s.Mean)), append(sd, cvFmt(s.SD))
	}
	rows = append(rows, mean, sd)
	evalWriteTable(w, align, rows)
	fmt.Fprintln(w, "(BA: balanced accuracy, the mean of the per-class recalls; G-mean: their geometric mean; MAUC: Hand and Till's multi-class AUC)")
	if o.OOF != "" {
		fmt.Fprintf(w, "oof        %s\n", o.OOF)
	}
}
