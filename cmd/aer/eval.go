package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/ctxio"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
)

func init() {
	register(&command{
		name:    "eval",
		summary: "score a predictions file: confusion matrix, imbalance metrics, ROC-AUC, threshold sweep",
		usage: `Usage: aer eval --data preds.csv [--positive CLASS] [--threshold T] [--json] [--sweep [--sweep-out sweep.csv] [--sweep-grid N]]
                [--cost fn=A,fp=B | --cost-matrix C]

The predictions file is a CSV with columns label,score[,pred][,weight], as
aer predict writes it: label is the true class, score grows with the
belief in the positive (minority) class, pred is an optional decision.
Label and pred hold class names (the training file's label values) or 0
and 1. The positive class is --positive when given; else 1 when every
value is 0 or 1; else the pred value whose rows have the higher mean
score (pred is positive when score >= the threshold); else the rarer
label; the output names it when it is not 1. The decisions scored are, in this
order of preference: score >= T when --threshold is given; else the pred
column when present; else score >= 0.5. The output says which was used.
ROC-AUC and average precision always come from the scores. When every
score lies in [0, 1] the scores are also judged as probabilities: the
Brier score, the log-loss and a reliability table (10 score bins: rows,
mean score and the share of positives, close to each other when the
scores are calibrated; aer fit --calibrate makes them so).

The optional weight column gives each row a weight, a finite number >= 0: a
row counts as if it were repeated that many times, and a row of weight 0 as
no row. Every count is then a sum of weights and every metric is weighted,
ROC-AUC and average precision as scikit-learn's sample_weight computes them;
the output says so ("weighted": true under --json).

The paper's "G-mean" is sqrt(precision*recall), reported as fowlkes_mallows;
gmean is sqrt(TPR*TNR). tp_fp_ratio is TPR/FPR. Undefined or infinite values
are null in JSON, explained under "notes".

--sweep evaluates every metric at each threshold of a grid, shown in the
output (a table, or an array under --json) or written as CSV to the
--sweep-out file instead, and names the thresholds where balanced accuracy,
F1, Fowlkes-Mallows, G-mean and MCC peak (the middle of the longest run of
tied best values). With --sweep-grid 0 the last threshold is +Inf (null in
JSON): nothing predicted positive.

--cost fn=A,fp=B reports the cost of the decisions, A per missed positive
and B per false alarm, in all and per row (per unit of weight), as aer fit
--cost minimises it; for a file of three or more classes --cost-matrix C
does so with a cost per true class (row) and predicted class (column), as
aer fit --cost-matrix takes it ("cost" under --json).`,
		run: runEval,
	})
}

// evalOutput is the --json document of aer eval.
type evalOutput struct {
	File string `json:"file"`
	// Weighted is set when the file has a weight column: the report's
	// counts are then sums of row weights, and Rows counts the rows.
	Weighted bool `json:"weighted,omitempty"`
	Rows     int  `json:"rows,omitempty"`
	// Classes are the class names of the file, negative then positive,
	// when they are not 0 and 1.
	Classes  *[2]string     `json:"classes,omitempty"`
	Decision evalDecision   `json:"decision"`
	Report   metrics.Report `json:"report"`
	// Calibration is the Brier score, log-loss and reliability table of
	// the scores, when they are probabilities (all in [0, 1]).
	Calibration *metrics.Calibration `json:"calibration,omitempty"`
	// Sweep is the sweep itself, unless it went to the --sweep-out file.
	Sweep       *metrics.Sweep  `json:"sweep,omitempty"`
	SweepOut    string          `json:"sweep_out,omitempty"`
	SweepPoints int             `json:"sweep_points,omitempty"`
	Best        []evalBestPoint `json:"sweep_best,omitempty"`
	// Cost is the decisions' cost under --cost or --cost-matrix.
	Cost *evalCost `json:"cost,omitempty"`

	sweep metrics.Sweep // for the text output
}

// evalCost is the cost of a file's decisions: Total, the sum over rows
// (their weights) of the cost of each row's decision, and Mean, the
// total over the rows' count (or weight), as aer fit --cost and
// --cost-matrix minimise it.
type evalCost struct {
	Matrix [][]float64 `json:"matrix"`
	Total  float64     `json:"total"`
	Mean   float64     `json:"mean"`
}

// costOf is the cost of the decisions of a confusion matrix (rows the
// true class, columns the predicted one) under the matrix c.
func costOf(confusion, c [][]float64) *evalCost {
	out := &evalCost{Matrix: c}
	n := 0.0
	for i, row := range confusion {
		for j, v := range row {
			out.Total += v * c[i][j]
			n += v
		}
	}
	if n > 0 {
		out.Mean = out.Total / n
	}
	return out
}

// writeText writes the cost's line of a text report.
func (c *evalCost) writeText(w io.Writer) {
	fmt.Fprintf(w, "cost       %s in all, %s per row (cost matrix %v: rows the true class, columns the predicted one)\n", evalFmtCount(c.Total), evalFmtMetric(c.Mean), c.Matrix)
}

// evalDecision says how predictions were made: Rule is "threshold" (from
// --threshold), "pred-column" or "default-threshold".
type evalDecision struct {
	Rule      string   `json:"rule"`
	Threshold *float64 `json:"threshold"` // null for pred-column
	Text      string   `json:"-"`         // for the text output
}

// evalBestPoint is the sweep point where one metric is largest.
type evalBestPoint struct {
	Metric    string   `json:"metric"`
	Threshold *float64 `json:"threshold"`
	Value     *float64 `json:"value"`

	threshold, value float64 // for the text output; NaN when no best
}

// maxSweepGrid bounds --sweep-grid: a grid point costs a row of every
// metric, and an absurd grid would end in an out-of-memory crash.
const maxSweepGrid = 1_000_000

// evalOptions are aer eval's flags.
type evalOptions struct {
	data, positive, sweepOut string
	threshold                evalOptionalFloat
	asJSON, sweep            bool
	sweepGrid                int
	cost                     *decision.Objective // --cost, two classes
	costMatrix               [][]float64         // --cost-matrix, three or more
}

// parseEvalFlags reads and checks aer eval's flags.
func parseEvalFlags(args []string, stderr io.Writer) (*evalOptions, error) {
	fs := newFlagSet(commands["eval"], stderr)
	var o evalOptions
	fs.StringVar(&o.data, "data", "", "predictions CSV with columns label,score[,pred][,weight] (required)")
	fs.Var(&o.threshold, "threshold", "predict positive when score >= `T`; overrides the pred column (default: the pred column if present, else 0.5)")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON document on stdout")
	fs.StringVar(&o.positive, "positive", "", "the positive `class` of the label and pred columns (default: 1 for 0/1, else inferred, see above)")
	fs.BoolVar(&o.sweep, "sweep", false, "add a threshold sweep: every metric at each threshold of a grid")
	fs.StringVar(&o.sweepOut, "sweep-out", "", "write the sweep as CSV to `file` instead of the output (implies --sweep)")
	fs.IntVar(&o.sweepGrid, "sweep-grid", 101, "sweep `N` evenly spaced thresholds over [0,1] (over [min,max] score if scores leave [0,1]); 0 sweeps every distinct score")
	cost := fs.String("cost", "", "two classes: also report the cost of the decisions, `fn=A,fp=B` per missed positive and per false alarm (aer fit --cost)")
	costMatrix := fs.String("cost-matrix", "", "three or more classes: also report the cost of the decisions, costs `C` row by row (true class) in the file's class order (aer fit --cost-matrix)")
	if err := parseNoArgs(fs, args); err != nil {
		return nil, err
	}
	if *cost != "" {
		c, err := decision.ParseCost(*cost)
		if err != nil {
			return nil, usageErrorf("eval: --cost: %v", err)
		}
		o.cost = &c
	}
	if *costMatrix != "" {
		m, err := decision.ParseCostMatrix(*costMatrix)
		if err != nil {
			return nil, usageErrorf("eval: --cost-matrix: %v", err)
		}
		o.costMatrix = m
	}
	switch {
	case o.data == "":
		return nil, usageErrorf("eval: --data is required")
	case math.IsNaN(o.threshold.v):
		return nil, usageErrorf("eval: --threshold must be a number, not NaN")
	case o.sweepGrid < 0 || o.sweepGrid == 1 || o.sweepGrid > maxSweepGrid:
		return nil, usageErrorf("eval: --sweep-grid must be 0 or between 2 and %d, not %d", maxSweepGrid, o.sweepGrid)
	}
	o.sweep = o.sweep || o.sweepOut != ""
	if err := refuseOverwrite("eval", "--sweep-out", o.sweepOut, input{"--data", o.data}); err != nil {
		return nil, err
	}
	return &o, nil
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseEvalFlags(args, stderr)
	if err != nil {
		return err
	}
	var out interface{ writeText(io.Writer) error }
	if multi, _ := multiPredictionsFile(o.data); multi {
		out, err = evaluateClasses(ctx, o)
	} else {
		out, err = evaluateScores(ctx, o)
	}
	if err != nil {
		return err
	}
	if o.asJSON {
		return writeJSON(stdout, out)
	}
	return out.writeText(stdout)
}

// evaluateScores evaluates the predictions of a two-class --data file:
// its decisions, the calibration of its scores and, with --sweep, every
// metric at each threshold of a grid.
func evaluateScores(ctx context.Context, o *evalOptions) (*evalOutput, error) {
	if o.costMatrix != nil {
		return nil, usageErrorf("eval: %s holds two-class predictions: --cost-matrix is for three or more classes (--cost fn=A,fp=B here)", o.data)
	}
	p, err := loadEvalPredictions(ctx, o)
	if err != nil {
		return nil, err
	}
	out := evaluate(p, o)
	if !o.sweep {
		return &out, nil
	}
	s := evalSweep(p, o.sweepGrid, &out)
	if o.sweepOut != "" {
		if err := writeFileAtomic(ctx, o.sweepOut, s.WriteCSV); err != nil {
			return nil, fmt.Errorf("eval: writing the sweep: %w", err)
		}
		out.SweepOut = o.sweepOut
	} else {
		out.Sweep = &s
	}
	return &out, nil
}

// loadEvalPredictions reads the predictions of --data, which must have
// labels and scores, and checks --threshold against the scores.
func loadEvalPredictions(ctx context.Context, o *evalOptions) (*predfile.Predictions, error) {
	p, err := predfile.LoadPredictionsContext(ctx, o.data, predfile.PredictionsOptions{Positive: o.positive})
	switch {
	case errors.Is(err, predfile.ErrPositive):
		return nil, fmt.Errorf("eval: %w (--positive)", err)
	case err != nil:
		return nil, fmt.Errorf("eval: %w", err)
	}
	if err := needLabels(o.data, p.Label); err != nil {
		return nil, err
	}
	if p.Score == nil {
		return nil, fmt.Errorf("eval: %s: no score column", o.data)
	}
	if err := metrics.Validate(p.Label, p.Score, p.Pred, p.Weight); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", o.data, err)
	}
	if t := o.threshold.v; o.threshold.set && (t < 0 || t > 1) && metrics.Probabilities(p.Score) {
		// Every score is a probability: such a threshold predicts every
		// row alike, which is a typo far more often than a wish.
		all := "negative"
		if t < 0 {
			all = "positive"
		}
		return nil, usageErrorf("eval: --threshold %s lies outside [0, 1], where every score of %s lies: every row would be predicted %s", evalFmtFloat(t), o.data, all)
	}
	return p, nil
}

// needLabels is the error of a predictions file without labels.
func needLabels(path string, label []int) error {
	if label == nil {
		return fmt.Errorf("eval: %s: no label column: cannot evaluate predictions without labels", path)
	}
	return nil
}

// evaluate scores the decisions of o on p: score >= --threshold, else the
// pred column, else score >= 0.5; and the calibration of the scores.
func evaluate(p *predfile.Predictions, o *evalOptions) evalOutput {
	out := evalOutput{File: o.data}
	if p.Weight != nil {
		out.Weighted, out.Rows = true, len(p.Label)
	}
	if p.Classes != [2]string{} {
		out.Classes = &p.Classes
	}
	switch threshold := o.threshold.v; {
	case o.threshold.set:
		out.Decision = evalDecision{Rule: "threshold", Threshold: evalFiniteOrNil(threshold),
			Text: fmt.Sprintf("score >= %s (--threshold)", evalFmtFloat(threshold))}
		if p.Pred != nil {
			out.Decision.Text += "; pred column ignored"
		}
		out.Report = metrics.Evaluate(p.Label, p.Score, threshold, p.Weight)
	case p.Pred != nil:
		out.Decision = evalDecision{Rule: "pred-column", Text: "pred column of the file"}
		out.Report = metrics.EvaluatePredictions(p.Label, p.Pred, p.Score, p.Weight)
	default:
		t := 0.5
		out.Decision = evalDecision{Rule: "default-threshold", Threshold: &t,
			Text: "score >= 0.5 (default: no --threshold, no pred column)"}
		out.Report = metrics.Evaluate(p.Label, p.Score, t, p.Weight)
	}
	if cal, ok := metrics.EvaluateCalibration(p.Label, p.Score, p.Weight, 10); ok {
		out.Calibration = &cal
	}
	if o.cost != nil {
		c := out.Report.Confusion
		out.Cost = costOf([][]float64{{c.TN, c.FP}, {c.FN, c.TP}}, o.cost.CostMatrix(2))
	}
	return out
}

// evalSweep sweeps the thresholds of a grid of n points (0: every
// distinct score) and records in out where the main metrics peak.
func evalSweep(p *predfile.Predictions, n int, out *evalOutput) metrics.Sweep {
	var s metrics.Sweep
	if n == 0 {
		s = metrics.SweepScores(p.Label, p.Score, p.Weight)
	} else {
		lo, hi := evalScoreRange(p.Score)
		s = metrics.SweepThresholds(p.Label, p.Score, metrics.Grid(lo, hi, n), p.Weight)
	}
	out.sweep, out.SweepPoints = s, len(s)
	for _, m := range []metrics.Metric{metrics.BalancedAccuracy, metrics.F1, metrics.FowlkesMallows, metrics.GMean, metrics.MCC} {
		b := evalBestPoint{Metric: m.String(), threshold: math.NaN(), value: math.NaN()}
		if i := s.Best(m); i >= 0 {
			b.threshold, b.value = s[i].Threshold, m.Of(s[i].Confusion)
			b.Threshold, b.Value = evalFiniteOrNil(b.threshold), evalFiniteOrNil(b.value)
		}
		out.Best = append(out.Best, b)
	}
	return s
}

// evalOptionalFloat is a float flag that knows whether it was given, and shows
// no default in the help.
type evalOptionalFloat struct {
	v   float64
	set bool
}

func (f *evalOptionalFloat) String() string {
	if f == nil || !f.set {
		return ""
	}
	return evalFmtFloat(f.v)
}

func (f *evalOptionalFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New("not a number")
	}
	f.v, f.set = v, true
	return nil
}

// evalScoreRange is [0, 1] when every score lies in it (probabilities), else
// the range of the finite scores.
func evalScoreRange(score []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range score {
		if !math.IsInf(s, 0) {
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	switch {
	case lo > hi: // no finite score
		return 0, 1
	case lo >= 0 && hi <= 1:
		return 0, 1
	}
	return lo, hi
}

func evalFiniteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func evalFmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// evalFmtCount formats a confusion count, a sum of row weights: a whole
// count as an integer ("1000000", not "1e+06"), any other exactly.
func evalFmtCount(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return evalFmtFloat(v)
}

// evalFmtMetric formats a metric for the text table: 4 decimals, "inf" or
// "undefined".
func evalFmtMetric(v float64) string {
	switch {
	case math.IsNaN(v):
		return "undefined"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// writeText writes the evaluation as text: the confusion matrix, every
// metric, the calibration and the sweep.
func (out *evalOutput) writeText(w io.Writer) error {
	r := &out.Report
	c := r.Confusion
	ew := &stickyWriter{w: w}
	fmt.Fprintf(ew, "file       %s\n", out.File)
	if out.Weighted {
		fmt.Fprintf(ew, "rows       %d, weighted by the weight column: counts are sums of weights\n", out.Rows)
		fmt.Fprint(ew, "weight     ")
	} else {
		fmt.Fprint(ew, "rows       ")
	}
	neg, pos := "0", "1"
	if out.Classes != nil {
		neg, pos = shownClass(out.Classes[0]), shownClass(out.Classes[1])
	}
	fmt.Fprintf(ew, "%s: %s positive (label %s), %s negative (label %s)\n", evalFmtCount(c.N()), evalFmtCount(c.Positives()), pos, evalFmtCount(c.Negatives()), neg)
	fmt.Fprintf(ew, "decision   %s\n", out.Decision.Text)
	if out.Cost != nil {
		out.Cost.writeText(ew)
	}
	fmt.Fprintln(ew)

	evalWriteTable(ew, "lrr", [][]string{
		{"", "predicted " + pos, "predicted " + neg},
		{"label " + pos, "TP " + evalFmtCount(c.TP), "FN " + evalFmtCount(c.FN)},
		{"label " + neg, "FP " + evalFmtCount(c.FP), "TN " + evalFmtCount(c.TN)},
	})
	fmt.Fprintln(ew)

	rows := [][]string{{"metric", "value", "note"}}
	row := func(label, key string, v float64) {
		rows = append(rows, []string{label, evalFmtMetric(v), r.Notes[key]})
	}
	for _, m := range metrics.AllMetrics() {
		row(m.Label(), m.String(), r.Value(m))
	}
	row("ROC-AUC", "roc_auc", r.ROCAUC)
	row("average precision", "average_precision", r.AveragePrecision)
	evalWriteTable(ew, "lrl", rows)

	if cal := out.Calibration; cal != nil {
		fmt.Fprintf(ew, "\ncalibration  Brier %s, log-loss %s\n\n", evalFmtMetric(cal.Brier), evalFmtMetric(cal.LogLoss))
		rows := [][]string{{"scores", "rows", "mean score", "positive share"}}
		for _, b := range cal.Bins {
			closing := ")"
			if b.Hi == 1 {
				closing = "]"
			}
			rows = append(rows, []string{fmt.Sprintf("[%.1f, %.1f%s", b.Lo, b.Hi, closing), evalFmtCount(b.Rows), evalFmtMetric(b.MeanScore), evalFmtMetric(b.Positive)})
		}
		evalWriteTable(ew, "lrrr", rows)
	}

	if out.sweep != nil {
		writeEvalSweep(ew, out)
	}
	return ew.err
}

// writeEvalSweep writes where the metrics peak in the sweep, and the
// sweep itself unless it went to the --sweep-out file.
func writeEvalSweep(ew *stickyWriter, out *evalOutput) {
	s := out.sweep
	fmt.Fprintf(ew, "\nsweep      %d thresholds", len(s))
	if out.SweepOut != "" {
		fmt.Fprintf(ew, ", written to %s", out.SweepOut)
	}
	fmt.Fprint(ew, "\n\n")
	rows := [][]string{{"best of", "value", "at threshold"}}
	for _, b := range out.Best {
		m, _ := metrics.ParseMetric(b.Metric)
		if math.IsNaN(b.value) {
			rows = append(rows, []string{m.Label(), "undefined", ""})
			continue
		}
		rows = append(rows, []string{m.Label(), evalFmtMetric(b.value), evalFmtFloat(b.threshold)})
	}
	evalWriteTable(ew, "lrr", rows)
	if out.SweepOut != "" {
		return
	}
	// Without --sweep-out the sweep itself is printed, the main metrics by
	// their usual short names.
	fmt.Fprintln(ew)
	cols := []struct {
		head string
		m    metrics.Metric
	}{
		{"TPR", metrics.MinorityRecall}, {"TNR", metrics.MajorityRecall}, {"BA", metrics.BalancedAccuracy},
		{"precision", metrics.MinorityPrecision}, {"F1", metrics.F1}, {"FM", metrics.FowlkesMallows},
		{"gmean", metrics.GMean}, {"MCC", metrics.MCC},
	}
	head := []string{"threshold", "TP", "FP", "TN", "FN"}
	for _, col := range cols {
		head = append(head, col.head)
	}
	rows = [][]string{head}
	for _, pt := range s {
		cells := []string{evalFmtFloat(pt.Threshold), evalFmtCount(pt.TP), evalFmtCount(pt.FP), evalFmtCount(pt.TN), evalFmtCount(pt.FN)}
		for _, col := range cols {
			cells = append(cells, evalFmtMetric(col.m.Of(pt.Confusion)))
		}
		rows = append(rows, cells)
	}
	evalWriteTable(ew, "rrrrrrrrrrrrr", rows)
	fmt.Fprintln(ew, "(FM: Fowlkes-Mallows, the paper's G-mean; gmean: sqrt(TPR*TNR); BA: balanced accuracy)")
}

// evalWriteTable writes rows as columns two spaces apart, each column aligned
// left or right by align ('l' or 'r', one byte per column), without
// trailing spaces.
func evalWriteTable(w io.Writer, align string, rows [][]string) {
	var width []int
	for _, r := range rows {
		for i, cell := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.Reset()
		for i, cell := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if i < len(align) && align[i] == 'r' {
				b.WriteString(pad + cell)
			} else {
				b.WriteString(cell + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// evalClassesOutput is aer eval's document for multi-class predictions.
type evalClassesOutput struct {
	File    string              `json:"file"`
	Classes []string            `json:"classes"`
	Report  metrics.MultiReport `json:"report"`
	Cost    *evalCost           `json:"cost,omitempty"`
}

// evaluateClasses evaluates the multi-class predictions of --data: every
// multi-class metric, at each row's predicted class.
func evaluateClasses(ctx context.Context, o *evalOptions) (*evalClassesOutput, error) {
	if o.threshold.set || o.sweep || o.positive != "" || o.cost != nil {
		return nil, usageErrorf("eval: %s holds multi-class predictions: --threshold, --sweep, --positive and --cost are for binary ones (--cost-matrix here)", o.data)
	}
	p, err := readMultiPredictions(ctx, o.data)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if err := needLabels(o.data, p.Label); err != nil {
		return nil, err
	}
	r, err := metrics.EvaluateMultiContext(ctx, p.Label, p.Pred, p.Proba, len(p.Classes), p.Weight)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("eval: %s: %w", o.data, err)
	}
	out := &evalClassesOutput{File: o.data, Classes: p.Classes, Report: r}
	if o.costMatrix != nil {
		if len(o.costMatrix) != len(p.Classes) {
			return nil, usageErrorf("eval: --cost-matrix of %d rows for the %d classes of %s", len(o.costMatrix), len(p.Classes), o.data)
		}
		out.Cost = costOf(r.Confusion, o.costMatrix)
	}
	return out, nil
}

// shownClass is a class name as a text table shows it: quoted, escapes
// and all, when it holds a line break or another character that is not
// printed as itself, so that each class stays on its row.
func shownClass(name string) string {
	if strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(name)
	}
	return name
}

// writeText writes the evaluation as text: the metrics, each class's
// recall, precision and F1, and the confusion matrix.
func (out *evalClassesOutput) writeText(stdout io.Writer) error {
	r := &out.Report
	w := &stickyWriter{w: stdout}
	fmt.Fprintf(w, "file              %s (%d rows, %d classes)\n", out.File, r.Rows, r.Classes)
	for _, m := range []struct {
		name string
		v    float64
	}{{"balanced accuracy", r.BalancedAccuracy}, {"accuracy", r.Accuracy}, {"macro F1", r.MacroF1}, {"weighted F1", r.WeightedF1},
		{"G-mean", r.GMean}, {"MAUC (Hand-Till)", r.MAUC}, {"OvR ROC-AUC", r.OvRAUC}, {"log-loss", r.LogLoss}, {"Brier", r.Brier}} {
		fmt.Fprintf(w, "%-17s %s\n", m.name, evalFmtMetric(m.v))
	}
	fmt.Fprintf(w, "\nper class\n")
	shown := make([]string, len(out.Classes))
	for c, name := range out.Classes {
		shown[c] = shownClass(name)
	}
	rows := [][]string{{"  class", "support", "recall", "precision", "F1"}}
	for c, name := range shown {
		rows = append(rows, []string{"  " + name, evalFmtCount(r.Support[c]), evalFmtMetric(r.Recall[c]), evalFmtMetric(r.Precision[c]), evalFmtMetric(r.F1[c])})
	}
	evalWriteTable(w, "lrrrr", rows)
	fmt.Fprintf(w, "\nconfusion (rows true, columns predicted)\n")
	rows = [][]string{append([]string{"  "}, shown...)}
	for c, name := range shown {
		row := []string{"  " + name}
		for _, v := range r.Confusion[c] {
			row = append(row, evalFmtCount(v))
		}
		rows = append(rows, row)
	}
	evalWriteTable(w, "l"+strings.Repeat("r", len(out.Classes)), rows)
	if out.Cost != nil {
		fmt.Fprintln(w)
		out.Cost.writeText(w)
	}
	return w.err
}

// multiPredictionsFile says whether the predictions file path is a
// multi-class one (score_<class> columns): false when it cannot be read,
// for the binary reader to say what is wrong.
func multiPredictionsFile(path string) (bool, error) {
	multi, err := predfile.IsMultiPredictionsFile(path)
	if err != nil {
		return false, nil // the binary reader says what is wrong
	}
	return multi, nil
}

// readMultiPredictions reads the multi-class predictions file path.
func readMultiPredictions(ctx context.Context, path string) (*predfile.MultiPredictions, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return predfile.ReadMultiPredictions(ctxio.NewFile(ctx, f), path)
}
