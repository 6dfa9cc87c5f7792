package ensemble

import (
	"math"
	"testing"

	"github.com/aer-go/aer/internal/rng"
)

// bruteSimplex solves min ||w - v||^2 over the simplex by enumerating the
// supports S: on S the minimiser of the distance over the affine hull of
// the face is v_S - theta with theta = (sum_S v - 1)/|S|; the best feasible
// candidate over all faces is the projection.
func bruteSimplex(v []float64) []float64 {
	n := len(v)
	best := math.Inf(1)
	var bw []float64
	for mask := 1; mask < 1<<n; mask++ {
		var sum float64
		k := 0
		for i := range n {
			if mask&(1<<i) != 0 {
				sum += v[i]
				k++
			}
		}
		theta := (sum - 1) / float64(k)
		w := make([]float64, n)
		ok := true
		for i := range n {
			if mask&(1<<i) != 0 {
				w[i] = v[i] - theta
				if w[i] < 0 {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		var d float64
		for i := range n {
			d += (w[i] - v[i]) * (w[i] - v[i])
		}
		if d < best {
			best, bw = d, w
		}
	}
	return bw
}

func TestProjectSimplex(t *testing.T) {
	const tol = 1e-12
	r := rng.New(1)
	for trial := range 500 {
		n := 1 + trial%7
		v := make([]float64, n)
		scale := []float64{0.1, 1, 10}[trial%3]
		for i := range v {
			v[i] = scale * r.NormFloat64()
		}
		w := ProjectSimplex(nil, v)
		var sum float64
		for _, x := range w {
			if x < 0 {
				t.Fatalf("v=%v: negative weight in %v", v, w)
			}
			sum += x
		}
		if math.Abs(sum-1) > tol {
			t.Fatalf("v=%v: projection sums to %v", v, sum)
		}
		again := ProjectSimplex(nil, w)
		want := bruteSimplex(v)
		for i := range w {
			if math.Abs(again[i]-w[i]) > tol {
				t.Fatalf("not idempotent: %v -> %v", w, again)
			}
			if math.Abs(want[i]-w[i]) > 1e-9 {
				t.Fatalf("v=%v: got %v, brute force %v", v, w, want)
			}
		}
	}
}

func TestProjectSimplexKnown(t *testing.T) {
	for _, c := range []struct{ v, want []float64 }{
		{[]float64{0.2, 0.3, 0.5}, []float64{0.2, 0.3, 0.5}},
		{[]float64{1, 1}, []float64{0.5, 0.5}},
		{[]float64{2, 0}, []float64{1, 0}},
		{[]float64{0.5, 0.5, -3}, []float64{0.5, 0.5, 0}},
		{[]float64{-1, -1, -1, -1}, []float64{0.25, 0.25, 0.25, 0.25}},
		{[]float64{7}, []float64{1}},
	} {
		v := append([]float64(nil), c.v...)
		got := ProjectSimplex(v, v) // in place
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-15 {
				t.Errorf("ProjectSimplex(%v) = %v, want %v", c.v, got, c.want)
				break
			}
		}
	}
}

func TestProjectMinMax(t *testing.T) {
	// The paper's map zeroes the smallest weight and moves a point that is
	// already on the simplex: the flaw the package documentation names.
	got := ProjectMinMax(nil, []float64{0.2, 0.3, 0.5})
	want := []float64{0, 0.25, 0.75} // (0, 1/3, 1) / (4/3)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Fatalf("ProjectMinMax = %v, want %v", got, want)
		}
	}
	u := ProjectMinMax(nil, []float64{3, 3, 3, 3})
	for _, x := range u {
		if x != 0.25 {
			t.Fatalf("equal entries: %v, want uniform", u)
		}
	}
}

func FuzzProjectSimplex(f *testing.F) {
	f.Add(0.2, 0.3, 0.5, 0.0)
	f.Add(-1.0, 5.0, 1e300, -1e300)
	f.Add(1e-300, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, a, b, c, d float64) {
		v := []float64{a, b, c, d}
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e300 {
				t.Skip()
			}
		}
		w := ProjectSimplex(nil, v)
		var sum float64
		for _, x := range w {
			if x < 0 || math.IsNaN(x) {
				t.Fatalf("%v -> %v", v, w)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("%v -> %v sums to %v", v, w, sum)
		}
		// The projection never reorders: v_i >= v_j implies w_i >= w_j.
		for i := range v {
			for j := range v {
				if v[i] >= v[j] && w[i] < w[j] {
					t.Fatalf("%v -> %v reorders %d, %d", v, w, i, j)
				}
			}
		}
	})
}
