package bench

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestSlope(t *testing.T) {
	// y = 3 + 1.5 x exactly, and a constant x.
	x := []float64{0, 1, 2, 5}
	y := []float64{3, 4.5, 6, 10.5}
	if got := slope(x, y); math.Abs(got-1.5) > 1e-12 {
		t.Errorf("slope %v, want 1.5", got)
	}
	if got := slope([]float64{2, 2}, []float64{1, 3}); !math.IsNaN(got) {
		t.Errorf("slope of a constant x %v, want NaN", got)
	}
	if got := slope([]float64{1}, []float64{1}); !math.IsNaN(got) {
		t.Errorf("slope of one point %v, want NaN", got)
	}
}

func TestScaling(t *testing.T) {
	out := t.TempDir()
	res, err := Scaling(context.Background(), ScalingConfig{
		Sizes:   []int{1200, 300, 600}, // sorted by the run
		Methods: []string{"gbdt:n_estimators=5", "logreg"},
		Seed:    1, Workers: 1, Out: out, Features: 6, Informative: 3, Clusters: 1, Ratio: 9,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 6 || len(res.Slopes) != 2 {
		t.Fatalf("%d fits, %d slopes; want 6 and 2", len(res.Rows), len(res.Slopes))
	}
	for i, want := range []int{300, 300, 600, 600, 1200, 1200} {
		r := res.Rows[i]
		if r.Rows != want || r.Features != 6 || !(r.Seconds > 0) || !(r.ROCAUC > 0.6) {
			t.Errorf("fit %d: %+v; want %d rows, 6 features, a time and a useful model", i, r, want)
		}
	}
	for _, s := range res.Slopes {
		if math.IsNaN(s.Time) || math.IsInf(s.Time, 0) {
			t.Errorf("%s: time slope %v", s.Method, s.Time)
		}
	}
	f, err := os.Open(filepath.Join(out, "scaling.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 7 || recs[0][0] != "method" || recs[1][0] != "gbdt:n_estimators=5" || recs[2][1] != "300" {
		t.Fatalf("scaling.csv %v", recs)
	}
	if secs, err := strconv.ParseFloat(recs[6][3], 64); err != nil || secs != res.Rows[5].Seconds {
		t.Errorf("fit_seconds %q, want %v", recs[6][3], res.Rows[5].Seconds)
	}
	for _, name := range []string{"scaling-time.svg", "scaling-time.png", "scaling-memory.svg", "scaling-memory.png"} {
		if fi, err := os.Stat(filepath.Join(out, FiguresDir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("figure %s: %v", name, err)
		}
	}
	if _, err := Scaling(context.Background(), ScalingConfig{Sizes: []int{50}, Out: out}); err == nil {
		t.Error("50 rows accepted")
	}
	if _, err := Scaling(context.Background(), ScalingConfig{Sizes: []int{500}, Methods: []string{"nosuch"}, Out: out}); err == nil {
		t.Error("an unknown method accepted")
	}
}

// With a thread list, every method is fitted at every size once per
// thread count, with its speedup over the first count, and one slope per
// method and count.
func TestScalingThreads(t *testing.T) {
	out := t.TempDir()
	res, err := Scaling(context.Background(), ScalingConfig{
		Sizes: []int{300, 600}, Methods: []string{"gbdt:n_estimators=5"}, Threads: []int{1, 2},
		Seed: 1, Out: out, Features: 6, Informative: 3, Clusters: 1, Ratio: 9,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || len(res.Slopes) != 2 || res.Slopes[0].Threads != 1 || res.Slopes[1].Threads != 2 {
		t.Fatalf("%d fits, slopes %+v; want 4 fits and a slope per thread count", len(res.Rows), res.Slopes)
	}
	for i, want := range []struct{ rows, threads int }{{300, 1}, {300, 2}, {600, 1}, {600, 2}} {
		r := res.Rows[i]
		first := res.Rows[i-i%2]
		if r.Rows != want.rows || r.Threads != want.threads || r.Speedup != first.Seconds/r.Seconds || (i%2 == 0 && r.Speedup != 1) {
			t.Errorf("fit %d: %+v; want %d rows on %d threads, speedup over %v s", i, r, want.rows, want.threads, first.Seconds)
		}
	}
	// Boosted trees give the same model on any number of threads.
	if res.Rows[0].ROCAUC != res.Rows[1].ROCAUC {
		t.Errorf("ROC-AUC %v on 1 thread, %v on 2", res.Rows[0].ROCAUC, res.Rows[1].ROCAUC)
	}
	recs := readCSV(t, filepath.Join(out, "scaling.csv"))
	if h := recs[0]; h[7] != "threads" || h[8] != "speedup" || recs[2][7] != "2" {
		t.Errorf("scaling.csv %v", recs)
	}
	if _, err := Scaling(context.Background(), ScalingConfig{Sizes: []int{300}, Threads: []int{0}, Out: out}); err == nil {
		t.Error("0 threads accepted")
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestStageSeconds reads the per-stage seconds a fit summary reports.
func TestStageSeconds(t *testing.T) {
	got := stageSeconds(map[string]any{"seconds": map[string]any{"mixture": 1.5, "members": 2.0, "note": "x"}, "lambda": 0.3})
	if len(got) != 2 || got["mixture"] != 1.5 || got["members"] != 2 {
		t.Errorf("stages %v", got)
	}
	if got := stageSeconds(struct{ A int }{1}); got != nil {
		t.Errorf("a summary without seconds gave %v", got)
	}
}
