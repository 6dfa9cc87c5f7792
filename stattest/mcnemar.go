package stattest

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// McNemarTable is the 2x2 table of paired correctness of two classifiers A
// and B on the same rows: [0][0] both right, [0][1] A right and B wrong,
// [1][0] A wrong and B right, [1][1] both wrong. Only the discordant cells
// [0][1] and [1][0] enter the test.
type McNemarTable [2][2]int

// McNemarResult holds both forms of McNemar's test for one table.
type McNemarResult struct {
	Table McNemarTable `json:"table"`

	// B counts rows A got right and B got wrong, C the reverse.
	B int `json:"b"`
	C int `json:"c"`

	// ChiSquare is (|B-C|-1)^2/(B+C), the statistic with Edwards' continuity
	// correction, and ChiSquareP its p-value under chi-square with one degree
	// of freedom. As in statsmodels the correction is not clipped at zero, so
	// B == C gives 1/(B+C). When B+C == 0 (no discordant pairs, where
	// statsmodels divides by zero) the statistic is 0 and the p-value 1:
	// the data hold no evidence of a difference.
	ChiSquare  float64 `json:"chi_square"`
	ChiSquareP float64 `json:"chi_square_p"`

	// ExactStatistic is min(B, C) and ExactP the two-sided exact binomial
	// p-value min(1, 2*P(X <= min(B,C))) for X ~ Binomial(B+C, 1/2). The
	// exact form is the one to read when B+C is small (below about 25).
	ExactStatistic float64 `json:"exact_statistic"`
	ExactP         float64 `json:"exact_p"`
}

// McNemar runs McNemar's test on a table of paired correctness counts.
// Negative counts are an error.
func McNemar(t McNemarTable) (McNemarResult, error) {
	for i := range t {
		for j := range t[i] {
			if t[i][j] < 0 {
				return McNemarResult{}, fmt.Errorf("stattest: McNemar table cell [%d][%d] is negative (%d)", i, j, t[i][j])
			}
		}
	}
	b, c := t[0][1], t[1][0]
	res := McNemarResult{Table: t, B: b, C: c}
	n := float64(b + c)
	if b+c == 0 {
		res.ChiSquare, res.ChiSquareP = 0, 1
	} else {
		d := math.Abs(float64(b-c)) - 1
		res.ChiSquare = d * d / n
		res.ChiSquareP = distuv.ChiSquared{K: 1}.Survival(res.ChiSquare)
	}
	m := min(b, c)
	res.ExactStatistic = float64(m)
	if b+c == 0 {
		res.ExactP = 1
	} else {
		res.ExactP = min(1, 2*distuv.Binomial{N: n, P: 0.5}.CDF(float64(m)))
	}
	return res, nil
}

// NewMcNemarTable counts the paired correctness of classifiers A and B:
// correctA[i] and correctB[i] say whether each got row i right.
func NewMcNemarTable(correctA, correctB []bool) (McNemarTable, error) {
	var t McNemarTable
	if len(correctA) != len(correctB) {
		return t, fmt.Errorf("stattest: McNemar: %d rows for A but %d for B", len(correctA), len(correctB))
	}
	if len(correctA) == 0 {
		return t, errors.New("stattest: McNemar: no rows")
	}
	for i := range correctA {
		a, b := 0, 0
		if !correctA[i] {
			a = 1
		}
		if !correctB[i] {
			b = 1
		}
		t[a][b]++
	}
	return t, nil
}
