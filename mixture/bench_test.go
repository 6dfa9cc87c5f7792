package mixture

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/cputime"
)

// benchEM times one EM iteration (E-step + M-step) with 8 components, the
// unit of scikit-learn's per-iteration anchors in anchors/speed.md.
func benchEM(b *testing.B, x *mat.Dense, typ CovarianceType, k int) {
	data, stride, n, d, err := rawRows(x, -1)
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := (&Settings{Components: k, Covariance: typ}).resolve(n, d)
	if err != nil {
		b.Fatal(err)
	}
	e := newEM(data, stride, n, d, cfg, cfg.workers, func() []float64 { return globalCovariance(data, stride, n, d, cfg) }, transposeAll(data, stride, n, d))
	cfg.maxIter = 2
	if _, _, err := e.run(context.Background(), 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cputime.Seconds()
	for i := 0; i < b.N; i++ {
		e.estep(true)
		e.mstep()
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/iter")
	// CPU seconds per iteration over all threads: robust when other
	// processes share the machine (wall time is not).
	b.ReportMetric((cputime.Seconds()-cpu0)/float64(b.N), "cpu-s/iter")
}

// BenchmarkEMIteration covers the datasets of anchors/speed.md ("GMM on
// real datasets", all rows, unstandardised as there).
func BenchmarkEMIteration(b *testing.B) {
	for _, name := range sharedDatasets {
		x, _ := loadShared(b, name)
		for _, typ := range []CovarianceType{Full, Diag} {
			b.Run(fmt.Sprintf("%s/%s", name, typ), func(b *testing.B) { benchEM(b, x, typ, 8) })
		}
	}
}

// BenchmarkEMIterationSynthetic uses Gaussian clusters of the shape of the
// synth_10k and synth_100k anchors (not the same values).
func BenchmarkEMIterationSynthetic(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		x := synthetic(n, 20, 4, 1)
		for _, typ := range []CovarianceType{Full, Diag} {
			b.Run(fmt.Sprintf("%dx20/%s", n, typ), func(b *testing.B) { benchEM(b, x, typ, 8) })
		}
	}
}

// synthetic draws n rows of d features from c well-separated Gaussian
// clusters.
func synthetic(n, d, c int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 7))
	centers := make([]float64, c*d)
	for i := range centers {
		centers[i] = 4 * r.NormFloat64()
	}
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		k := r.IntN(c)
		for j := 0; j < d; j++ {
			x.Set(i, j, centers[k*d+j]+r.NormFloat64()*(1+0.1*float64(j%3)))
		}
	}
	return x
}
