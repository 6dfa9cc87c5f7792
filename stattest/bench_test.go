package stattest

import (
	"math/rand/v2"
	"testing"
)

func benchPairs(n int) (x, y []float64) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = r.NormFloat64(), r.NormFloat64()+0.1
	}
	return x, y
}

func BenchmarkWilcoxonApprox10k(b *testing.B) {
	x, y := benchPairs(10000)
	for b.Loop() {
		if _, err := Wilcoxon(x, y, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWilcoxonExact50(b *testing.B) {
	x, y := benchPairs(50)
	for b.Loop() {
		if _, err := Wilcoxon(x, y, &WilcoxonOptions{Mode: Exact}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWilcoxonExact1000(b *testing.B) {
	x, y := benchPairs(1000)
	for b.Loop() {
		if _, err := Wilcoxon(x, y, &WilcoxonOptions{Mode: Exact}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFriedman(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	s := make([][]float64, 30)
	for i := range s {
		s[i] = make([]float64, 10)
		for j := range s[i] {
			s[i][j] = r.Float64()
		}
	}
	for b.Loop() {
		if _, err := Friedman(s, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNemenyiQComputed(b *testing.B) {
	for b.Loop() {
		if _, err := NemenyiQ(12, 0.05); err != nil {
			b.Fatal(err)
		}
	}
}
