package main

import (
	"context"
	"fmt"
	"io"
)

func init() {
	register(&command{
		name:    "info",
		summary: "describe a CSV dataset: shape, classes, imbalance, missing values, splits",
		usage:   "usage: aer info --data FILE.csv [--label NAME] [--positive VALUE] [--json]",
		run:     runInfo,
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
	Ratio      float64        `json:"imbalance_ratio"` // negative rows per positive row
	Missing    int            `json:"missing_cells"`
	MissingBy  map[string]int `json:"missing_by_column,omitempty"`
	SplitCount map[string]int `json:"split,omitempty"`
	Names      []string       `json:"feature_names"`
}

func runInfo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["info"]
	fs := newFlagSet(c, stderr)
	var df dataFlags
	df.register(fs)
	data := fs.String("data", "", "CSV `file` to describe, - for standard input (required)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usageErrorf("info: unexpected argument %q (flags after it would be ignored)", rest[0])
	}
	if *data == "" {
		return usageErrorf("info: --data is required")
	}
	d, err := loadData(ctx, *data, df.options())
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	neg, pos := d.ClassCounts()
	r := infoReport{
		File: *data, Rows: d.Rows(), Features: d.Cols(), Label: d.Label,
		Negative: d.Classes[0], Positive: d.Classes[1], NegRows: neg, PosRows: pos,
		Ratio: float64(neg) / float64(pos), Missing: d.Missing(), Names: d.Features,
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
	if *asJSON {
		return writeJSON(stdout, r)
	}
	fmt.Fprintf(stdout, "file            %s\n", r.File)
	fmt.Fprintf(stdout, "rows            %d\n", r.Rows)
	fmt.Fprintf(stdout, "features        %d\n", r.Features)
	fmt.Fprintf(stdout, "label column    %s (negative %q, positive %q)\n", r.Label, r.Negative, r.Positive)
	fmt.Fprintf(stdout, "classes         %d negative, %d positive (%.1f:1)\n", neg, pos, r.Ratio)
	fmt.Fprintf(stdout, "missing cells   %d\n", r.Missing)
	for j, m := range d.MissingByColumn {
		if m > 0 {
			fmt.Fprintf(stdout, "  %-14s %d\n", d.Features[j], m)
		}
	}
	if d.Split != nil {
		fmt.Fprintf(stdout, "split column    train %d, valid %d, test %d\n",
			r.SplitCount["train"], r.SplitCount["valid"]+r.SplitCount["validation"], r.SplitCount["test"])
	}
	return nil
}
