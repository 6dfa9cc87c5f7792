package bench_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer/bench"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
)

// writeMultiTask writes a 3-class table of 300 rows (180, 80, 40 rows of
// classes "x", "y", "z") around three centres as dir/name.csv.
func writeMultiTask(tb testing.TB, dir, name string) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("f1,f2,f3,label\n")
	state := uint64(9)
	noise := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11)/(1<<53)*2 - 1
	}
	for c, n := range []int{180, 80, 40} {
		for range n {
			fmt.Fprintf(&b, "%.6f,%.6f,%.6f,%s\n", float64(c)+1.3*noise(), float64(c%2)+noise(), noise(), []string{"x", "y", "z"}[c])
		}
	}
	path := filepath.Join(dir, name+".csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestRunMultiClass benches a multi-class table beside a binary one: the
// multi-class rows hold the multi-class metrics of their prediction
// files, the binary-only columns are NaN, and the report tables the
// multi-class metrics and tests the reference against the others on
// per-row correctness.
func TestRunMultiClass(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeMultiTask(t, dir, "three")
	writeTask(t, dir, "two", 1)
	files, err := bench.ExpandDatasets([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	specs, err := bench.ParseSpecs("gbdt:n_estimators=20,logreg,tree:max_depth=4")
	if err != nil {
		t.Fatal(err)
	}
	cfg := bench.Config{Datasets: files, Seeds: []uint64{0, 1}, Methods: specs, Out: out, Data: dataset.Options{MultiClass: true}}
	sum, err := bench.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || sum.Ran != 12 {
		t.Fatalf("summary %+v", sum)
	}
	recs := readCSV(t, filepath.Join(out, bench.RunsFile))
	col := map[string]int{}
	for j, h := range recs[0] {
		col[h] = j
	}
	multiRows := 0
	for _, r := range recs[1:] {
		if r[col["dataset"]] != "three" {
			continue
		}
		multiRows++
		spec, err := bench.ParseSpec(r[col["method"]])
		if err != nil {
			t.Fatal(err)
		}
		seed, _ := strconv.ParseUint(r[col["seed"]], 10, 64)
		f, err := os.Open(bench.PredsPath(out, "three", spec, seed))
		if err != nil {
			t.Fatal(err)
		}
		p, err := predfile.ReadMultiPredictions(f, "preds")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(p.Classes, ",") != "x,y,z" || len(p.Label) != 60 {
			t.Fatalf("%s seed %d: classes %q, %d test rows", spec, seed, p.Classes, len(p.Label))
		}
		rep, err := metrics.EvaluateMulti(p.Label, p.Pred, p.Proba, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]float64{"balanced_accuracy": rep.BalancedAccuracy, "f1": rep.MacroF1, "gmean": rep.GMean, "roc_auc": rep.MAUC, "log_loss": rep.LogLoss} {
			got, _ := strconv.ParseFloat(r[col[name]], 64)
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("%s seed %d: %s %v, its predictions' %v", spec, seed, name, got, want)
			}
		}
		for _, name := range []string{"threshold", "minority_recall", "average_precision", "mcc"} {
			if r[col[name]] != "NaN" {
				t.Errorf("%s seed %d: %s = %s, want NaN on a multi-class run", spec, seed, name, r[col[name]])
			}
		}
		if ba, _ := strconv.ParseFloat(r[col["balanced_accuracy"]], 64); !(ba > 0.6) {
			t.Errorf("%s seed %d: balanced accuracy %v on well separated classes", spec, seed, ba)
		}
	}
	if multiRows != 6 {
		t.Fatalf("%d multi-class rows, want 6", multiRows)
	}
	md, err := os.ReadFile(filepath.Join(out, bench.ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"300 rows of 3 classes (x 180, y 80, z 40)", "| method | balanced accuracy | macro F1 | G-mean | MAUC |", "1 - the probability of the row's true class", "## two"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	tests := readCSV(t, filepath.Join(out, bench.TestsFile))
	found := false
	for _, r := range tests[1:] {
		found = found || r[0] == "three"
	}
	if !found {
		t.Error("tests.csv has no test on the multi-class dataset")
	}
}
