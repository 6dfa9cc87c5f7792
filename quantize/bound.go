package quantize

import (
	"math"
	"slices"
)

// slack covers the floating-point rounding of summing a model's leaves
// in a different order of magnitudes, far below any leaf rounding.
const slack = 1e-12

// MarginBound returns the bound on a sum of leaves (a boosted model's
// margin) whose trees' leaves each changed by at most errs[t]: their sum,
// with a slack for the arithmetic.
func MarginBound(errs []float64) float64 {
	var b float64
	for _, e := range errs {
		b += e
	}
	return b + slack
}

// SigmoidBound is the largest change of sigmoid(m) when m changes by at
// most b: sigmoid(b/2) - sigmoid(-b/2) = tanh(b/4), with a slack for
// the arithmetic.
func SigmoidBound(b float64) float64 { return math.Min(1, math.Tanh(b/4)+slack) }

// SoftmaxBound is the largest change of a softmax probability when every
// margin changes by at most b: the softmax's partial derivatives of one
// output sum in magnitude to 2p(1-p) <= 1/2, so b/2 (at most 1), with a
// slack for the arithmetic.
func SoftmaxBound(b float64) float64 { return math.Min(1, b/2+slack) }

// MonotoneBound returns a bound on |f(p') - f(p)| over p, p' in [0, 1]
// with |p' - p| <= b, for f monotone on [0, 1] (a calibration): over a
// grid 0 = g_0 < ... < g_n = 1 it is the largest
// |f(min(1, g_{i+1} + b)) - f(g_i)|, which holds for every p in
// [g_i, g_{i+1}] since f is monotone. The grid is dense in log-odds near
// 0 and 1 (where a calibration of log-odds is steep) and steps by b/4
// (at least 1e-6) between, so the bound is close to the largest change.
func MonotoneBound(f func(float64) float64, b float64) float64 {
	if b <= 0 {
		return 0
	}
	grid := []float64{0, 1}
	for t := -40.0; t <= 40; t += 0.01 {
		grid = append(grid, 1/(1+math.Exp(-t)))
	}
	h := math.Max(b/4, 1e-6)
	for p := h; p < 1; p += h {
		grid = append(grid, p)
	}
	slices.Sort(grid)
	best := 0.0
	for i := 0; i+1 < len(grid); i++ {
		d := math.Abs(f(math.Min(1, grid[i+1]+b)) - f(grid[i]))
		if d > best || math.IsNaN(d) {
			best = d
		}
	}
	if math.IsNaN(best) {
		return 1
	}
	return math.Min(1, best+slack)
}
