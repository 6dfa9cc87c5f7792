package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	aermodel "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
)

func init() {
	register(&command{
		name:    "explain",
		summary: "break down an AER model's score of each row into component and member weights",
		usage: `usage: aer explain --model model.aer --data rows.csv [--rows 1,5-7] [--json]

For each row: the component log-densities log N(x | mu_l, Sigma_l) and the
likelihood weights l* they give, the static weights w, the mixed weights
w* = lambda l* + (1 - lambda) w, each member's output and contribution
w*_j f_j(x), the score (their sum) and the prediction at delta. --rows picks
data rows (1-based, after the header); the default is every row.`,
		run: runExplain,
	})
}

type explainRow struct {
	Row   int  `json:"row"`
	Label *int `json:"label,omitempty"`
	*aermodel.Explanation
}

func runExplain(args []string, stdout, stderr io.Writer) error {
	c := commands["explain"]
	fs := newFlagSet(c, stderr)
	modelPath := fs.String("model", "", "AER model `file` written by aer fit --method aer (required)")
	dataPath := fs.String("data", "", "CSV `file` with the rows to explain (required)")
	rowsFlag := fs.String("rows", "", "data rows to explain, 1-based: e.g. 1,5-7 (default: all)")
	asJSON := fs.Bool("json", false, "print one JSON document")
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
	h, m, err := loadAERModel(*modelPath)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	d, err := dataset.Load(*dataPath, dataset.Options{
		Label: h.Schema.Label, Classes: h.Schema.Classes, LabelOptional: true, AllowOneClass: true,
	})
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	x, err := d.Matrix(h.Schema.Features)
	if err != nil {
		return fmt.Errorf("explain: %s does not fit model %s: %w", *dataPath, *modelPath, err)
	}
	rows, err := parseRows(*rowsFlag, d.Rows())
	if err != nil {
		return usageErrorf("explain: --rows: %v", err)
	}
	var out []explainRow
	for _, i := range rows {
		e, err := m.Explain(x.RawRowView(i))
		if err != nil {
			return fmt.Errorf("explain: row %d: %w", i+1, err)
		}
		r := explainRow{Row: i + 1, Explanation: e}
		if d.Y != nil {
			y := d.Y[i]
			r.Label = &y
		}
		out = append(out, r)
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"model": *modelPath, "data": *dataPath, "rows": out})
	}
	for k, r := range out {
		if k > 0 {
			fmt.Fprintln(stdout)
		}
		label := ""
		if r.Label != nil {
			label = fmt.Sprintf(", label %d", *r.Label)
		}
		fmt.Fprintf(stdout, "row %d%s: score %.4f, prediction %d (delta %.2f, lambda %.2f)\n", r.Row, label, r.Score, r.Prediction, r.Delta, r.Lambda)
		fmt.Fprintf(stdout, "  %-10s %14s %10s\n", "component", "log-density", "l*")
		for l, v := range r.Component {
			fallback := ""
			if r.LogFallback {
				fallback = " (log rule fell back to exp)"
			}
			fmt.Fprintf(stdout, "  %-10d %14.3f %10.4f%s\n", l, r.LogDensity[l], v, fallback)
		}
		fmt.Fprintf(stdout, "  %-10s %10s %10s %10s %10s %12s\n", "member", "l*", "w", "w*", "f(x)", "w*.f(x)")
		for j, name := range r.Members {
			fmt.Fprintf(stdout, "  %-10s %10.4f %10.4f %10.4f %10.4f %12.4f\n", name, r.Likelihood[j], r.Static[j], r.Mixed[j], r.Member[j], r.Contribution[j])
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
