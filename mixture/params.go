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
	// wpad holds, for Full, each W padded with zero rows to d4 rows (a
	// multiple of 4), the layout of the mahal8 kernel.
	wpad []float64
	// ones is a vector of d ones (Spherical), the unit precision of diag8.
	ones []float64
	// nu holds the degrees of freedom of the T family per component; nil
	// for Gaussian components. nuFixed says they were fixed, not
	// estimated (they are then no free parameters).
	nu      []float64
	nuFixed bool
}

// pad4 and pad8 round d up to a multiple of 4 and 8.
func pad4(d int) int { return (d + 3) &^ 3 }
func pad8(d int) int { return (d + 7) &^ 7 }

// scratchLen is the per-worker scratch a logDensityBlock call needs.
func scratchLen(d int) int { return 8 * d }

func newParams(typ CovarianceType, k, d int) *params {
	p := &params{typ: typ, k: k, d: d,
		w: make([]float64, k), logw: make([]float64, k), mean: make([]float64, k*d),
		logdet: make([]float64, k)}
	switch typ {
	case Full:
		p.cov = make([]float64, k*d*d)
		p.prec = make([]float64, k*d*d)
		p.wpad = make([]float64, k*pad4(d)*d)
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
		p.ones = make([]float64, d)
		for j := range p.ones {
			p.ones[j] = 1
		}
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
	q.w, q.logw, q.mean, q.cov, q.prec, q.logdet, q.wmu, q.wpad = cp(p.w), cp(p.logw), cp(p.mean), cp(p.cov), cp(p.prec), cp(p.logdet), cp(p.wmu), cp(p.wpad)
	q.ones = cp(p.ones)
	q.nu = cp(p.nu)
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
			d4 := pad4(d)
			copy(p.wpad[k*d4*d:], p.prec[k*d*d:(k+1)*d*d])
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
			s := ai[j] - dot(li[:j], l[j*d:j*d+j])
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
			axpy(wi[:t+1], w[t*d:t*d+t+1], -c)
		}
		for j := 0; j < i; j++ {
			wi[j] *= inv
		}
		wi[i] = inv
	}
	return logdet, true
}

// logDensityBlock writes log N(x_i | mu_l, Sigma_l) for rows r0..r1 of x
// (row stride) into out[(i-r0)*k + l]. scratch must hold scratchLen(d)
// values; pre, when not nil, is x already in 8-row groups (transposeAll)
// and r0 a multiple of 8.
func (p *params) logDensityBlock(x []float64, stride, r0, r1 int, out, scratch, pre []float64) {
	if p.nu != nil {
		p.tLogDensityBlock(x, stride, r0, r1, out, scratch)
		return
	}
	d, K := p.d, p.k
	c0 := -0.5 * float64(d) * ln2pi
	switch p.typ {
	case Full:
		// Eight rows at a time, transposed so that the kernel holds one
		// row per vector lane.
		d4 := pad4(d)
		xt := scratch[:8*d]
		var q [8]float64
		for i := r0; i < r1; i += 8 {
			xt, nr := group8(x, stride, d, i, r1, pre, xt)
			for k := 0; k < K; k++ {
				mahal8(p.wpad[k*d4*d:(k+1)*d4*d], d, d4, xt, p.mean[k*d:(k+1)*d], &q)
				c := c0 + p.logdet[k]
				for t := 0; t < nr; t++ {
					out[(i+t-r0)*K+k] = c - 0.5*q[t]
				}
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
	case Diag, Spherical:
		xt := scratch[:8*d]
		var q [8]float64
		for i := r0; i < r1; i += 8 {
			xt, nr := group8(x, stride, d, i, r1, pre, xt)
			for k := 0; k < K; k++ {
				c := c0 + p.logdet[k]
				if p.typ == Diag {
					diag8(xt, p.mean[k*d:(k+1)*d], p.prec[k*d:(k+1)*d], d, &q)
				} else {
					diag8(xt, p.mean[k*d:(k+1)*d], p.ones, d, &q)
					pr := p.prec[k]
					for t := range q {
						q[t] *= pr * pr
					}
				}
				for t := 0; t < nr; t++ {
					out[(i+t-r0)*K+k] = c - 0.5*q[t]
				}
			}
		}
	}
}

// group8 returns rows i..min(i+8, r1) of x transposed (element l of row
// i+t at l*8+t) and their number: a view of pre when x was transposed
// beforehand, else built in scratch.
func group8(x []float64, stride, d, i, r1 int, pre, scratch []float64) ([]float64, int) {
	if pre != nil {
		g := i / 8
		return pre[g*8*d : (g+1)*8*d], min(8, r1-i)
	}
	return scratch[:8*d], transpose8(x, stride, d, i, r1, scratch)
}

// transposeAll returns x (n rows) in 8-row groups for group8, the last
// group padded with zero rows.
func transposeAll(x []float64, stride, n, d int) []float64 {
	ng := (n + 7) / 8
	out := make([]float64, ng*8*d)
	for g := 0; g < ng; g++ {
		transpose8(x, stride, d, 8*g, n, out[g*8*d:(g+1)*8*d])
	}
	return out
}

// transpose8 copies rows i..min(i+8, r1) of x into xt[l*8+t], zero-filling
// missing rows, and returns how many rows were copied.
func transpose8(x []float64, stride, d, i, r1 int, xt []float64) int {
	nr := min(8, r1-i)
	for t := 0; t < 8; t++ {
		if t < nr {
			for l, v := range x[(i+t)*stride : (i+t)*stride+d] {
				xt[l*8+t] = v
			}
		} else {
			for l := 0; l < d; l++ {
				xt[l*8+t] = 0
			}
		}
	}
	return nr
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
