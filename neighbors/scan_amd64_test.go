//go:build amd64 && !purego

package neighbors

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestScan8x4AVX: the kernel's scores equal norm - 2 q·r within the
// rounding bound, it stops at the first group of 4 rows with a score at
// most its query's threshold and reports exactly those scores in its
// mask, and it scans everything when none is.
func TestScan8x4AVX(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX2/FMA on this machine")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 3, 20, 33} {
		n := 64
		data := make([]float64, n*d)
		norms := make([]float64, n)
		for i := range data {
			data[i] = r.NormFloat64()
		}
		for j := range n {
			for _, v := range data[j*d : (j+1)*d] {
				norms[j] += v * v
			}
		}
		q := make([]float64, 8*d)
		qT := make([]float64, 8*d)
		for i := range 8 {
			for k := range d {
				q[i*d+k] = r.NormFloat64()
				qT[k*8+i] = q[i*d+k]
			}
		}
		score := func(j, i int) float64 { return norms[j] - 2*dot(q[i*d:(i+1)*d], data[j*d:(j+1)*d]) }
		var out [32]float64
		// Thresholds below every score: nothing found, all rows scanned.
		var thr [8]float64
		for i := range thr {
			thr[i] = math.Inf(-1)
		}
		if next, mask := scan8x4AVX(&qT[0], &data[0], &norms[0], n, d, &thr[0], &out[0]); next != n || mask != 0 {
			t.Fatalf("d %d: no threshold met, yet stopped after %d rows with mask %x", d, next, mask)
		}
		// Query 5's threshold is met first by row 37: the kernel stops
		// after rows 36-39 and reports exactly the scores under thr.
		for i := range thr {
			thr[i] = math.Inf(-1)
		}
		thr[5] = score(37, 5) + 1e-9
		for j := range 36 {
			if score(j, 5) <= thr[5] {
				thr[5] = score(j, 5) - 1e-9 // keep rows before 36 out
			}
		}
		thr[5] = max(thr[5], score(37, 5)+1e-9)
		next, mask := scan8x4AVX(&qT[0], &data[0], &norms[0], n, d, &thr[0], &out[0])
		first := -1
		for j := 0; j < n && first < 0; j++ {
			if score(j, 5) <= thr[5] {
				first = j
			}
		}
		if want := first/4*4 + 4; next != want {
			t.Fatalf("d %d: stopped after %d rows, want %d", d, next, want)
		}
		for b := range 32 {
			j, i := first/4*4+b/8, b%8
			want := score(j, i)
			bound := 2 * float64(d+2) * 0x1p-52 * 8 * (norms[j] + dot(q[i*d:(i+1)*d], q[i*d:(i+1)*d]))
			if math.Abs(out[b]-want) > bound {
				t.Errorf("d %d: row %d query %d: score %v, want %v", d, j, i, out[b], want)
			}
			if got, in := mask>>b&1 == 1, out[b] <= thr[i]; got != in {
				t.Errorf("d %d: row %d query %d: mask bit %v, score %v against threshold %v", d, j, i, got, out[b], thr[i])
			}
		}
	}
}
