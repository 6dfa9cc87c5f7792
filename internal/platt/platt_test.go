package platt

import (
	"math"
	"testing"
)

// A row of weight 2 is the row twice; separable scores keep A finite.
func TestFit(t *testing.T) {
	f := []float64{-2, -1, -0.5, 0.3, 1, 2.5}
	y := []int{0, 0, 1, 0, 1, 1}
	w := []float64{1, 2, 1, 1, 1, 2}
	a, b := Fit(f, y, w, 4, 4)
	fd := []float64{-2, -1, -1, -0.5, 0.3, 1, 2.5, 2.5}
	yd := []int{0, 0, 0, 1, 0, 1, 1, 1}
	ad, bd := Fit(fd, yd, nil, 4, 4)
	if math.Abs(a-ad) > 1e-9 || math.Abs(b-bd) > 1e-9 {
		t.Errorf("weighted (%v, %v) != duplicated (%v, %v)", a, b, ad, bd)
	}
	if !(a < 0) {
		t.Errorf("A = %v: higher scores must mean higher probability (A < 0)", a)
	}
	a, b = Fit([]float64{-1, -0.5, 0.5, 1}, []int{0, 0, 1, 1}, nil, 2, 2)
	if math.IsInf(a, 0) || math.IsNaN(a) || math.IsNaN(b) || !(a < 0) {
		t.Errorf("separable scores: A %v, B %v", a, b)
	}
	// The smoothed targets keep P(1 | f) strictly inside (0, 1).
	if p := 1 / (1 + math.Exp(a*1+b)); !(p > 0.5 && p < 1) {
		t.Errorf("P(1 | 1) = %v", p)
	}
}
