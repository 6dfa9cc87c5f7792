package mixture

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/aer-go/aer/internal/rng"
)

// tTruth is a known t-mixture in two dimensions.
type tTruth struct {
	w     []float64
	mu    [][]float64
	chol  [][]float64 // lower Cholesky factor of Sigma, row-major 2x2
	nu    []float64
	sigma [][]float64
}

func knownT() tTruth {
	tr := tTruth{
		w:    []float64{0.5, 0.3, 0.2},
		mu:   [][]float64{{0, 0}, {8, 2}, {-4, 9}},
		chol: [][]float64{{1, 0, 0.5, 0.8}, {1.5, 0, -0.6, 0.7}, {0.7, 0, 0.2, 1.2}},
		nu:   []float64{3, 6, 10},
	}
	for _, L := range tr.chol {
		// Sigma = L L^T.
		s := []float64{L[0] * L[0], L[0] * L[2], L[0] * L[2], L[2]*L[2] + L[3]*L[3]}
		tr.sigma = append(tr.sigma, s)
	}
	return tr
}

// drawT draws n rows of tr with the project's rng: mean + L z / sqrt(u/nu)
// with z standard normal and u chi-square(nu). Rows are in component
// order, n*w rows each.
func drawT(tr tTruth, n int, seed uint64) *mat.Dense {
	r := rng.New(seed)
	x := mat.NewDense(n, 2, nil)
	i := 0
	for l, w := range tr.w {
		chi := distuv.ChiSquared{K: tr.nu[l], Src: r}
		for range int(w * float64(n)) {
			z0, z1 := r.NormFloat64(), r.NormFloat64()
			s := 1 / math.Sqrt(chi.Rand()/tr.nu[l])
			L := tr.chol[l]
			x.Set(i, 0, tr.mu[l][0]+s*L[0]*z0)
			x.Set(i, 1, tr.mu[l][1]+s*(L[2]*z0+L[3]*z1))
			i++
		}
	}
	return x
}

// (a) The ECM log-likelihood never decreases, with nu estimated and fixed,
// for every covariance type. Without the ridge (RegCovar < 0) every step
// is an exact maximisation.
func TestTMixtureLogLikNonDecreasing(t *testing.T) {
	x := drawT(knownT(), 3000, 1)
	for _, typ := range []CovarianceType{Full, Diag, Tied, Spherical} {
		for _, nu := range []float64{0, 4} {
			var ll []float64
			_, res, err := Fit(context.Background(), x, &Settings{Components: 3, Covariance: typ,
				Family: T, Nu: nu, Tol: -1, MaxIter: 60, RegCovar: -1, Seed: 3,
				Progress: func(p Progress) { ll = append(ll, p.MeanLogLik) }})
			if err != nil {
				t.Fatal(typ, nu, err)
			}
			if len(ll) != 60 {
				t.Fatalf("%v nu=%v: %d iterations recorded, want 60", typ, nu, len(ll))
			}
			ll = append(ll, res.MeanLogLik)
			for i := 1; i < len(ll); i++ {
				if ll[i] < ll[i-1]-1e-9*math.Abs(ll[i-1]) {
					t.Errorf("%v nu=%v: log-likelihood fell at iteration %d: %.15g -> %.15g", typ, nu, i+1, ll[i-1], ll[i])
				}
			}
			t.Logf("%v nu=%v: mean log-likelihood %.6f -> %.6f in 60 iterations, nu %.3g", typ, nu, ll[0], ll[len(ll)-1], res.Nu)
		}
	}
}

// (b) Parameters of a known three-component t-mixture are recovered from
// 30,000 rows: weights within 0.01, means within 0.05, covariance entries
// within 10% of the largest entry of the component's covariance, and nu
// within 25%.
func TestTMixtureRecovers(t *testing.T) {
	tr := knownT()
	x := drawT(tr, 30000, 7)
	m, res, err := Fit(context.Background(), x, &Settings{Components: 3, Family: T, NInit: 3, Tol: 1e-8, MaxIter: 500, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged || res.Family != T || len(res.Nu) != 3 {
		t.Fatalf("converged %v, family %v, nu %v", res.Converged, res.Family, res.Nu)
	}
	for l := range tr.w {
		// The fitted component nearest the true mean.
		best := 0
		for c := range m.Means {
			if dist2(m.Means[c], tr.mu[l]) < dist2(m.Means[best], tr.mu[l]) {
				best = c
			}
		}
		if math.Abs(m.Weights[best]-tr.w[l]) > 0.01 {
			t.Errorf("component %d: weight %v, want %v", l, m.Weights[best], tr.w[l])
		}
		if e := math.Sqrt(dist2(m.Means[best], tr.mu[l])); e > 0.05 {
			t.Errorf("component %d: mean %v, want %v", l, m.Means[best], tr.mu[l])
		}
		scale := slices.Max(tr.sigma[l])
		for j, v := range tr.sigma[l] {
			if math.Abs(m.Covariances[best][j]-v) > 0.1*scale {
				t.Errorf("component %d: covariance %v, want %v", l, m.Covariances[best], tr.sigma[l])
				break
			}
		}
		if math.Abs(m.Nu[best]-tr.nu[l]) > 0.25*tr.nu[l] {
			t.Errorf("component %d: nu %v, want %v", l, m.Nu[best], tr.nu[l])
		}
		t.Logf("component %d: weight %.4f (%.2f) mean %.3f (%v) cov %.3f (%.3f) nu %.3f (%v)", l,
			m.Weights[best], tr.w[l], m.Means[best], tr.mu[l], m.Covariances[best], tr.sigma[l], m.Nu[best], tr.nu[l])
	}
	// A Gaussian mixture on the same heavy-tailed rows fits worse.
	_, g, err := Fit(context.Background(), x, &Settings{Components: 3, NInit: 3, Tol: 1e-8, MaxIter: 500, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !(res.MeanLogLik > g.MeanLogLik && res.BIC < g.BIC) {
		t.Errorf("t mixture mean log-likelihood %v BIC %v, Gaussian %v %v", res.MeanLogLik, res.BIC, g.MeanLogLik, g.BIC)
	}
	t.Logf("mean log-likelihood t %.5f, Gaussian %.5f", res.MeanLogLik, g.MeanLogLik)
}

func dist2(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += (a[j] - b[j]) * (a[j] - b[j])
	}
	return s
}

// (c) With nu fixed at 1e8 the t fit is the Gaussian fit: on the golden
// data, the same settings (3 components, 5 restarts, seed 0) give mean
// log-likelihoods within 1e-6; and the densities of a Gaussian model read
// as a t model with nu = 1e12 agree row by row within 1e-8 (at 1e8 a row
// at Mahalanobis distance q differs by about q^2/(4 nu), 3e-6 for the
// golden data's farthest rows, so the row check takes a larger nu).
func TestTMixtureGaussianLimit(t *testing.T) {
	_, x := loadGolden(t)
	for _, typ := range []CovarianceType{Full, Diag, Tied, Spherical} {
		g, gres, err := Fit(context.Background(), x, &Settings{Components: 3, Covariance: typ, NInit: 5})
		if err != nil {
			t.Fatal(err)
		}
		_, tres, err := Fit(context.Background(), x, &Settings{Components: 3, Covariance: typ, NInit: 5, Family: T, Nu: 1e8})
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(tres.MeanLogLik - gres.MeanLogLik); d > 1e-6 {
			t.Errorf("%v: t (nu=1e8) mean log-likelihood %.12f, Gaussian %.12f", typ, tres.MeanLogLik, gres.MeanLogLik)
		}
		if tres.NParameters != gres.NParameters {
			t.Errorf("%v: fixed nu counts %d parameters, Gaussian %d", typ, tres.NParameters, gres.NParameters)
		}
		t.Logf("%v: t(1e8) %.12f Gaussian %.12f (%d and %d iterations)", typ, tres.MeanLogLik, gres.MeanLogLik, tres.Iterations, gres.Iterations)
		tm, err := NewTModel(typ, g.Weights, g.Means, g.Covariances, []float64{1e12, 1e12, 1e12})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := g.ScoreSamples(x, nil)
		b, _ := tm.ScoreSamples(x, nil)
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-8 {
				t.Fatalf("%v row %d: t density %v, Gaussian %v", typ, i, b[i], a[i])
			}
		}
	}
}

// The T family saves and loads exactly, in JSON and binary; Gaussian JSON
// carries no family.
func TestTMixtureRoundTrip(t *testing.T) {
	x := drawT(knownT(), 600, 2)
	m, _, err := Fit(context.Background(), x, &Settings{Components: 3, Family: T, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.ScoreSamples(x, nil)
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var mj Model
	if err := json.Unmarshal(j, &mj); err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var mb Model
	if err := mb.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Model{&mj, &mb} {
		got, _ := r.ScoreSamples(x, nil)
		if !slices.Equal(got, want) || r.Family != T || !slices.Equal(r.Nu, m.Nu) {
			t.Fatalf("reloaded t model differs: family %v nu %v", r.Family, r.Nu)
		}
	}
	g, _, err := Fit(context.Background(), x, &Settings{Components: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(g)
	if bytes.Contains(gj, []byte("family")) || bytes.Contains(gj, []byte("nu")) {
		t.Errorf("Gaussian JSON mentions the t family: %s", gj)
	}
	if gb, _ := g.MarshalBinary(); string(gb[:len(binaryMagic)]) != binaryMagic {
		t.Error("Gaussian binary model changed its magic")
	}
}

// Select's BIC pool works for the T family, with the pool compared on a
// subsample and the chosen L refitted on all rows from it: the known
// three-component t-mixture gives L = 3.
func TestTMixtureSelect(t *testing.T) {
	x := drawT(knownT(), 3000, 11)
	sel, err := Select(context.Background(), x, []int{1, 2, 3, 4, 5}, &Settings{Family: T, NInit: 2, SelectRows: 1000, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sel.Components != 3 || sel.Model.Family != T || len(sel.Model.Nu) != 3 {
		t.Fatalf("chose L = %d, family %v, nu %v", sel.Components, sel.Model.Family, sel.Model.Nu)
	}
	for _, c := range sel.Candidates {
		// Full covariances in 2-D: 3L + 2L + L-1, plus L degrees of freedom.
		if want := 7*c.Components - 1; c.NParameters != want {
			t.Errorf("L=%d: %d parameters, want %d", c.Components, c.NParameters, want)
		}
	}
}

// Degenerate rows (a constant feature, duplicated rows, more components
// than distinct points) give a finite fit, as for the Gaussian family.
func TestTMixtureDegenerate(t *testing.T) {
	x := mat.NewDense(40, 3, nil)
	for i := range 40 {
		x.Set(i, 0, float64(i%3))
		x.Set(i, 1, 5)
		x.Set(i, 2, float64(i%3)*2)
	}
	for _, typ := range []CovarianceType{Full, Diag, Tied, Spherical} {
		m, res, err := Fit(context.Background(), x, &Settings{Components: 4, Covariance: typ, Family: T, Seed: 1})
		if err != nil {
			t.Fatal(typ, err)
		}
		if math.IsNaN(res.MeanLogLik) || math.IsInf(res.MeanLogLik, 0) {
			t.Errorf("%v: mean log-likelihood %v", typ, res.MeanLogLik)
		}
		s, err := m.Score(x)
		if err != nil || math.Abs(s-res.MeanLogLik) > 1e-9*math.Abs(s) {
			t.Errorf("%v: Score %v (%v), fit %v", typ, s, err, res.MeanLogLik)
		}
	}
	if _, _, err := Fit(context.Background(), x, &Settings{Family: T, Nu: -1}); err == nil {
		t.Error("Nu -1 accepted")
	}
}
