package synth

import (
	"fmt"
	"testing"
)

func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		s := &Settings{Samples: n, Features: 20, Informative: 10, Redundant: 5, Clusters: 2, Weights: []float64{0.9, 0.1}}
		b.Run(fmt.Sprintf("%dx20", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(s, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
