package stattest

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/aer-go/aer/internal/sharedtest"
)

// Tolerances of the comparison with the SciPy/statsmodels golden values.
const (
	statTol = 1e-9 // relative, statistics
	pTol    = 1e-6 // absolute, p-values
)

func sharedDir(t *testing.T) string { return sharedtest.Path(t) }

type goldenStats struct {
	McNemar []struct {
		Table     McNemarTable `json:"table"`
		Chi2      float64      `json:"chi2_corrected"`
		PChi2     float64      `json:"p_chi2_corrected"`
		ExactStat float64      `json:"exact_statistic_min_bc"`
		PExact    float64      `json:"p_exact"`
	} `json:"mcnemar"`
	Wilcoxon []map[string]json.RawMessage `json:"wilcoxon"`
	Friedman struct {
		Scores         [][]float64 `json:"scores_rows_datasets_cols_methods"`
		HigherIsBetter bool        `json:"higher_is_better"`
		Chi2           float64     `json:"chi2"`
		P              float64     `json:"p"`
		MeanRanks      []float64   `json:"mean_ranks"`
		Q              float64     `json:"nemenyi_q_alpha_0.05_k5"`
		CD             float64     `json:"nemenyi_cd_alpha_0.05"`
	} `json:"friedman"`
}

func loadGolden(t *testing.T) *goldenStats {
	t.Helper()
	path := filepath.Join(sharedDir(t), "golden", "stats.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("golden file absent: %v", err)
	}
	var g goldenStats
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &g
}

func closeRel(got, want, tol float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1e-300)
}

func closeAbs(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestMcNemarGolden(t *testing.T) {
	g := loadGolden(t)
	if len(g.McNemar) == 0 {
		t.Fatal("no McNemar cases in golden file")
	}
	for _, c := range g.McNemar {
		r, err := McNemar(c.Table)
		if err != nil {
			t.Fatalf("%v: %v", c.Table, err)
		}
		if !closeRel(r.ChiSquare, c.Chi2, statTol) || !closeAbs(r.ChiSquareP, c.PChi2, pTol) {
			t.Errorf("%v: chi2 %v p %v, want %v p %v", c.Table, r.ChiSquare, r.ChiSquareP, c.Chi2, c.PChi2)
		}
		if r.ExactStatistic != c.ExactStat || !closeAbs(r.ExactP, c.PExact, pTol) {
			t.Errorf("%v: exact %v p %v, want %v p %v", c.Table, r.ExactStatistic, r.ExactP, c.ExactStat, c.PExact)
		}
	}
}

func TestWilcoxonGolden(t *testing.T) {
	g := loadGolden(t)
	if len(g.Wilcoxon) == 0 {
		t.Fatal("no Wilcoxon cases in golden file")
	}
	type sp struct {
		Statistic float64 `json:"statistic"`
		P         float64 `json:"p"`
	}
	zms := map[string]ZeroMethod{"wilcox": Wilcox, "pratt": Pratt, "zsplit": ZSplit}
	modes := map[string]Mode{"auto": Auto, "approx": Approx, "exact": Exact}
	checked := 0
	for ci, c := range g.Wilcoxon {
		var x, y []float64
		if err := json.Unmarshal(c["x"], &x); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(c["y"], &y); err != nil {
			t.Fatal(err)
		}
		for zname, zm := range zms {
			for mname, mode := range modes {
				raw, ok := c[zname+"_"+mname]
				if !ok {
					continue
				}
				var want sp
				if err := json.Unmarshal(raw, &want); err != nil {
					t.Fatal(err)
				}
				r, err := Wilcoxon(x, y, &WilcoxonOptions{ZeroMethod: zm, Mode: mode})
				if err != nil {
					t.Errorf("case %d %s_%s: %v", ci, zname, mname, err)
					continue
				}
				checked++
				if !closeRel(r.Statistic, want.Statistic, statTol) || !closeAbs(r.P, want.P, pTol) {
					t.Errorf("case %d %s_%s: statistic %v p %v (mode %v), want %v p %v",
						ci, zname, mname, r.Statistic, r.P, r.Mode, want.Statistic, want.P)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no Wilcoxon results checked")
	}
	t.Logf("%d Wilcoxon results match", checked)
}

func TestFriedmanGolden(t *testing.T) {
	g := loadGolden(t)
	f := g.Friedman
	if len(f.Scores) == 0 {
		t.Fatal("no Friedman case in golden file")
	}
	r, err := Friedman(f.Scores, f.HigherIsBetter)
	if err != nil {
		t.Fatal(err)
	}
	if !closeRel(r.ChiSquare, f.Chi2, statTol) || !closeAbs(r.P, f.P, pTol) {
		t.Errorf("chi2 %v p %v, want %v p %v", r.ChiSquare, r.P, f.Chi2, f.P)
	}
	for j := range f.MeanRanks {
		if !closeRel(r.MeanRanks[j], f.MeanRanks[j], statTol) {
			t.Errorf("mean rank %d = %v, want %v", j, r.MeanRanks[j], f.MeanRanks[j])
		}
	}
	q, err := NemenyiQ(r.K, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if q != f.Q {
		t.Errorf("q = %v, want %v", q, f.Q)
	}
	cd, err := NemenyiCD(r.K, r.N, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if !closeRel(cd, f.CD, statTol) {
		t.Errorf("CD = %v, want %v", cd, f.CD)
	}
}
