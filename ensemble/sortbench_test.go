package ensemble

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSortScored2M sorts 2M validation scores in [0, 1] (a 6M-row
// fit's validation rows) with about 1% positives.
func BenchmarkSortScored2M(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 2_000_000
	src := make([]scored, n)
	for i := range src {
		y := 0
		if r.IntN(100) == 0 {
			y = 1
		}
		src[i], _ = newScored(r.Float64()*r.Float64(), y)
	}
	pairs, tmp := make([]scored, n), make([]scored, n)
	for b.Loop() {
		copy(pairs, src)
		sortScored(pairs, tmp)
	}
}
