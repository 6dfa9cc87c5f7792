package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareMulti compares two multi-class predictions files of the same
// 40 rows (testdata/compare_multi, made by make.py there) against SciPy:
// McNemar's test on per-row correctness and Wilcoxon's on the per-row
// log-loss difference.
func TestCompareMulti(t *testing.T) {
	dir := filepath.Join("testdata", "compare_multi")
	var want struct {
		B, C                  int
		Chi2, Chi2P, ExactP   float64
		WilcoxonStatistic, WP float64
	}
	b, err := os.ReadFile(filepath.Join(dir, "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]float64
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	want.B, want.C, want.Chi2, want.Chi2P, want.ExactP = int(raw["b"]), int(raw["c"]), raw["chi2"], raw["chi2_p"], raw["exact_p"]
	want.WilcoxonStatistic, want.WP = raw["wilcoxon_statistic"], raw["wilcoxon_p"]
	a, bb := filepath.Join(dir, "A.csv"), filepath.Join(dir, "B.csv")
	stdout, stderr, code := aer(t, "compare", a, bb, "--quantity", "log-loss", "--mode", "exact", "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	var rep struct {
		Rows    int
		Classes []string
		McNemar struct {
			B          int     `json:"b"`
			C          int     `json:"c"`
			ChiSquare  float64 `json:"chi_square"`
			ChiSquareP float64 `json:"chi_square_p"`
			ExactP     float64 `json:"exact_p"`
		} `json:"mcnemar"`
		Wilcoxon struct{ Statistic, P float64 }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	close := func(what string, got, want float64) {
		if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
			t.Errorf("%s = %v, SciPy %v", what, got, want)
		}
	}
	if rep.Rows != 40 || len(rep.Classes) != 3 || rep.Classes[0] != "a b" || rep.McNemar.B != want.B || rep.McNemar.C != want.C {
		t.Fatalf("rows %d, classes %q, b %d c %d; want 40, 3, b %d c %d", rep.Rows, rep.Classes, rep.McNemar.B, rep.McNemar.C, want.B, want.C)
	}
	close("McNemar chi2", rep.McNemar.ChiSquare, want.Chi2)
	close("McNemar chi2 p", rep.McNemar.ChiSquareP, want.Chi2P)
	close("McNemar exact p", rep.McNemar.ExactP, want.ExactP)
	close("Wilcoxon W", rep.Wilcoxon.Statistic, want.WilcoxonStatistic)
	close("Wilcoxon p", rep.Wilcoxon.P, want.WP)
	stdout, _, code = aer(t, "compare", a, bb)
	if code != 0 || !strings.Contains(stdout, "3 classes") || !strings.Contains(stdout, "1 - p(true class)") {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := aer(t, "compare", a, bb, "--threshold", "0.3"); code != 2 || !strings.Contains(stderr, "binary") {
		t.Errorf("--threshold on multi-class files: exit %d\n%s", code, stderr)
	}
	bin := filepath.Join(t.TempDir(), "bin.csv")
	if err := os.WriteFile(bin, []byte("label,score\n1,0.9\n0,0.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := aer(t, "compare", a, bin); code == 0 || !strings.Contains(stderr, "multi-class") {
		t.Errorf("a multi-class and a binary file: exit %d\n%s", code, stderr)
	}
}
