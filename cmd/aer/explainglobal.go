package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
)

type globalOptions struct {
	top     int
	metric  string
	repeats int
	seed    uint64
	threads int
}

// globalFeature is one feature's global importances; a field is absent
// when the model or the data does not give it.
type globalFeature struct {
	Feature         string             `json:"feature"`
	MeanAbs         *float64           `json:"mean_abs_attribution,omitempty"`
	BuiltIn         map[string]float64 `json:"builtin,omitempty"`
	PermutationMean *float64           `json:"permutation_mean,omitempty"`
	PermutationStd  *float64           `json:"permutation_std,omitempty"`
}

// explainGlobal prints the global importances of model on data: mean
// |attribution|, the built-in importances and, with labels, permutation
// importance; largest first by the last of them the model has.
func explainGlobal(ctx context.Context, model learn.Model, data *learn.Data, g globalOptions, method, modelPath, dataPath string, asJSON bool, stdout, stderr io.Writer) error {
	_, p := data.X.Dims()
	feats := make([]globalFeature, p)
	for j := range feats {
		feats[j].Feature = featureName(data.Features, j)
	}
	doc := map[string]any{"model": modelPath, "method": method, "data": dataPath, "rows": data.Rows()}
	var key func(f *globalFeature) float64
	var header []string

	attr, err := learn.Attribute(ctx, model, data.X, g.threads)
	switch {
	case err == nil:
		header = append(header, "mean_abs_attribution")
		doc["attribution_space"] = attr.Space
		doc["attribution_method"] = attr.Method
		for j, v := range explain.MeanAbs(attr) {
			feats[j].MeanAbs = &v
		}
		key = func(f *globalFeature) float64 { return *f.MeanAbs }
	case errors.Is(err, learn.ErrNoAttribution):
		doc["attributions_unavailable"] = err.Error()
		if !asJSON {
			fmt.Fprintf(stderr, "explain: no feature attributions: %v\n", err)
		}
	default:
		return fmt.Errorf("explain: %w", err)
	}

	builtIn := learn.ImportancesOf(model)
	var kinds []string
	for _, im := range builtIn {
		if len(im.Values) != p {
			return fmt.Errorf("explain: the model gave %d %s importances for %d features", len(im.Values), im.Kind, p)
		}
		kinds = append(kinds, im.Kind)
		header = append(header, im.Kind)
		for j, v := range im.Values {
			if feats[j].BuiltIn == nil {
				feats[j].BuiltIn = map[string]float64{}
			}
			feats[j].BuiltIn[im.Kind] = v
		}
	}
	if key == nil && len(kinds) > 0 {
		k := kinds[0]
		key = func(f *globalFeature) float64 { return f.BuiltIn[k] }
	}

	if data.Y != nil {
		res, err := explain.Permutation(ctx, model, data, &explain.PermutationSettings{Metric: g.metric, Repeats: g.repeats},
			learn.Env{Seed: g.seed, Workers: g.threads})
		if err != nil {
			return fmt.Errorf("explain: permutation importance on %s: %w", dataPath, err)
		}
		perm := map[string]any{"metric": res.Metric, "baseline": res.Baseline, "repeats": res.Repeats, "seed": res.Seed}
		if res.Metric != explain.ROCAUC {
			perm["threshold"] = res.Threshold
		}
		doc["permutation"] = perm
		header = append(header, "permutation_"+res.Metric+"_mean", "permutation_"+res.Metric+"_std")
		for j, im := range res.Features {
			feats[j].PermutationMean, feats[j].PermutationStd = &im.Mean, &im.Std
		}
		key = func(f *globalFeature) float64 { return *f.PermutationMean }
	} else if !asJSON {
		fmt.Fprintln(stderr, "explain: the data has no labels: no permutation importance")
	}
	if key == nil {
		return fmt.Errorf("explain: %s holds a %s model, which offers no feature attributions nor built-in importances, and %s has no labels for permutation importance", modelPath, method, dataPath)
	}
	slices.SortStableFunc(feats, func(a, b globalFeature) int { return cmp.Compare(key(&b), key(&a)) })
	if g.top > 0 && g.top < len(feats) {
		feats = feats[:g.top]
	}
	if asJSON {
		doc["builtin_kinds"] = kinds
		doc["features"] = feats
		return writeJSON(stdout, doc)
	}
	w := csv.NewWriter(stdout)
	w.Write(append([]string{"feature"}, header...))
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, f := range feats {
		rec := []string{f.Feature}
		if f.MeanAbs != nil {
			rec = append(rec, num(*f.MeanAbs))
		}
		for _, k := range kinds {
			rec = append(rec, num(f.BuiltIn[k]))
		}
		if f.PermutationMean != nil {
			rec = append(rec, num(*f.PermutationMean), num(*f.PermutationStd))
		}
		w.Write(rec)
	}
	w.Flush()
	return w.Error()
}
