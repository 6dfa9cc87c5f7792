package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aer-go/aer/internal/ctxio"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
)

// evalMultiOutput is aer eval's document for multi-class predictions.
type evalMultiOutput struct {
	File    string              `json:"file"`
	Classes []string            `json:"classes"`
	Report  metrics.MultiReport `json:"report"`
}

// multiPredictionsFile reads the header of the predictions file path and
// says whether it is a multi-class one (score_<class> columns).
func multiPredictionsFile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, nil // the binary reader says what is wrong
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, err
	}
	head, err := csv.NewReader(strings.NewReader(line)).Read()
	if err != nil {
		return false, nil // the binary reader says what is wrong
	}
	return predfile.IsMultiPredictions(head), nil
}

// runEvalMulti evaluates multi-class predictions: every multi-class
// metric, at each row's predicted class.
func runEvalMulti(ctx context.Context, o *evalOptions, stdout io.Writer) error {
	if o.threshold.set || o.sweep || o.positive != "" {
		return usageErrorf("eval: %s holds multi-class predictions: --threshold, --sweep and --positive are for binary ones", o.data)
	}
	f, err := os.Open(o.data)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	p, err := predfile.ReadMultiPredictions(ctxio.NewFile(ctx, f), o.data)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	if p.Label == nil {
		return fmt.Errorf("eval: %s: no label column: cannot evaluate predictions without labels", o.data)
	}
	r, err := metrics.EvaluateMulti(p.Label, p.Pred, p.Proba, len(p.Classes), p.Weight)
	if err != nil {
		return fmt.Errorf("eval: %s: %w", o.data, err)
	}
	out := evalMultiOutput{File: o.data, Classes: p.Classes, Report: r}
	if o.asJSON {
		return writeJSON(stdout, out)
	}
	w := &stickyWriter{w: stdout}
	fmt.Fprintf(w, "file              %s (%d rows, %d classes)\n", o.data, r.Rows, r.Classes)
	for _, m := range []struct {
		name string
		v    float64
	}{{"balanced accuracy", r.BalancedAccuracy}, {"accuracy", r.Accuracy}, {"macro F1", r.MacroF1}, {"weighted F1", r.WeightedF1},
		{"G-mean", r.GMean}, {"MAUC (Hand-Till)", r.MAUC}, {"OvR ROC-AUC", r.OvRAUC}, {"log-loss", r.LogLoss}, {"Brier", r.Brier}} {
		fmt.Fprintf(w, "%-17s %s\n", m.name, evalFmtFloat(m.v))
	}
	fmt.Fprintf(w, "\nper class\n")
	rows := [][]string{{"  class", "support", "recall", "precision", "F1"}}
	for c, name := range p.Classes {
		rows = append(rows, []string{"  " + name, evalFmtFloat(r.Support[c]), evalFmtFloat(r.Recall[c]), evalFmtFloat(r.Precision[c]), evalFmtFloat(r.F1[c])})
	}
	evalWriteTable(w, "lrrrr", rows)
	fmt.Fprintf(w, "\nconfusion (rows true, columns predicted)\n")
	rows = [][]string{append([]string{"  "}, p.Classes...)}
	for c, name := range p.Classes {
		row := []string{"  " + name}
		for _, v := range r.Confusion[c] {
			row = append(row, evalFmtFloat(v))
		}
		rows = append(rows, row)
	}
	evalWriteTable(w, "l"+strings.Repeat("r", len(p.Classes)), rows)
	return w.err
}
