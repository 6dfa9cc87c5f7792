package ensemble

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortScored: the radix sort orders like a stable comparison sort on
// the scores (negative zero below positive zero), for short and long
// inputs, many ties, negative and huge scores.
func TestSortScored(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 255, 256, 1000, 5000} {
		for _, kind := range []string{"uniform", "ties", "wide"} {
			pairs := make([]scored, n)
			for i := range pairs {
				var s float64
				switch kind {
				case "uniform":
					s = r.Float64()
				case "ties":
					s = []float64{0, math.Copysign(0, -1), 0.25, 1, 0.5}[r.IntN(5)]
				case "wide":
					s = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
				}
				pairs[i] = scored{s, r.IntN(2)}
			}
			want := slices.Clone(pairs)
			slices.SortStableFunc(want, func(a, b scored) int { return cmp.Compare(sortKey(a.s), sortKey(b.s)) })
			got := slices.Clone(pairs)
			sortScored(got, make([]scored, n))
			for i := range got {
				if math.Float64bits(got[i].s) != math.Float64bits(want[i].s) || got[i].y != want[i].y {
					t.Fatalf("n %d %s: position %d holds %v, want %v", n, kind, i, got[i], want[i])
				}
			}
			if !slices.IsSortedFunc(got, byScore) {
				t.Fatalf("n %d %s: not ascending", n, kind)
			}
		}
	}
}
