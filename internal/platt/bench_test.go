package platt

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFit: Platt's fit on 2,000 overlapping scores (a decision
// layer's calibration of a fold's out-of-fold outputs).
func BenchmarkFit(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 2000
	f, y := make([]float64, n), make([]int, n)
	pos := 0.0
	for i := range f {
		if r.IntN(10) == 0 {
			y[i], pos = 1, pos+1
		}
		f[i] = r.NormFloat64() + 1.5*float64(y[i])
	}
	for b.Loop() {
		Fit(f, y, nil, pos, float64(n)-pos)
	}
}

func BenchmarkRefFit(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 2000
	f, y := make([]float64, n), make([]int, n)
	pos := 0.0
	for i := range f {
		if r.IntN(10) == 0 {
			y[i], pos = 1, pos+1
		}
		f[i] = r.NormFloat64() + 1.5*float64(y[i])
	}
	for b.Loop() {
		refFit(f, y, nil, pos, float64(n)-pos)
	}
}
