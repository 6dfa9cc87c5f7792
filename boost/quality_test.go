package boost

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

var long = flag.Bool("long", false, "run the quality comparison over seeds 0-4 instead of seed 0")

// qualityReference holds XGBoost 1.7.4 (hist, eta 0.3, max_depth 6, 100
// trees) test ROC-AUC on exactly the splits this test makes
// (dataset.StratifiedSplit 3:1:1 by seed), computed by
// testdata/xgb_same_splits.py from the split files TestQuality writes
// with BOOST_SPLITS_DIR set.
type qualityReference map[string]map[string]float64 // dataset -> seed -> AUC

func loadQualityReference(t *testing.T) qualityReference {
	b, err := os.ReadFile(filepath.Join("testdata", "xgb_same_splits.json"))
	if err != nil {
		t.Logf("no XGBoost reference on these splits: %v", err)
		return nil
	}
	var ref struct {
		AUC qualityReference `json:"test_auc"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref.AUC
}

// TestQuality trains with XGBoost's default parameters (eta 0.3,
// max_depth 6, 100 trees) on every dataset in ../shared/datasets, on the
// train part of a stratified 3:1:1 split, and compares the test ROC-AUC
// with XGBoost's on the same split: the mean over the seeds run must not
// be more than 0.01 below XGBoost's (run with -args -long for seeds 0-4).
func TestQuality(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "datasets")
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(files) == 0 {
		t.Skipf("no datasets in %s", dir)
	}
	if testing.Short() {
		t.Skip("quality comparison skipped in -short mode")
	}
	seeds := []uint64{0}
	if *long {
		seeds = []uint64{0, 1, 2, 3, 4}
	}
	splitsDir := os.Getenv("BOOST_SPLITS_DIR")
	ref := loadQualityReference(t)
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".csv")
		t.Run(name, func(t *testing.T) {
			d, err := dataset.Load(f, dataset.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var ours, theirs []float64
			exact := true // every feature has few enough values for exact cuts
			for _, seed := range seeds {
				parts, err := dataset.StratifiedSplit(d.Y, []float64{3, 1, 1}, seed)
				if err != nil {
					t.Fatal(err)
				}
				if splitsDir != "" {
					b, _ := json.Marshal(map[string]any{"train": parts[0], "valid": parts[1], "test": parts[2]})
					os.WriteFile(filepath.Join(splitsDir, fmt.Sprintf("%s_%d.json", name, seed)), b, 0o644)
				}
				tr, te := d.Subset(parts[0]), d.Subset(parts[2])
				exact = exact && fewValues(tr.X, 255)
				m, err := Train(context.Background(), Data{X: tr.X, Y: tr.Y}, nil, &Settings{Threads: 2})
				if err != nil {
					t.Fatal(err)
				}
				auc := rocAUC(m.PredictMargin(te.X, nil), te.Y)
				ours = append(ours, auc)
				if r, ok := ref[name][fmt.Sprint(seed)]; ok {
					theirs = append(theirs, r)
				}
			}
			mo := mean(ours)
			if len(theirs) != len(ours) {
				t.Logf("%s: test AUC %.4f over seeds %v (no XGBoost reference for these splits)", name, mo, seeds)
				return
			}
			mt := mean(theirs)
			t.Logf("%s: test AUC %.4f, XGBoost on the same splits %.4f (diff %+.4f); per seed %.4f vs %.4f", name, mo, mt, mo-mt, ours, theirs)
			// Where the features take more distinct values than bins, the
			// quantile cuts differ from XGBoost's sketch and so do the trees;
			// on one split of a small test set that moves the AUC by a few
			// hundredths either way, so a single seed is held to 0.06 there
			// and the five-seed mean (-long) to 0.01.
			tol := 0.01
			if !exact && len(seeds) == 1 {
				tol = 0.06
			}
			if mo < mt-tol {
				t.Errorf("%s: mean test AUC %.4f is more than %.2f below XGBoost's %.4f", name, mo, tol, mt)
			}
		})
	}
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// fewValues reports whether every column of x has at most k distinct
// non-missing values.
func fewValues(x interface {
	Dims() (int, int)
	At(int, int) float64
}, k int) bool {
	r, c := x.Dims()
	for j := 0; j < c; j++ {
		seen := map[float64]bool{}
		for i := 0; i < r; i++ {
			if v := x.At(i, j); v == v {
				seen[v] = true
			}
		}
		if len(seen) > k {
			return false
		}
	}
	return true
}
