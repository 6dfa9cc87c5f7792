package softmax

import (
	"math"
	"testing"
)

// TestApply: the probabilities sum to 1, keep the scores' order and
// ratios, and large scores do not overflow.
func TestApply(t *testing.T) {
	z := []float64{1, 2, 3}
	Apply(z)
	e1, e2, e3 := math.Exp(-2), math.Exp(-1), 1.0
	s := e1 + e2 + e3
	want := []float64{e1 / s, e2 / s, e3 / s}
	for j := range z {
		if math.Abs(z[j]-want[j]) > 1e-15 {
			t.Fatalf("Apply = %v, want %v", z, want)
		}
	}
	big := []float64{1000, 1000}
	Apply(big)
	if big[0] != 0.5 || big[1] != 0.5 {
		t.Fatalf("Apply of large equal scores = %v, want [0.5 0.5]", big)
	}
}
