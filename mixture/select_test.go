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
	full, fres, err := Fit(context.Background(), x, &Settings{NInit: 2, Components: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(full)
	b, _ := json.Marshal(sel.Model)
	if !bytes.Equal(a, b) || fres.MeanLogLik != sel.Result.MeanLogLik {
		t.Error("the chosen model is not the all-rows fit of L=4")
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
	if c, _ := json.Marshal(s1.Model); s1.SampleRows != 0 || !bytes.Equal(b, c) {
		t.Error("a pool of one L was subsampled")
	}
	// At the limit, and with a negative limit, all rows are used.
	for _, limit := range []int{3000, -1} {
		s3, err := Select(context.Background(), x, []int{3, 4}, &Settings{NInit: 2, SelectRows: limit, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := json.Marshal(s3.Model)
		if s3.SampleRows != 0 || !bytes.Equal(b, c) || s3.RefitSeconds != 0 {
			t.Errorf("limit %d: not the full procedure", limit)
		}
	}
}
