package mixture

import (
	"context"
	"testing"

	"github.com/aer-go/aer/internal/cputime"
)

// BenchmarkFit times whole fits (k-means init + EM, 5 restarts, L = 4) on
// the standardised majority rows, as AER runs them.
func BenchmarkFit(b *testing.B) {
	for _, name := range []string{"abalone_19", "bioassay", "scene", "gmm10"} {
		x, y := loadShared(b, name)
		xm := majorityStandardized(x, y)
		b.Run(name, func(b *testing.B) {
			iters := 0
			cpu0 := cputime.Seconds()
			for i := 0; i < b.N; i++ {
				_, res, err := Fit(context.Background(), xm, &Settings{Components: 4, NInit: 5})
				if err != nil {
					b.Fatal(err)
				}
				iters += res.TotalIterations
			}
			b.ReportMetric(float64(iters)/float64(b.N), "EM-iters/op")
			b.ReportMetric((cputime.Seconds()-cpu0)/float64(b.N), "cpu-s/op")
		})
	}
}
