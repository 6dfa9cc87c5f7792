package mixture

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/rng"
)

// FitResult describes how a fit went.
type FitResult struct {
	Components int            `json:"components"`
	Covariance CovarianceType `json:"covariance"`
	// Family is the component distribution (omitted for Gaussian).
	Family Family `json:"family,omitempty"`
	// Nu holds the T family's degrees of freedom per component.
	Nu          []float64 `json:"nu,omitempty"`
	Rows        int       `json:"rows"`
	Features    int       `json:"features"`
	NParameters int       `json:"n_parameters"`
	// MeanLogLik is the mean log-likelihood per row of the returned model
	// on the training data (scikit-learn's score(X)).
	MeanLogLik float64 `json:"mean_loglik"`
	BIC        float64 `json:"bic"`
	AIC        float64 `json:"aic"`
	// Iterations and Converged describe the kept restart.
	Iterations int  `json:"iterations"`
	Converged  bool `json:"converged"`
	// BestRestart is the index of the kept restart: the highest final
	// log-likelihood, the earliest among restarts within 1e-12 relative.
	BestRestart int `json:"best_restart"`
	// Restarts describes every restart, in order.
	Restarts []Restart `json:"restarts"`
	// TotalIterations sums the EM iterations of all restarts.
	TotalIterations int `json:"total_iterations"`
	// Seconds is the wall-clock time of the whole fit.
	Seconds float64 `json:"seconds"`
	// Notes lists, in words, anything a statistician should know: restarts
	// that did not converge, re-seeded components, extra ridge.
	Notes []string `json:"notes,omitempty"`
}

// Restart describes one EM run.
type Restart struct {
	MeanLogLik float64 `json:"mean_loglik"`
	Iterations int     `json:"iterations"`
	Converged  bool    `json:"converged"`
	// Reseeded counts components that lost all their points (total
	// responsibility below 1e-8) and were moved to the worst-explained row
	// with the covariance of the whole data.
	Reseeded int `json:"reseeded"`
	// Regularized counts covariance matrices that were not positive
	// definite even with RegCovar and got a larger ridge.
	Regularized int `json:"regularized"`
}

// emptyResp is the total responsibility below which a component counts as
// having lost all its points.
const emptyResp = 1e-8

func (s *Settings) resolve(n, d int) (*resolved, error) {
	if s == nil {
		s = &Settings{}
	}
	r := &resolved{k: s.Components, nInit: s.NInit, maxIter: s.MaxIter, kmIter: s.KMeansIter,
		workers: workerCount(s.Workers), tol: s.Tol, reg: s.RegCovar, init: s.Init, seed: s.Seed,
		progress: s.Progress, logger: s.Logger, family: s.Family, nu: s.Nu}
	if r.k == 0 {
		r.k = 1
	}
	if r.nInit == 0 {
		r.nInit = 1
	}
	if r.maxIter == 0 {
		r.maxIter = DefaultMaxIter
	}
	if r.kmIter == 0 {
		r.kmIter = DefaultKMeansIter
	}
	if r.tol == 0 {
		r.tol = DefaultTol
	}
	if r.reg == 0 {
		r.reg = DefaultRegCovar
	} else if r.reg < 0 {
		r.reg = 0
	}
	switch {
	case r.k < 0:
		return nil, fmt.Errorf("mixture: %d components", r.k)
	case r.nInit < 0 || r.maxIter < 0 || r.kmIter < 0:
		return nil, fmt.Errorf("mixture: negative NInit, MaxIter or KMeansIter")
	case r.nInit > MaxNInit:
		return nil, fmt.Errorf("mixture: NInit %d: at most %d restarts", r.nInit, MaxNInit)
	case s.Covariance < Full || s.Covariance > Auto:
		return nil, fmt.Errorf("mixture: invalid covariance type %d", int(s.Covariance))
	case s.Family != Gaussian && s.Family != T:
		return nil, fmt.Errorf("mixture: invalid family %d", int(s.Family))
	case s.Nu < 0 || math.IsNaN(s.Nu) || math.IsInf(s.Nu, 0):
		return nil, fmt.Errorf("mixture: degrees of freedom %v, want a positive finite number (or 0: estimated)", s.Nu)
	case s.Init != InitKMeans && s.Init != InitKMeansPP:
		return nil, fmt.Errorf("mixture: invalid init %d", int(s.Init))
	case n < r.k:
		return nil, fmt.Errorf("mixture: %d components need at least %d rows, have %d", r.k, r.k, n)
	}
	r.typ = s.Covariance.Resolve(d, s.AutoMaxFull)
	if r.logger == nil {
		r.logger = slog.New(slog.DiscardHandler)
	}
	return r, nil
}

// Fit fits a Gaussian mixture to the rows of x by EM with the given
// settings (nil means defaults) and returns the best of Settings.NInit
// restarts. x must hold only finite values; the error names the first row
// and column that does not.
func Fit(ctx context.Context, x *mat.Dense, s *Settings) (*Model, *FitResult, error) {
	return fitFrom(ctx, x, s, nil)
}

// fitFrom is Fit; startResp, when not nil, fills the initial
// responsibilities of one EM run in place of s.Start or the restarts.
func fitFrom(ctx context.Context, x *mat.Dense, s *Settings, startResp func(resp []float64) error) (*Model, *FitResult, error) {
	start := time.Now()
	data, stride, n, d, err := rawRows(x, -1)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := s.resolve(n, d)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case startResp != nil:
		cfg.nInit, cfg.startResp = 1, startResp
	case s != nil && s.Start != nil:
		if err := cfg.startFrom(s.Start, x, n, d); err != nil {
			return nil, nil, err
		}
	}
	if cfg.progress != nil {
		var mu sync.Mutex
		f := cfg.progress
		cfg.progress = func(p Progress) { mu.Lock(); defer mu.Unlock(); f(p) }
	}
	if cfg.family == T {
		return fitT(ctx, data, stride, n, d, cfg, start)
	}
	glob, xt := cfg.layouts(data, stride, n, d)
	outs := runRestarts(ctx, data, stride, n, d, cfg, glob, xt)
	res, best, err := cfg.pickRestart(outs, n, d)
	if err != nil {
		return nil, nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	cfg.logger.Debug("mixture fit", "components", cfg.k, "covariance", cfg.typ.String(),
		"mean_loglik", res.MeanLogLik, "best_restart", res.BestRestart, "seconds", res.Seconds)
	return modelFromParams(best), res, nil
}

// startFrom makes the fit one restart from start's responsibilities of
// the n rows of x over d features; start must match the fit.
func (cfg *resolved) startFrom(start *Model, x *mat.Dense, n, d int) error {
	switch {
	case start.p == nil:
		return fmt.Errorf("mixture: start model: %w", errNotPrepared)
	case start.K() != cfg.k || start.Dim() != d:
		return fmt.Errorf("mixture: start model has %d components over %d features, the fit %d over %d", start.K(), start.Dim(), cfg.k, d)
	}
	cfg.nInit = 1
	cfg.startResp = func(resp []float64) error {
		r, err := start.Responsibilities(x, mat.NewDense(n, cfg.k, resp))
		if err != nil {
			return fmt.Errorf("mixture: start model: %w", err)
		}
		if raw := r.RawMatrix(); &raw.Data[0] != &resp[0] {
			copy(resp, raw.Data)
		}
		return nil
	}
	return nil
}

// layouts sets up the views of the data the iterations read: the data
// covariance (computed once, when first needed), and either the Diag
// layout or the rows transposed in 8-row groups.
func (cfg *resolved) layouts(data []float64, stride, n, d int) (glob func() []float64, xt []float64) {
	// The data covariance is needed only to re-seed components, rarely.
	glob = sync.OnceValue(func() []float64 { return globalCovariance(data, stride, n, d, cfg) })
	if useDiagFast(cfg.typ, d) {
		cfg.diag = sync.OnceValue(func() *diagData { return newDiagData(data, stride, n, d) })
	}
	// The Diag iterations on wide data read their own layout (diagData);
	// the others read x in 8-row groups.
	if !useDiagFast(cfg.typ, d) {
		xt = transposeAll(data, stride, n, d)
	} else {
		// Only iterations whose expansion is too inexact need it.
		cfg.xt = sync.OnceValue(func() []float64 { return transposeAll(data, stride, n, d) })
	}
	return glob, xt
}

// restartOut is what one EM restart gives.
type restartOut struct {
	p   *params
	res Restart
	err error
}

// runRestarts runs the cfg.nInit EM restarts.
func runRestarts(ctx context.Context, data []float64, stride, n, d int, cfg *resolved, glob func() []float64, xt []float64) []restartOut {
	// Restarts run in parallel when there are enough of them to keep the
	// workers busy; otherwise each restart spreads its row blocks over the
	// workers. Either way the numbers are the same.
	outer, inner := 1, cfg.workers
	if cfg.nInit >= cfg.workers {
		outer, inner = cfg.workers, 1
	} else if cfg.nInit > 1 {
		outer, inner = cfg.nInit, max(1, cfg.workers/cfg.nInit)
	}
	outs := make([]restartOut, cfg.nInit)
	par.ForWorker(outer, cfg.nInit, func(_, r int) {
		if err := ctx.Err(); err != nil {
			outs[r].err = err
			return
		}
		e := newEM(data, stride, n, d, cfg, inner, glob, xt)
		p, res, err := e.run(ctx, r)
		outs[r] = restartOut{p, res, err}
	})
	return outs
}

// pickRestart keeps the restart of the best mean log-likelihood and sums
// the restarts up; the first restart's error is returned.
func (cfg *resolved) pickRestart(outs []restartOut, n, d int) (*FitResult, *params, error) {
	res := &FitResult{Components: cfg.k, Covariance: cfg.typ, Rows: n, Features: d,
		NParameters: nParameters(cfg.typ, cfg.k, d), BestRestart: -1}
	for r, o := range outs {
		if o.err != nil {
			return nil, nil, o.err
		}
		res.Restarts = append(res.Restarts, o.res)
		res.TotalIterations += o.res.Iterations
		// A later restart must be better by more than rounding noise, so
		// the choice does not flip with the last bits of the arithmetic.
		if res.BestRestart < 0 {
			res.BestRestart = r
		} else if b := outs[res.BestRestart].res.MeanLogLik; o.res.MeanLogLik > b+1e-12*math.Abs(b) {
			res.BestRestart = r
		}
		if o.res.Reseeded > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("restart %d: %d time(s) a component lost all its points and was re-seeded at the worst-fitted row", r, o.res.Reseeded))
		}
		if o.res.Regularized > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("restart %d: %d time(s) a covariance was singular and got a larger ridge than RegCovar", r, o.res.Regularized))
		}
	}
	best := outs[res.BestRestart]
	res.MeanLogLik = best.res.MeanLogLik
	res.Iterations = best.res.Iterations
	res.Converged = best.res.Converged
	if !res.Converged {
		res.Notes = append(res.Notes, fmt.Sprintf("the kept restart did not converge in %d iterations (tol %g)", cfg.maxIter, cfg.tol))
	}
	res.BIC = bic(res.MeanLogLik, n, res.NParameters)
	res.AIC = aic(res.MeanLogLik, n, res.NParameters)
	return res, best.p, nil
}

// columnMeans returns the mean of each of the d columns of the n rows of
// x (row i at x[i*stride:]), summed in row order.
func columnMeans(x []float64, stride, n, d int) []float64 {
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range x[i*stride : i*stride+d] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	return mean
}

// globalCovariance returns the covariance of all rows in the layout of
// cfg.typ (one component's worth), plus the ridge; re-seeded components
// start from it.
func globalCovariance(x []float64, stride, n, d int, cfg *resolved) []float64 {
	mean := columnMeans(x, stride, n, d)
	full := cfg.typ == Full || cfg.typ == Tied
	var c []float64
	if full {
		c = make([]float64, d*d)
	} else {
		c = make([]float64, d)
	}
	z := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range x[i*stride : i*stride+d] {
			z[j] = v - mean[j]
		}
		if full {
			for a := 0; a < d; a++ {
				row := c[a*d : a*d+d]
				for b := 0; b <= a; b++ {
					row[b] += z[a] * z[b]
				}
			}
		} else {
			for j, v := range z {
				c[j] += v * v
			}
		}
	}
	inv := 1 / float64(n)
	if full {
		for a := 0; a < d; a++ {
			for b := 0; b <= a; b++ {
				v := c[a*d+b] * inv
				c[a*d+b], c[b*d+a] = v, v
			}
			c[a*d+a] += cfg.reg
		}
		return c
	}
	for j := range c {
		c[j] = c[j]*inv + cfg.reg
	}
	if cfg.typ == Spherical {
		s := 0.0
		for _, v := range c {
			s += v
		}
		return []float64{s / float64(d)}
	}
	return c
}

// em is the state of one restart.
type em struct {
	x                []float64
	xt               []float64 // x in 8-row groups (transposeAll), shared by restarts
	stride, n, d, k  int
	cfg              *resolved
	workers          int
	glob             func() []float64 // covariance of all rows, computed on first use
	p                *params
	resp             []float64 // n*k: log densities, then responsibilities
	ll               []float64 // n: per-row log-likelihood
	bNk, bSx, bLL    []float64 // per-block partial sums
	nk               []float64
	scratch          [][]float64 // per worker, scratchLen(d)
	nz               [][]int32   // per component: rows with nonzero responsibility
	syrk             []syrkBuffers
	lanes            [][]float64 // per worker, k*d*8 lane sums
	rt               [][]float64 // per worker, k*blockRows responsibilities by group
	facScratch       []float64
	reseeded, ridged int
	reseedBudget     int
	reseedThisMStep  bool

	// Diag iterations (diagfast.go): the prepared data, the parameters in
	// component lanes, per-block sums, and whether the last E-step left
	// its statistics there for the M-step.
	dd        *diagData
	pt, bt    []float64
	cst       []float64
	bS1, bS2  []float64
	rp        [][]float64 // per worker, diagChunk*8 responsibilities when k != 8
	fast      bool
	exactDens bool      // the last prepDiag found the expansion too inexact
	ill       []illPair // pairs computed exactly beside the expansion
	exactVars int       // variances recomputed by diagExactVars (for tests)
}

func newEM(x []float64, stride, n, d int, cfg *resolved, workers int, glob func() []float64, xt []float64) *em {
	k := cfg.k
	nb := numBlocks(n)
	e := &em{x: x, xt: xt, stride: stride, n: n, d: d, k: k, cfg: cfg, workers: workers, glob: glob,
		p: newParams(cfg.typ, k, d), resp: make([]float64, n*k), ll: make([]float64, n),
		bNk: make([]float64, nb*k), bSx: make([]float64, nb*k*d), bLL: make([]float64, nb),
		nk: make([]float64, k), reseedBudget: 3 * k}
	if cfg.typ == Full || cfg.typ == Tied {
		// The Cholesky factorisation's scratch: d x d, only for the
		// covariance types that have d x d matrices (50,000 diagonal
		// features asked for 20 GB of it).
		e.facScratch = make([]float64, d*d)
	}
	e.scratch = make([][]float64, workers)
	e.lanes = make([][]float64, workers)
	e.rt = make([][]float64, workers)
	for w := range e.scratch {
		e.scratch[w] = make([]float64, scratchLen(d))
		e.lanes[w] = make([]float64, k*d*8)
		e.rt[w] = make([]float64, k*blockRows)
	}
	if cfg.typ == Full || cfg.typ == Tied {
		e.nz = make([][]int32, k)
	}
	if useDiagFast(cfg.typ, d) {
		if cfg.diag != nil {
			e.initDiag(cfg.diag())
		} else {
			e.initDiag(newDiagData(x, stride, n, d))
		}
	}
	return e
}

func (e *em) run(ctx context.Context, restart int) (*params, Restart, error) {
	rnd := rng.Derive(e.cfg.seed, uint64(restart))
	var res Restart
	// Initial responsibilities: one-hot from k-means labels or k-means++ seeds.
	clear(e.resp)
	switch {
	case e.cfg.startResp != nil:
		if err := e.cfg.startResp(e.resp); err != nil {
			return nil, res, err
		}
	case e.cfg.init == InitKMeans:
		labels, err := kmeans(ctx, e.x, e.stride, e.n, e.d, e.k, e.cfg.kmIter, e.workers, rnd)
		if err != nil {
			return nil, res, err
		}
		for i, c := range labels {
			e.resp[i*e.k+c] = 1
		}
	case e.cfg.init == InitKMeansPP:
		for c, i := range kmeansPP(e.x, e.stride, e.n, e.d, e.k, rnd) {
			e.resp[i*e.k+c] = 1
		}
	}
	clear(e.ll)
	if e.dd != nil {
		par.ForWorker(e.workers, numBlocks(e.n), func(w, b int) { e.diagBlockStats(w, b) })
		e.fast = true
	} else {
		par.ForWorker(e.workers, numBlocks(e.n), func(w, b int) { e.partials(w, b) })
	}
	e.mstep()

	lb := math.Inf(-1)
	for it := 1; it <= e.cfg.maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, res, err
		}
		prev := lb
		lb = e.estep(true)
		if math.IsNaN(lb) || math.IsInf(lb, 0) {
			return nil, res, fmt.Errorf("mixture: log-likelihood became %v at iteration %d of restart %d", lb, it, restart)
		}
		e.mstep()
		res.Iterations = it
		change := lb - prev
		if e.cfg.progress != nil {
			e.cfg.progress(Progress{Components: e.k, Restart: restart, Iteration: it, MeanLogLik: lb, Change: change})
		}
		if math.Abs(change) < e.cfg.tol && !e.reseedThisMStep {
			res.Converged = true
			break
		}
	}
	res.MeanLogLik = e.estep(false) // the kept parameters' score; no M-step follows
	if math.IsNaN(res.MeanLogLik) || math.IsInf(res.MeanLogLik, 0) {
		return nil, res, errors.New("mixture: final log-likelihood is not finite")
	}
	res.Reseeded, res.Regularized = e.reseeded, e.ridged
	e.cfg.logger.Debug("mixture restart", "components", e.k, "restart", restart,
		"mean_loglik", res.MeanLogLik, "iterations", res.Iterations, "converged", res.Converged)
	return e.p, res, nil
}

// estep computes responsibilities and per-row log-likelihoods under the
// current parameters, and with stats the per-block sufficient statistics
// of the next M-step, and returns the mean log-likelihood.
func (e *em) estep(stats bool) float64 {
	K := e.k
	// The Diag iterations take the fast path; the final score (stats
	// false) the exact one, as Model.Score.
	fast := stats && e.dd != nil
	if fast {
		e.prepDiag()
		// Too inexact an expansion: this iteration takes the exact path.
		fast = !e.exactDens
	}
	// Exact iterations read the 8-row groups, made on first need; the
	// final score transposes as it goes.
	if !fast && stats && e.xt == nil && e.cfg.xt != nil {
		e.xt = e.cfg.xt()
	}
	par.ForWorker(e.workers, numBlocks(e.n), func(w, b int) {
		if fast {
			e.bLL[b] = e.estepDiagBlock(w, b)
			return
		}
		r0, r1 := b*blockRows, min((b+1)*blockRows, e.n)
		a := e.resp[r0*K : r1*K]
		e.p.logDensityBlock(e.x, e.stride, r0, r1, a, e.scratch[w], e.xt)
		sum := respBlock(a, K, e.p.logw, e.ll[r0:r1])
		e.bLL[b] = sum
		if stats {
			e.partials(w, b)
		}
	})
	e.fast = fast
	// Summed per block, then over blocks in order, exactly as Model.Score.
	s := 0.0
	for _, v := range e.bLL {
		s += v
	}
	return s / float64(e.n)
}

// partials computes block b's sums of responsibilities and of
// responsibility-weighted rows. The rows are taken eight at a time, one
// per vector lane (e.xt), and each component's lane sums stay in registers
// across the block (lanesAxpy); worker w's scratch holds them.
func (e *em) partials(w, b int) {
	K, d := e.k, e.d
	r0, r1 := b*blockRows, min((b+1)*blockRows, e.n)
	nk := e.bNk[b*K : (b+1)*K]
	clear(nk)
	ng := (r1 - r0 + 7) / 8
	rt := e.respGroups(w, r0, r1, nk)
	xtb := e.xt[(r0/8)*8*d : (r0/8+ng)*8*d]
	lanes := e.lanes[w]
	clear(lanes)
	for l := 0; l < K; l++ {
		lanesAxpy(lanes[l*d*8:(l+1)*d*8], xtb, rt[l*ng*8:(l+1)*ng*8], d, ng)
	}
	reduceLanes(e.bSx[b*K*d:(b+1)*K*d], lanes)
}

// respGroups returns worker w's copy of the responsibilities of rows
// r0..r1 laid out per component in 8-row groups (rt[l][g][t], zero past
// r1), adding each row's responsibilities to nk when it is not nil.
func (e *em) respGroups(w, r0, r1 int, nk []float64) []float64 {
	K := e.k
	ng := (r1 - r0 + 7) / 8
	rt := e.rt[w][:K*ng*8]
	clear(rt)
	for i := r0; i < r1; i++ {
		g, t := (i-r0)/8, (i-r0)%8
		for l, r := range e.resp[i*K : (i+1)*K] {
			rt[l*ng*8+g*8+t] = r
			if nk != nil {
				nk[l] += r
			}
		}
	}
	return rt
}

// reduceLanes sets dst[j] to the sum of the 8 lanes lanes[j*8:j*8+8].
func reduceLanes(dst, lanes []float64) {
	for j := range dst {
		v := lanes[j*8 : j*8+8]
		dst[j] = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
	}
}

// mstep re-estimates weights, means and covariances from the block sums
// and the responsibilities, as scikit-learn's _m_step (10*eps added to each
// component's total responsibility), with covariances accumulated about
// the new means for accuracy.
func (e *em) mstep() {
	if e.fast {
		e.mstepDiagFast()
		return
	}
	K, d, nb := e.k, e.d, numBlocks(e.n)
	p := e.p
	raw := make([]float64, K)
	clear(p.mean)
	for b := 0; b < nb; b++ {
		for l := 0; l < K; l++ {
			raw[l] += e.bNk[b*K+l]
			s := e.bSx[(b*K+l)*d : (b*K+l+1)*d]
			m := p.mean[l*d : (l+1)*d]
			for j, v := range s {
				m[j] += v
			}
		}
	}
	eps10 := 10 * 2.220446049250313e-16
	for l := 0; l < K; l++ {
		e.nk[l] = raw[l] + eps10
		inv := 1 / e.nk[l]
		for j := range p.mean[l*d : (l+1)*d] {
			p.mean[l*d+j] *= inv
		}
	}
	reseed := e.reseedEmpty(raw)

	switch p.typ {
	case Full:
		e.covFull(reseed)
	case Tied:
		e.covTied()
	case Diag, Spherical:
		e.covDiag(reseed)
	}
	e.factorWithRidge()
}

// reseedEmpty moves components that lost all their points (raw total
// responsibility below emptyResp) to the worst-fitted rows, then sets the
// weights from e.nk; it reports which components moved.
func (e *em) reseedEmpty(raw []float64) []bool {
	K, d := e.k, e.d
	p := e.p
	// Components that lost all their points restart at the worst-fitted rows.
	e.reseedThisMStep = false
	reseed := make([]bool, K)
	var taken []int
	for l := 0; l < K; l++ {
		if raw[l] >= emptyResp || e.reseedBudget == 0 {
			continue
		}
		worst := -1
		for i := 0; i < e.n; i++ {
			if (worst < 0 || e.ll[i] < e.ll[worst]) && !containsInt(taken, i) {
				worst = i
			}
		}
		taken = append(taken, worst)
		copy(p.mean[l*d:(l+1)*d], e.x[worst*e.stride:worst*e.stride+d])
		e.nk[l] = 1
		reseed[l] = true
		e.reseedBudget--
		e.reseeded++
		e.reseedThisMStep = true
		e.cfg.logger.Debug("mixture: component re-seeded", "component", l, "row", worst)
	}
	tot := 0.0
	for _, v := range e.nk {
		tot += v
	}
	w := make([]float64, K)
	for l := range w {
		w[l] = e.nk[l] / tot
	}
	p.setWeights(w)

	return reseed
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// blockChunks splits the nb 4-row blocks of a d x d upper triangle
// (tiles 4 x 8 up to column d8) into at most parts ranges of about equal
// work.
func blockChunks(nb, d8, parts int) []int {
	work := func(ib int) int { return (d8 - (4*ib/8)*8) / 8 }
	total := 0
	for ib := 0; ib < nb; ib++ {
		total += work(ib)
	}
	bounds := []int{0}
	acc := 0
	for ib := 0; ib < nb; ib++ {
		acc += work(ib)
		if len(bounds) < parts && acc*parts >= total*len(bounds) && ib+1 < nb {
			bounds = append(bounds, ib+1)
		}
	}
	return append(bounds, nb)
}

// nonzeroRows lists, per component, the rows whose responsibility is not
// exactly zero (exactly-zero rows add nothing to the sums).
func (e *em) nonzeroRows() {
	K := e.k
	for l := range e.nz {
		e.nz[l] = e.nz[l][:0]
	}
	for i := 0; i < e.n; i++ {
		for l, r := range e.resp[i*K : (i+1)*K] {
			if r != 0 {
				e.nz[l] = append(e.nz[l], int32(i))
			}
		}
	}
}

// syrkBuffers are one worker's buffers for scatter matrices: a and b hold
// up to mRows centred rows (b) and the same rows times their
// responsibilities (a), padded to d8 columns with zeros; acc is a d4 x d8
// accumulator.
type syrkBuffers struct{ a, b, acc []float64 }

// mRows is the number of rows packed per kernel pass: the packed a and b
// stay within about 256 KiB, so they are reused from cache by every tile.
func mRows(d8 int) int { return max(16, min(256, 16384/d8)) }

// scatterUpper adds sum_i r_il (x_i - mu_l)(x_i - mu_l)^T, over the rows
// with nonzero responsibility of each component l in comps, into rows
// [4*ib0, 4*ib1) of the upper triangle of acc (stride d8). Rows are packed
// mRows at a time and each 4 x 8 tile is accumulated by syrk4x8, so the
// summation order depends only on the data, never on the workers.
func (e *em) scatterUpper(buf *syrkBuffers, comps []int, ib0, ib1 int) {
	d, K := e.d, e.k
	d8 := pad8(d)
	mr := mRows(d8)
	j0 := (4 * ib0 / 8) * 8 // first column any tile of this range reads
	acc := buf.acc
	clear(acc[4*ib0*d8 : 4*ib1*d8])
	for _, l := range comps {
		mu := e.p.mean[l*d : (l+1)*d]
		rows := e.nz[l]
		for t0 := 0; t0 < len(rows); t0 += mr {
			nr := min(mr, len(rows)-t0)
			for t, row := range rows[t0 : t0+nr] {
				r := e.resp[int(row)*K+l]
				xr := e.x[int(row)*e.stride : int(row)*e.stride+d]
				ar := buf.a[t*d8 : t*d8+d]
				br := buf.b[t*d8 : t*d8+d]
				for j := j0; j < d; j++ {
					z := xr[j] - mu[j]
					br[j] = z
					ar[j] = r * z
				}
			}
			for ib := ib0; ib < ib1; ib++ {
				i := 4 * ib
				for jb := (i / 8) * 8; jb < d8; jb += 8 {
					syrk4x8(buf.a[i:], buf.b[jb:], d8, nr, acc[i*d8+jb:], d8)
				}
			}
		}
	}
}

func (e *em) newSyrkBuffers() []syrkBuffers {
	d8 := pad8(e.d)
	bufs := make([]syrkBuffers, e.workers)
	for w := range bufs {
		n := mRows(d8) * d8
		bufs[w] = syrkBuffers{a: make([]float64, n+8), b: make([]float64, n+8), acc: make([]float64, pad4(e.d)*d8)}
	}
	return bufs
}

// syrkSetup readies the scatter of covFull and covTied (the rows with a
// nonzero responsibility, the workers' buffers) and returns the padded
// width d8 and the number of 4-column blocks.
func (e *em) syrkSetup() (d8, nb int) {
	e.nonzeroRows()
	if e.syrk == nil {
		e.syrk = e.newSyrkBuffers()
	}
	return pad8(e.d), pad4(e.d) / 4
}

// scaleMirror scales the upper triangle of the d x d matrix cov by inv,
// mirrors it into the lower one and adds the ridge reg to the diagonal.
func scaleMirror(cov []float64, d int, inv, reg float64) {
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			v := cov[i*d+j] * inv
			cov[i*d+j], cov[j*d+i] = v, v
		}
		cov[i*d+i] += reg
	}
}

func (e *em) covFull(reseed []bool) {
	K, d := e.k, e.d
	p := e.p
	d8, nb := e.syrkSetup()
	parts := max(1, (2*e.workers+K-1)/K)
	chunks := blockChunks(nb, d8, parts)
	nc := len(chunks) - 1
	par.ForWorker(e.workers, K*nc, func(w, job int) {
		l, c := job/nc, job%nc
		if reseed[l] {
			return
		}
		buf := &e.syrk[w]
		e.scatterUpper(buf, []int{l}, chunks[c], chunks[c+1])
		cov := p.cov[l*d*d : (l+1)*d*d]
		for i := 4 * chunks[c]; i < min(4*chunks[c+1], d); i++ {
			copy(cov[i*d+i:i*d+d], buf.acc[i*d8+i:i*d8+d])
		}
	})
	for l := 0; l < K; l++ {
		cov := p.cov[l*d*d : (l+1)*d*d]
		if reseed[l] {
			copy(cov, e.glob())
			continue
		}
		scaleMirror(cov, d, 1/e.nk[l], e.cfg.reg)
	}
}

func (e *em) covTied() {
	K, d := e.k, e.d
	p := e.p
	d8, nb := e.syrkSetup()
	comps := make([]int, K)
	for l := range comps {
		comps[l] = l
	}
	chunks := blockChunks(nb, d8, 2*e.workers)
	nc := len(chunks) - 1
	cov := p.cov
	par.ForWorker(e.workers, nc, func(w, c int) {
		buf := &e.syrk[w]
		e.scatterUpper(buf, comps, chunks[c], chunks[c+1])
		for i := 4 * chunks[c]; i < min(4*chunks[c+1], d); i++ {
			copy(cov[i*d+i:i*d+d], buf.acc[i*d8+i:i*d8+d])
		}
	})
	tot := 0.0
	for _, v := range e.nk {
		tot += v
	}
	scaleMirror(cov, d, 1/tot, e.cfg.reg)
}

func (e *em) covDiag(reseed []bool) {
	K, d, nb := e.k, e.d, numBlocks(e.n)
	p := e.p
	par.ForWorker(e.workers, nb, func(w, b int) {
		r0, r1 := b*blockRows, min((b+1)*blockRows, e.n)
		ng := (r1 - r0 + 7) / 8
		rt := e.respGroups(w, r0, r1, nil)
		xtb := e.xt[(r0/8)*8*d : (r0/8+ng)*8*d]
		lanes := e.lanes[w]
		clear(lanes)
		for l := 0; l < K; l++ {
			lanesWsq(lanes[l*d*8:(l+1)*d*8], xtb, rt[l*ng*8:(l+1)*ng*8], p.mean[l*d:(l+1)*d], d, ng)
		}
		reduceLanes(e.bSx[b*K*d:(b+1)*K*d], lanes)
	})
	v := make([]float64, K*d)
	for b := 0; b < nb; b++ {
		for j, s := range e.bSx[b*K*d : (b+1)*K*d] {
			v[j] += s
		}
	}
	for l := 0; l < K; l++ {
		inv := 1 / e.nk[l]
		for j := 0; j < d; j++ {
			v[l*d+j] *= inv
		}
	}
	e.finishDiag(v, reseed)
}

// finishDiag adds the ridge to the variances v (k*d), replaces those of
// re-seeded components by the data's, and stores them (Spherical: their
// mean per component).
func (e *em) finishDiag(v []float64, reseed []bool) {
	K, d := e.k, e.d
	p := e.p
	for t := range v {
		v[t] += e.cfg.reg
	}
	if p.typ == Diag {
		for l := 0; l < K; l++ {
			if reseed[l] {
				copy(v[l*d:(l+1)*d], e.glob())
			}
		}
		copy(p.cov, v)
		return
	}
	for l := 0; l < K; l++ {
		if reseed[l] {
			p.cov[l] = e.glob()[0]
			continue
		}
		s := 0.0
		for _, x := range v[l*d : (l+1)*d] {
			s += x
		}
		p.cov[l] = s / float64(d)
	}
}

// factorWithRidge factors the covariances, adding a growing ridge to any
// that is not positive definite (only possible with RegCovar < 0 or
// near-collinear data) and, failing that, replacing it by the covariance
// of the whole data.
func (e *em) factorWithRidge() {
	p, d := e.p, e.d
	for tries := 0; ; tries++ {
		bad := p.factor(e.facScratch)
		if bad < 0 {
			return
		}
		e.ridged++
		e.cfg.logger.Debug("mixture: covariance not positive definite, adding ridge", "component", bad)
		var c []float64
		switch p.typ {
		case Full:
			c = p.cov[bad*d*d : (bad+1)*d*d]
		case Tied:
			c = p.cov
		case Diag:
			c = p.cov[bad*d : (bad+1)*d]
		case Spherical:
			c = p.cov[bad : bad+1]
		}
		if tries > 60 {
			// Even the data covariance failed: fall back to the identity.
			clear(c)
			if p.typ == Full || p.typ == Tied {
				for j := 0; j < d; j++ {
					c[j*(d+1)] = 1
				}
			} else {
				for j := range c {
					c[j] = 1
				}
			}
			continue
		}
		if tries > 40 {
			copy(c, e.glob())
			if p.typ == Tied || p.typ == Full {
				continue
			}
			for j := range c {
				if !(c[j] > 0) {
					c[j] = 1
				}
			}
			continue
		}
		scale := 0.0
		diagStep, n := 1, len(c)
		if p.typ == Full || p.typ == Tied {
			diagStep, n = d+1, d
		}
		for j := 0; j < n; j++ {
			scale = max(scale, math.Abs(c[j*diagStep]))
		}
		if !(scale > 0) || math.IsNaN(scale) || math.IsInf(scale, 0) {
			scale = 1
		}
		ridge := scale * 1e-10 * math.Pow(10, float64(tries/2))
		for j := 0; j < n; j++ {
			v := c[j*diagStep]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				v = scale
			}
			c[j*diagStep] = v + ridge
		}
	}
}

// MaxNInit bounds Settings.NInit: each restart holds its own fit until
// the best is chosen.
const MaxNInit = 1000
