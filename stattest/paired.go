package stattest

import (
	"errors"
	"fmt"
)

// ErrNoDifference is returned (wrapped) by ComparePaired when the two
// quantities are equal on every row and the zero method drops zero
// differences: the Wilcoxon test then has nothing to rank.
var ErrNoDifference = errors.New("the quantities are equal on every row")

// Paired is the comparison of two classifiers A and B on the same rows:
// McNemar's test on their per-row correctness and the Wilcoxon signed-rank
// test on the per-row difference d = qA - qB of a quantity (a loss, so a
// negative d means A did better). aer compare and aer bench both report it,
// so their statistics are equal on the same predictions.
type Paired struct {
	McNemar  McNemarResult  `json:"mcnemar"`
	Wilcoxon WilcoxonResult `json:"wilcoxon"`
	// MeanDifference is the mean of d; ALower, BLower and Equal count the
	// rows with d < 0, d > 0 and d = 0.
	MeanDifference float64 `json:"mean_difference"`
	ALower         int     `json:"rows_a_lower"`
	BLower         int     `json:"rows_b_lower"`
	Equal          int     `json:"rows_equal"`
}

// ComparePaired runs both tests: correctA[i] and correctB[i] say whether A
// and B got row i right, qA[i] and qB[i] are their quantities on it. All
// four slices must have the same length. With the Wilcox or Pratt zero
// method, quantities equal on every row are an error wrapping
// ErrNoDifference (ZSplit reports p = 1).
func ComparePaired(correctA, correctB []bool, qA, qB []float64, opt *WilcoxonOptions) (*Paired, error) {
	n := len(correctA)
	if len(correctB) != n || len(qA) != n || len(qB) != n {
		return nil, fmt.Errorf("stattest: paired comparison of %d, %d, %d and %d rows: lengths differ", n, len(correctB), len(qA), len(qB))
	}
	if n == 0 {
		return nil, errors.New("stattest: paired comparison of no rows")
	}
	var p Paired
	tab, err := NewMcNemarTable(correctA, correctB)
	if err != nil {
		return nil, err
	}
	if p.McNemar, err = McNemar(tab); err != nil {
		return nil, err
	}
	sum := 0.0
	for i := range qA {
		d := qA[i] - qB[i]
		sum += d
		switch {
		case d < 0:
			p.ALower++
		case d > 0:
			p.BLower++
		default:
			p.Equal++
		}
	}
	p.MeanDifference = sum / float64(n)
	zm := Wilcox
	if opt != nil {
		zm = opt.ZeroMethod
	}
	if p.Equal == n && zm != ZSplit {
		return nil, fmt.Errorf("stattest: %w", ErrNoDifference)
	}
	if p.Wilcoxon, err = Wilcoxon(qA, qB, opt); err != nil {
		return nil, err
	}
	return &p, nil
}
