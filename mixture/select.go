package mixture

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/aer-go/aer/internal/steps"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/internal/rng"
	"gonum.org/v1/gonum/mat"
)

// Candidate is one number of components tried by Select.
type Candidate struct {
	Components  int     `json:"components"`
	NParameters int     `json:"n_parameters"`
	BIC         float64 `json:"bic"`
	AIC         float64 `json:"aic"`
	MeanLogLik  float64 `json:"mean_loglik"`
	Iterations  int     `json:"iterations"`
	Converged   bool    `json:"converged"`
	Seconds     float64 `json:"seconds"`
	// Result is the full fit report; Model the fitted model.
	Result *FitResult `json:"-"`
	Model  *Model     `json:"-"`
}

// Selection is the outcome of Select.
type Selection struct {
	// Candidates lists every L of the pool in the order given.
	Candidates []Candidate `json:"candidates"`
	// Best indexes Candidates: the smallest BIC (the first on ties).
	Best int `json:"best"`
	// Components is the chosen L.
	Components int `json:"components"`
	// Model and Result are the chosen fit.
	Model  *Model     `json:"-"`
	Result *FitResult `json:"-"`
	// Seconds is the time of all fits; Iterations sums their EM
	// iterations over all restarts.
	Seconds    float64 `json:"seconds"`
	Iterations int     `json:"iterations"`
	// SampleRows is the number of rows the candidates were fitted on when
	// Settings.SelectRows subsampled the data, 0 when they used all rows.
	// Candidates then describe the subsample's fits; Model and Result are
	// the chosen L fitted again on all rows.
	SampleRows int `json:"sample_rows,omitempty"`
	// RefitSeconds is the time of that final fit on all rows.
	RefitSeconds float64 `json:"refit_seconds,omitempty"`
	// Projection is the number of principal components the candidates
	// were compared on (Settings.SelectProjection), 0 when they were
	// fitted on the features. Candidates then describe full-covariance
	// fits on the components; Model and Result are the chosen L fitted
	// on the features.
	Projection int `json:"projection,omitempty"`
}

// selectStream is the random stream of Select's subsample, apart from
// the restarts' streams 0..NInit-1.
const selectStream = 1 << 40

// subsample returns x itself when it has at most limit rows (limit <= 0:
// any number), else limit of its rows drawn uniformly without
// replacement, in their order in x.
func subsample(x *mat.Dense, limit int, seed uint64) *mat.Dense {
	n, d := x.Dims()
	if limit <= 0 || n <= limit {
		return x
	}
	// Selection sampling (Knuth's algorithm S): one pass, rows in order.
	rnd := rng.Derive(seed, selectStream)
	out := mat.NewDense(limit, d, nil)
	k := 0
	for i := 0; i < n && k < limit; i++ {
		if rnd.IntN(n-i) < limit-k {
			out.SetRow(k, x.RawRowView(i))
			k++
		}
	}
	return out
}

// Select fits a mixture for every number of components in pool (with
// settings s, whose Components is ignored; every L uses the same Seed, so
// each entry equals a separate Fit) and chooses the smallest BIC, as the
// paper does (Eq. 4-5); ties keep the earlier entry of the pool. Fits of
// different L run in parallel when the pool has at least Workers entries.
// With more rows than Settings.SelectRows the pool is compared on a
// subsample and the chosen L refitted on all rows (see SelectRows).
func Select(ctx context.Context, x *mat.Dense, pool []int, s *Settings) (*Selection, error) {
	if len(pool) == 0 {
		return nil, fmt.Errorf("mixture: empty pool of component counts")
	}
	start := time.Now()
	var base Settings
	if s != nil {
		base = *s
	}
	for _, l := range pool {
		if l <= 0 {
			return nil, fmt.Errorf("mixture: pool holds %d components", l)
		}
	}
	// With at least as many candidates as workers, whole fits run in
	// parallel (largest L first, one worker each), which balances better
	// than restarts within one fit; otherwise each fit uses every worker.
	// Fits are deterministic whatever their workers, so the results agree.
	if f := base.Progress; f != nil {
		// Fits running in parallel share one lock, so calls stay serialised.
		var mu sync.Mutex
		base.Progress = func(p Progress) { mu.Lock(); defer mu.Unlock(); f(p) }
	}
	workers := workerCount(base.Workers)
	limit := base.SelectRows
	if limit == 0 {
		limit = DefaultSelectRows
	}
	xs := x
	if len(pool) > 1 { // one L needs no comparison
		xs = subsample(x, limit, base.Seed)
	}
	sampleRows := 0
	if xs != x {
		sampleRows, _ = xs.Dims()
	}
	var pr *projection
	if _, d := x.Dims(); base.SelectProjection > 0 && base.SelectProjection < d && len(pool) > 1 {
		var err error
		if pr, err = principal(xs, base.SelectProjection, base.Seed); err != nil {
			return nil, err
		}
		xs = pr.apply(xs)
	}
	type out struct {
		m   *Model
		res *FitResult
		err error
	}
	outs := make([]out, len(pool))
	fitted := fittedCounter(base.Fitted, len(pool), xs != x)
	fit := func(i, w int) {
		cs := base
		cs.Components = pool[i]
		cs.Workers = w
		cs.Start = nil
		if pr != nil {
			cs.Covariance = Full
		}
		m, res, err := Fit(ctx, xs, &cs)
		outs[i] = out{m, res, err}
		fitted()
	}
	if len(pool) >= workers && workers > 1 {
		order := make([]int, len(pool))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return pool[b] - pool[a] })
		par.ForWorker(workers, len(pool), func(_, j int) { fit(order[j], 1) })
	} else {
		for i := range pool {
			fit(i, workers)
		}
	}
	sel := &Selection{Best: -1}
	for i, l := range pool {
		m, res, err := outs[i].m, outs[i].res, outs[i].err
		if err != nil {
			return nil, fmt.Errorf("mixture: fitting %d components: %w", l, err)
		}
		sel.Candidates = append(sel.Candidates, Candidate{Components: l, NParameters: res.NParameters,
			BIC: res.BIC, AIC: res.AIC, MeanLogLik: res.MeanLogLik, Iterations: res.Iterations,
			Converged: res.Converged, Seconds: res.Seconds, Result: res, Model: m})
		sel.Iterations += res.TotalIterations
		if sel.Best < 0 || res.BIC < sel.Candidates[sel.Best].BIC {
			sel.Best = len(sel.Candidates) - 1
		}
	}
	b := sel.Candidates[sel.Best]
	sel.Components, sel.Model, sel.Result = b.Components, b.Model, b.Result
	if xs != x {
		sel.SampleRows = sampleRows
		t0 := time.Now()
		cs := base
		cs.Components = b.Components
		cs.Workers = workers
		var startResp func([]float64) error
		switch {
		case pr != nil:
			sel.Projection = base.SelectProjection
			startResp = responsibilitiesOf(b.Model, pr.apply(x))
		case !base.RefitRestarts:
			cs.Start = b.Model
		}
		m, res, err := fitFrom(ctx, x, &cs, startResp)
		if err != nil {
			return nil, fmt.Errorf("mixture: fitting %d components on all rows: %w", b.Components, err)
		}
		sel.Model, sel.Result = m, res
		sel.Iterations += res.TotalIterations
		sel.RefitSeconds = time.Since(t0).Seconds()
		fitted()
	}
	sel.Seconds = time.Since(start).Seconds()
	return sel, nil
}

// fittedCounter reports to f (Settings.Fitted) that none of the fits of
// a pool of size pool (and the refit on all rows, with refit) is done,
// and returns the call that counts one more done; nil f counts nothing.
func fittedCounter(f func(done, total int), pool int, refit bool) func() {
	total := pool
	if refit {
		total++
	}
	return steps.Counter(f, total)
}

// responsibilitiesOf returns a startResp filling in m's responsibilities
// on the rows of z.
func responsibilitiesOf(m *Model, z *mat.Dense) func([]float64) error {
	return func(resp []float64) error {
		n, _ := z.Dims()
		r, err := m.Responsibilities(z, mat.NewDense(n, m.K(), resp))
		if err != nil {
			return fmt.Errorf("mixture: projected fit: %w", err)
		}
		if raw := r.RawMatrix(); &raw.Data[0] != &resp[0] {
			copy(resp, raw.Data)
		}
		return nil
	}
}
