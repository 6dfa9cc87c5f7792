// Package platt fits Platt's sigmoid P(y=1 | f) = 1/(1 + exp(A f + B)) to
// scores f (Platt 1999) by the Newton method with backtracking of Lin,
// Lin and Weng (2007), "A note on Platt's probabilistic outputs for
// support vector machines" (libsvm's sigmoid_train), on Platt's smoothed
// targets (N+ + 1)/(N+ + 2) and 1/(N- + 2), which keep the fit finite on
// separable scores. The svm method's probabilities and the decision
// layer's sigmoid calibration share it.
package platt

import "math"

// Fit returns A and B for scores f with labels y (1 = positive), optional
// row weights w (nil: every row weighs 1), and the (weighted) counts pos
// and neg of positive and negative rows that set the smoothed targets.
// Each row's term of the log-likelihood is multiplied by its weight.
func Fit(f []float64, y []int, w []float64, pos, neg float64) (a, b float64) {
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	const (
		maxIter = 100
		minStep = 1e-10
		sigma   = 1e-12 // keeps the Hessian strictly positive definite
		eps     = 1e-5
	)
	hi, lo := (pos+1)/(pos+2), 1/(neg+2)
	t := make([]float64, len(f))
	for i, c := range y {
		t[i] = lo
		if c == 1 {
			t[i] = hi
		}
	}
	// loss(A, B) = sum w_i [t_i z_i + log(1 + exp(-z_i))], z_i = A f_i + B,
	// written stably for either sign of z_i. It keeps exp(-|z_i|) in e:
	// the Newton step at an accepted point reads them there instead of
	// computing them again (the same z_i, so the same values).
	e, next := make([]float64, len(f)), make([]float64, len(f))
	loss := func(a, b float64, e []float64) float64 {
		v := 0.0
		for i, fi := range f {
			z := fi*a + b
			if z >= 0 {
				e[i] = math.Exp(-z)
				v += weight(i) * (t[i]*z + math.Log1p(e[i]))
			} else {
				e[i] = math.Exp(z)
				v += weight(i) * ((t[i]-1)*z + math.Log1p(e[i]))
			}
		}
		return v
	}
	a, b = 0, math.Log((neg+1)/(pos+1))
	fval := loss(a, b, e)
	for range maxIter {
		h11, h22, h21, g1, g2 := sigma, sigma, 0.0, 0.0, 0.0
		for i, fi := range f {
			z := fi*a + b
			var p, q float64 // p = 1/(1+exp(z)), q = 1-p, computed stably
			if ei := e[i]; z >= 0 {
				p, q = ei/(1+ei), 1/(1+ei)
			} else {
				p, q = 1/(1+ei), ei/(1+ei)
			}
			wi := weight(i)
			d2 := wi * p * q
			h11 += fi * fi * d2
			h22 += d2
			h21 += fi * d2
			d1 := wi * (t[i] - p)
			g1 += fi * d1
			g2 += d1
		}
		if math.Abs(g1) < eps && math.Abs(g2) < eps {
			break
		}
		det := h11*h22 - h21*h21
		da := -(h22*g1 - h21*g2) / det
		db := -(-h21*g1 + h11*g2) / det
		gd := g1*da + g2*db
		step := 1.0
		for step >= minStep {
			na, nb := a+step*da, b+step*db
			if nf := loss(na, nb, next); nf < fval+1e-4*step*gd {
				a, b, fval = na, nb, nf
				e, next = next, e
				break
			}
			step /= 2
		}
		if step < minStep {
			break // the line search failed: keep the best point found
		}
	}
	return a, b
}
