package logreg_test

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/metrics"
)

var (
	quality        = flag.String("quality", "", "TestQuality: comma-separated shared datasets, or all")
	qualityReps    = flag.Int("quality-reps", 1, "TestQuality: fits per split, the fastest timed")
	qualityWorkers = flag.Int("quality-workers", 0, "TestQuality: workers per fit (0: all cores)")
)

var sharedDatasets = []string{"abalone_19", "bioassay", "car_eval_34", "ecoli", "gmm10", "scene", "us_crime", "wine_quality"}

// anchor is the mean over seeds of one dataset's LR_balanced runs in
// ../shared/anchors/runs.csv.
type anchor struct{ ba, auc, fitSeconds float64 }

func readAnchors(t *testing.T, method string) map[string]anchor {
	t.Helper()
	f, err := os.Open(sharedtest.Path(t, "anchors", "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for j, h := range rows[0] {
		col[h] = j
	}
	sum, n := map[string]anchor{}, map[string]float64{}
	num := func(r []string, key string) float64 {
		v, err := strconv.ParseFloat(r[col[key]], 64)
		if err != nil {
			t.Fatalf("runs.csv: %s %q: %v", key, r[col[key]], err)
		}
		return v
	}
	for _, r := range rows[1:] {
		if r[col["method"]] != method || r[col["status"]] != "ok" {
			continue
		}
		d, a := r[col["dataset"]], sum[r[col["dataset"]]]
		a.ba += num(r, "tuned_ba")
		a.auc += num(r, "roc_auc")
		a.fitSeconds += num(r, "fit_s")
		sum[d], n[d] = a, n[d]+1
	}
	for d, a := range sum {
		sum[d] = anchor{a.ba / n[d], a.auc / n[d], a.fitSeconds / n[d]}
	}
	return sum
}

// TestQuality fits the registered logreg (standardised, defaults) on the
// anchors' own splits of the shared datasets, seeds 0-4, and prints test
// balanced accuracy at the threshold tuned on validation, ROC-AUC and fit
// seconds beside the Python anchors' LR_balanced (scikit-learn's
// LogisticRegression(class_weight='balanced', max_iter=2000)). The
// solutions differ only in how close each solver gets to the same
// optimum, so the mean ROC-AUC must agree to 0.01. Run with
// -quality all; -quality-reps 5 times the fastest of 5 fits per split,
// -quality-workers 1 fits on one core as the anchors did.
func TestQuality(t *testing.T) {
	if *quality == "" {
		t.Skip("run with -quality all (or a comma-separated list of datasets)")
	}
	names := strings.Split(*quality, ",")
	if *quality == "all" {
		names = sharedDatasets
	}
	ref := readAnchors(t, "LR_balanced")
	var grid []float64
	for k := 1; k <= 99; k++ {
		grid = append(grid, float64(k)/100)
	}
	fmt.Printf("| dataset | test BA (Python) | test BA (aer) | ROC-AUC (Python) | ROC-AUC (aer) | fit s (Python) | fit s (aer) | ratio | Newton iterations |\n|---|---|---|---|---|---|---|---|---|\n")
	var sum [6]float64
	for _, name := range names {
		d, err := dataset.Load(filepath.Join(sharedtest.Path(t, "datasets"), name+".csv"), dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var ba, auc, secs, iters float64
		const seeds = 5
		for seed := range seeds {
			tr, va, te, err := dataset.AnchorSplit(d.Y, uint32(seed))
			if err != nil {
				t.Fatal(err)
			}
			train, valid, test := d.Subset(tr), d.Subset(va), d.Subset(te)
			m := logreg.NewStandardized()
			var model learn.Scorer
			best := math.Inf(1)
			for range max(1, *qualityReps) {
				start := time.Now()
				model, err = m.Fit(context.Background(), &learn.Data{X: train.X, Y: train.Y, Features: train.Features}, nil, learn.Env{Seed: uint64(seed), Workers: *qualityWorkers})
				best = math.Min(best, time.Since(start).Seconds())
				if err != nil {
					t.Fatalf("%s seed %d: %v", name, seed, err)
				}
			}
			secs += best
			iters += float64(learn.SummaryOf(model).(*logreg.Summary).Iterations)
			pv, err := learn.Predict(context.Background(), model, valid.X, 1)
			if err != nil {
				t.Fatal(err)
			}
			pt, err := learn.Predict(context.Background(), model, test.X, 1)
			if err != nil {
				t.Fatal(err)
			}
			sw := metrics.SweepThresholds(valid.Y, pv, grid, nil)
			r := metrics.Evaluate(test.Y, pt, sw[sw.Best(metrics.BalancedAccuracy)].Threshold, nil)
			ba += r.BalancedAccuracy / seeds
			auc += r.ROCAUC / seeds
		}
		secs /= seeds
		a, ok := ref[name]
		if !ok {
			t.Fatalf("no LR_balanced anchor for %s", name)
		}
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %.3f | %.4f | %.4f | %.2f | %.1f |\n", name, a.ba, ba, a.auc, auc, a.fitSeconds, secs, secs/a.fitSeconds, iters/seeds)
		for k, v := range []float64{a.ba, ba, a.auc, auc, a.fitSeconds, secs} {
			sum[k] += v / float64(len(names))
		}
		if math.Abs(auc-a.auc) > 0.01 {
			t.Errorf("%s: mean test ROC-AUC %.4f, Python's %.4f", name, auc, a.auc)
		}
	}
	fmt.Printf("| **mean** | **%.3f** | **%.3f** | **%.3f** | **%.3f** | %.4f | %.4f | | |\n", sum[0], sum[1], sum[2], sum[3], sum[4], sum[5])
}

var speedCSV = flag.String("speed-csv", "", "TestSpeedCSV: comma-separated labelled CSV files to time fits on")

// cpuSeconds is the process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// TestSpeedCSV times the registered logreg with its defaults on whole
// CSV files (-speed-csv a.csv,b.csv), on 1 and 2 workers: the fastest of
// -quality-reps fits, wall and CPU seconds, for comparison with a Python
// script timing scikit-learn on the same files.
func TestSpeedCSV(t *testing.T) {
	if *speedCSV == "" {
		t.Skip("run with -speed-csv file.csv[,file.csv...]")
	}
	for _, path := range strings.Split(*speedCSV, ",") {
		d, err := dataset.Load(path, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		data := &learn.Data{X: d.X, Y: d.Y, Features: d.Features}
		for _, workers := range []int{1, 2} {
			wall, cpu := math.Inf(1), math.Inf(1)
			var s *logreg.Summary
			for range max(1, *qualityReps) {
				start, c0 := time.Now(), cpuSeconds()
				m, err := logreg.NewStandardized().Fit(context.Background(), data, nil, learn.Env{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				wall, cpu = math.Min(wall, time.Since(start).Seconds()), math.Min(cpu, cpuSeconds()-c0)
				s = learn.SummaryOf(m).(*logreg.Summary)
			}
			fmt.Printf("%s: %d x %d, %d workers: wall %.3f s, CPU %.3f s (%s, %d iterations)\n", filepath.Base(path), d.Rows(), d.Cols(), workers, wall, cpu, s.Solver, s.Iterations)
		}
	}
}
