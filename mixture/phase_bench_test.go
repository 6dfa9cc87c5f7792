package mixture

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkPhases times the E-step and the M-step apart (8 components).
func BenchmarkPhases(b *testing.B) {
	for _, name := range []string{"abalone_19", "gmm10", "bioassay", "scene"} {
		x, _ := loadShared(b, name)
		data, stride, n, d, _ := rawRows(x, -1)
		for _, typ := range []CovarianceType{Full, Diag} {
			cfg, _ := (&Settings{Components: 8, Covariance: typ}).resolve(n, d)
			e := newEM(data, stride, n, d, cfg, cfg.workers, func() []float64 { return globalCovariance(data, stride, n, d, cfg) }, transposeAll(data, stride, n, d))
			cfg.maxIter = 2
			if _, _, err := e.run(context.Background(), 0); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%s/E", name, typ), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					e.estep(true)
				}
			})
			b.Run(fmt.Sprintf("%s/%s/M", name, typ), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					e.mstep()
				}
			})
		}
	}
}
