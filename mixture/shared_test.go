package mixture

import (
	"context"
	"math"
	"testing"
	"time"
)

// TestSharedDatasets fits the majority rows of every dataset in
// ../shared/datasets (standardised), best of 5 restarts as the paper does,
// and checks that every fit converges to finite values, that the kept
// restart is the best, and that EM improved on its k-means start. With
// -short only the two smallest datasets run.
func TestSharedDatasets(t *testing.T) {
	names := sharedDatasets
	if testing.Short() {
		names = []string{"ecoli", "car_eval_34"}
	}
	for _, name := range names {
		x, y := loadShared(t, name)
		xm := majorityStandardized(x, y)
		start := time.Now()
		sel, err := Select(context.Background(), xm, []int{2, 3}, &Settings{Covariance: Auto, NInit: 5})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range sel.Candidates {
			res := c.Result
			if math.IsNaN(c.BIC) || math.IsInf(c.BIC, 0) || math.IsNaN(c.MeanLogLik) {
				t.Errorf("%s L=%d: BIC %v, mean log-likelihood %v", name, c.Components, c.BIC, c.MeanLogLik)
			}
			if !c.Converged {
				t.Errorf("%s L=%d did not converge in %d iterations", name, c.Components, c.Iterations)
			}
			for r, rr := range res.Restarts {
				// Fit keeps the earliest restart within 1e-12 relative of the best.
				if rr.MeanLogLik > res.MeanLogLik+1e-12*math.Abs(res.MeanLogLik) {
					t.Errorf("%s L=%d: restart %d (%v) beats the kept one (%v)", name, c.Components, r, rr.MeanLogLik, res.MeanLogLik)
				}
			}
			checkModel(t, c.Model, xm)
		}
		r, d := xm.Dims()
		t.Logf("%-12s %5dx%-3d %-4s L=%d chosen; mean loglik L=2 %.4f, L=3 %.4f; %d EM iterations in %.2fs",
			name, r, d, sel.Result.Covariance, sel.Components, sel.Candidates[0].MeanLogLik, sel.Candidates[1].MeanLogLik,
			sel.Iterations, time.Since(start).Seconds())
	}
}
