package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/aer-go/aer/dataset"
)

func init() {
	register(&command{
		name:    "info",
		summary: "describe a CSV dataset (shape, classes, imbalance, missing values, splits, a profile of each column) or a model file",
		usage: `usage: aer info --data FILE.csv [--label NAME] [--positive VALUE] [--id COL] [--drop COL,...] [--json]
       aer info --model FILE.aer [--json]

After the shape, classes and missing cells, a profile of every column: its
type (numeric or categorical feature, label, weight, split, id, dropped),
its distinct values (exact up to --max-distinct, then ">=N"), its share of
missing cells, and flags: constant (one value), near-constant (one value in
at least 99.9% of the non-missing cells), label-like (a feature named like
a label, or that predicts the label perfectly: each of its repeating
values comes with one class, or a threshold on it separates the classes),
likely id (named like an identifier: id, uuid, key, *_id, ...; or a text
column whose values are all distinct: pass it as --id). A column with more
distinct values than --max-categories (an id, free text) is profiled as
text, not a feature. "features" counts the model's features, a categorical column one per
value. --model describes a model file instead: method and preset, schema,
parameters as fitted, decision layer, members, checksum.`,
		run: runInfo,
	})
}

type infoReport struct {
	File       string         `json:"file"`
	Rows       int            `json:"rows"`
	Features   int            `json:"features"`
	Label      string         `json:"label"`
	Negative   string         `json:"negative_class"`
	Positive   string         `json:"positive_class"`
	NegRows    int            `json:"negative_rows"`
	PosRows    int            `json:"positive_rows"`
	Ratio      float64        `json:"imbalance_ratio"` // negative rows per positive row; 0 with one class
	Missing    int            `json:"missing_cells"`
	MissingBy  map[string]int `json:"missing_by_column,omitempty"`
	SplitCount map[string]int `json:"split,omitempty"`
	Names      []string       `json:"feature_names"`
	// Columns profiles every column of the file, in file order.
	Columns []dataset.ColumnProfile `json:"columns"`
	// LikelyIDs names the columns flagged likely_id: pass one as --id.
	LikelyIDs []string `json:"likely_id_columns,omitempty"`
	// Labels and LabelRows describe a multi-class label (three or more
	// values): the classes, sorted, and the rows of each; Ratio is then
	// the largest class's rows per row of the smallest.
	Labels    []string `json:"labels,omitempty"`
	LabelRows []int    `json:"label_rows,omitempty"`
}

func runInfo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["info"]
	fs := newFlagSet(c, stderr)
	var df dataFlags
	df.register(fs)
	df.registerCategorical(fs)
	maxDistinct := fs.Int("max-distinct", 1000, "count distinct values exactly up to `N` per column")
	data := fs.String("data", "", "data `file` to describe (CSV, .csv.gz or Parquet), - for standard input (required)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	model := fs.String("model", "", "describe a model `file` instead: method, schema, parameters, decision layer, members, checksum")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usageErrorf("info: unexpected argument %q (flags after it would be ignored)", rest[0])
	}
	if *model != "" {
		return runInfoModel(*model, *asJSON, stdout)
	}
	if *data == "" {
		return usageErrorf("info: --data is required")
	}
	if *maxDistinct < 1 || *maxDistinct > 1<<24 {
		return usageErrorf("info: --max-distinct must be from 1 to %d, not %d", 1<<24, *maxDistinct)
	}
	opt := df.passOptions()
	opt.KeepDropped = false  // profiled, not written back
	opt.AllowOneClass = true // described, not trained on
	in, err := openData(ctx, *data)
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	defer in.Close()
	d, cols, err := dataset.DecodeProfile(in.r, in.name, opt, *maxDistinct)
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	if err := df.checkDropped(d, *data); err != nil {
		return usageErrorf("info: %v", err)
	}
	noteMixed(stderr, "info", d, *data)
	r := newInfoReport(*data, d, cols)
	if *asJSON {
		return writeJSON(stdout, r)
	}
	return writeInfoText(stdout, &r, d)
}

// newInfoReport describes the table d read from path, its columns
// profiled as cols.
func newInfoReport(path string, d *dataset.Dataset, cols []dataset.ColumnProfile) infoReport {
	n, pair := d.ClassCounts(), dataset.ClassPair(d.Classes)
	neg, pos := n[0], n[1]
	r := infoReport{
		File: path, Rows: d.Rows(), Features: d.Cols(), Label: d.Label,
		Negative: pair[0], Positive: pair[1], NegRows: neg, PosRows: pos,
		Missing: d.Missing(), Names: d.Features, Columns: cols,
	}
	if pos > 0 && neg > 0 {
		r.Ratio = float64(neg) / float64(pos)
	}
	if d.NumClasses() > 2 {
		r.Labels, r.LabelRows = d.Classes, n
		r.NegRows, r.PosRows = 0, 0
		lo, hi := slices.Min(r.LabelRows), slices.Max(r.LabelRows)
		r.Ratio = float64(hi) / float64(lo)
	}
	for j, m := range d.MissingByColumn {
		if m > 0 {
			if r.MissingBy == nil {
				r.MissingBy = map[string]int{}
			}
			r.MissingBy[d.Features[j]] = m
		}
	}
	if d.Split != nil {
		r.SplitCount = map[string]int{}
		for _, s := range d.Split {
			r.SplitCount[s]++
		}
	}
	for _, c := range cols {
		if c.LikelyID {
			r.LikelyIDs = append(r.LikelyIDs, c.Name)
		}
	}
	return r
}

// writeInfoText renders r, of the table d, as text.
func writeInfoText(w io.Writer, r *infoReport, d *dataset.Dataset) error {
	fmt.Fprintf(w, "file            %s\n", r.File)
	fmt.Fprintf(w, "rows            %d\n", r.Rows)
	fmt.Fprintf(w, "features        %d\n", r.Features)
	if r.Labels != nil {
		counts := make([]string, len(r.Labels))
		for c, name := range r.Labels {
			counts[c] = fmt.Sprintf("%s %d", name, r.LabelRows[c])
		}
		fmt.Fprintf(w, "label column    %s (%d classes)\n", r.Label, len(r.Labels))
		fmt.Fprintf(w, "classes         %s (largest to smallest %.1f:1)\n", strings.Join(counts, ", "), r.Ratio)
	} else {
		writeBinaryClasses(w, r)
	}
	fmt.Fprintf(w, "missing cells   %d\n", r.Missing)
	for j, m := range d.MissingByColumn {
		if m > 0 {
			fmt.Fprintf(w, "  %-14s %d\n", d.Features[j], m)
		}
	}
	if d.Split != nil {
		fmt.Fprintf(w, "split column    train %d, valid %d, test %d\n",
			r.SplitCount["train"], r.SplitCount["valid"]+r.SplitCount["validation"], r.SplitCount["test"])
	}
	fmt.Fprintln(w, "columns")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  name\ttype\tdistinct\tmissing\tflags")
	for _, c := range r.Columns {
		distinct := fmt.Sprint(c.Distinct)
		if c.DistinctCapped {
			distinct = ">=" + distinct
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%.1f%%\t%s\n", c.Name, c.Type, distinct, 100*c.Missing, strings.Join(infoFlags(c), ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, name := range r.LikelyIDs {
		fmt.Fprintf(w, "hint: column %q looks like a row identifier: pass --id %s (never a feature; aer predict writes it back)\n", name, name)
	}
	return nil
}

// infoFlags are the flags of column c in aer info's table.
func infoFlags(c dataset.ColumnProfile) []string {
	var flags []string
	if c.Constant {
		flags = append(flags, "constant")
	}
	if c.NearConstant {
		flags = append(flags, "near-constant")
	}
	if c.LabelLike {
		f := "label-like"
		if c.PerfectPredictor != "" {
			f += " (predicts the label by its " + c.PerfectPredictor + ")"
		}
		flags = append(flags, f)
	}
	if c.LikelyID {
		flags = append(flags, "likely id")
	}
	return flags
}

// writeBinaryClasses writes a binary label's classes.
func writeBinaryClasses(w io.Writer, r *infoReport) {
	fmt.Fprintf(w, "label column    %s (negative %q, positive %q)\n", r.Label, r.Negative, r.Positive)
	if r.Ratio == 0 {
		fmt.Fprintf(w, "classes         one class: %d rows (%d negative, %d positive): a classifier needs rows of two\n", r.NegRows+r.PosRows, r.NegRows, r.PosRows)
	} else {
		fmt.Fprintf(w, "classes         %d negative, %d positive (%.1f:1)\n", r.NegRows, r.PosRows, r.Ratio)
	}
}
