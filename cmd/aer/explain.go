package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
)

func init() {
	register(&command{
		name:    "explain",
		summary: "break down a model's score of each row (AER: component and member weights)",
		usage: `usage: aer explain --model model.aer --data rows.csv [--rows 1,5-7] [--json]

For each row, the breakdown of its score that the model's method offers.
For aer and dynens: the component log-densities log N(x | mu_l, Sigma_l)
and the likelihood weights l* they give, the static weights w, the mixed
weights w* = lambda l* + (1 - lambda) w, each member's output and
contribution, the score and the prediction at delta. In probability space
(preset paper) a contribution is w*_j f_j(x) and they sum to the score; in
logit space (the default preset plus) it is w*_j logit f_j(x) and they sum
to the score's logit. Members trained on all rows (the plus preset's
"all rows" and any peers) have no component and no likelihood weight. --rows picks data rows (1-based, after the header); the default is
every row. A method without explanations is an error that says so.`,
		run: runExplain,
	})
}

type explainRow struct {
	Row         int               `json:"row"`
	ID          string            `json:"id,omitempty"`
	Label       *int              `json:"label,omitempty"`
	Explanation learn.Explanation `json:"explanation"`
}

func runExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["explain"]
	fs := newFlagSet(c, stderr)
	modelPath := fs.String("model", "", "model `file` written by aer fit (required)")
	dataPath := fs.String("data", "", "data `file` with the rows to explain (CSV, .csv.gz or Parquet), - for standard input (required)")
	rowsFlag := fs.String("rows", "", "data rows to explain, 1-based: e.g. 1,5-7 (default: all)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	id := fs.String("id", "", "row-identifier `column` shown with each row (default: the model's, aer fit --id)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return usageErrorf("explain: unexpected argument %q", rest[0])
	case *modelPath == "" || *dataPath == "":
		return usageErrorf("explain: --model and --data are required")
	}
	h, model, err := loadModel(*modelPath)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	ex, ok := model.(learn.Explainer)
	if !ok {
		return fmt.Errorf("explain: %s holds a %s model, which offers no per-row explanation", *modelPath, h.Method)
	}
	d, err := loadFor(ctx, *dataPath, h, *modelPath, *id)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	rows, err := parseRows(*rowsFlag, d.Rows())
	if err != nil {
		return usageErrorf("explain: --rows: %v", err)
	}
	var out []explainRow
	for _, i := range rows {
		if err := ctx.Err(); err != nil {
			return err
		}
		e, err := ex.Explain(d.X.RawRowView(i))
		if err != nil {
			return fmt.Errorf("explain: row %d: %w", i+1, err)
		}
		r := explainRow{Row: i + 1, Explanation: e}
		if d.IDs != nil {
			r.ID = d.IDs[i]
		}
		if d.Y != nil {
			y := d.Y[i]
			r.Label = &y
		}
		out = append(out, r)
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"model": *modelPath, "method": h.Method, "data": *dataPath, "rows": out})
	}
	for k, r := range out {
		if k > 0 {
			fmt.Fprintln(stdout)
		}
		label := ""
		if r.Label != nil {
			label = fmt.Sprintf(", label %d", *r.Label)
		}
		if r.ID != "" {
			label = fmt.Sprintf(" (%s %s)", d.IDColumn, r.ID) + label
		}
		fmt.Fprintf(stdout, "row %d%s: ", r.Row, label)
		if err := r.Explanation.WriteText(stdout); err != nil {
			return err
		}
	}
	return nil
}

// parseRows reads "1,5-7" into 0-based row indices; empty means all n rows.
func parseRows(s string, n int) ([]int, error) {
	var rows []int
	if strings.TrimSpace(s) == "" {
		for i := range n {
			rows = append(rows, i)
		}
		return rows, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 1 || b < a || b > n {
			return nil, fmt.Errorf("%q: want 1-based rows like 1,5-7 within 1..%d", part, n)
		}
		for i := a; i <= b; i++ {
			rows = append(rows, i-1)
		}
	}
	return rows, nil
}
