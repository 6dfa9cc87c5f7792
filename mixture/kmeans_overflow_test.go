package mixture

import (
	"math/rand/v2"
	"testing"
)

// Two cells near ±1e308 make every squared distance +Inf: k-means++ took
// candidate -1 and panicked (aer mixture, aer fit --method aer).
func TestKmeansPPOverflow(t *testing.T) {
	x := []float64{1e308, 1, -1e308, 2, 1, 1, 2, 2, 3, 1, 1, 3}
	seeds := kmeansPP(x, 2, 6, 2, 3, rand.New(rand.NewPCG(1, 2)))
	if len(seeds) != 3 {
		t.Fatalf("%d seeds, want 3", len(seeds))
	}
	for _, s := range seeds {
		if s < 0 || s >= 6 {
			t.Errorf("seed row %d out of range", s)
		}
	}
}
