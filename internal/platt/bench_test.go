package platt

import (
	"math/rand/v2"
	"testing"
)

// benchScores is 2,000 overlapping scores with a tenth positive (a
// decision layer's calibration of a fold's out-of-fold outputs).
func benchScores() (f []float64, y []int, pos float64) {
	r := rand.New(rand.NewPCG(5, 6))
	f, y = make([]float64, 2000), make([]int, 2000)
	for i := range f {
		if r.IntN(10) == 0 {
			y[i], pos = 1, pos+1
		}
		f[i] = r.NormFloat64() + 1.5*float64(y[i])
	}
	return f, y, pos
}

// BenchmarkFit: Platt's fit, exp(-|z|) reused between the line search
// and the next Newton step.
func BenchmarkFit(b *testing.B) {
	f, y, pos := benchScores()
	for b.Loop() {
		Fit(f, y, nil, pos, float64(len(f))-pos)
	}
}

// BenchmarkRefFit: the same fit computing every exp where it is used.
func BenchmarkRefFit(b *testing.B) {
	f, y, pos := benchScores()
	for b.Loop() {
		refFit(f, y, nil, pos, float64(len(f))-pos)
	}
}
