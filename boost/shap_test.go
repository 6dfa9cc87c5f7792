package boost

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// trainGoldenCase trains the model the parity test trains for case k of
// xgboost_small.json and returns it with the case's training matrix.
func trainGoldenCase(t *testing.T, g *xgbGolden, k int) (*Model, *mat.Dense) {
	t.Helper()
	c := g.Cases[k]
	n := len(g.X)
	x := mat.NewDense(n, len(g.X[0]), nil)
	for i := range n {
		for j := range g.X[i] {
			v := g.X[i][j]
			if c.Name == "missing" {
				v = math.NaN()
				if p := g.XMissing[i][j]; p != nil {
					v = *p
				}
			}
			x.Set(i, j, v)
		}
	}
	var s Settings
	for key, v := range c.Params {
		switch key {
		case "tree_method", "nthread", "objective":
			continue
		}
		if err := s.Set(key, strconv.FormatFloat(v.(float64), 'g', -1, 64)); err != nil {
			t.Fatal(err)
		}
	}
	s.NEstimators = len(c.Trees)
	m, err := Train(context.Background(), Data{X: x, Y: g.Y}, nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	return m, x
}

type shapGolden struct {
	Cases []struct {
		Name     string      `json:"name"`
		Rows     []int       `json:"rows"`
		Contribs [][]float64 `json:"contribs"`
		Margins  []float64   `json:"margins"`
	} `json:"cases"`
}

// TestTreeSHAPGolden checks TreeSHAP on the Go-trained models of the
// parity cases (which match XGBoost split for split) against XGBoost
// 1.7.4's pred_contribs (testdata/treeshap_golden.py), rows with missing
// values included. XGBoost computes in float32 (leaf values, covers and
// the path weights), so the tolerance is 1e-6 absolute, a few float32
// ulps of values of order 1; aer computes in float64.
func TestTreeSHAPGolden(t *testing.T) {
	g := loadGolden(t)
	b, err := os.ReadFile(filepath.Join("testdata", "treeshap_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want shapGolden
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Cases) != len(g.Cases) {
		t.Fatalf("%d golden SHAP cases for %d parity cases", len(want.Cases), len(g.Cases))
	}
	const tol = 1e-6
	for k, wc := range want.Cases {
		t.Run(wc.Name, func(t *testing.T) {
			if g.Cases[k].Name != wc.Name {
				t.Fatalf("case %d is %q in the SHAP golden, %q in xgboost_small.json", k, wc.Name, g.Cases[k].Name)
			}
			m, x := trainGoldenCase(t, g, k)
			_, nf := x.Dims()
			sub := mat.NewDense(len(wc.Rows), nf, nil)
			for r, i := range wc.Rows {
				sub.SetRow(r, x.RawRowView(i))
			}
			phi, err := m.SHAP(sub, nil)
			if err != nil {
				t.Fatal(err)
			}
			base := m.SHAPBase()
			worst := 0.0
			for r := range wc.Rows {
				w := wc.Contribs[r]
				if len(w) != nf+1 {
					t.Fatalf("row %d: %d golden values for %d features", wc.Rows[r], len(w), nf)
				}
				for j := range nf {
					worst = math.Max(worst, math.Abs(phi.At(r, j)-w[j]))
				}
				worst = math.Max(worst, math.Abs(base-w[nf]))
			}
			if worst > tol {
				t.Errorf("max |SHAP - XGBoost pred_contribs| = %.3g, want <= %g", worst, tol)
			} else {
				t.Logf("max |SHAP - XGBoost pred_contribs| = %.3g over %d rows", worst, len(wc.Rows))
			}
		})
	}
}

// shapTask is a random task of 20 features on which feature 7 is constant
// (so no tree can split on it) and feature 3 is missing a fifth of the
// time.
func shapTask(n int, seed uint64) (*mat.Dense, []int) {
	r := rand.New(rng.New(seed))
	x := mat.NewDense(n, 20, nil)
	y := make([]int, n)
	for i := range n {
		s := 0.0
		for j := range 20 {
			v := r.NormFloat64()
			switch {
			case j == 7:
				v = 1
			case j == 3 && r.IntN(5) == 0:
				v = math.NaN()
			}
			x.Set(i, j, v)
			if j < 6 {
				s += v * float64(j+1) / 6
			}
		}
		if s+r.NormFloat64() > 1.5 {
			y[i] = 1
		}
	}
	return x, y
}

// TestSHAPSumsToMargin checks the efficiency property on every row of a
// held-out set, that a feature no tree splits on gets exactly 0, and that
// the values do not depend on the number of threads.
func TestSHAPSumsToMargin(t *testing.T) {
	x, y := shapTask(1500, 1)
	s := Settings{NEstimators: 30, MaxDepth: 6}
	m, err := Train(context.Background(), Data{X: x.Slice(0, 1000, 0, 20).(*mat.Dense), Y: y[:1000]}, nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	test := x.Slice(1000, 1500, 0, 20).(*mat.Dense)
	m.SetThreads(1)
	phi, err := m.SHAP(test, nil)
	if err != nil {
		t.Fatal(err)
	}
	margin := m.PredictMargin(test, nil)
	base := m.SHAPBase()
	worst := 0.0
	for i := range margin {
		sum := base
		for j, v := range phi.RawRowView(i) {
			sum += v
			if j == 7 && v != 0 {
				t.Fatalf("row %d: constant feature 7 has SHAP value %v", i, v)
			}
		}
		worst = math.Max(worst, math.Abs(sum-margin[i]))
	}
	if worst > 1e-9 {
		t.Errorf("max |base + sum(SHAP) - margin| = %.3g, want <= 1e-9", worst)
	}
	// Missing values of feature 3 are attributed (they follow the default
	// direction), and the informative features carry the most weight.
	var abs [20]float64
	for i := range margin {
		for j, v := range phi.RawRowView(i) {
			abs[j] += math.Abs(v)
		}
	}
	if abs[5] <= abs[10] || abs[3] == 0 {
		t.Errorf("mean |SHAP|: feature 5 %v, noise feature 10 %v, feature 3 %v", abs[5], abs[10], abs[3])
	}
	m.SetThreads(2)
	phi2, _ := m.SHAP(test, nil)
	if !mat.Equal(phi, phi2) {
		t.Error("SHAP values differ between 1 and 2 threads")
	}
	// The learn contract gives the same values, in logit space.
	f := &Fitted{Model: m}
	a, err := learn.Attribute(context.Background(), f, test, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Space != learn.Logit || !mat.Equal(a.Phi, phi) || a.Base[17] != base {
		t.Errorf("Attribute: space %s, base %v (want %v), same values %v", a.Space, a.Base[17], base, mat.Equal(a.Phi, phi))
	}
}

// BenchmarkTreeSHAP measures TreeSHAP on 100 trees of depth 6 over 20
// features, on 1 and 2 threads; it reports rows per second and the
// leaves. With
// AER_SHAP_CSV=file (aer gen output, as testdata/treeshap_time.py reads)
// it trains on that file instead, for the comparison with XGBoost.
func BenchmarkTreeSHAP(b *testing.B) {
	x, y := shapTask(5000, 2)
	if path := os.Getenv("AER_SHAP_CSV"); path != "" {
		d, err := dataset.Load(path, dataset.Options{})
		if err != nil {
			b.Fatal(err)
		}
		x, y = d.X, d.Y
	}
	s := Settings{NEstimators: 100, MaxDepth: 6}
	m, err := Train(context.Background(), Data{X: x, Y: y}, nil, &s)
	if err != nil {
		b.Fatal(err)
	}
	_, nf := x.Dims()
	rows := x.Slice(0, 1000, 0, nf).(*mat.Dense)
	dst := mat.NewDense(1000, nf, nil)
	leaves := 0
	for i := range m.Trees {
		leaves += m.Trees[i].NumLeaves()
	}
	for _, threads := range []int{1, 2} {
		b.Run("threads="+strconv.Itoa(threads), func(b *testing.B) {
			m.SetThreads(threads)
			for range b.N {
				if _, err := m.SHAP(rows, dst); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(leaves), "leaves")
		})
	}
}
