package mixture

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernels checks the dispatching kernels (assembly where available)
// against the Go loops for every length up to 70.
func TestKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return v
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(a)+math.Abs(b)) }
	for n := 0; n <= 70; n++ {
		w, z0, z1, z2, z3 := vec(n), vec(n), vec(n), vec(n), vec(n)
		g := [4]float64{}
		g[0], g[1], g[2], g[3] = dot4Go(w, z0, z1, z2, z3)
		s := [4]float64{}
		s[0], s[1], s[2], s[3] = dot4(w, z0, z1, z2, z3)
		for i := range s {
			if !close(s[i], g[i]) {
				t.Fatalf("dot4 n=%d: %v, want %v", n, s, g)
			}
		}
		d1 := vec(n)
		d2 := append([]float64(nil), d1...)
		axpy4(d1, z0, z1, z2, z3, 0.5, -1, 2, 3)
		axpy4Go(d2, z0, z1, z2, z3, 0.5, -1, 2, 3)
		for j := range d1 {
			if !close(d1[j], d2[j]) {
				t.Fatalf("axpy4 n=%d j=%d: %v, want %v", n, j, d1[j], d2[j])
			}
		}
		axpy(d1, z0, 1.5)
		axpyGo(d2, z0, 1.5)
		wsqacc(d1, z1, z2, 0.7)
		wsqaccGo(d2, z1, z2, 0.7)
		for j := range d1 {
			if !close(d1[j], d2[j]) {
				t.Fatalf("axpy/wsqacc n=%d j=%d: %v, want %v", n, j, d1[j], d2[j])
			}
		}
		if a, b := wsqdiff(z0, z1, z2), wsqdiffGo(z0, z1, z2); !close(a, b) {
			t.Fatalf("wsqdiff n=%d: %v, want %v", n, a, b)
		}
		if a, b := sqdiff(z0, z1), sqdiffGo(z0, z1); !close(a, b) {
			t.Fatalf("sqdiff n=%d: %v, want %v", n, a, b)
		}
	}
	t.Logf("SIMD kernels in use: %v", SIMD())
}
