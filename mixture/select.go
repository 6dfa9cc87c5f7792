package mixture

import (
	"context"
	"fmt"
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
// paper does (Eq. 4-5).
func Select(ctx context.Context, x *mat.Dense, pool []int, s *Settings) (*Selection, error) {
	if len(pool) == 0 {
		return nil, fmt.Errorf("mixture: empty pool of component counts")
	}
	start := time.Now()
	var base Settings
	if s != nil {
		base = *s
	}
	sel := &Selection{Best: -1}
	for _, l := range pool {
		if l <= 0 {
			return nil, fmt.Errorf("mixture: pool holds %d components", l)
		}
		cs := base
		cs.Components = l
		m, res, err := Fit(ctx, x, &cs)
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
