package resample

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRankDesc: the radix ranking orders like the comparison sort it
// replaced (higher score first, equal scores by smaller row number, -0
// equal to 0), for sorted and shuffled majority rows, with many ties.
func TestRankDesc(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 5, 300, 5000} {
		for _, shuffled := range []bool{false, true} {
			scores := mat.NewDense(n, 2, nil)
			for i := range n {
				scores.Set(i, 0, r.NormFloat64()*100)
				scores.Set(i, 1, []float64{-3, 0, math.Copysign(0, -1), 2.5, -1e300, 1e-300}[r.IntN(6)])
			}
			majority := make([]int, n)
			for i := range majority {
				majority[i] = 3 * i
			}
			if shuffled {
				r.Shuffle(n, func(a, b int) { majority[a], majority[b] = majority[b], majority[a] })
			}
			for l := range 2 {
				want := make([]int, n)
				for i := range want {
					want[i] = i
				}
				slices.SortFunc(want, func(a, b int) int {
					if c := cmp.Compare(scores.At(b, l), scores.At(a, l)); c != 0 {
						return c
					}
					return cmp.Compare(majority[a], majority[b])
				})
				if got := rankDesc(scores, l, majority); !slices.Equal(got, want) {
					t.Fatalf("n %d, shuffled %v, column %d: ranks differ", n, shuffled, l)
				}
			}
		}
	}
}
