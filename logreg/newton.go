package logreg

import (
	"log/slog"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// Settings of the Newton solver.
const (
	// newtonReuse is the factor by which a step must cut the gradient
	// (in the max norm) for the next step to reuse the same Hessian
	// factorisation, with at least newtonReuseDim coefficients.
	newtonReuse    = 0.5
	newtonReuseDim = 64
	// newtonDecrease is the sufficient decrease of a step (Armijo).
	newtonDecrease = 1e-4
	// newtonHalvings bounds the step halvings of one line search.
	newtonHalvings = 60
)

// newtonResult is where the Newton solver stopped.
type newtonResult struct {
	theta      []float64
	steps      int     // accepted steps
	hessians   int     // Hessians formed and factorised
	gradient   float64 // max norm of the gradient at theta
	lineSearch bool    // a line search from a fresh factorisation failed
}

// newton minimises the objective from zero by Newton's method: the
// Hessian, formed by Hess, is factorised by Cholesky (lapack's potrf; a
// multiple of the identity is added if rounding leaves it indefinite) and
// the step is the Newton direction with backtracking from the full step.
//
// With many coefficients, a factorisation is kept for the next step while
// the steps it gives halve the gradient (the chord, or Shamanskii, variant
// of Newton's method): a Hessian costs as much as about dim/4 passes over
// the data, a step with a kept factorisation two, and near the optimum the
// Hessian barely changes, so a kept factorisation still converges fast
// (each such step cut the gradient about 20-fold on 1444 x 294 data). A
// step that fails or stops halving the gradient sends the solver back to a
// fresh Hessian, so the result is Newton's: the unique optimum, to a
// max-norm gradient of tol. With few coefficients a Hessian is cheap and
// every step takes a fresh one.
//
// It stops at maxIter accepted steps, when the gradient reaches tol, when
// the context is done (the objective's Err then says so), or when a line
// search from a fresh factorisation cannot decrease the objective (only
// at rounding level, with the gradient within a few ulps of the optimum).
func (o *objective) newton(tol float64, maxIter int, log *slog.Logger) newtonResult {
	dim := o.dim
	res := newtonResult{theta: make([]float64, dim)}
	theta := res.theta
	grad := make([]float64, dim)
	dir := make([]float64, dim)
	u := make([]float64, o.n)
	hess := mat.NewSymDense(dim, nil)
	fac := blas64.Symmetric{Uplo: blas.Upper, N: dim, Stride: dim, Data: make([]float64, dim*dim)}
	var tri blas64.Triangular
	have, fresh := false, false

	o.Grad(grad, theta)
	for {
		res.gradient = floats.Norm(grad, math.Inf(1))
		if o.stopped() || res.gradient <= tol || res.steps >= maxIter {
			return res
		}
		if !have {
			o.Hess(hess, theta)
			if o.stopped() {
				return res
			}
			var ok bool
			if tri, ok = factorise(fac, hess.RawSymmetric()); !ok {
				res.lineSearch = true
				return res
			}
			res.hessians++
			have, fresh = true, true
		}
		for j, g := range grad {
			dir[j] = -g
		}
		// H = U'U: solve U'v = -g, then U dir = v.
		blas64.Trsv(blas.Trans, tri, blas64.Vector{N: dim, Inc: 1, Data: dir})
		blas64.Trsv(blas.NoTrans, tri, blas64.Vector{N: dim, Inc: 1, Data: dir})
		slope := floats.Dot(grad, dir)
		alpha := 0.0
		if slope < 0 {
			o.mul(u, dir)
			alpha = o.search(theta, dir, u, slope)
		}
		if alpha == 0 {
			if fresh {
				res.lineSearch = true
				return res
			}
			have = false
			continue
		}
		floats.AddScaled(theta, alpha, dir)
		floats.AddScaled(o.z, alpha, u)
		copy(o.theta, theta)
		o.terms()
		o.Grad(grad, theta)
		res.steps++
		before := res.gradient
		after := floats.Norm(grad, math.Inf(1))
		log.Debug("logreg iteration", "iteration", res.steps, "objective", o.loss, "gradient", after, "step", alpha, "fresh_hessian", fresh)
		have = dim >= newtonReuseDim && alpha == 1 && after <= newtonReuse*before
		fresh = false
	}
}

// search returns a step alpha along dir (u = X~ dir, slope the derivative
// along dir at alpha 0) with sufficient decrease, halving from the full
// step, or 0 if none of newtonHalvings steps decreases the objective.
//
// Near the optimum the decrease a Newton step makes, about |slope|/2, falls
// below the rounding of a sum of thousands of terms: within a rounding
// allowance (wolfeSlack relative to the objective) a step counts as a
// decrease, and the gradient, which stays accurate, decides the rest.
func (o *objective) search(theta, dir, u []float64, slope float64) float64 {
	f0 := o.loss
	slack := wolfeSlack * math.Abs(f0)
	alpha := 1.0
	for range newtonHalvings {
		f := o.lossAlong(theta, dir, u, alpha)
		if o.stopped() {
			return 0
		}
		if f <= f0+newtonDecrease*alpha*slope+slack {
			return alpha
		}
		alpha /= 2
	}
	return 0
}

// factorise copies the upper triangle of h into fac and factorises it by
// Cholesky, adding a growing multiple of the identity while rounding
// leaves it indefinite (with lambda > 0 and an intercept the Hessian is
// positive definite in exact arithmetic). It reports false for a Hessian
// no shift up to 1e6 times its largest diagonal entry makes definite.
func factorise(fac blas64.Symmetric, h blas64.Symmetric) (blas64.Triangular, bool) {
	n := h.N
	scale := 0.0
	for j := range n {
		scale = max(scale, math.Abs(h.Data[j*h.Stride+j]))
	}
	for shift := 0.0; shift <= 1e6*scale; shift = max(2*shift, 1e-12*scale, 1e-300) {
		for j := range n {
			copy(fac.Data[j*fac.Stride+j:j*fac.Stride+n], h.Data[j*h.Stride+j:j*h.Stride+n])
			fac.Data[j*fac.Stride+j] += shift
		}
		if t, ok := lapack64.Potrf(fac); ok {
			return t, true
		}
	}
	return blas64.Triangular{}, false
}
