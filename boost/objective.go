package boost

import "math"

// minHess keeps hessians positive, as XGBoost's logistic objective does.
const minHess = 1e-16

// LogisticGrad returns the gradient and hessian of the logistic loss
// -y log p - (1-y) log(1-p), p = sigmoid(margin), with respect to margin.
func LogisticGrad(margin float64, y int) (grad, hess float64) {
	p := sigmoid(margin)
	return p - float64(y), max(p*(1-p), minHess)
}

// logisticGradGo sets gp[i] to the logistic gradient pair of margin[i]
// and label y[i], as LogisticGrad computes it, in single precision (the
// reference of the kernel of logisticGrad). Finite margins give finite
// pairs.
func logisticGradGo(gp []gpair, margin []float64, y []int) {
	_, _ = margin[:len(gp)], y[:len(gp)]
	for i := range gp {
		p := 1 / (1 + math.Exp(-margin[i]))
		gr := p - float64(y[i])
		// p*(1-p) is never NaN here, so this is max(p*(1-p), minHess)
		// without the NaN and signed-zero checks of the builtin.
		hs := p * (1 - p)
		if hs < minHess {
			hs = minHess
		}
		gp[i] = gpair{float32(gr), float32(hs)}
	}
}

// FocalGrad returns the gradient and hessian, with respect to the margin,
// of the focal loss of Lin et al. (2017),
//
//	FL = -y (1-p)^gamma log p - (1-y) p^gamma log(1-p),  p = sigmoid(margin),
//
// as used by Imbalance-XGBoost (class weighting is applied by the caller).
// With gamma = 0 it is the logistic loss. The hessian is returned as
// computed (it can be negative far from the label); training clamps it.
func FocalGrad(margin float64, y int, gamma float64) (grad, hess float64) {
	if y == 0 {
		// FL_0(z) = FL_1(-z): mirror the positive case.
		g, h := FocalGrad(-margin, 1, gamma)
		return -g, h
	}
	p := sigmoid(margin)
	q := sigmoid(-margin) // 1-p without cancellation
	logp := logSigmoid(margin)
	qg := math.Pow(q, gamma)
	// d/dz: gamma p q^gamma log p - q^(gamma+1)
	grad = gamma*p*qg*logp - q*qg
	// d2/dz2: gamma [p q^(g+1) log p - gamma p^2 q^g log p + p q^(g+1)] + (g+1) p q^(g+1)
	hess = gamma*(p*q*qg*logp-gamma*p*p*qg*logp+p*q*qg) + (gamma+1)*p*q*qg
	return grad, hess
}

// FocalLoss returns the focal loss of one row (see FocalGrad).
func FocalLoss(margin float64, y int, gamma float64) float64 {
	if y == 0 {
		margin = -margin
	}
	q := sigmoid(-margin)
	return -math.Pow(q, gamma) * logSigmoid(margin)
}

// logSigmoid returns log(sigmoid(x)) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// rowGrad returns the per-row loss of the resolved settings, class
// weights folded in (sample weights are applied by the caller).
func rowGrad(s *Settings) func(margin float64, y int) (float64, float64) {
	switch s.Objective {
	case Focal:
		gamma := s.FocalGamma
		wp, wn := 1.0, 1.0
		if s.FocalAlpha > 0 {
			wp, wn = s.FocalAlpha, 1-s.FocalAlpha
		}
		return func(m float64, y int) (float64, float64) {
			g, h := FocalGrad(m, y, gamma)
			w := wn
			if y == 1 {
				w = wp
			}
			return w * g, w * max(h, minHess)
		}
	case Weighted:
		a := s.WeightedAlpha
		return func(m float64, y int) (float64, float64) {
			g, h := LogisticGrad(m, y)
			if y == 1 {
				return a * g, a * h
			}
			return g, h
		}
	case Custom:
		return s.Gradient
	}
	return LogisticGrad
}
