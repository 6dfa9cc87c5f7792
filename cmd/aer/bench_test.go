package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer/predfile"
)

// benchData writes two small synthetic tasks into a directory.
func benchData(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"one", "two"} {
		if _, errOut, code := aer(t, "gen", "--rows", "300", "--ratio", "6", "--clusters", "1", "--features", "5",
			"--informative", "3", "--seed", strconv.Itoa(i+1), "--out", filepath.Join(dir, name+".csv")); code != 0 {
			t.Fatal(errOut)
		}
	}
	return dir
}

// TestBenchTestsEqualCompare checks that the report's McNemar and Wilcoxon
// statistics are aer compare's on the same predictions, seeds concatenated.
func TestBenchTestsEqualCompare(t *testing.T) {
	data, out := benchData(t), t.TempDir()
	stdout, errOut, code := aer(t, "bench", "--datasets", data, "--seeds", "0-1", "--methods", "gbdt:n_estimators=20,logreg,tree",
		"--reference", "logreg", "--out", out, "--jobs", "2", "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var sum struct {
		Runs, Ran int
		Files     []string
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Runs != 12 || sum.Ran != 12 {
		t.Fatalf("summary %s (%v)", stdout, err)
	}
	if n := strings.Count(errOut, "bench: ["); n != 12 {
		t.Errorf("%d progress lines, want 12:\n%s", n, errOut)
	}
	f, err := os.Open(filepath.Join(out, "tests.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 5 {
		t.Fatalf("tests.csv: %d lines, %v", len(recs), err)
	}
	col := map[string]int{}
	for j, h := range recs[0] {
		col[h] = j
	}
	concat := func(ds, method string) string {
		all := &predfile.Predictions{}
		for _, s := range []string{"0", "1"} {
			p, err := predfile.LoadPredictions(filepath.Join(out, "preds", ds, method, s+".csv"))
			if err != nil {
				t.Fatal(err)
			}
			all.Label, all.Score, all.Pred = append(all.Label, p.Label...), append(all.Score, p.Score...), append(all.Pred, p.Pred...)
		}
		path := filepath.Join(t.TempDir(), method+".csv")
		if err := writeFileAtomic(context.Background(), path, func(w io.Writer) error { return predfile.WritePredictions(w, all) }); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, r := range recs[1:] {
		ds, a, b := r[col["dataset"]], r[col["a"]], strings.ReplaceAll(r[col["b"]], ":", "_")
		got, errOut, code := aer(t, "compare", concat(ds, a), concat(ds, b), "--json")
		if code != 0 {
			t.Fatalf("compare: %s", errOut)
		}
		// Decoded loosely: stattest's modes encode as text only.
		var c struct{ McNemar, Wilcoxon map[string]any }
		if err := json.Unmarshal([]byte(got), &c); err != nil {
			t.Fatal(err)
		}
		m := func(k string) float64 { f, _ := c.McNemar[k].(float64); return f }
		w := func(k string) float64 { f, _ := c.Wilcoxon[k].(float64); return f }
		for name, want := range map[string]float64{
			"mcnemar_b": m("b"), "mcnemar_c": m("c"), "mcnemar_chi2": m("chi_square"),
			"mcnemar_chi2_p": m("chi_square_p"), "mcnemar_exact_p": m("exact_p"),
			"wilcoxon_statistic": w("statistic"), "wilcoxon_w_plus": w("w_plus"), "wilcoxon_w_minus": w("w_minus"),
			"wilcoxon_z": w("z"), "wilcoxon_p": w("p"), "mean_difference": w("mean_difference"),
		} {
			v, err := strconv.ParseFloat(r[col[name]], 64)
			if err != nil || v != want {
				t.Errorf("%s %s vs %s: %s = %s in tests.csv, %v from aer compare", ds, a, b, name, r[col[name]], want)
			}
		}
	}
}

func TestBenchUsage(t *testing.T) {
	data := t.TempDir()
	for _, args := range [][]string{
		{"--out", "x"},
		{"--datasets", data},
		{"--datasets", data, "--out", "x", "--jobs", "0"},
		{"--datasets", data, "--out", "x", "--seeds", "4-2"},
		{"--datasets", data, "--out", "x", "--methods", "nosuch"},
		{"--datasets", data, "--out", "x", "--methods", "gbdt:nosuch=1"},
		{"--datasets", data, "--out", "x", "--grid", "big"},
		{"--datasets", data, "--out", "x", "--protocol", "numpy"},
		{"--datasets", data, "--out", "x", "--methods", "gbdt", "--reference", "tree"},
		{"--datasets", data, "--out", "x", "--contaminate", "flip:0.7"},
		{"--datasets", data, "--out", "x", "--contaminate", "noise:0.1"},
	} {
		if _, errOut, code := aer(t, append([]string{"bench"}, args...)...); code != 2 {
			t.Errorf("%v: code %d, want 2 (%s)", args, code, errOut)
		}
	}
	out, _, code := aer(t, "help", "bench")
	if code != 0 {
		t.Fatal(code)
	}
	golden(t, "bench/help.golden", out)
	for _, flag := range []string{"-datasets", "-seeds", "-methods", "-grid", "-out", "-jobs", "-threads", "-protocol", "-anchors", "-reference", "-contaminate", "-json"} {
		if !strings.Contains(out, flag) {
			t.Errorf("aer help bench does not document %s", flag)
		}
	}
}

// TestBenchRankingText: aer bench's standard output opens with the
// ranking across datasets (every method, by mean rank, with its mean
// balanced accuracy), says when the datasets are few, and names the
// report instead of listing every file.
func TestBenchRankingText(t *testing.T) {
	dir := t.TempDir()
	for i, seed := range []string{"1", "2"} {
		if _, errOut, code := aer(t, "gen", "--rows", "300", "--ratio", "4", "--features", "4", "--seed", seed, "--out", filepath.Join(dir, "d"+seed+".csv")); code != 0 {
			t.Fatalf("gen %d: %s", i, errOut)
		}
	}
	out, errOut, code := aer(t, "bench", "--datasets", dir, "--methods", "tree,logreg", "--seeds", "0", "--out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "Ranking by mean test balanced accuracy over 2 datasets") ||
		!strings.Contains(out, "  tree ") || !strings.Contains(out, "  logreg ") ||
		!strings.Contains(out, "on 2 datasets only") || !strings.Contains(out, "report: "+filepath.Join(dir, "out", "report.html")) {
		t.Errorf("stdout:\n%s", out)
	}
	if strings.Contains(out, "preds") {
		t.Errorf("stdout lists the files:\n%s", out)
	}
	js, _, code := aer(t, "bench", "--datasets", dir, "--methods", "tree,logreg", "--seeds", "0", "--out", filepath.Join(dir, "out"), "--json")
	if code != 0 || !strings.Contains(js, `"ranking"`) || !strings.Contains(js, `"mean_rank"`) {
		t.Errorf("--json: exit %d:\n%s", code, js)
	}
}
