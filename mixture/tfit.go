package mixture

// The T family: a mixture of multivariate t-distributions fitted by the
// ECM algorithm of Peel & McLachlan (2000). Each row's E-step gives its
// responsibilities tau_il and, per component, the weight
// u_il = (nu_l + d) / (nu_l + delta_il) (delta the Mahalanobis distance),
// the expected precision scale of the row; the M-step's means and
// covariances are weighted by tau*u, and nu_l solves the one-dimensional
// equation of the complete-data likelihood by bisection on log nu. The
// iterations take a plain row-by-row path (the Gaussian fast paths are
// left to the Gaussian family).

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"gonum.org/v1/gonum/mathext"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/rng"
)

// Bounds and start of the estimated degrees of freedom.
const (
	tMinNu  = 1e-2
	tMaxNu  = 1e6
	tInitNu = 30
)

// tLogConst returns log Gamma((nu+d)/2) - log Gamma(nu/2) - d/2 log(nu pi),
// the t density's constant, written as G - d/2 log(2 pi) with
// G = log Gamma(x+a) - log Gamma(x) - a log x (x = nu/2, a = d/2) so that
// large nu loses no digits: there G is its Stirling series.
func tLogConst(nu float64, d int) float64 {
	x, a := nu/2, float64(d)/2
	var g float64
	if x > 1e5 {
		g = a*(a-1)/(2*x) - a*(a-1)*(2*a-1)/(12*x*x)
	} else {
		l1, _ := math.Lgamma(x + a)
		l0, _ := math.Lgamma(x)
		g = l1 - l0 - a*math.Log(x)
	}
	return g - a*ln2pi
}

// mahal returns the Mahalanobis distance of row x from component k, with
// z (d values) as scratch.
func (p *params) mahal(x []float64, k int, z []float64) float64 {
	d := p.d
	mu := p.mean[k*d : (k+1)*d]
	q := 0.0
	switch p.typ {
	case Full, Tied:
		W := p.prec
		if p.typ == Full {
			W = p.prec[k*d*d : (k+1)*d*d]
		}
		for j := 0; j < d; j++ {
			z[j] = x[j] - mu[j]
		}
		for j := 0; j < d; j++ {
			y := dot(W[j*d:j*d+j+1], z[:j+1])
			q += y * y
		}
	case Diag:
		pr := p.prec[k*d : (k+1)*d]
		for j := 0; j < d; j++ {
			y := (x[j] - mu[j]) * pr[j]
			q += y * y
		}
	case Spherical:
		for j := 0; j < d; j++ {
			y := x[j] - mu[j]
			q += y * y
		}
		q *= p.prec[k] * p.prec[k]
	}
	return q
}

// tLogDensityBlock is logDensityBlock for the T family: log t(x_i | mu_l,
// Sigma_l, nu_l).
func (p *params) tLogDensityBlock(x []float64, stride, r0, r1 int, out, scratch []float64) {
	d, K := p.d, p.k
	for i := r0; i < r1; i++ {
		row := x[i*stride : i*stride+d]
		for k := 0; k < K; k++ {
			out[(i-r0)*K+k] = p.tLogDens(k, p.mahal(row, k, scratch))
		}
	}
}

// tLogDens is component k's log density at Mahalanobis distance q.
func (p *params) tLogDens(k int, q float64) float64 {
	nu := p.nu[k]
	return tLogConst(nu, p.d) + p.logdet[k] - 0.5*(nu+float64(p.d))*math.Log1p(q/nu)
}

// fitT is Fit for the T family.
func fitT(ctx context.Context, data []float64, stride, n, d int, cfg *resolved, start time.Time) (*Model, *FitResult, error) {
	glob := sync.OnceValue(func() []float64 { return globalCovariance(data, stride, n, d, cfg) })
	outs := make([]restartOut, cfg.nInit)
	par.ForWorker(min(cfg.workers, cfg.nInit), cfg.nInit, func(_, r int) {
		if err := ctx.Err(); err != nil {
			outs[r].err = err
			return
		}
		p, res, err := runT(ctx, data, stride, n, d, cfg, glob, r)
		outs[r] = restartOut{p, res, err}
	})
	res, best, err := cfg.pickRestart(outs, n, d)
	if err != nil {
		return nil, nil, err
	}
	m := modelFromParams(best)
	res.Family, res.Nu = T, append([]float64(nil), m.Nu...)
	res.NParameters = m.NParameters()
	res.BIC = bic(res.MeanLogLik, n, res.NParameters)
	res.AIC = aic(res.MeanLogLik, n, res.NParameters)
	res.Seconds = time.Since(start).Seconds()
	cfg.logger.Debug("mixture fit", "family", "t", "components", cfg.k, "covariance", cfg.typ.String(),
		"mean_loglik", res.MeanLogLik, "nu", res.Nu, "seconds", res.Seconds)
	return m, res, nil
}

// tEM is the state of one T-family restart; e holds what it shares with
// the Gaussian engine (re-seeding, the ridge).
type tEM struct {
	e     *em
	u     []float64 // n*k: E[precision scale] per row and component
	delta []float64 // n*k: Mahalanobis distances
}

func runT(ctx context.Context, x []float64, stride, n, d int, cfg *resolved, glob func() []float64, restart int) (*params, Restart, error) {
	k := cfg.k
	var res Restart
	e := &em{x: x, stride: stride, n: n, d: d, k: k, cfg: cfg, workers: max(1, cfg.workers), glob: glob,
		p: newParams(cfg.typ, k, d), resp: make([]float64, n*k), ll: make([]float64, n),
		nk: make([]float64, k), reseedBudget: 3 * k, bLL: make([]float64, numBlocks(n))}
	if cfg.typ == Full || cfg.typ == Tied {
		e.facScratch = make([]float64, d*d)
	}
	nu0 := cfg.nu
	if nu0 == 0 {
		nu0 = tInitNu
	}
	e.p.nu, e.p.nuFixed = make([]float64, k), cfg.nu > 0
	for l := range e.p.nu {
		e.p.nu[l] = nu0
	}
	t := &tEM{e: e, u: make([]float64, n*k), delta: make([]float64, n*k)}
	for i := range t.u {
		t.u[i] = 1
	}
	rnd := rng.Derive(cfg.seed, uint64(restart))
	switch {
	case cfg.startResp != nil:
		if err := cfg.startResp(e.resp); err != nil {
			return nil, res, err
		}
	case cfg.init == InitKMeans:
		labels, err := kmeans(ctx, x, stride, n, d, k, cfg.kmIter, e.workers, rnd)
		if err != nil {
			return nil, res, err
		}
		for i, c := range labels {
			e.resp[i*k+c] = 1
		}
	case cfg.init == InitKMeansPP:
		for c, i := range kmeansPP(x, stride, n, d, k, rnd) {
			e.resp[i*k+c] = 1
		}
	}
	t.mstep(false) // u = 1: the Gaussian M-step; nu keeps its start
	lb := math.Inf(-1)
	for it := 1; it <= cfg.maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, res, err
		}
		prev := lb
		lb = t.estep()
		if math.IsNaN(lb) || math.IsInf(lb, 0) {
			return nil, res, fmt.Errorf("mixture: t log-likelihood became %v at iteration %d of restart %d", lb, it, restart)
		}
		t.mstep(!e.p.nuFixed)
		res.Iterations = it
		change := lb - prev
		if cfg.progress != nil {
			cfg.progress(Progress{Components: k, Restart: restart, Iteration: it, MeanLogLik: lb, Change: change})
		}
		if math.Abs(change) < cfg.tol && !e.reseedThisMStep {
			res.Converged = true
			break
		}
	}
	res.MeanLogLik = t.estep()
	if math.IsNaN(res.MeanLogLik) || math.IsInf(res.MeanLogLik, 0) {
		return nil, res, errors.New("mixture: final t log-likelihood is not finite")
	}
	res.Reseeded, res.Regularized = e.reseeded, e.ridged
	return e.p, res, nil
}

// estep computes the responsibilities, the u weights and the per-row
// log-likelihoods, and returns the mean log-likelihood.
func (t *tEM) estep() float64 {
	e := t.e
	K, d, p := e.k, e.d, e.p
	par.ForWorker(e.workers, numBlocks(e.n), func(_, b int) {
		r0, r1 := b*blockRows, min((b+1)*blockRows, e.n)
		z := make([]float64, d)
		a := e.resp[r0*K : r1*K]
		for i := r0; i < r1; i++ {
			row := e.x[i*e.stride : i*e.stride+d]
			for l := 0; l < K; l++ {
				q := p.mahal(row, l, z)
				t.delta[i*K+l] = q
				t.u[i*K+l] = (p.nu[l] + float64(d)) / (p.nu[l] + q)
				a[(i-r0)*K+l] = p.tLogDens(l, q)
			}
		}
		e.bLL[b] = respBlock(a, K, p.logw, e.ll[r0:r1])
	})
	s := 0.0
	for _, v := range e.bLL {
		s += v
	}
	return s / float64(e.n)
}

// mstep re-estimates weights, the tau*u-weighted means and covariances
// and, with updateNu, each component's degrees of freedom.
func (t *tEM) mstep(updateNu bool) {
	e := t.e
	K, d, n, p := e.k, e.d, e.n, e.p
	raw := make([]float64, K)
	su := make([]float64, K)
	clear(p.mean)
	for i := 0; i < n; i++ {
		row := e.x[i*e.stride : i*e.stride+d]
		for l := 0; l < K; l++ {
			r := e.resp[i*K+l]
			if r == 0 {
				continue
			}
			raw[l] += r
			w := r * t.u[i*K+l]
			su[l] += w
			axpy(p.mean[l*d:(l+1)*d], row, w)
		}
	}
	eps10 := 10 * 2.220446049250313e-16
	for l := 0; l < K; l++ {
		e.nk[l] = raw[l] + eps10
		inv := 1 / (su[l] + eps10)
		for j := range p.mean[l*d : (l+1)*d] {
			p.mean[l*d+j] *= inv
		}
	}
	// The nu equation uses the E-step's nu, so it is solved before the
	// new values replace it.
	if updateNu {
		for l := 0; l < K; l++ {
			if raw[l] < emptyResp {
				continue
			}
			old := p.nu[l]
			s := 0.0
			for i := 0; i < n; i++ {
				if r := e.resp[i*K+l]; r != 0 {
					u := t.u[i*K+l]
					s += r * (math.Log(u) - u)
				}
			}
			h := (old + float64(d)) / 2
			p.nu[l] = solveNu(s/raw[l] + mathext.Digamma(h) - math.Log(h))
		}
	}
	reseed := e.reseedEmpty(raw)
	full := p.typ == Full || p.typ == Tied
	var acc []float64
	if full {
		acc = make([]float64, K*d*d)
	} else {
		acc = make([]float64, K*d)
	}
	z := make([]float64, d)
	for i := 0; i < n; i++ {
		row := e.x[i*e.stride : i*e.stride+d]
		for l := 0; l < K; l++ {
			r := e.resp[i*K+l]
			if r == 0 || reseed[l] {
				continue
			}
			w := r * t.u[i*K+l]
			mu := p.mean[l*d : (l+1)*d]
			for j := range z {
				z[j] = row[j] - mu[j]
			}
			if full {
				c := acc[l*d*d : (l+1)*d*d]
				for a := 0; a < d; a++ {
					axpy(c[a*d:a*d+a+1], z[:a+1], w*z[a])
				}
			} else {
				c := acc[l*d : (l+1)*d]
				for j, v := range z {
					c[j] += w * v * v
				}
			}
		}
	}
	switch p.typ {
	case Full:
		for l := 0; l < K; l++ {
			cov := p.cov[l*d*d : (l+1)*d*d]
			if reseed[l] {
				copy(cov, e.glob())
				continue
			}
			lowerMirror(cov, acc[l*d*d:(l+1)*d*d], d, 1/e.nk[l], e.cfg.reg)
		}
	case Tied:
		sum := make([]float64, d*d)
		tot := 0.0
		for l := 0; l < K; l++ {
			axpy(sum, acc[l*d*d:(l+1)*d*d], 1)
			tot += e.nk[l]
		}
		lowerMirror(p.cov, sum, d, 1/tot, e.cfg.reg)
	case Diag, Spherical:
		for l := 0; l < K; l++ {
			inv := 1 / e.nk[l]
			for j := 0; j < d; j++ {
				acc[l*d+j] *= inv
			}
		}
		e.finishDiag(acc, reseed)
	}
	e.factorWithRidge()
}

// lowerMirror sets the d x d matrix cov to the lower triangle of s times
// inv, mirrored, plus reg on the diagonal.
func lowerMirror(cov, s []float64, d int, inv, reg float64) {
	for a := 0; a < d; a++ {
		for b := 0; b <= a; b++ {
			v := s[a*d+b] * inv
			cov[a*d+b], cov[b*d+a] = v, v
		}
		cov[a*d+a] += reg
	}
}

// solveNu returns the root in [tMinNu, tMaxNu] of
// log(nu/2) - psi(nu/2) + 1 + c = 0 (Peel & McLachlan 2000, eq. 30),
// by bisection on log nu: the left side falls from +Inf towards 1 + c,
// so a c >= -1 (data as light-tailed as a Gaussian) gives tMaxNu.
func solveNu(c float64) float64 {
	f := func(nu float64) float64 { return math.Log(nu/2) - mathext.Digamma(nu/2) + 1 + c }
	lo, hi := math.Log(tMinNu), math.Log(tMaxNu)
	if f(tMaxNu) >= 0 {
		return tMaxNu
	}
	if f(tMinNu) <= 0 {
		return tMinNu
	}
	for range 100 {
		mid := (lo + hi) / 2
		if f(math.Exp(mid)) > 0 {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-13 {
			break
		}
	}
	return math.Exp((lo + hi) / 2)
}
