package mixture

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fourClusters is n rows of 2-D data around the corners of a 10 x 10 square.
func fourClusters(n int, seed uint64) *mat.Dense {
	x := mat.NewDense(n, 2, nil)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < n; i++ {
		x.Set(i, 0, float64(10*(i%2))+r.NormFloat64())
		x.Set(i, 1, float64(10*(i/2%2))+r.NormFloat64())
	}
	return x
}

// TestSelectSubsample: with more rows than SelectRows the pool is compared
// on a uniform subsample (each candidate equals a Fit on it), the chosen L
// is refitted on all rows (equal to a Fit on them), workers do not matter;
// at or below the limit Select is the full procedure.
func TestSelectSubsample(t *testing.T) {
	x := fourClusters(3000, 22)
	pool := []int{1, 2, 3, 4, 5, 6}
	sel, err := Select(context.Background(), x, pool, &Settings{NInit: 2, SelectRows: 800, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if sel.SampleRows != 800 || sel.Components != 4 || sel.Model.K() != 4 {
		t.Fatalf("sample of %d rows chose %d components", sel.SampleRows, sel.Components)
	}
	xs := subsample(x, 800, 3)
	if r, _ := xs.Dims(); r != 800 {
		t.Fatalf("subsample of %d rows", r)
	}
	// The subsample is rows of x, in order, without repeats.
	for i, j := 0, 0; i < 800; i++ {
		for j < 3000 && !mat.Equal(xs.RowView(i), x.RowView(j)) {
			j++
		}
		if j == 3000 {
			t.Fatalf("subsample row %d is not a later row of x", i)
		}
		j++
	}
	_, res, err := Fit(context.Background(), xs, &Settings{NInit: 2, Components: 3, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.BIC != sel.Candidates[2].BIC {
		t.Errorf("candidate L=3 is not the subsample's fit: BIC %v, Fit %v", sel.Candidates[2].BIC, res.BIC)
	}
	// By default the refit is one EM run from the subsample's choice.
	warm, wres, err := Fit(context.Background(), x, &Settings{NInit: 2, Components: 4, Seed: 3, Start: sel.Candidates[3].Model})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sel.Model)
	if a, _ := json.Marshal(warm); !bytes.Equal(a, b) || wres.MeanLogLik != sel.Result.MeanLogLik || len(wres.Restarts) != 1 {
		t.Error("the chosen model is not the all-rows EM run started from the subsample's L=4")
	}
	// With RefitRestarts it is the all-rows fit from scratch, and the warm
	// refit is as good.
	full, fres, err := Fit(context.Background(), x, &Settings{NInit: 2, Components: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	selR, err := Select(context.Background(), x, pool, &Settings{NInit: 2, SelectRows: 800, Seed: 3, RefitRestarts: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(full)
	if c, _ := json.Marshal(selR.Model); !bytes.Equal(a, c) || fres.MeanLogLik != selR.Result.MeanLogLik {
		t.Error("RefitRestarts: the chosen model is not the all-rows fit of L=4")
	}
	if d := sel.Result.MeanLogLik - fres.MeanLogLik; d < -1e-6 {
		t.Errorf("warm refit mean log-likelihood %.9f, restarts %.9f", sel.Result.MeanLogLik, fres.MeanLogLik)
	}
	if sel.Result.TotalIterations >= fres.TotalIterations {
		t.Errorf("warm refit took %d EM iterations, restarts %d", sel.Result.TotalIterations, fres.TotalIterations)
	}
	for _, w := range []int{1, 2} {
		s2, err := Select(context.Background(), x, pool, &Settings{NInit: 2, SelectRows: 800, Seed: 3, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := json.Marshal(s2.Model)
		if !bytes.Equal(b, c) || s2.Candidates[5].BIC != sel.Candidates[5].BIC {
			t.Errorf("workers %d: a different selection", w)
		}
	}
	// A pool of one L is fitted on all rows.
	s1, err := Select(context.Background(), x, []int{4}, &Settings{NInit: 2, SelectRows: 800, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := json.Marshal(s1.Model); s1.SampleRows != 0 || !bytes.Equal(a, c) {
		t.Error("a pool of one L was subsampled")
	}
	// At the limit, and with a negative limit, all rows are used.
	for _, limit := range []int{3000, -1} {
		s3, err := Select(context.Background(), x, []int{3, 4}, &Settings{NInit: 2, SelectRows: limit, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := json.Marshal(s3.Model)
		if s3.SampleRows != 0 || !bytes.Equal(a, c) || s3.RefitSeconds != 0 {
			t.Errorf("limit %d: not the full procedure", limit)
		}
	}
}

// TestFitStart: Settings.Start must match the fit's components and
// features, and a model started from a converged fit stays there.
func TestFitStart(t *testing.T) {
	x := fourClusters(1000, 5)
	m, res, err := Fit(context.Background(), x, &Settings{NInit: 3, Components: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Fit(context.Background(), x, &Settings{Components: 3, Start: m}); err == nil {
		t.Error("a 4-component start accepted for 3 components")
	}
	if _, _, err := Fit(context.Background(), mat.NewDense(10, 3, nil), &Settings{Components: 4, Start: m}); err == nil {
		t.Error("a 2-feature start accepted for 3 features")
	}
	if _, _, err := Fit(context.Background(), x, &Settings{Components: 4, Start: &Model{}}); err == nil {
		t.Error("an unprepared start accepted")
	}
	_, r2, err := Fit(context.Background(), x, &Settings{NInit: 3, Components: 4, Seed: 9, Start: m})
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Restarts) != 1 || r2.Iterations > 2 || r2.MeanLogLik < res.MeanLogLik-1e-9 {
		t.Errorf("restarted from a converged fit: %d restarts, %d iterations, mean log-likelihood %v (was %v)",
			len(r2.Restarts), r2.Iterations, r2.MeanLogLik, res.MeanLogLik)
	}
}
