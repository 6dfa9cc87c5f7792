package neighbors

import "github.com/aer-go/aer/internal/rng"

// classification returns n x 20 rows shaped like scikit-learn's
// make_classification defaults used by the speed anchors (10 informative
// features in 4 Gaussian clusters on hypercube vertices, each with a random
// linear mixing; 5 redundant linear combinations; 5 noise features), so
// benchmarks search data of the same intrinsic dimension (15) as the
// scikit-learn reference rather than isotropic 20-D noise.
func classification(seed uint64, n int) []float64 {
	const inf, red, noise = 10, 5, 5
	const d = inf + red + noise
	r := rng.New(seed)
	uniform := func() float64 { return 2*r.Float64() - 1 }
	const clusters = 4
	centre := make([][]float64, clusters)
	mix := make([][]float64, clusters)
	for c := range clusters {
		centre[c] = make([]float64, inf)
		for t := range centre[c] {
			centre[c][t] = float64(2*r.IntN(2) - 1)
		}
		mix[c] = make([]float64, inf*inf)
		for t := range mix[c] {
			mix[c][t] = uniform()
		}
	}
	comb := make([]float64, inf*red)
	for t := range comb {
		comb[t] = uniform()
	}
	x := make([]float64, n*d)
	z := make([]float64, inf)
	for i := range n {
		c := r.IntN(clusters)
		row := x[i*d : (i+1)*d]
		for t := range z {
			z[t] = r.NormFloat64()
		}
		for t := range inf {
			v := centre[c][t]
			for s := range inf {
				v += z[s] * mix[c][s*inf+t]
			}
			row[t] = v
		}
		for t := range red {
			var v float64
			for s := range inf {
				v += row[s] * comb[s*red+t]
			}
			row[inf+t] = v
		}
		for t := range noise {
			row[inf+red+t] = r.NormFloat64()
		}
	}
	return x
}
