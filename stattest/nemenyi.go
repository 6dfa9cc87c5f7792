package stattest

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// demsarQ holds the critical values q_alpha of the two-tailed Nemenyi test
// from Demsar (2006), Table 5(a): the studentized range statistic for
// infinite degrees of freedom divided by sqrt(2), for k = 2..10 methods.
var demsarQ = map[float64][9]float64{
	0.05: {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164},
	0.10: {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920},
}

// NemenyiQ returns the critical value q_alpha of the Nemenyi test for k
// methods. For alpha 0.05 and 0.10 and k <= 10 it is Demsar's published
// (three-decimal) value, so results match the literature; otherwise it is
// computed from the studentized range distribution (see StudentizedRangeQuantile).
func NemenyiQ(k int, alpha float64) (float64, error) {
	if k < 2 {
		return 0, fmt.Errorf("stattest: Nemenyi: need at least 2 methods, got %d", k)
	}
	if !(alpha > 0 && alpha < 1) {
		return 0, fmt.Errorf("stattest: Nemenyi: alpha %v is not in (0, 1)", alpha)
	}
	if tab, ok := demsarQ[alpha]; ok && k <= 10 {
		return tab[k-2], nil
	}
	return StudentizedRangeQuantile(1-alpha, k) / math.Sqrt2, nil
}

// NemenyiCD returns the critical difference q_alpha * sqrt(k(k+1)/(6n)) for
// k methods over n datasets: two methods differ significantly when their
// mean ranks differ by more.
func NemenyiCD(k, n int, alpha float64) (float64, error) {
	if n < 1 {
		return 0, fmt.Errorf("stattest: Nemenyi: need at least 1 dataset, got %d", n)
	}
	q, err := NemenyiQ(k, alpha)
	if err != nil {
		return 0, err
	}
	kf := float64(k)
	return q * math.Sqrt(kf*(kf+1)/(6*float64(n))), nil
}

// NemenyiPair compares methods I < J by mean rank.
type NemenyiPair struct {
	I           int     `json:"i"`
	J           int     `json:"j"`
	RankDiff    float64 `json:"rank_diff"`   // MeanRanks[I] - MeanRanks[J]; negative: I ranks better
	Significant bool    `json:"significant"` // |RankDiff| > CD
}

// Nemenyi is the post-hoc comparison of all pairs of methods after a
// Friedman test.
type Nemenyi struct {
	Alpha float64 `json:"alpha"`
	Q     float64 `json:"q_alpha"`
	// Tabulated says Q is Demsar's published value rather than computed.
	Tabulated bool          `json:"q_tabulated"`
	CD        float64       `json:"critical_difference"`
	Pairs     []NemenyiPair `json:"pairs"` // all k(k-1)/2 pairs, I < J, in lexical order
}

// NewNemenyi compares every pair of methods given their mean ranks over n
// datasets (FriedmanResult.MeanRanks and N).
func NewNemenyi(meanRanks []float64, n int, alpha float64) (*Nemenyi, error) {
	k := len(meanRanks)
	cd, err := NemenyiCD(k, n, alpha)
	if err != nil {
		return nil, err
	}
	q, _ := NemenyiQ(k, alpha)
	_, tab := demsarQ[alpha]
	res := &Nemenyi{Alpha: alpha, Q: q, Tabulated: tab && k <= 10, CD: cd}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			d := meanRanks[i] - meanRanks[j]
			res.Pairs = append(res.Pairs, NemenyiPair{I: i, J: j, RankDiff: d, Significant: math.Abs(d) > cd})
		}
	}
	return res, nil
}

// StudentizedRangeCDF returns P(R <= q) where R is the range of k
// independent standard normal variables, i.e. the studentized range
// distribution with infinite degrees of freedom:
//
//	P(R <= q) = k * integral phi(z) (Phi(z) - Phi(z-q))^(k-1) dz.
//
// The integrand is smooth and negligible beyond |z| = 9 + q, so composite
// Simpson's rule on a fine grid is accurate to about 1e-12.
func StudentizedRangeCDF(q float64, k int) float64 {
	if q <= 0 || k < 2 {
		return 0
	}
	if math.IsInf(q, 1) {
		return 1
	}
	norm := distuv.UnitNormal
	f := func(z float64) float64 {
		d := norm.CDF(z) - norm.CDF(z-q)
		if d <= 0 {
			return 0
		}
		return norm.Prob(z) * math.Pow(d, float64(k-1))
	}
	lo, hi := -9.0, 9.0+q
	const m = 4000 // even
	h := (hi - lo) / m
	s := f(lo) + f(hi)
	for i := 1; i < m; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(lo+float64(i)*h)
	}
	return min(1, float64(k)*s*h/3)
}

// StudentizedRangeQuantile returns q with StudentizedRangeCDF(q, k) = p,
// by bisection (the CDF is increasing in q).
func StudentizedRangeQuantile(p float64, k int) float64 {
	if !(p > 0 && p < 1) || k < 2 {
		return math.NaN()
	}
	lo, hi := 0.0, 1.0
	for StudentizedRangeCDF(hi, k) < p {
		lo, hi = hi, 2*hi
	}
	for range 100 {
		mid := (lo + hi) / 2
		if StudentizedRangeCDF(mid, k) < p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-12*hi {
			break
		}
	}
	return (lo + hi) / 2
}
