package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/stattest"
)

func init() {
	register(&command{
		name:    "compare",
		summary: "test whether two classifiers (or several methods across datasets) differ",
		usage: strings.TrimSpace(`
Usage:
  aer compare A.csv B.csv [--positive CLASS] [--threshold T] [--quantity Q] [--zero-method M] [--mode M] [--json]
  aer compare --friedman scores.csv [--lower-is-better] [--alpha A] [--json]

Two classifiers on the same rows: A.csv and B.csv are predictions files
(columns label,score[,pred], as written by aer predict) for the same rows in
the same order; both need the label column and their labels must agree row
by row. Label and pred hold class names or 0/1; the positive class is
--positive when given, else inferred as aer eval does (aer help eval), and
must be the same in both files. aer compare reports
  - each file's balanced accuracy (mean of minority and majority recall) with
    its confusion counts;
  - McNemar's test on per-row correctness, both the chi-square form with
    continuity correction, (|b-c|-1)^2/(b+c), and the exact binomial form,
    where b counts rows only A got right and c rows only B got right. A row's
    prediction is the pred column when present, else score >= T (T defaults
    to 0.5); giving --threshold thresholds the score even when a pred column
    is present. Read the exact p-value when b+c is small (below about 25);
  - the Wilcoxon signed-rank test on the per-row difference d = q(A) - q(B)
    of a stated quantity q (--quantity), so a negative d means A did better:
      abs-error      |label - score| (default)
      squared-error  (label - score)^2
      log-loss       -log(score) for label 1, -log(1-score) for label 0,
                     score clipped to [1e-15, 1-1e-15]; scores must lie in [0,1]
    Rows with d = 0 are handled by --zero-method (SciPy's names): wilcox drops
    them, pratt ranks then drops them, zsplit splits their ranks between the
    signs. --mode auto uses the exact distribution for at most 50 rows without
    zero differences, else the normal approximation with tie correction.

Two multi-class predictions files (label, pred and score_<class> columns,
as aer predict writes them for a model of three or more classes) are
compared the same way: balanced accuracy is the mean of the per-class
recalls, McNemar's test counts the rows each file's pred gets right, and
the Wilcoxon quantities are of the true class's probability p: abs-error
1 - p, squared-error the row's multi-class Brier score (the sum over
classes of the squared distance to the true class's indicator), log-loss
-log p. Both files must score the same classes in the same order.

Several methods across datasets (--friedman): scores.csv has a header row, a
first column naming the dataset and one column per method holding one score
per dataset (e.g. balanced accuracy). aer compare reports Friedman's
chi-square test (with tie correction), the Iman-Davenport F form, the mean
rank of each method (1 = best; higher scores are better unless
--lower-is-better), and the Nemenyi post-hoc test (Demsar 2006): the critical
difference CD = q_alpha sqrt(k(k+1)/(6N)) and the pairs whose mean ranks
differ by more. q_alpha is Demsar's table for alpha 0.05 and 0.10 with up to
10 methods, else computed from the studentized range distribution.

Rows are counted from 1 after the header. Flags may come before or after
the file names. Exit status 0 success, 1 failure (unreadable files, labels
that differ), 2 usage error.`),
		run: runCompare,
	})
}

// compareFlags holds the parsed flags of aer compare.
type compareFlags struct {
	threshold     float64
	quantity      string
	zeroMethod    string
	mode          string
	json          bool
	positive      string
	friedman      bool
	lowerIsBetter bool
	alpha         float64
	set           map[string]bool // flags given on the command line
}

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["compare"]
	fs := newFlagSet(c, stderr)
	var f compareFlags
	fs.Float64Var(&f.threshold, "threshold", 0.5, "predict positive when score >= `T`; forces thresholding even when a pred column is present")
	fs.StringVar(&f.quantity, "quantity", "abs-error", "per-row quantity `Q` compared by the Wilcoxon test: abs-error, squared-error or log-loss")
	fs.StringVar(&f.zeroMethod, "zero-method", "wilcox", "Wilcoxon treatment `M` of zero differences: wilcox, pratt or zsplit")
	fs.StringVar(&f.mode, "mode", "auto", "Wilcoxon p-value `M`: auto, exact or approx (normal approximation)")
	fs.BoolVar(&f.json, "json", false, "print one JSON document on stdout")
	fs.StringVar(&f.positive, "positive", "", "the positive `class` of the label and pred columns (default: 1 for 0/1, else inferred as aer eval does)")
	fs.BoolVar(&f.friedman, "friedman", false, "compare several methods across datasets from one scores CSV")
	fs.BoolVar(&f.lowerIsBetter, "lower-is-better", false, "with --friedman: lower scores are better (e.g. error rates)")
	fs.Float64Var(&f.alpha, "alpha", 0.05, "with --friedman: significance level `A` of the Nemenyi post-hoc test")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })

	if f.friedman {
		for _, name := range []string{"threshold", "quantity", "zero-method", "mode", "positive"} {
			if f.set[name] {
				return usageErrorf("compare: --%s does not apply with --friedman", name)
			}
		}
		if len(pos) != 1 {
			return usageErrorf("compare: --friedman takes one scores CSV, got %d file arguments", len(pos))
		}
		if !(f.alpha > 0 && f.alpha < 1) {
			return usageErrorf("compare: --alpha %v is not between 0 and 1", f.alpha)
		}
		return compareFriedman(ctx, pos[0], &f, stdout)
	}
	for _, name := range []string{"lower-is-better", "alpha"} {
		if f.set[name] {
			return usageErrorf("compare: --%s applies only with --friedman", name)
		}
	}
	if len(pos) != 2 {
		return usageErrorf("compare: need two predictions files A.csv B.csv, got %d file arguments", len(pos))
	}
	if math.IsNaN(f.threshold) || math.IsInf(f.threshold, 0) {
		return usageErrorf("compare: --threshold must be a finite number")
	}
	if _, err := metrics.ParseRowLoss(f.quantity); err != nil {
		return usageErrorf("compare: unknown --quantity %q (want abs-error, squared-error or log-loss)", f.quantity)
	}
	if _, err := stattest.ParseZeroMethod(f.zeroMethod); err != nil {
		return usageErrorf("compare: unknown --zero-method %q (want wilcox, pratt or zsplit)", f.zeroMethod)
	}
	if _, err := stattest.ParseMode(f.mode); err != nil {
		return usageErrorf("compare: unknown --mode %q (want auto, exact or approx)", f.mode)
	}
	return comparePair(ctx, pos[0], pos[1], &f, stdout)
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments (the flag package alone stops at the first
// positional). Everything after "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		rest, err := parseFlags(fs, args)
		if err != nil {
			return nil, err
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// classifierSummary describes one predictions file.
type classifierSummary struct {
	File string `json:"file"`
	// twoClass is a two-class file's decisions and confusion counts.
	*twoClass
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	// Accuracy is a multi-class file's; nil for two classes.
	Accuracy     *float64 `json:"accuracy,omitempty"`
	MeanQuantity float64  `json:"mean_quantity"`
	correct      []bool
	q            []float64
}

// twoClass is where a two-class file's 0/1 predictions came from and
// their confusion counts.
type twoClass struct {
	// Source says where the 0/1 predictions came from: "pred-column" or
	// "threshold" (score >= Threshold).
	Source    string   `json:"prediction_source"`
	Threshold *float64 `json:"threshold,omitempty"`
	TP        int      `json:"tp"`
	FP        int      `json:"fp"`
	TN        int      `json:"tn"`
	FN        int      `json:"fn"`
}

type wilcoxonReport struct {
	Quantity   string `json:"quantity"`
	Difference string `json:"difference"`
	stattest.WilcoxonResult
	MeanDifference float64 `json:"mean_difference"`
	ALower         int     `json:"rows_a_lower"`
	BLower         int     `json:"rows_b_lower"`
	Equal          int     `json:"rows_equal"`
}

// pairReport is aer compare's document for two predictions files: of
// two classes with the rows of each (classCounts), of more with the
// classes.
type pairReport struct {
	Rows int `json:"rows"`
	*classCounts
	Classes  []string               `json:"classes,omitempty"`
	A        *classifierSummary     `json:"a"`
	B        *classifierSummary     `json:"b"`
	McNemar  stattest.McNemarResult `json:"mcnemar"`
	Wilcoxon wilcoxonReport         `json:"wilcoxon"`
}

// classCounts are the rows of each class of two.
type classCounts struct {
	Positives int `json:"positives"`
	Negatives int `json:"negatives"`
}

// comparePair compares two predictions files of the same rows, of two
// classes or of more: McNemar's test on per-row correctness and
// Wilcoxon's on a per-row quantity of the scores.
func comparePair(ctx context.Context, pathA, pathB string, f *compareFlags, stdout io.Writer) error {
	multi, err := isMultiPair(pathA, pathB)
	if err != nil {
		return err
	}
	if multi {
		for _, name := range []string{"threshold", "positive"} {
			if f.set[name] {
				return usageErrorf("compare: --%s is for binary predictions; %s holds multi-class ones", name, filepath.Base(pathA))
			}
		}
	}
	pa, err := loadCompared(ctx, pathA, f.positive, multi)
	if err != nil {
		return err
	}
	pb, err := loadCompared(ctx, pathB, f.positive, multi)
	if err != nil {
		return err
	}
	if err := sameRows(pa, pb); err != nil {
		return err
	}
	formula := ""
	var s [2]*classifierSummary
	for j, p := range []*comparedFile{pa, pb} {
		if formula, s[j], err = p.summarize(f); err != nil {
			return err
		}
	}
	rep := pairReport{Rows: len(pa.label), A: s[0], B: s[1]}
	if multi {
		rep.Classes = pa.multi.Classes
	} else {
		rep.classCounts = &classCounts{}
		for _, y := range pa.label {
			if y == 1 {
				rep.Positives++
			} else {
				rep.Negatives++
			}
		}
	}
	zm, _ := stattest.ParseZeroMethod(f.zeroMethod)
	mode, _ := stattest.ParseMode(f.mode)
	pr, err := stattest.ComparePaired(rep.A.correct, rep.B.correct, rep.A.q, rep.B.q, &stattest.WilcoxonOptions{ZeroMethod: zm, Mode: mode})
	if errors.Is(err, stattest.ErrNoDifference) {
		return fmt.Errorf("compare: %s and %s give the same %s on every row: the Wilcoxon test has nothing to rank (--zero-method zsplit reports p = 1)",
			pa.name, pb.name, f.quantity)
	}
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	rep.McNemar = pr.McNemar
	rep.Wilcoxon = wilcoxonReport{
		Quantity:       f.quantity,
		Difference:     formula + " of A minus that of B (negative: A better)",
		WilcoxonResult: pr.Wilcoxon,
		MeanDifference: pr.MeanDifference,
		ALower:         pr.ALower, BLower: pr.BLower, Equal: pr.Equal,
	}
	if f.json {
		return writeJSON(stdout, rep)
	}
	return writePairText(stdout, &rep)
}

// comparedFile is one labelled, unweighted predictions file of aer
// compare: of two classes (two) or more (multi).
type comparedFile struct {
	name  string
	label []int
	two   *predfile.Predictions
	multi *predfile.MultiPredictions
}

// loadCompared reads the predictions file path, of more than two
// classes when multi, which must have labels and no weights.
func loadCompared(ctx context.Context, path, positive string, multi bool) (*comparedFile, error) {
	c := &comparedFile{name: filepath.Base(path)}
	var weight []float64
	if multi {
		p, err := readMultiPredictions(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		c.multi, c.label, weight = p, p.Label, p.Weight
	} else {
		p, err := predfile.LoadPredictionsContext(ctx, path, predfile.PredictionsOptions{Positive: positive})
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		c.two, c.label, weight = p, p.Label, p.Weight
	}
	if c.label == nil {
		return nil, fmt.Errorf("compare: %s has no label column; comparing classifiers needs the true labels", c.name)
	}
	if weight != nil {
		return nil, fmt.Errorf("compare: %s has a weight column; McNemar's and Wilcoxon's tests count rows, not weights (aer eval reports weighted metrics)", c.name)
	}
	return c, nil
}

// sameRows checks that a and b name the same classes and hold the same
// rows' labels.
func sameRows(a, b *comparedFile) error {
	labelOf := func(p *comparedFile, y int) string { return strconv.Itoa(y) }
	if a.multi != nil {
		if !slices.Equal(a.multi.Classes, b.multi.Classes) {
			return fmt.Errorf("compare: %s has the classes %q, %s has %q; both must score the same classes in the same order", a.name, a.multi.Classes, b.name, b.multi.Classes)
		}
		labelOf = func(p *comparedFile, y int) string { return strconv.Quote(p.multi.Classes[y]) }
	} else if ca, cb := classesOf(a.two), classesOf(b.two); ca != cb && ca == [2]string{cb[1], cb[0]} {
		return fmt.Errorf("compare: %s takes %q as the positive class, %s takes %q: name it with --positive", a.name, ca[1], b.name, cb[1])
	}
	if len(a.label) != len(b.label) {
		return fmt.Errorf("compare: %s has %d rows but %s has %d; both must hold the same rows in the same order",
			a.name, len(a.label), b.name, len(b.label))
	}
	for i := range a.label {
		if a.label[i] != b.label[i] {
			return fmt.Errorf("compare: labels differ at row %d: %s has %s, %s has %s; both files must hold the same rows in the same order",
				i+1, a.name, labelOf(a, a.label[i]), b.name, labelOf(b, b.label[i]))
		}
	}
	return nil
}

// classesOf returns the class names of p, negative then positive.
func classesOf(p *predfile.Predictions) [2]string {
	if p.Classes == [2]string{} {
		return [2]string{"0", "1"}
	}
	return p.Classes
}

// summarize computes a file's per-row correctness and quantity (f's
// --quantity, whose formula it returns), and its balanced accuracy: of
// two classes with the confusion counts of the pred column or of
// --threshold, of more with the accuracy of the pred column.
func (p *comparedFile) summarize(f *compareFlags) (string, *classifierSummary, error) {
	n := len(p.label)
	s := &classifierSummary{File: p.name, correct: make([]bool, n), q: make([]float64, n)}
	formula, pred, of := p.decisions(s, f)
	sum := 0.0
	for i, y := range p.label {
		s.correct[i] = pred[i] == y
		v, err := of(i, y)
		if err != nil {
			return "", nil, fmt.Errorf("compare: %s: row %d: %w", p.name, i+1, err)
		}
		s.q[i] = v
		sum += v
	}
	s.MeanQuantity = sum / float64(n)
	if p.multi != nil {
		r, err := metrics.EvaluateMulti(p.label, pred, nil, len(p.multi.Classes), nil)
		if err != nil {
			return "", nil, fmt.Errorf("compare: %s: %w", p.name, err)
		}
		s.BalancedAccuracy, s.Accuracy = r.BalancedAccuracy, &r.Accuracy
		return formula, s, nil
	}
	if err := metrics.Validate(p.label, nil, pred, nil); err != nil {
		return "", nil, fmt.Errorf("compare: %s: %w", p.name, err)
	}
	c := metrics.FromPredictions(p.label, pred, nil)
	// Unweighted counts are whole numbers.
	s.TP, s.FP, s.TN, s.FN = int(c.TP), int(c.FP), int(c.TN), int(c.FN)
	s.BalancedAccuracy = c.BalancedAccuracy()
	return formula, s, nil
}

// decisions returns the formula of f's --quantity, each row's predicted
// class and its quantity of row i of label y. A two-class file's
// predictions are the pred column, else (or with --threshold) score >=
// the threshold, as s records; a multi-class file's are its pred column.
func (p *comparedFile) decisions(s *classifierSummary, f *compareFlags) (string, []int, func(i, y int) (float64, error)) {
	if m := p.multi; m != nil {
		q, k := classQuantities[f.quantity], len(m.Classes)
		return q.formula, m.Pred, func(i, y int) (float64, error) { return q.of(m.Proba[i*k:(i+1)*k], y), nil }
	}
	q, _ := metrics.ParseRowLoss(f.quantity)
	score := p.two.Score
	of := func(i, y int) (float64, error) { return q.Of(y, score[i]) }
	s.twoClass = &twoClass{}
	if p.two.Pred != nil && !f.set["threshold"] {
		s.Source = "pred-column"
		return q.Formula, p.two.Pred, of
	}
	threshold := f.threshold
	s.Source, s.Threshold = "threshold", &threshold
	pred := make([]int, len(score))
	for i, v := range score {
		if v >= threshold {
			pred[i] = 1
		}
	}
	return q.Formula, pred, of
}

// classQuantities are the per-row quantities of two multi-class files'
// Wilcoxon test, with p the row's probabilities and y its class.
var classQuantities = map[string]struct {
	formula string
	of      func(p []float64, y int) float64
}{
	"abs-error": {"1 - p(true class)", func(p []float64, y int) float64 { return 1 - p[y] }},
	"squared-error": {"sum over classes of (p_c - [c = true class])^2", func(p []float64, y int) float64 {
		s := 0.0
		for c, v := range p {
			if c == y {
				v--
			}
			s += v * v
		}
		return s
	}},
	"log-loss": {"-log p(true class), p clipped to [1e-15, 1]", func(p []float64, y int) float64 { return -math.Log(max(p[y], 1e-15)) }},
}

// isMultiPair says whether the two files are multi-class predictions;
// one of each is an error.
func isMultiPair(pathA, pathB string) (bool, error) {
	ma, err := multiPredictionsFile(pathA)
	if err != nil {
		return false, fmt.Errorf("compare: %w", err)
	}
	mb, err := multiPredictionsFile(pathB)
	if err != nil {
		return false, fmt.Errorf("compare: %w", err)
	}
	if ma != mb {
		return false, fmt.Errorf("compare: one of %s and %s holds multi-class predictions (score_<class> columns) and the other binary ones", filepath.Base(pathA), filepath.Base(pathB))
	}
	return ma, nil
}

// fmtP formats a p-value: fixed point, or scientific when tiny.
func fmtP(p float64) string {
	if p != 0 && p < 1e-4 {
		return strconv.FormatFloat(p, 'e', 2, 64)
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// writePairText writes a pair report as text: the files' balanced
// accuracies (of two classes with their confusion counts), then the
// McNemar and Wilcoxon tests.
func writePairText(w io.Writer, r *pairReport) error {
	ew := &stickyWriter{w: w}
	ew.printf("A: %s\nB: %s\n", r.A.File, r.B.File)
	if r.classCounts == nil {
		ew.printf("%d rows, %d classes\n\n", r.Rows, len(r.Classes))
		ew.printf("Balanced accuracy (the mean of the per-class recalls)\n")
		ew.printf("  A  %.4f  (accuracy %.4f)\n  B  %.4f  (accuracy %.4f)\n", r.A.BalancedAccuracy, *r.A.Accuracy, r.B.BalancedAccuracy, *r.B.Accuracy)
	} else {
		ew.printf("%d rows (%d positive, %d negative)\n\n", r.Rows, r.Positives, r.Negatives)
		ew.printf("Balanced accuracy\n")
		for _, c := range []struct {
			tag string
			s   *classifierSummary
		}{{"A", r.A}, {"B", r.B}} {
			src := "pred column"
			if c.s.Threshold != nil {
				src = "score >= " + strconv.FormatFloat(*c.s.Threshold, 'g', -1, 64)
			}
			ew.printf("  %s  %.4f  (TP %d, FN %d, TN %d, FP %d; predictions: %s)\n",
				c.tag, c.s.BalancedAccuracy, c.s.TP, c.s.FN, c.s.TN, c.s.FP, src)
		}
	}

	m := r.McNemar
	ew.printf("\nMcNemar's test on per-row correctness\n")
	ew.printf("  both right %d, only A right %d, only B right %d, both wrong %d\n",
		m.Table[0][0], m.B, m.C, m.Table[1][1])
	ew.printf("  chi-square, continuity corrected: chi2 = %.4f, p = %s\n", m.ChiSquare, fmtP(m.ChiSquareP))
	ew.printf("  exact binomial:                   min(b,c) = %.0f, p = %s\n", m.ExactStatistic, fmtP(m.ExactP))
	if m.B+m.C > 0 && m.B+m.C < 25 {
		ew.printf("  (%d discordant rows: read the exact p-value)\n", m.B+m.C)
	}

	wr := r.Wilcoxon
	ew.printf("\nWilcoxon signed-rank test on d = %s\n", wr.Difference)
	ew.printf("  quantity %s: mean A %.4f, mean B %.4f, mean d %+.4f\n", wr.Quantity, r.A.MeanQuantity, r.B.MeanQuantity, wr.MeanDifference)
	ew.printf("  A lower on %d rows, B lower on %d, equal on %d\n", wr.ALower, wr.BLower, wr.Equal)
	dist := "normal approximation"
	if wr.Mode == stattest.Exact {
		dist = "exact distribution"
	}
	ew.printf("  zero method %v, %s, %v: n = %d ranked, %d zero differences\n", wr.ZeroMethod, dist, wr.Alternative, wr.N, wr.Zeros)
	ew.printf("  W = %g (W+ = %g, W- = %g), z = %.4f, p = %s\n", wr.Statistic, wr.WPlus, wr.WMinus, wr.Z, fmtP(wr.P))
	for _, warn := range wr.Warnings {
		ew.printf("  note: %s\n", warn)
	}
	return ew.err
}

// friedmanReport is the --friedman result; Iman-Davenport's F is null when
// infinite (the methods rank identically on every dataset).
type friedmanReport struct {
	File           string             `json:"file"`
	Datasets       []string           `json:"datasets"`
	Methods        []string           `json:"methods"`
	HigherIsBetter bool               `json:"higher_is_better"`
	ChiSquare      float64            `json:"chi_square"`
	DF             float64            `json:"df"`
	P              float64            `json:"p"`
	ImanDavenport  *float64           `json:"iman_davenport_f"`
	IDDF1          float64            `json:"iman_davenport_df1"`
	IDDF2          float64            `json:"iman_davenport_df2"`
	IDP            float64            `json:"iman_davenport_p"`
	MeanRanks      map[string]float64 `json:"mean_ranks"`
	Nemenyi        nemenyiReport      `json:"nemenyi"`
}

type nemenyiReport struct {
	Alpha     float64        `json:"alpha"`
	Q         float64        `json:"q_alpha"`
	Tabulated bool           `json:"q_from_demsar_table"`
	CD        float64        `json:"critical_difference"`
	Pairs     []nemenyiPairJ `json:"pairs"`
}

type nemenyiPairJ struct {
	A           string  `json:"a"`
	B           string  `json:"b"`
	RankDiff    float64 `json:"rank_diff"`
	Significant bool    `json:"significant"`
}

func compareFriedman(ctx context.Context, path string, f *compareFlags, stdout io.Writer) error {
	table, err := predfile.LoadScoresContext(ctx, path)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	datasets, methods := table.Datasets, table.Methods
	fr, err := stattest.Friedman(table.Values, !f.lowerIsBetter)
	if err != nil {
		return fmt.Errorf("compare: %s: %w", filepath.Base(path), err)
	}
	nm, err := stattest.NewNemenyi(fr.MeanRanks, fr.N, f.alpha)
	if err != nil {
		return fmt.Errorf("compare: %s: %w", filepath.Base(path), err)
	}
	rep := friedmanReport{
		File: filepath.Base(path), Datasets: datasets, Methods: methods,
		HigherIsBetter: fr.HigherIsBetter,
		ChiSquare:      fr.ChiSquare, DF: float64(fr.K - 1), P: fr.P,
		IDDF1: fr.DF1, IDDF2: fr.DF2, IDP: fr.ImanDavenportP,
		MeanRanks: map[string]float64{},
		Nemenyi:   nemenyiReport{Alpha: nm.Alpha, Q: nm.Q, Tabulated: nm.Tabulated, CD: nm.CD},
	}
	if !math.IsInf(fr.ImanDavenport, 0) {
		v := fr.ImanDavenport
		rep.ImanDavenport = &v
	}
	for j, m := range methods {
		rep.MeanRanks[m] = fr.MeanRanks[j]
	}
	for _, p := range nm.Pairs {
		rep.Nemenyi.Pairs = append(rep.Nemenyi.Pairs, nemenyiPairJ{A: methods[p.I], B: methods[p.J], RankDiff: p.RankDiff, Significant: p.Significant})
	}
	if f.json {
		return writeJSON(stdout, rep)
	}
	return writeFriedmanText(stdout, &rep, fr)
}

func writeFriedmanText(w io.Writer, r *friedmanReport, fr *stattest.FriedmanResult) error {
	ew := &stickyWriter{w: w}
	better := "higher"
	if !r.HigherIsBetter {
		better = "lower"
	}
	ew.printf("%s: %d methods on %d datasets (%s scores are better)\n\n", r.File, len(r.Methods), len(r.Datasets), better)
	ew.printf("Friedman test:  chi2 = %.4f, df = %g, p = %s\n", r.ChiSquare, r.DF, fmtP(r.P))
	if r.ImanDavenport != nil {
		ew.printf("Iman-Davenport: F = %.4f, df = (%g, %g), p = %s\n", *r.ImanDavenport, r.IDDF1, r.IDDF2, fmtP(r.IDP))
	} else {
		ew.printf("Iman-Davenport: F = +Inf, df = (%g, %g), p = 0 (identical rankings on every dataset)\n", r.IDDF1, r.IDDF2)
	}

	order := make([]int, len(r.Methods))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return fr.MeanRanks[order[a]] < fr.MeanRanks[order[b]] })
	width := 0
	for _, m := range r.Methods {
		width = max(width, len(m))
	}
	ew.printf("\nMean ranks (1 = best)\n")
	for _, j := range order {
		ew.printf("  %-*s  %.4f\n", width, r.Methods[j], fr.MeanRanks[j])
	}

	nm := r.Nemenyi
	src := "Demsar 2006 table"
	if !nm.Tabulated {
		src = "studentized range"
	}
	ew.printf("\nNemenyi post-hoc test, alpha %g: q = %.4f (%s), critical difference CD = %.4f\n", nm.Alpha, nm.Q, src, nm.CD)
	if r.IDP > nm.Alpha {
		ew.printf("  (Iman-Davenport does not reject equal performance at alpha %g: the pairs below are for reference only)\n", nm.Alpha)
	}
	var sig []nemenyiPairJ
	for _, p := range nm.Pairs {
		if p.Significant {
			sig = append(sig, p)
		}
	}
	if len(sig) == 0 {
		ew.printf("  no pair of methods differs by more than CD\n")
	} else {
		ew.printf("  pairs whose mean ranks differ by more than CD:\n")
		for _, p := range sig {
			better, worse := p.A, p.B
			if p.RankDiff > 0 {
				better, worse = worse, better
			}
			ew.printf("    %s better than %s (rank difference %.4f)\n", better, worse, math.Abs(p.RankDiff))
		}
	}
	return ew.err
}
