package stattest

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// FriedmanResult is the outcome of Friedman's test of k methods over n
// datasets (blocks).
type FriedmanResult struct {
	N int `json:"n"` // datasets (rows)
	K int `json:"k"` // methods (columns)

	// ChiSquare is Friedman's statistic with the correction for ties within
	// a dataset, as scipy.stats.friedmanchisquare computes it, and P its
	// p-value under chi-square with K-1 degrees of freedom.
	ChiSquare float64 `json:"chi_square"`
	P         float64 `json:"p"`

	// ImanDavenport is F = (N-1) ChiSquare / (N(K-1) - ChiSquare), Iman and
	// Davenport's less conservative form, with ImanDavenportP its p-value
	// under F(DF1, DF2) = F(K-1, (K-1)(N-1)). When the methods rank the
	// same way on every dataset the denominator is zero: F is +Inf and P 0.
	ImanDavenport  float64 `json:"iman_davenport_f"`
	ImanDavenportP float64 `json:"iman_davenport_p"`
	DF1            float64 `json:"df1"`
	DF2            float64 `json:"df2"`

	// MeanRanks[j] is method j's rank averaged over datasets; rank 1 is the
	// best method on a dataset, tied scores share the average rank.
	MeanRanks []float64 `json:"mean_ranks"`

	HigherIsBetter bool `json:"higher_is_better"`
}

// Friedman runs Friedman's test on scores[i][j], the score of method j on
// dataset i. With higherIsBetter the highest score of a row gets rank 1,
// otherwise the lowest does. It needs at least 2 datasets and 2 methods
// (SciPy asks for 3 methods; 2 are valid for the statistic, whose chi-square
// approximation is poor for so few), rows of equal length and no NaN.
func Friedman(scores [][]float64, higherIsBetter bool) (*FriedmanResult, error) {
	n := len(scores)
	if n < 2 {
		return nil, fmt.Errorf("stattest: Friedman: need at least 2 datasets, got %d", n)
	}
	k := len(scores[0])
	if k < 2 {
		return nil, fmt.Errorf("stattest: Friedman: need at least 2 methods, got %d", k)
	}
	sumRanks := make([]float64, k)
	tieTerm := 0.0
	row := make([]float64, k)
	for i, s := range scores {
		if len(s) != k {
			return nil, fmt.Errorf("stattest: Friedman: dataset %d has %d scores, dataset 0 has %d", i, len(s), k)
		}
		for j, v := range s {
			if math.IsNaN(v) {
				return nil, fmt.Errorf("stattest: Friedman: score of method %d on dataset %d is NaN", j, i)
			}
			if higherIsBetter {
				v = -v
			}
			row[j] = v
		}
		r := rankAverage(row)
		for j := range r {
			sumRanks[j] += r[j]
		}
		for _, g := range tieGroups(row) {
			gf := float64(g)
			tieTerm += gf*gf*gf - gf
		}
	}
	nf, kf := float64(n), float64(k)
	res := &FriedmanResult{N: n, K: k, MeanRanks: make([]float64, k), HigherIsBetter: higherIsBetter}
	ssr := 0.0
	for j, s := range sumRanks {
		res.MeanRanks[j] = s / nf
		ssr += s * s
	}
	c := 1 - tieTerm/(nf*kf*(kf*kf-1))
	if c <= 0 {
		return nil, errors.New("stattest: Friedman: every dataset ties all methods; the test is undefined")
	}
	chi := (12/(nf*kf*(kf+1))*ssr - 3*nf*(kf+1)) / c
	res.ChiSquare = chi
	res.P = distuv.ChiSquared{K: kf - 1}.Survival(chi)

	res.DF1 = kf - 1
	res.DF2 = (kf - 1) * (nf - 1)
	den := nf*(kf-1) - chi
	if den <= 0 {
		res.ImanDavenport, res.ImanDavenportP = math.Inf(1), 0
	} else {
		f := (nf - 1) * chi / den
		res.ImanDavenport = f
		res.ImanDavenportP = fSurvival(f, res.DF1, res.DF2)
	}
	return res, nil
}

// fSurvival is P(X > f) for X ~ F(d1, d2), through the regularised
// incomplete beta function directly: distuv.F computes 1 - CDF, which
// loses small p-values.
func fSurvival(f, d1, d2 float64) float64 {
	if f <= 0 {
		return 1
	}
	return mathext.RegIncBeta(d2/2, d1/2, d2/(d2+d1*f))
}
