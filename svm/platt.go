package svm

import (
	"math"

	"github.com/aer-go/aer/internal/platt"
)

// Platt scaling: P(y=1 | f) = 1/(1 + exp(A f + B)), with A and B
// maximising the likelihood of targets smoothed towards the priors
// (Platt 1999), found by the Newton method with backtracking of Lin, Lin
// and Weng (2007), "A note on Platt's probabilistic outputs for support
// vector machines" (libsvm's sigmoid_train). Row weights multiply each
// row's term and count in the priors; with none it is libsvm's fit.

// plattFit returns A and B for decision values f with labels y (1 =
// positive) and optional row weights w.
func plattFit(f []float64, y []int, w []float64) (a, b float64) {
	prior1, prior0 := 0.0, 0.0
	for i, c := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if c == 1 {
			prior1 += wi
		} else {
			prior0 += wi
		}
	}
	return platt.Fit(f, y, w, prior1, prior0)
}

// plattProb is the probability of the positive class at decision value
// f, written to avoid cancellation (libsvm's sigmoid_predict).
func plattProb(f, a, b float64) float64 {
	z := f*a + b
	if z >= 0 {
		e := math.Exp(-z)
		return e / (1 + e)
	}
	return 1 / (1 + math.Exp(z))
}
