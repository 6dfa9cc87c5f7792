package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareGolden runs aer compare in-process and compares stdout, stderr
// and the exit status with testdata/compare/<name>.golden (go test -update
// rewrites them).
func TestCompareGolden(t *testing.T) {
	const dir = "testdata/compare"
	td := func(f string) string { return filepath.Join(dir, f) }
	cases := []struct {
		name string
		args []string
	}{
		{"pair", []string{td("a.csv"), td("b.csv")}},
		{"pair_json", []string{"--json", td("a.csv"), td("b.csv")}},
		{"pair_flags_after", []string{td("a.csv"), td("b.csv"), "--zero-method", "zsplit", "--quantity", "squared-error"}},
		{"pair_pratt_approx", []string{td("a.csv"), "--zero-method=pratt", td("b.csv"), "--mode", "approx"}},
		{"pair_pred_column", []string{td("a_pred40.csv"), td("b.csv")}},
		{"pair_threshold_forced", []string{td("a_pred40.csv"), td("b.csv"), "--threshold", "0.5"}},
		{"pair_logloss_json", []string{td("a.csv"), td("b.csv"), "--quantity", "log-loss", "--json"}},
		{"pair_same_file_zsplit", []string{td("a.csv"), td("a.csv"), "--zero-method", "zsplit"}},
		{"err_same_file", []string{td("a.csv"), td("a.csv")}},
		{"err_label_mismatch", []string{td("a.csv"), td("b_mislabel.csv")}},
		{"err_row_count", []string{td("a.csv"), td("b_short.csv")}},
		{"err_no_label", []string{td("a.csv"), td("nolabel.csv")}},
		{"err_logloss_not_probability", []string{td("a.csv"), td("notprob.csv"), "--quantity", "log-loss"}},
		{"err_missing_file", []string{td("a.csv"), td("missing.csv")}},
		{"err_weighted", []string{td("a.csv"), td("b_weighted.csv")}},
		{"usage_one_file", []string{td("a.csv")}},
		{"usage_bad_quantity", []string{td("a.csv"), td("b.csv"), "--quantity", "hinge"}},
		{"usage_bad_zero_method", []string{td("a.csv"), td("b.csv"), "--zero-method", "drop"}},
		{"usage_alpha_without_friedman", []string{td("a.csv"), td("b.csv"), "--alpha", "0.1"}},
		{"usage_unknown_flag", []string{"--bogus", td("a.csv"), td("b.csv")}},
		{"friedman", []string{"--friedman", td("friedman.csv")}},
		{"friedman_json", []string{"--friedman", td("friedman.csv"), "--json"}},
		{"friedman_lower_is_better", []string{"--friedman", td("ranks_clear.csv"), "--lower-is-better"}},
		{"friedman_alpha_010_json", []string{"--friedman", td("ranks_clear.csv"), "--lower-is-better", "--alpha", "0.10", "--json"}},
		{"err_friedman_bad_cell", []string{"--friedman", td("errors_friedman.csv")}},
		{"usage_friedman_threshold", []string{"--friedman", td("friedman.csv"), "--threshold", "0.3"}},
		{"usage_friedman_two_files", []string{"--friedman", td("friedman.csv"), td("ranks_clear.csv")}},
		{"help", []string{"help", "compare"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if args[0] != "help" {
				args = append([]string{"compare"}, args...)
			}
			stdout, stderr, code := aer(t, args...)
			golden(t, filepath.Join("compare", c.name+".golden"),
				fmt.Sprintf("$ aer %s\n--- stdout\n%s--- stderr\n%s--- exit %d\n", strings.Join(args, " "), stdout, stderr, code))
			if strings.HasSuffix(c.name, "json") && code == 0 && !json.Valid([]byte(stdout)) {
				t.Errorf("--json output is not one JSON document")
			}
		})
	}
}

// TestCompareJSONConsistent checks the JSON report against the library and
// against counts computed here from the test files.
func TestCompareJSONConsistent(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"compare", "--json", "testdata/compare/a.csv", "testdata/compare/b.csv"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Rows int `json:"rows"`
		A    struct {
			TP, FP, TN, FN   int
			BalancedAccuracy float64 `json:"balanced_accuracy"`
		} `json:"a"`
		McNemar struct {
			Table [2][2]int `json:"table"`
		} `json:"mcnemar"`
		Wilcoxon struct {
			Quantity string  `json:"quantity"`
			WPlus    float64 `json:"w_plus"`
			WMinus   float64 `json:"w_minus"`
			N        int     `json:"n"`
			Zeros    int     `json:"zeros"`
			ALower   int     `json:"rows_a_lower"`
			BLower   int     `json:"rows_b_lower"`
			Equal    int     `json:"rows_equal"`
		} `json:"wilcoxon"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	tab := rep.McNemar.Table
	if tab[0][0]+tab[0][1]+tab[1][0]+tab[1][1] != rep.Rows {
		t.Errorf("McNemar table %v does not add up to %d rows", tab, rep.Rows)
	}
	a := rep.A
	if a.TP+a.FP+a.TN+a.FN != rep.Rows {
		t.Errorf("confusion counts %+v do not add up to %d rows", a, rep.Rows)
	}
	// A's correct rows are both-right plus only-A-right.
	if a.TP+a.TN != tab[0][0]+tab[0][1] {
		t.Errorf("A correct %d, McNemar row says %d", a.TP+a.TN, tab[0][0]+tab[0][1])
	}
	ba := (float64(a.TP)/float64(a.TP+a.FN) + float64(a.TN)/float64(a.TN+a.FP)) / 2
	if math.Abs(ba-a.BalancedAccuracy) > 1e-15 {
		t.Errorf("balanced accuracy %v, want %v", a.BalancedAccuracy, ba)
	}
	w := rep.Wilcoxon
	if w.Quantity != "abs-error" || w.ALower+w.BLower+w.Equal != rep.Rows || w.Zeros != w.Equal {
		t.Errorf("Wilcoxon counts inconsistent: %+v", w)
	}
	// wilcox drops zeros: W+ + W- = n(n+1)/2 over the non-zero rows.
	if n := float64(w.N); w.N != rep.Rows-w.Zeros || w.WPlus+w.WMinus != n*(n+1)/2 {
		t.Errorf("rank sums %v + %v for n = %d", w.WPlus, w.WMinus, w.N)
	}
}

// TestCompareClasses compares two multi-class predictions files of the same
// 40 rows (testdata/compare_multi, made by make.py there) against SciPy:
// McNemar's test on per-row correctness and Wilcoxon's on the per-row
// log-loss difference.
func TestCompareClasses(t *testing.T) {
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
