package resample_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
	"github.com/aer-go/aer/synth"
)

// benchData is make_classification-style data: n rows, 20 features (10
// informative), classes 10:1, as aer gen --rows n --ratio 10
// --features 20 --informative 10 --clusters 2 --seed 1 writes it.
func benchData(b *testing.B, n int) *learn.Data {
	g, err := synth.Generate(&synth.Settings{Samples: n, Features: 20, Informative: 10, Ratio: 10, FlipY: synth.None}, 1)
	if err != nil {
		b.Fatal(err)
	}
	return &learn.Data{X: g.X, Y: g.Y}
}

// BenchmarkSamplers times each sampler with 1 and 2 workers (only the
// neighbour searches of smote and tomek use them).
func BenchmarkSamplers(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		d := benchData(b, n)
		for _, name := range resample.Names() {
			if name == "smote-tomek" && n > 20000 {
				continue // the Tomek links of 180,000 balanced rows: an all-rows search
			}
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/n=%d/workers=%d", name, n, workers), func(b *testing.B) {
					s, _ := resample.New(name)
					for b.Loop() {
						if _, err := s.Resample(context.Background(), d, learn.Env{Seed: 1, Workers: workers}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
