package ensemble

import (
	"math"
	"slices"
)

// ProjectSimplex writes to dst the Euclidean projection of v onto the
// probability simplex {w : w_i >= 0, sum w_i = 1}, the point of the simplex
// nearest to v, and returns dst. dst may be nil (a new slice is allocated)
// or v itself. It uses the sort-based algorithm of Duchi et al. (2008) /
// Condat (2016): with u the entries of v sorted in decreasing order,
// rho = max{j : u_j - (sum_{i<=j} u_i - 1)/j > 0} and
// theta = (sum_{i<=rho} u_i - 1)/rho, the projection is max(v - theta, 0).
// It panics if len(v) == 0 or v holds NaN or an infinity.
func ProjectSimplex(dst, v []float64) []float64 {
	n := len(v)
	if n == 0 {
		panic("ensemble: ProjectSimplex of an empty vector")
	}
	u := make([]float64, n)
	copy(u, v)
	for _, x := range u {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			panic("ensemble: ProjectSimplex of a non-finite vector")
		}
	}
	slices.Sort(u)
	slices.Reverse(u)
	// rho >= 1 always; starting from its j = 1 value keeps theta right when
	// rounding hides the first term's margin (huge entries).
	var cum float64
	theta := u[0] - 1
	for j, uj := range u {
		cum += uj
		t := (cum - 1) / float64(j+1)
		if uj-t > 0 {
			theta = t
		}
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	var sum float64
	for i, x := range v {
		d := x - theta
		if d < 0 {
			d = 0
		}
		dst[i] = d
		sum += d
	}
	if !(sum > 0) {
		// Only when rounding absorbed every margin (entries beyond ~1e16):
		// the limit puts all mass on the largest entry.
		dst[slices.Index(v, u[0])] = 1
		return dst
	}
	// Rounding can leave the sum a few ulps from 1; one rescale fixes it.
	if sum != 1 {
		for i := range dst {
			dst[i] /= sum
		}
	}
	return dst
}

// ProjectMinMax writes to dst the paper-literal map of Eq. 14 back to the
// simplex, S(x) = (x - min x)/(max x - min x) followed by division by the
// sum, and returns dst. It is kept to reproduce the paper; it is not a
// projection: the smallest entry always becomes 0 (one weight is zeroed at
// every step), a point already on the simplex is moved, and S is invariant
// to adding a constant to v and to scaling it, so the length of the
// gradient step hardly matters. When all entries are equal it returns
// uniform weights. dst may be nil or v itself. It panics if len(v) == 0 or
// v holds NaN or an infinity.
func ProjectMinMax(dst, v []float64) []float64 {
	n := len(v)
	if n == 0 {
		panic("ensemble: ProjectMinMax of an empty vector")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			panic("ensemble: ProjectMinMax of a non-finite vector")
		}
		lo = math.Min(lo, x)
		hi = math.Max(hi, x)
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if !(hi > lo) {
		for i := range dst {
			dst[i] = 1 / float64(n)
		}
		return dst
	}
	var sum float64
	for i, x := range v {
		dst[i] = (x - lo) / (hi - lo)
		sum += dst[i]
	}
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}
