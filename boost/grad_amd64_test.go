//go:build amd64 && !purego

package boost

import (
	"math"
	"testing"

	"github.com/aer-go/aer/internal/rng"
)

// expInputs returns edge cases of math.Exp (signed zeros, infinities,
// NaNs, the overflow threshold and its neighbours, the subnormal and
// underflow ranges, huge and tiny magnitudes) and n random values spread
// over every magnitude, in both signs.
func expInputs(n int, seed uint64) []float64 {
	xs := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0xFFF8000000000001), math.Float64frombits(0x7FF0000000000001),
		7.09782712893384e+02, math.Nextafter(7.09782712893384e+02, 1000), math.Nextafter(7.09782712893384e+02, 0),
		709.7, 710, -708.39, -708.4, -709, -709.1, -720, -744.4, -744.5, -745.1, -745.2, -746, -1000,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		1e-300, -1e-300, 1e300, -1e300, 2147483647, -2147483648, -3e9, 3e9, 1, -1, 0.5, -0.5}
	// Every exponent of the result near the normal/subnormal boundary.
	for k := -1080; k <= -1000; k++ {
		x := float64(k) * math.Ln2
		xs = append(xs, x, math.Nextafter(x, 0), math.Nextafter(x, -2000), x+0.5*math.Ln2)
	}
	r := rng.New(seed)
	for range n {
		var x float64
		switch r.IntN(4) {
		case 0: // any bit pattern
			x = math.Float64frombits(r.Uint64())
		case 1: // the range where exp is finite and not zero
			x = (r.Float64()*2 - 1) * 750
		case 2: // margins of a model
			x = r.NormFloat64() * 8
		default: // small magnitudes
			x = r.NormFloat64() * math.Pow(2, -float64(r.IntN(60)))
		}
		xs = append(xs, x)
	}
	for len(xs)%8 != 0 {
		xs = append(xs, 0)
	}
	return xs
}

func TestExpKernelBitIdentical(t *testing.T) {
	if !useAVX2Exp {
		t.Skip("no AVX2 and FMA")
	}
	n := 4_000_000
	if testing.Short() {
		n = 200_000
	}
	xs := expInputs(n, 11)
	got := make([]float64, len(xs))
	expKernelAVX2(&got[0], &xs[0], len(xs))
	bad := 0
	for i, x := range xs {
		want := math.Exp(x)
		if math.Float64bits(got[i]) != math.Float64bits(want) {
			if bad < 10 {
				t.Errorf("exp(%v) [%#x]: kernel %v [%#x], math.Exp %v [%#x]", x, math.Float64bits(x), got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(xs))
	}
}

func TestLogisticGradKernel(t *testing.T) {
	if !useAVX2Exp {
		t.Skip("no AVX2 and FMA")
	}
	n := 2_000_003
	if testing.Short() {
		n = 100_003
	}
	r := rng.New(5)
	margin := expInputs(0, 1)
	for len(margin) < n {
		margin = append(margin, r.NormFloat64()*float64(1+r.IntN(40)))
	}
	y := make([]int, len(margin))
	for i := range y {
		y[i] = r.IntN(2)
	}
	// Lengths around multiples of 8 for the scalar tail, then the whole slice.
	for _, k := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, len(margin)} {
		got := make([]gpair, k)
		want := make([]gpair, k)
		logisticGrad(got, margin[:k], y[:k])
		logisticGradGo(want, margin[:k], y[:k])
		bad := 0
		for i := range got {
			if math.Float32bits(got[i].g) != math.Float32bits(want[i].g) || math.Float32bits(got[i].h) != math.Float32bits(want[i].h) {
				if bad < 10 {
					t.Errorf("n=%d row %d margin %v y %d: kernel %v, Go %v", k, i, margin[i], y[i], got[i], want[i])
				}
				bad++
			}
		}
	}
}

// BenchmarkLogisticGrad: gradient pairs of one block of rows, the
// kernel against the scalar loop.
func BenchmarkLogisticGrad(b *testing.B) {
	r := rng.New(3)
	margin := make([]float64, block)
	y := make([]int, block)
	for i := range margin {
		margin[i] = r.NormFloat64() * 3
		y[i] = r.IntN(2)
	}
	gp := make([]gpair, block)
	b.Run("kernel", func(b *testing.B) {
		for range b.N {
			logisticGrad(gp, margin, y)
		}
	})
	b.Run("go", func(b *testing.B) {
		for range b.N {
			logisticGradGo(gp, margin, y)
		}
	})
}
