package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/aer-go/aer/internal/ctxio"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/stattest"
)

// multiSummary is one multi-class predictions file in aer compare: its
// balanced accuracy and per-row correctness and quantity.
type multiSummary struct {
	File             string  `json:"file"`
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	Accuracy         float64 `json:"accuracy"`
	MeanQuantity     float64 `json:"mean_quantity"`
	correct          []bool
	q                []float64
}

// multiPairReport is aer compare's document for two multi-class
// predictions files.
type multiPairReport struct {
	Rows     int                    `json:"rows"`
	Classes  []string               `json:"classes"`
	A        *multiSummary          `json:"a"`
	B        *multiSummary          `json:"b"`
	McNemar  stattest.McNemarResult `json:"mcnemar"`
	Wilcoxon wilcoxonReport         `json:"wilcoxon"`
}

// multiQuantities are the per-row quantities of two multi-class files'
// Wilcoxon test, with p the row's probabilities and y its class.
var multiQuantities = map[string]struct {
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

// compareMultiPair compares two multi-class predictions files of the
// same rows: McNemar's test on per-row correctness (pred = label) and
// Wilcoxon's on a per-row quantity of the true class's probability.
func compareMultiPair(ctx context.Context, pathA, pathB string, f *compareFlags, stdout io.Writer) error {
	for _, name := range []string{"threshold", "positive"} {
		if f.set[name] {
			return usageErrorf("compare: --%s is for binary predictions; %s holds multi-class ones", name, filepath.Base(pathA))
		}
	}
	pa, err := loadMultiPredictions(ctx, pathA)
	if err != nil {
		return err
	}
	pb, err := loadMultiPredictions(ctx, pathB)
	if err != nil {
		return err
	}
	nameA, nameB := filepath.Base(pathA), filepath.Base(pathB)
	if !slices.Equal(pa.Classes, pb.Classes) {
		return fmt.Errorf("compare: %s has the classes %q, %s has %q; both must score the same classes in the same order", nameA, pa.Classes, nameB, pb.Classes)
	}
	if len(pa.Label) != len(pb.Label) {
		return fmt.Errorf("compare: %s has %d rows but %s has %d; both must hold the same rows in the same order", nameA, len(pa.Label), nameB, len(pb.Label))
	}
	for i := range pa.Label {
		if pa.Label[i] != pb.Label[i] {
			return fmt.Errorf("compare: labels differ at row %d: %s has %q, %s has %q; both files must hold the same rows in the same order",
				i+1, nameA, pa.Classes[pa.Label[i]], nameB, pb.Classes[pb.Label[i]])
		}
	}
	q := multiQuantities[f.quantity]
	sa, err := summarizeMulti(nameA, pa, q.of)
	if err != nil {
		return err
	}
	sb, err := summarizeMulti(nameB, pb, q.of)
	if err != nil {
		return err
	}
	zm, _ := stattest.ParseZeroMethod(f.zeroMethod)
	mode, _ := stattest.ParseMode(f.mode)
	pr, err := stattest.ComparePaired(sa.correct, sb.correct, sa.q, sb.q, &stattest.WilcoxonOptions{ZeroMethod: zm, Mode: mode})
	if errors.Is(err, stattest.ErrNoDifference) {
		return fmt.Errorf("compare: %s and %s give the same %s on every row: the Wilcoxon test has nothing to rank (--zero-method zsplit reports p = 1)", nameA, nameB, f.quantity)
	}
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	rep := multiPairReport{Rows: len(pa.Label), Classes: pa.Classes, A: sa, B: sb, McNemar: pr.McNemar,
		Wilcoxon: wilcoxonReport{Quantity: f.quantity, Difference: q.formula + " of A minus that of B (negative: A better)",
			WilcoxonResult: pr.Wilcoxon, MeanDifference: pr.MeanDifference, ALower: pr.ALower, BLower: pr.BLower, Equal: pr.Equal}}
	if f.json {
		return writeJSON(stdout, rep)
	}
	ew := &errWriter{w: stdout}
	ew.printf("A: %s\nB: %s\n", sa.File, sb.File)
	ew.printf("%d rows, %d classes\n\n", rep.Rows, len(rep.Classes))
	ew.printf("Balanced accuracy (the mean of the per-class recalls)\n")
	ew.printf("  A  %.4f  (accuracy %.4f)\n  B  %.4f  (accuracy %.4f)\n", sa.BalancedAccuracy, sa.Accuracy, sb.BalancedAccuracy, sb.Accuracy)
	if ew.err != nil {
		return ew.err
	}
	pair := pairReport{A: &classifierSummary{MeanQuantity: sa.MeanQuantity}, B: &classifierSummary{MeanQuantity: sb.MeanQuantity},
		McNemar: rep.McNemar, Wilcoxon: rep.Wilcoxon}
	return writeTests(stdout, &pair)
}

// loadMultiPredictions reads a labelled, unweighted multi-class
// predictions file.
func loadMultiPredictions(ctx context.Context, path string) (*predfile.MultiPredictions, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	defer f.Close()
	p, err := predfile.ReadMultiPredictions(ctxio.NewFile(ctx, f), path)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	if p.Label == nil {
		return nil, fmt.Errorf("compare: %s has no label column; comparing classifiers needs the true labels", filepath.Base(path))
	}
	if p.Weight != nil {
		return nil, fmt.Errorf("compare: %s has a weight column; McNemar's and Wilcoxon's tests count rows, not weights (aer eval reports weighted metrics)", filepath.Base(path))
	}
	return p, nil
}

// summarizeMulti computes a multi-class file's per-row correctness and
// quantity, and its balanced accuracy.
func summarizeMulti(name string, p *predfile.MultiPredictions, q func([]float64, int) float64) (*multiSummary, error) {
	k := len(p.Classes)
	s := &multiSummary{File: name, correct: make([]bool, len(p.Label)), q: make([]float64, len(p.Label))}
	sum := 0.0
	for i, y := range p.Label {
		s.correct[i] = p.Pred[i] == y
		s.q[i] = q(p.Proba[i*k:(i+1)*k], y)
		sum += s.q[i]
	}
	s.MeanQuantity = sum / float64(len(p.Label))
	r, err := metrics.EvaluateMulti(p.Label, p.Pred, nil, k, nil)
	if err != nil {
		return nil, fmt.Errorf("compare: %s: %w", name, err)
	}
	s.BalancedAccuracy, s.Accuracy = r.BalancedAccuracy, r.Accuracy
	return s, nil
}
