package mixture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checkModel asserts that every per-row output of m on x is finite and
// that responsibilities sum to one.
func checkModel(t *testing.T, m *Model, x *mat.Dense) {
	t.Helper()
	n, _ := x.Dims()
	ss, err := m.ScoreSamples(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Responsibilities(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	cld, err := m.ComponentLogDensity(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if math.IsNaN(ss[i]) || math.IsInf(ss[i], 0) {
			t.Fatalf("row %d: score %v", i, ss[i])
		}
		sum := 0.0
		for l := 0; l < m.K(); l++ {
			r := resp.At(i, l)
			if math.IsNaN(r) || r < 0 || r > 1 {
				t.Fatalf("row %d: responsibility %v", i, r)
			}
			if v := cld.At(i, l); math.IsNaN(v) || math.IsInf(v, 1) {
				t.Fatalf("row %d: component log density %v", i, v)
			}
			sum += r
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: responsibilities sum to %v", i, sum)
		}
	}
	for _, w := range m.Weights {
		if !(w > 0) {
			t.Fatalf("weight %v", w)
		}
	}
}

func TestFitRecoversClusters(t *testing.T) {
	x := synthetic(3000, 3, 3, 11)
	for _, typ := range allTypes {
		m, res, err := Fit(context.Background(), x, &Settings{Components: 3, Covariance: typ, NInit: 3, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		checkModel(t, m, x)
		if !res.Converged || len(res.Restarts) != 3 {
			t.Errorf("%s: %+v", typ, res)
		}
		for _, r := range res.Restarts {
			if r.MeanLogLik > res.MeanLogLik {
				t.Errorf("%s: kept restart %v worse than another %v", typ, res.MeanLogLik, r.MeanLogLik)
			}
		}
		s, _ := m.Score(x)
		if s != res.MeanLogLik {
			t.Errorf("%s: Score %v != FitResult.MeanLogLik %v", typ, s, res.MeanLogLik)
		}
		b, _ := m.BIC(x)
		if b != res.BIC {
			t.Errorf("%s: BIC %v != %v", typ, b, res.BIC)
		}
	}
}

// TestEMMonotone checks the defining property of EM: without early
// stopping the log-likelihood never decreases.
func TestEMMonotone(t *testing.T) {
	x := synthetic(2000, 5, 4, 3)
	for _, typ := range allTypes {
		var lls []float64
		_, _, err := Fit(context.Background(), x, &Settings{Components: 6, Covariance: typ, Tol: -1, MaxIter: 40,
			Progress: func(p Progress) { lls = append(lls, p.MeanLogLik) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(lls) != 40 {
			t.Fatalf("%s: %d progress calls", typ, len(lls))
		}
		for i := 1; i < len(lls); i++ {
			if lls[i] < lls[i-1]-1e-9*math.Abs(lls[i-1]) {
				t.Errorf("%s: log-likelihood fell from %v to %v at iteration %d", typ, lls[i-1], lls[i], i+1)
			}
		}
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	x := synthetic(1500, 20, 4, 5) // wide enough for the SIMD kernels and several blocks
	for _, typ := range allTypes {
		var first []byte
		for _, w := range []int{1, 2, 3, 8} {
			m, _, err := Fit(context.Background(), x, &Settings{Components: 4, Covariance: typ, NInit: 3, Seed: 9, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(m)
			if first == nil {
				first = b
			} else if !bytes.Equal(first, b) {
				t.Errorf("%s: model with %d workers differs from 1 worker", typ, w)
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	x := synthetic(500, 4, 3, 8)
	for _, typ := range allTypes {
		m, _, err := Fit(context.Background(), x, &Settings{Components: 3, Covariance: typ})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := m.ScoreSamples(x, nil)
		wantR, _ := m.Responsibilities(x, nil)

		js, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var mj Model
		if err := json.Unmarshal(js, &mj); err != nil {
			t.Fatal(err)
		}
		bin, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var mb Model
		if err := mb.UnmarshalBinary(bin); err != nil {
			t.Fatal(err)
		}
		for name, got := range map[string]*Model{"json": &mj, "binary": &mb} {
			ss, _ := got.ScoreSamples(x, nil)
			rr, _ := got.Responsibilities(x, nil)
			for i := range want {
				if ss[i] != want[i] {
					t.Fatalf("%s %s: row %d score %v, want %v (not exact)", typ, name, i, ss[i], want[i])
				}
			}
			if !mat.Equal(rr, wantR) {
				t.Fatalf("%s %s: responsibilities differ", typ, name)
			}
			again, _ := json.Marshal(got)
			if !bytes.Equal(again, js) {
				t.Fatalf("%s %s: re-marshalled model differs", typ, name)
			}
		}
	}
	var m Model
	if err := m.UnmarshalBinary([]byte("nonsense")); err == nil {
		t.Error("accepted a corrupt binary model")
	}
	if err := json.Unmarshal([]byte(`{"covariance":"full","weights":[1],"means":[[0,0]],"covariances":[[1,2,2,1]]}`), &m); err == nil ||
		!strings.Contains(err.Error(), "not positive definite") {
		t.Errorf("indefinite covariance: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	x := mat.NewDense(5, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6})
	x.Set(3, 2, math.NaN())
	_, _, err := Fit(context.Background(), x, nil)
	if err == nil || !strings.Contains(err.Error(), "row 3, column 2") {
		t.Errorf("NaN: %v", err)
	}
	x.Set(3, 2, math.Inf(1))
	if _, _, err := Fit(context.Background(), x, nil); err == nil || !strings.Contains(err.Error(), "row 3, column 2") {
		t.Errorf("Inf: %v", err)
	}
	x.Set(3, 2, 0)
	if _, _, err := Fit(context.Background(), x, &Settings{Components: 6}); err == nil || !strings.Contains(err.Error(), "need at least 6 rows") {
		t.Errorf("too few rows: %v", err)
	}
	m, _, err := Fit(context.Background(), x, &Settings{Components: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.ScoreSamples(mat.NewDense(2, 2, nil), nil); err == nil {
		t.Error("wrong column count accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Fit(ctx, synthetic(100, 2, 2, 1), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestDegenerate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	cases := map[string]struct {
		x *mat.Dense
		k int
	}{}
	// Every row twice.
	base := synthetic(100, 3, 2, 2)
	dup := mat.NewDense(200, 3, nil)
	for i := 0; i < 100; i++ {
		dup.SetRow(2*i, base.RawRowView(i))
		dup.SetRow(2*i+1, base.RawRowView(i))
	}
	cases["duplicated rows"] = struct {
		x *mat.Dense
		k int
	}{dup, 4}
	// All rows identical.
	same := mat.NewDense(50, 3, nil)
	for i := 0; i < 50; i++ {
		same.SetRow(i, []float64{1, -2, 3})
	}
	cases["identical rows"] = struct {
		x *mat.Dense
		k int
	}{same, 3}
	// A constant feature.
	cst := synthetic(300, 4, 3, 6)
	for i := 0; i < 300; i++ {
		cst.Set(i, 2, 7.5)
	}
	cases["constant feature"] = struct {
		x *mat.Dense
		k int
	}{cst, 3}
	// More components than distinct points.
	few := mat.NewDense(60, 2, nil)
	pts := [][]float64{{0, 0}, {5, 1}, {-3, 4}}
	for i := 0; i < 60; i++ {
		few.SetRow(i, pts[i%3])
	}
	cases["more components than distinct points"] = struct {
		x *mat.Dense
		k int
	}{few, 6}
	// One feature.
	one := mat.NewDense(400, 1, nil)
	for i := 0; i < 400; i++ {
		one.Set(i, 0, float64(i%2)*6+r.NormFloat64())
	}
	cases["one feature"] = struct {
		x *mat.Dense
		k int
	}{one, 3}
	// Wide and collinear: feature 1 = 2 * feature 0, with SIMD-length rows.
	wide := synthetic(300, 24, 2, 4)
	for i := 0; i < 300; i++ {
		wide.Set(i, 1, 2*wide.At(i, 0))
	}
	cases["collinear features"] = struct {
		x *mat.Dense
		k int
	}{wide, 3}

	for name, c := range cases {
		for _, typ := range allTypes {
			for _, reg := range []float64{0, -1} { // default ridge, and none
				m, res, err := Fit(context.Background(), c.x, &Settings{Components: c.k, Covariance: typ, NInit: 2, RegCovar: reg})
				if err != nil {
					t.Errorf("%s, %s, reg %v: %v", name, typ, reg, err)
					continue
				}
				checkModel(t, m, c.x)
				if math.IsNaN(res.BIC) || math.IsNaN(res.AIC) {
					t.Errorf("%s, %s: BIC %v AIC %v", name, typ, res.BIC, res.AIC)
				}
				if reg < 0 && len(res.Notes) == 0 && name != "one feature" && name != "duplicated rows" {
					t.Logf("%s, %s, no ridge: no notes", name, typ)
				}
				if testing.Verbose() && len(res.Notes) > 0 {
					t.Logf("%s, %s, reg %v: %v", name, typ, reg, res.Notes)
				}
			}
		}
	}
}

func TestSelect(t *testing.T) {
	x := mat.NewDense(1200, 2, nil)
	r := rand.New(rand.NewPCG(21, 1))
	for i := 0; i < 1200; i++ {
		x.Set(i, 0, float64(10*(i%2))+r.NormFloat64())
		x.Set(i, 1, float64(10*(i/2%2))+r.NormFloat64())
	}
	sel, err := Select(context.Background(), x, []int{1, 2, 3, 4, 5, 6}, &Settings{NInit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if sel.Components != 4 || len(sel.Candidates) != 6 || sel.Model.K() != 4 {
		t.Errorf("chose %d of %d candidates", sel.Components, len(sel.Candidates))
	}
	// Each candidate equals a separate Fit with the same seed.
	m, res, err := Fit(context.Background(), x, &Settings{NInit: 3, Components: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.BIC != sel.Candidates[2].BIC || m.NParameters() != sel.Candidates[2].NParameters {
		t.Errorf("Select's L=3 entry differs from Fit")
	}
	if _, err := Select(context.Background(), x, nil, nil); err == nil {
		t.Error("empty pool accepted")
	}
}

func TestAuto(t *testing.T) {
	if Auto.Resolve(32, 0) != Full || Auto.Resolve(33, 0) != Diag || Auto.Resolve(10, 5) != Diag || Tied.Resolve(100, 0) != Tied {
		t.Error("Auto rule")
	}
	for _, s := range []string{"full", "DIAG", "tied", "spherical", "auto"} {
		if _, err := ParseCovarianceType(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseCovarianceType("round"); err == nil {
		t.Error("accepted round")
	}
}
