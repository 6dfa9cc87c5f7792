package mixture

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sharedDir returns ../shared relative to the module root, or skips.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found above the package directory")
		}
		dir = parent
	}
	s := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(s); err != nil {
		t.Skipf("shared reference data not found at %s (it lives beside the repository)", s)
	}
	return s
}

type goldenFit struct {
	Weights             []float64       `json:"weights"`
	Means               [][]float64     `json:"means"`
	Covariances         json.RawMessage `json:"covariances"`
	ScoreSamples        []float64       `json:"score_samples"`
	ComponentLogDensity [][]float64     `json:"component_log_density"`
	Responsibilities    [][]float64     `json:"responsibilities"`
	MeanLogLik          float64         `json:"mean_loglik"`
	NParameters         int             `json:"n_parameters"`
	BIC                 float64         `json:"bic"`
	AIC                 float64         `json:"aic"`
}

type goldenGMM struct {
	X       [][]float64          `json:"X"`
	Fits    map[string]goldenFit `json:"fits"`
	BICPool map[string]struct {
		BIC        float64 `json:"bic"`
		MeanLogLik float64 `json:"mean_loglik"`
	} `json:"bic_pool_full"`
	BICChoice int `json:"bic_choice_full"`
}

func loadGolden(t testing.TB) (*goldenGMM, *mat.Dense) {
	b, err := os.ReadFile(filepath.Join(sharedDir(t), "golden", "gmm.json"))
	if err != nil {
		t.Skipf("golden gmm.json absent: %v", err)
	}
	var g goldenGMM
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(len(g.X), len(g.X[0]), nil)
	for i, r := range g.X {
		x.SetRow(i, r)
	}
	return &g, x
}

// covariancesOf reshapes scikit-learn's covariances_ into Model layout.
func covariancesOf(t *testing.T, typ CovarianceType, raw json.RawMessage) [][]float64 {
	switch typ {
	case Full:
		var c [][][]float64
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		out := make([][]float64, len(c))
		for l, m := range c {
			for _, r := range m {
				out[l] = append(out[l], r...)
			}
		}
		return out
	case Tied:
		var c [][]float64
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		var flat []float64
		for _, r := range c {
			flat = append(flat, r...)
		}
		return [][]float64{flat}
	case Diag:
		var c [][]float64
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		return c
	default:
		var c []float64
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		out := make([][]float64, len(c))
		for l, v := range c {
			out[l] = []float64{v}
		}
		return out
	}
}

func relClose(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))+1e-300
}

var allTypes = []CovarianceType{Full, Diag, Tied, Spherical}

func TestGoldenGivenParameters(t *testing.T) {
	g, x := loadGolden(t)
	const tol = 1e-9
	for _, typ := range allTypes {
		t.Run(typ.String(), func(t *testing.T) {
			gf := g.Fits[typ.String()]
			m, err := NewModel(typ, gf.Weights, gf.Means, covariancesOf(t, typ, gf.Covariances))
			if err != nil {
				t.Fatal(err)
			}
			ss, err := m.ScoreSamples(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			cld, err := m.ComponentLogDensity(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := m.Responsibilities(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for i := range ss {
				if !relClose(ss[i], gf.ScoreSamples[i], tol) {
					t.Fatalf("score_samples[%d] = %v, want %v", i, ss[i], gf.ScoreSamples[i])
				}
				for l := range gf.Weights {
					if !relClose(cld.At(i, l), gf.ComponentLogDensity[i][l], tol) {
						t.Fatalf("component_log_density[%d][%d] = %v, want %v", i, l, cld.At(i, l), gf.ComponentLogDensity[i][l])
					}
					// Responsibilities that underflow below 1e-300 are noise in both.
					if !relClose(resp.At(i, l), gf.Responsibilities[i][l], tol) && math.Max(resp.At(i, l), gf.Responsibilities[i][l]) > 1e-290 {
						t.Fatalf("responsibilities[%d][%d] = %v, want %v", i, l, resp.At(i, l), gf.Responsibilities[i][l])
					}
				}
				worst = math.Max(worst, math.Abs(ss[i]-gf.ScoreSamples[i])/math.Abs(gf.ScoreSamples[i]))
			}
			if m.NParameters() != gf.NParameters {
				t.Errorf("NParameters = %d, want %d", m.NParameters(), gf.NParameters)
			}
			b, _ := m.BIC(x)
			a, _ := m.AIC(x)
			if !relClose(b, gf.BIC, tol) || !relClose(a, gf.AIC, tol) {
				t.Errorf("BIC, AIC = %v, %v, want %v, %v", b, a, gf.BIC, gf.AIC)
			}
			t.Logf("%s: worst relative score_samples error %.2g", typ, worst)
		})
	}
}

func TestGoldenFit(t *testing.T) {
	g, x := loadGolden(t)
	for _, typ := range allTypes {
		gf := g.Fits[typ.String()]
		_, res, err := Fit(context.Background(), x, &Settings{Components: 3, Covariance: typ, NInit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if res.MeanLogLik < gf.MeanLogLik-1e-3 {
			t.Errorf("%s: mean log-likelihood %v, scikit-learn %v", typ, res.MeanLogLik, gf.MeanLogLik)
		}
		t.Logf("%s: mean log-likelihood %.10f (scikit-learn %.10f), %d iterations", typ, res.MeanLogLik, gf.MeanLogLik, res.Iterations)
	}
	sel, err := Select(context.Background(), x, []int{1, 2, 3, 4, 5, 6}, &Settings{NInit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if sel.Components != g.BICChoice {
		t.Errorf("BIC chose %d components, scikit-learn %d", sel.Components, g.BICChoice)
	}
	for _, c := range sel.Candidates {
		t.Logf("L=%d BIC %.4f (scikit-learn %.4f) mean loglik %.6f (%.6f)", c.Components, c.BIC,
			g.BICPool[itoa(c.Components)].BIC, c.MeanLogLik, g.BICPool[itoa(c.Components)].MeanLogLik)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
