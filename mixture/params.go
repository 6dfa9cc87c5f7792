package mixture

import (
	"math"
)

// ln2pi is log(2*pi).
var ln2pi = math.Log(2 * math.Pi)

// params holds the parameters of a mixture in flat row-major slices, plus
// the precision Cholesky factors the densities are computed from.
type params struct {
	typ  CovarianceType // never Auto
	k, d int

	w    []float64 // weights, k
	logw []float64 // log weights, k
	mean []float64 // k*d
	// cov holds the covariances: Full k*d*d, Diag k*d, Tied d*d,
	// Spherical k. Full and Tied matrices are stored complete (symmetric).
	cov []float64
	// prec holds the inverse Cholesky factor of each covariance: for Full
	// and Tied the lower-triangular W = chol(cov)^-1 (so W^T W is the
	// precision and |W(x-mu)|^2 the Mahalanobis distance), row-major d*d
	// per matrix; for Diag 1/sqrt(var) per feature; for Spherical
	// 1/sqrt(var) per component. W^T is scikit-learn's
	// precisions_cholesky_.
	prec []float64
	// logdet is log det of the precision Cholesky factor of each
	// component, -sum(log diag(chol(cov))).
	logdet []float64
	// wmu holds W*mu_k for Tied (k*d), so y = Wx is computed once per row.
	wmu []float64
}

func newParams(typ CovarianceType, k, d int) *params {
	p := &params{typ: typ, k: k, d: d,
		w: make([]float64, k), logw: make([]float64, k), mean: make([]float64, k*d),
		logdet: make([]float64, k)}
	switch typ {
	case Full:
		p.cov = make([]float64, k*d*d)
		p.prec = make([]float64, k*d*d)
	case Diag:
		p.cov = make([]float64, k*d)
		p.prec = make([]float64, k*d)
	case Tied:
		p.cov = make([]float64, d*d)
		p.prec = make([]float64, d*d)
		p.wmu = make([]float64, k*d)
	case Spherical:
		p.cov = make([]float64, k)
		p.prec = make([]float64, k)
	}
	return p
}

func (p *params) clone() *params {
	q := *p
	cp := func(s []float64) []float64 {
		if s == nil {
			return nil
		}
		return append([]float64(nil), s...)
	}
	q.w, q.logw, q.mean, q.cov, q.prec, q.logdet, q.wmu = cp(p.w), cp(p.logw), cp(p.mean), cp(p.cov), cp(p.prec), cp(p.logdet), cp(p.wmu)
	return &q
}

// setWeights stores w (normalised by the caller) and its logarithms.
func (p *params) setWeights(w []float64) {
	copy(p.w, w)
	for i, v := range w {
		p.logw[i] = math.Log(v)
	}
}

// factor computes prec and logdet from cov. It returns the index of the
// first component whose covariance is not positive definite, or -1.
// scratch must hold d*d values.
func (p *params) factor(scratch []float64) int {
	d := p.d
	switch p.typ {
	case Full:
		for k := 0; k < p.k; k++ {
			ld, ok := cholInverse(p.cov[k*d*d:(k+1)*d*d], p.prec[k*d*d:(k+1)*d*d], scratch, d)
			if !ok {
				return k
			}
			p.logdet[k] = ld
		}
	case Tied:
		ld, ok := cholInverse(p.cov, p.prec, scratch, d)
		if !ok {
			return 0
		}
		for k := range p.logdet {
			p.logdet[k] = ld
		}
		p.updateWmu()
	case Diag:
		for k := 0; k < p.k; k++ {
			ld := 0.0
			for j := 0; j < d; j++ {
				v := p.cov[k*d+j]
				if !(v > 0) || math.IsInf(v, 1) {
					return k
				}
				s := math.Sqrt(v)
				p.prec[k*d+j] = 1 / s
				ld -= math.Log(s)
			}
			p.logdet[k] = ld
		}
	case Spherical:
		for k := 0; k < p.k; k++ {
			v := p.cov[k]
			if !(v > 0) || math.IsInf(v, 1) {
				return k
			}
			s := math.Sqrt(v)
			p.prec[k] = 1 / s
			p.logdet[k] = -float64(d) * math.Log(s)
		}
	}
	return -1
}

func (p *params) updateWmu() {
	d := p.d
	for k := 0; k < p.k; k++ {
		mu := p.mean[k*d : (k+1)*d]
		out := p.wmu[k*d : (k+1)*d]
		for j := 0; j < d; j++ {
			row := p.prec[j*d : j*d+j+1]
			s := 0.0
			for l, w := range row {
				s += w * mu[l]
			}
			out[j] = s
		}
	}
}

// cholInverse computes the lower Cholesky factor L of the symmetric d*d
// matrix a (row-major, lower triangle read) into scratch and its inverse
// W = L^-1 into w (lower triangle, upper set to zero). It returns
// log det W = -sum log L_ii, and false when a is not positive definite.
func cholInverse(a, w, l []float64, d int) (float64, bool) {
	l = l[:d*d]
	for i := 0; i < d; i++ {
		li := l[i*d : i*d+d]
		ai := a[i*d : i*d+d]
		for j := 0; j <= i; j++ {
			lj := l[j*d : j*d+j]
			s := ai[j]
			for t, v := range lj {
				s -= li[t] * v
			}
			if j == i {
				if !(s > 0) || math.IsInf(s, 1) {
					return 0, false
				}
				li[i] = math.Sqrt(s)
			} else {
				li[j] = s / l[j*d+j]
			}
		}
	}
	logdet := 0.0
	for i := 0; i < d; i++ {
		logdet -= math.Log(l[i*d+i])
	}
	// Solve L W = I row by row: W_ij = (delta_ij - sum_{j<=t<i} L_it W_tj) / L_ii.
	for i := range w[:d*d] {
		w[i] = 0
	}
	for i := 0; i < d; i++ {
		wi := w[i*d : i*d+d]
		li := l[i*d : i*d+d]
		inv := 1 / li[i]
		for t := 0; t < i; t++ {
			c := li[t]
			if c == 0 {
				continue
			}
			wt := w[t*d : t*d+t+1]
			for j, v := range wt {
				wi[j] -= c * v
			}
		}
		for j := 0; j < i; j++ {
			wi[j] *= inv
		}
		wi[i] = inv
	}
	return logdet, true
}

// logDensityBlock writes log N(x_i | mu_l, Sigma_l) for rows r0..r1 of x
// (row stride) into out[(i-r0)*k + l]. scratch must hold 4*d values (d*1
// more for Tied).
func (p *params) logDensityBlock(x []float64, stride, r0, r1 int, out, scratch []float64) {
	d, K := p.d, p.k
	c0 := -0.5 * float64(d) * ln2pi
	switch p.typ {
	case Full:
		for k := 0; k < K; k++ {
			mu := p.mean[k*d : (k+1)*d]
			W := p.prec[k*d*d : (k+1)*d*d]
			c := c0 + p.logdet[k]
			i := r0
			for ; i+4 <= r1; i += 4 {
				z0, z1, z2, z3 := scratch[0:d], scratch[d:2*d], scratch[2*d:3*d], scratch[3*d:4*d]
				x0, x1, x2, x3 := x[i*stride:i*stride+d], x[(i+1)*stride:(i+1)*stride+d], x[(i+2)*stride:(i+2)*stride+d], x[(i+3)*stride:(i+3)*stride+d]
				for j, m := range mu {
					z0[j] = x0[j] - m
					z1[j] = x1[j] - m
					z2[j] = x2[j] - m
					z3[j] = x3[j] - m
				}
				q0, q1, q2, q3 := mahal4(W, z0, z1, z2, z3, d)
				o := (i - r0) * K
				out[o+k] = c - 0.5*q0
				out[o+K+k] = c - 0.5*q1
				out[o+2*K+k] = c - 0.5*q2
				out[o+3*K+k] = c - 0.5*q3
			}
			for ; i < r1; i++ {
				z := scratch[:d]
				xi := x[i*stride : i*stride+d]
				for j, m := range mu {
					z[j] = xi[j] - m
				}
				q, _, _, _ := mahal4(W, z, z, z, z, d)
				out[(i-r0)*K+k] = c - 0.5*q
			}
		}
	case Tied:
		W := p.prec
		for i := r0; i < r1; i += 4 {
			var xs [4][]float64
			for t := range xs {
				xs[t] = x[min(i+t, r1-1)*stride:][:d]
			}
			ys := [4][]float64{scratch[0:d], scratch[d : 2*d], scratch[2*d : 3*d], scratch[3*d : 4*d]}
			for j := 0; j < d; j++ {
				ys[0][j], ys[1][j], ys[2][j], ys[3][j] = dot4(W[j*d:j*d+j+1], xs[0], xs[1], xs[2], xs[3])
			}
			for t := 0; t < 4 && i+t < r1; t++ {
				o := (i + t - r0) * K
				for k := 0; k < K; k++ {
					out[o+k] = c0 + p.logdet[k] - 0.5*sqdiff(ys[t], p.wmu[k*d:(k+1)*d])
				}
			}
		}
	case Diag:
		for i := r0; i < r1; i++ {
			xi := x[i*stride : i*stride+d]
			o := (i - r0) * K
			for k := 0; k < K; k++ {
				mu := p.mean[k*d : (k+1)*d]
				pr := p.prec[k*d : (k+1)*d]
				out[o+k] = c0 + p.logdet[k] - 0.5*wsqdiff(xi, mu, pr)
			}
		}
	case Spherical:
		for i := r0; i < r1; i++ {
			xi := x[i*stride : i*stride+d]
			o := (i - r0) * K
			for k := 0; k < K; k++ {
				mu := p.mean[k*d : (k+1)*d]
				q := sqdiff(xi, mu)
				pr := p.prec[k]
				out[o+k] = c0 + p.logdet[k] - 0.5*q*pr*pr
			}
		}
	}
}

// mahal4 returns |W z_r|^2 for four vectors at once, sharing each load of W.
func mahal4(W, z0, z1, z2, z3 []float64, d int) (q0, q1, q2, q3 float64) {
	for j := 0; j < d; j++ {
		s0, s1, s2, s3 := dot4(W[j*d:j*d+j+1], z0, z1, z2, z3)
		q0 += s0 * s0
		q1 += s1 * s1
		q2 += s2 * s2
		q3 += s3 * s3
	}
	return
}

// logSumExpRows turns log densities (n*k, per row) into responsibilities in
// place, adding log weights, and returns each row's log-likelihood in ll.
// When resp is false the densities are left untouched.
func logSumExpRow(a, logw []float64) float64 {
	m := math.Inf(-1)
	for k, v := range a {
		if t := v + logw[k]; t > m {
			m = t
		}
	}
	if math.IsInf(m, 0) {
		return m
	}
	s := 0.0
	for k, v := range a {
		s += math.Exp(v + logw[k] - m)
	}
	return m + math.Log(s)
}

// nParameters counts free parameters as scikit-learn's
// GaussianMixture._n_parameters does.
func nParameters(typ CovarianceType, k, d int) int {
	var cov int
	switch typ {
	case Full:
		cov = k * d * (d + 1) / 2
	case Diag:
		cov = k * d
	case Tied:
		cov = d * (d + 1) / 2
	case Spherical:
		cov = k
	}
	return cov + k*d + k - 1
}
