package ensemble

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// mustScored packs a score the test knows is in range.
func mustScored(t testing.TB, s float64, y int) scored {
	p, ok := newScored(s, y)
	if !ok {
		t.Fatalf("score %v out of range", s)
	}
	return p
}

// TestNewScored: a packed pair gives back its score bit for bit and its
// label; scores outside [+0, 2) (negative zero, NaN, negatives, 2 and
// above) are refused.
func TestNewScored(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, math.SmallestNonzeroFloat64, 1e-300, 0.5, 1, math.Nextafter(2, 0)}
	for range 1000 {
		vals = append(vals, r.Float64()*math.Pow(2, -float64(r.IntN(60))))
	}
	for _, v := range vals {
		for y := range 2 {
			p := mustScored(t, v, y)
			if math.Float64bits(p.s()) != math.Float64bits(v) || p.y() != y || p.key() != sortKey(v) {
				t.Fatalf("%v, %d: got %v, %d, key %x (want %x)", v, y, p.s(), p.y(), p.key(), sortKey(v))
			}
		}
	}
	for _, v := range []float64{math.Copysign(0, -1), -1e-300, -1, 2, 3, math.Inf(1), math.Inf(-1), math.NaN()} {
		if _, ok := newScored(v, 1); ok {
			t.Errorf("score %v accepted", v)
		}
	}
}

// TestSortScored: the radix sort orders like a stable comparison sort on
// the scores, for short and long inputs, many ties, and scores spread over
// many binades.
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
					s = []float64{0, 0.25, 1, 0.5, math.Nextafter(1, 0)}[r.IntN(5)]
				case "wide":
					s = r.Float64() * math.Pow(10, -float64(r.IntN(300)))
				}
				pairs[i] = mustScored(t, s, r.IntN(2))
			}
			want := slices.Clone(pairs)
			slices.SortStableFunc(want, func(a, b scored) int { return cmp.Compare(a.s(), b.s()) })
			got := slices.Clone(pairs)
			sortScored(got, make([]scored, n))
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("n %d %s: position %d holds %v (%d), want %v (%d)", n, kind, i, got[i].s(), got[i].y(), want[i].s(), want[i].y())
				}
			}
			if !slices.IsSortedFunc(got, byScore) {
				t.Fatalf("n %d %s: not ascending", n, kind)
			}
		}
	}
}
