package mixture

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

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
}

// Select fits a mixture for every number of components in pool (with
// settings s, whose Components is ignored; every L uses the same Seed, so
// each entry equals a separate Fit) and chooses the smallest BIC, as the
// paper does (Eq. 4-5); ties keep the earlier entry of the pool. Fits of
// different L run in parallel when the pool has at least Workers entries.
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
	type out struct {
		m   *Model
		res *FitResult
		err error
	}
	outs := make([]out, len(pool))
	fit := func(i, w int) {
		cs := base
		cs.Components = pool[i]
		cs.Workers = w
		m, res, err := Fit(ctx, x, &cs)
		outs[i] = out{m, res, err}
	}
	if len(pool) >= workers && workers > 1 {
		order := make([]int, len(pool))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return pool[b] - pool[a] })
		parallel(workers, len(pool), func(_, j int) { fit(order[j], 1) })
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
	sel.Seconds = time.Since(start).Seconds()
	return sel, nil
}
