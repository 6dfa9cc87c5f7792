package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
)

func init() {
	register(&command{
		name:    "resample",
		summary: "resample a labelled CSV file (random under-sampling, SMOTE, Tomek links, SMOTE then Tomek)",
		usage: `usage: aer resample --sampler NAME --data FILE.csv --out OUT.csv [--seed 0] [--param key=value ...] [--weight COLUMN]
                    [--id COLUMN] [--drop COL,...] [--categorical COL,...] [--json]

Writes the rows of FILE.csv resampled as imbalanced-learn 0.10 does, with
the same feature columns and label values, and prints the class counts
before and after. Samplers (defaults as imbalanced-learn's):

  rus          random under-sampling of the majority without replacement
               (sampling_strategy=1: balanced; 0.5: twice the minority)
  smote        SMOTE: synthetic minority rows on segments between a minority
               row and one of its k_neighbors=5 nearest minority rows, until
               balanced (sampling_strategy as for rus)
  tomek        removes the majority row of every Tomek link
               (sampling_strategy=all: both rows)
  smote-tomek  SMOTE, then removes both rows of every Tomek link
               (tomek_strategy=auto: the majority row only)

Kept rows stay in file order, synthetic rows follow; every column of the
file is written back, in the file's order. The minority is the class with
fewer rows. SMOTE and Tomek links use Euclidean distances on the features
as they are (standardise them first if their scales differ) and refuse
missing values. With --weight, the weight column is kept: rows keep their
weights and a synthetic row weighs the mean of its two parents'.

Columns as in aer fit: --id names a row-identifier column, kept with its
row; SMOTE's synthetic rows get the ids smote-1, smote-2, ... in output
order (an input id of that form is refused). --drop columns are no
features and pass through; a synthetic row has them empty. A text column
(or a --categorical one) is a categorical feature: one-hot encoded for the
distances (each value a 0/1 column) and written back as text; a synthetic
row takes the value of its nearer parent (imbalanced-learn's SMOTENC takes
the most frequent value among the seed row's neighbours, and scales the
one-hot columns). A missing categorical cell stays missing.

A label of three or more classes takes imbalanced-learn's multi-class
sampling_strategy: auto, majority, not minority, not majority, all,
minority, per-class row counts after resampling ("van:200,bus:100") or,
for tomek, the classes to clean ("van,bus"; one class is "van,"); two
classes take them too. A class is named by its label, as imbalanced-learn
reads them ("1:10" on labels 1 to 4 is ten rows of label 1), or, when no
label is a whole number, by its index in the sorted labels (0, 1, ...).
--json reports the rows of every class before and after.

Resample training rows only: a file with a split column is refused (aer
split writes the parts apart).`,
		run: runResample,
	})
}

// resampleOutput is the --json document of aer resample.
type resampleOutput struct {
	Sampler string            `json:"sampler"`
	Params  map[string]string `json:"params"`
	Seed    uint64            `json:"seed"`
	Data    string            `json:"data"`
	Out     string            `json:"out"`
	Weight  string            `json:"weight,omitempty"`
	ID      string            `json:"id,omitempty"`
	Classes [2]string         `json:"classes"`
	Before  resample.Counts   `json:"before"`
	After   resample.Counts   `json:"after"`
	// Labels, ClassRowsBefore and ClassRowsAfter describe a multi-class
	// label: the classes (a sampling_strategy names them, or their index in
	// this order) and the rows of each before and after.
	Labels          []string `json:"labels,omitempty"`
	ClassRowsBefore []int    `json:"class_rows_before,omitempty"`
	ClassRowsAfter  []int    `json:"class_rows_after,omitempty"`
}

func runResample(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["resample"]
	fs := newFlagSet(c, stderr)
	name := fs.String("sampler", "", "sampler: "+strings.Join(resample.Names(), ", ")+" (required)")
	data := fs.String("data", "", "labelled CSV `file` to resample (required)")
	out := fs.String("out", "", "CSV `file` to write (required)")
	var params paramFlags
	fs.Var(&params, "param", "sampler parameter `key=value` (repeatable)")
	weight := fs.String("weight", "", "`column` of non-negative row weights, kept in the output")
	seed := fs.Uint64("seed", 0, "random seed")
	threads := fs.Int("threads", 0, "worker goroutines for neighbour searches (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	var df dataFlags
	df.register(fs)
	df.registerCategorical(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *name == "":
		return usageErrorf("resample: --sampler is required (%s)", strings.Join(resample.Names(), ", "))
	case *data == "":
		return usageErrorf("resample: --data is required")
	case *out == "":
		return usageErrorf("resample: --out is required")
	case *threads < 0:
		return usageErrorf("resample: --threads must be at least 0, not %d", *threads)
	}
	if err := refuseOverwrite("resample", "--out", *out, input{"--data", *data}); err != nil {
		return err
	}
	// A strategy naming classes is checked once the labels are read.
	early, _ := strategyByName(params, nil)
	s, err := newSampler(*name, early)
	if err != nil {
		return err
	}
	opt := df.options()
	opt.AutoCategorical, opt.KeepDropped, opt.Weight, opt.MultiClass = true, true, *weight, true
	d, err := loadData(ctx, *data, opt)
	if err != nil {
		return fmt.Errorf("resample: %w", err)
	}
	if err := df.checkDropped(d, *data); err != nil {
		return usageErrorf("resample: %v", err)
	}
	if err := df.checkPositive(d, *data); err != nil {
		return usageErrorf("resample: %v", err)
	}
	if d.Split != nil {
		return fmt.Errorf("resample: %s has a split column: resample the training rows only (aer split writes the parts to separate files)", *data)
	}
	noteMixed(stderr, "resample", d, *data)
	if s, err = samplerFor(*name, params, d); err != nil {
		return err
	}
	res, err := resample.Table(ctx, s, d, learn.Env{Seed: *seed, Workers: *threads})
	if err != nil {
		if errors.Is(err, learn.ErrParam) {
			return usageErrorf("resample: %v", err)
		}
		if idx := classIndices(d.Classes); idx != "" && errors.Is(err, learn.ErrData) {
			return fmt.Errorf("resample: %s: %w (the sampler numbers the classes by index: %s)", *data, err, idx)
		}
		return fmt.Errorf("resample: %s: %w", *data, err)
	}
	if err := writeFileAtomic(ctx, *out, func(w io.Writer) error { return dataset.WriteCSV(w, res) }); err != nil {
		return fmt.Errorf("resample: %w", err)
	}
	ps := namedParams(s, params)
	o := newResampleOutput(s.Name(), ps, *seed, *data, *out, d, res)
	if *asJSON {
		return writeJSON(stdout, o)
	}
	writeResampleText(stdout, &o, ps)
	return nil
}

// newSampler returns the sampler called name with its --param values.
func newSampler(name string, params paramFlags) (resample.Tracer, error) {
	s, err := resample.New(name)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	for _, p := range params {
		if err := s.Set(p.Key, p.Value); err != nil {
			return nil, usageErrorf("resample: --param: %v (aer help resample lists the samplers' parameters)", err)
		}
	}
	t, ok := s.(resample.Tracer)
	if !ok {
		return nil, fmt.Errorf("resample: sampler %s does not say where its rows come from", name)
	}
	return t, nil
}

// writeResampleText renders o as text.
func writeResampleText(w io.Writer, o *resampleOutput, params []learn.Param) {
	var kv []string
	for _, p := range params {
		kv = append(kv, p.Key+"="+p.Value)
	}
	counts := func(c resample.Counts) string {
		return fmt.Sprintf("%d rows, %d negative (%s), %d positive (%s)", c.Rows, c.Negative, o.Classes[0], c.Positive, o.Classes[1])
	}
	before, after := counts(o.Before), counts(o.After)
	if o.Labels != nil {
		multi := func(rows int, n []int) string {
			parts := make([]string, len(n))
			for c, v := range n {
				parts[c] = fmt.Sprintf("%d:%s %d", c, o.Labels[c], v)
			}
			return fmt.Sprintf("%d rows, classes %s", rows, strings.Join(parts, ", "))
		}
		before, after = multi(o.Before.Rows, o.ClassRowsBefore), multi(o.After.Rows, o.ClassRowsAfter)
	}
	fmt.Fprintf(w, "sampler  %s (%s), seed %d\n", o.Sampler, strings.Join(kv, " "), o.Seed)
	fmt.Fprintf(w, "before   %s: %s\n", o.Data, before)
	fmt.Fprintf(w, "after    %s: %s\n", o.Out, after)
}

// newResampleOutput describes a finished resampling of d into res.
func newResampleOutput(sampler string, params []learn.Param, seed uint64, data, out string, d, res *dataset.Dataset) resampleOutput {
	o := resampleOutput{
		Sampler: sampler, Params: learn.ParamMap(params), Seed: seed, Data: data, Out: out, Weight: d.WeightColumn, ID: d.IDColumn,
		Classes: dataset.ClassPair(d.Classes), Before: resample.CountRows(&learn.Data{Y: d.Y}), After: resample.CountRows(&learn.Data{Y: res.Y}),
	}
	if d.NumClasses() > 2 {
		o.Labels, o.ClassRowsBefore, o.ClassRowsAfter = d.Classes, d.ClassCounts(), res.ClassCounts()
		o.Before.Negative, o.Before.Positive, o.After.Negative, o.After.Positive = 0, 0, 0, 0
	}
	return o
}

// samplerFor returns the sampler called name with its --param values for
// the table d: a strategy's classes are d's labels (strategyByName).
func samplerFor(name string, params paramFlags, d *dataset.Dataset) (resample.Tracer, error) {
	named, err := strategyByName(params, d.Classes)
	if err != nil {
		return nil, usageErrorf("resample: --param: %v", err)
	}
	return newSampler(name, named)
}

// strategyByName returns params with the classes of a sampling_strategy's
// per-class counts or list ("van:120,bus:120") replaced by their indices
// in labels, the one rule of resample.Strategy.ByName: a class is a label
// first, so "1:10" on labels 1 to 4 is ten rows of label 1. With labels
// nil, a strategy that names classes is checked for its form and left out
// (resolved when the labels are known).
func strategyByName(params paramFlags, labels []string) (paramFlags, error) {
	out := slices.Clone(params)
	for i := 0; i < len(out); i++ {
		p := out[i]
		if p.Key != "sampling_strategy" {
			continue
		}
		st, err := resample.ParseStrategy(p.Value)
		if err != nil || (st.Counts == nil && st.Classes == nil) {
			continue // the sampler's Set reports a malformed value
		}
		if labels == nil {
			out = slices.Delete(out, i, i+1)
			i--
			continue
		}
		if st, err = st.ByName(labels); err != nil {
			return nil, err
		}
		out[i].Value = st.String()
	}
	return out, nil
}

// namedParams returns the sampler's parameters with its sampling_strategy
// as given (the classes by label, not the indices the sampler takes).
func namedParams(s resample.Tracer, given paramFlags) []learn.Param {
	ps := slices.Clone(s.Params())
	for _, g := range given {
		if g.Key != "sampling_strategy" {
			continue
		}
		st, err := resample.ParseStrategy(g.Value)
		if err != nil || (st.Counts == nil && st.Classes == nil) {
			continue
		}
		for k := range ps {
			if ps[k].Key == g.Key {
				ps[k].Value = st.String()
			}
		}
	}
	return ps
}

// classIndices lists the indices of labels whose names differ from them
// (`0 is "1", 1 is "2"`), for errors about classes by index; empty when
// every label is its own index.
func classIndices(labels []string) string {
	items := make([]string, len(labels))
	same := true
	for c, l := range labels {
		items[c] = fmt.Sprintf("%d is %q", c, l)
		same = same && l == strconv.Itoa(c)
	}
	if same {
		return ""
	}
	return strings.Join(items, ", ")
}
