package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
)

// classFeatures are one class's feature attributions of a row of a
// multi-class model.
type classFeatures struct {
	Class className `json:"class"`
	*explain.RowAttributions
}

// explainedMulti is what aer explain shows of the rows of a multi-class
// model.
type explainedMulti struct {
	rows    []explainRow
	classes []string
	rule    string
	attr    []*learn.Attribution // one per class
}

// runExplainMulti is aer explain on a multi-class model: each row's class
// by the model's decision, every class's probability and each class's
// feature attributions; with --global, permutation importance of the
// macro balanced accuracy.
func runExplainMulti(ctx context.Context, o *explainOptions, sm *aerlib.Model, stdout, stderr io.Writer) error {
	h := sm.Header()
	d, err := loadFor(ctx, o.data, h, o.model, o.id)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	rows, err := parseRows(o.rows, d.Rows())
	if err != nil {
		return usageErrorf("explain: --rows: %v", err)
	}
	if o.global {
		return explainGlobalMulti(ctx, sm, d, rows, o, stdout, stderr)
	}
	res, err := explainMultiRows(ctx, sm, d, rows, o)
	if errors.Is(err, learn.ErrNoAttribution) {
		return fmt.Errorf("explain: %s holds a multi-class %s model (%s): %v; --global gives permutation importance", o.model, h.Method, h.Multiclass, err)
	}
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	if o.asJSON {
		names := make([]className, len(res.classes))
		for c, n := range res.classes {
			names[c] = className(n)
		}
		return writeJSON(stdout, map[string]any{"model": o.model, "method": h.Method, "data": o.data, "multiclass": h.Multiclass,
			"decision": res.rule, "classes": names, "attribution_method": res.attr[0].Method, "rows": res.rows})
	}
	return writeExplainMultiText(stdout, res, d.IDColumn)
}

// explainMultiRows scores the rows of d with the multi-class model sm and
// attributes each class's output (learn.AttributeClasses); an error
// wrapping learn.ErrNoAttribution when the model offers no attributions.
func explainMultiRows(ctx context.Context, sm *aerlib.Model, d *dataset.Dataset, rows []int, o *explainOptions) (*explainedMulti, error) {
	mm := sm.Learned()
	x := learn.Rows(d.X, rows)
	attr, err := learn.AttributeClasses(ctx, mm, x, o.threads)
	if err != nil {
		return nil, err
	}
	proba, err := mm.PredictProba(x, nil)
	if err != nil {
		return nil, err
	}
	res := &explainedMulti{classes: sm.Classes(), rule: sm.Layer().Rule, attr: attr}
	k := len(res.classes)
	pred := make([]int, len(rows))
	sm.Layer().Predict(proba, pred)
	cols := explain.FeatureColumns(d.Features, len(d.Features))
	for r, i := range rows {
		p := proba[r*k : (r+1)*k]
		row := explainRow{Row: i + 1, Score: p[pred[r]], Prediction: className(res.classes[pred[r]]), Probabilities: p}
		if d.IDs != nil {
			row.ID = d.IDs[i]
		}
		if d.Y != nil {
			row.Label = className(res.classes[d.Y[i]])
		}
		for c, a := range attr {
			row.ClassFeatures = append(row.ClassFeatures,
				classFeatures{Class: className(res.classes[c]), RowAttributions: explain.Row(a, r, x.RawRowView(r), cols, o.top)})
		}
		res.rows = append(res.rows, row)
	}
	return res, nil
}

// writeExplainMultiText writes the explained rows of a multi-class model
// as text: each row's prediction and probabilities, then each class's
// attributions.
func writeExplainMultiText(w io.Writer, res *explainedMulti, idColumn string) error {
	fmt.Fprintf(w, "attributions: %s\n", res.attr[0].Method)
	fmt.Fprintf(w, "classes: %s; prediction by the %s decision\n\n", strings.Join(res.classes, ", "), res.rule)
	for k, r := range res.rows {
		if k > 0 {
			fmt.Fprintln(w)
		}
		label := ""
		if r.Label != "" {
			label = fmt.Sprintf(", label %s", r.Label)
		}
		if r.ID != "" {
			label = fmt.Sprintf(" (%s %s)", idColumn, r.ID) + label
		}
		fmt.Fprintf(w, "row %d%s: prediction %s, probability %.4f\n", r.Row, label, r.Prediction, r.Score)
		for c, f := range r.ClassFeatures {
			fmt.Fprintf(w, "  class %s, probability %.4f\n", f.Class, r.Probabilities[c])
			writeFeatures(w, f.RowAttributions)
		}
	}
	return nil
}

// explainGlobalMulti prints the permutation importance of the macro
// balanced accuracy of a multi-class model's decision over the rows of
// d (explain.GlobalMulti), as explainGlobal prints a binary model's.
func explainGlobalMulti(ctx context.Context, sm *aerlib.Model, d *dataset.Dataset, rows []int, o *explainOptions, stdout, stderr io.Writer) error {
	if o.metric != explain.ROCAUC && o.metric != "balanced_accuracy" {
		return usageErrorf("explain: --metric %s: a multi-class model's permutation importance is of the macro balanced accuracy of its decision", o.metric)
	}
	if d.Y == nil {
		return fmt.Errorf("explain: %s has no labels: a multi-class model's global importance is the permutation importance of the macro balanced accuracy, which needs them", o.data)
	}
	data := &learn.Data{X: learn.Rows(d.X, rows), Y: learn.Pick(d.Y, rows), W: learn.Pick(d.W, rows), Features: d.Features}
	res, err := explain.GlobalMulti(ctx, sm.Learned(), sm.Layer().Predict, data,
		&explain.PermutationSettings{Repeats: o.repeats}, learn.Env{Seed: o.seed, Workers: o.threads})
	if err != nil {
		return fmt.Errorf("explain: %s: %w", o.data, err)
	}
	return writeGlobal(res, o.top, sm.Header().Method, o.model, o.data, o.asJSON, stdout, stderr)
}
