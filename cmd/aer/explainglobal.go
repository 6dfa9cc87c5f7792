package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
)

// explainGlobal prints the global importances of sm over the rows of d
// (explain.Global): as one JSON document, or as CSV with one row per
// feature, the --top first (0: all). A multi-class model's are the permutation
// importance of the macro balanced accuracy of its decision, which needs
// labels.
func explainGlobal(ctx context.Context, sm *aerlib.Model, d *dataset.Dataset, rows []int, o *explainOptions, stdout, stderr io.Writer) error {
	s := &explain.PermutationSettings{Metric: o.metric, Repeats: o.repeats}
	if sm.NumClasses() > 2 {
		if o.metric != explain.ROCAUC && o.metric != "balanced_accuracy" {
			return usageErrorf("explain: --metric %s: a multi-class model's permutation importance is of the macro balanced accuracy of its decision", o.metric)
		}
		if d.Y == nil {
			return fmt.Errorf("explain: %s has no labels: a multi-class model's global importance is the permutation importance of the macro balanced accuracy, which needs them", o.data)
		}
		s.Metric, s.Decide = "", sm.Layer().Predict
	}
	data := &learn.Data{X: learn.Rows(d.X, rows), Features: d.Features}
	if d.Y != nil {
		data.Y, data.W = learn.Pick(d.Y, rows), learn.Pick(d.W, rows)
	}
	res, err := explain.Global(ctx, sm.Learned(), data, s, learn.Env{Seed: o.seed, Workers: o.threads})
	switch {
	case errors.Is(err, explain.ErrNoImportance):
		return fmt.Errorf("explain: %s holds a %s model, which offers no feature attributions nor built-in importances, and %s has no labels for permutation importance", o.model, sm.Header().Method, o.data)
	case err != nil:
		return fmt.Errorf("explain: %s: %w", o.data, err)
	}
	if res.NoAttribution != nil && !o.asJSON {
		fmt.Fprintf(stderr, "explain: no feature attributions: %v\n", res.NoAttribution)
	}
	if res.Permutation == nil && !o.asJSON {
		fmt.Fprintln(stderr, "explain: the data has no labels: no permutation importance")
	}
	feats := res.Features
	if o.top > 0 && o.top < len(feats) {
		feats = feats[:o.top]
	}
	if o.asJSON {
		return writeJSON(stdout, globalDoc(res, feats, sm.Header().Method, o.model, o.data))
	}
	return writeGlobalCSV(stdout, res, feats)
}

// globalDoc is the --json document of aer explain --global.
func globalDoc(res *explain.GlobalImportance, feats []explain.FeatureImportance, method, modelPath, dataPath string) map[string]any {
	doc := map[string]any{"model": modelPath, "method": method, "data": dataPath, "rows": res.Rows,
		"builtin_kinds": res.BuiltInKinds, "features": feats}
	if a := res.Attribution; a != nil {
		doc["attribution_space"], doc["attribution_method"] = a.Space, a.Method
	} else {
		doc["attributions_unavailable"] = res.NoAttribution.Error()
	}
	if pr := res.Permutation; pr != nil {
		perm := map[string]any{"metric": pr.Metric, "baseline": pr.Baseline, "repeats": pr.Repeats, "seed": pr.Seed}
		if pr.Metric != explain.ROCAUC && pr.Metric != explain.MacroBalancedAccuracy {
			perm["threshold"] = pr.Threshold
		}
		doc["permutation"] = perm
	}
	return doc
}

// writeGlobalCSV writes feats as CSV: feature, then mean_abs_attribution,
// the built-in kinds and the permutation mean and std, those res has.
func writeGlobalCSV(w io.Writer, res *explain.GlobalImportance, feats []explain.FeatureImportance) error {
	header := []string{"feature"}
	if res.Attribution != nil {
		header = append(header, "mean_abs_attribution")
	}
	header = append(header, res.BuiltInKinds...)
	if pr := res.Permutation; pr != nil {
		header = append(header, "permutation_"+pr.Metric+"_mean", "permutation_"+pr.Metric+"_std")
	}
	cw := csv.NewWriter(w)
	cw.Write(header)
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, f := range feats {
		rec := []string{f.Feature}
		if f.MeanAbs != nil {
			rec = append(rec, num(*f.MeanAbs))
		}
		for _, k := range res.BuiltInKinds {
			rec = append(rec, num(f.BuiltIn[k]))
		}
		if f.PermutationMean != nil {
			rec = append(rec, num(*f.PermutationMean), num(*f.PermutationStd))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
