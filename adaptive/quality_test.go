package adaptive

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

var (
	qualityFlag   = flag.String("quality", "", "comma-separated datasets for TestQualityTable (all = every shared dataset)")
	qualitySeeds  = flag.Int("quality-seeds", 5, "seeds per dataset for TestQualityTable")
	qualityParams = flag.String("quality-params", "", "AER parameters key=value&key=value for TestQualityTable")
	qualityGBDT   = flag.Bool("quality-gbdt", false, "TestQualityTable: boosted trees with scale_pos_weight (threshold tuned on valid) instead of AER")
)

func sharedDatasets(tb testing.TB) string { return sharedtest.Path(tb, "datasets") }

// splitDataset loads a shared dataset and splits it 3:1:1 with seed as
// the Python anchors did (scikit-learn's stratified train_test_split).
func splitDataset(tb testing.TB, name string, seed uint64) (train, valid, test *dataset.Dataset) {
	tb.Helper()
	d, err := dataset.Load(filepath.Join(sharedDatasets(tb), name+".csv"), dataset.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	// The anchors' protocol, so results compare row for row.
	tr, va, te, err := dataset.AnchorSplit(d.Y, uint32(seed))
	if err != nil {
		tb.Fatal(err)
	}
	return d.Subset(tr), d.Subset(va), d.Subset(te)
}

// TestQualityTable prints test balanced accuracy over seeds; run with
// -quality all (it takes minutes).
func TestQualityTable(t *testing.T) {
	if *qualityFlag == "" {
		t.Skip("run with -quality all (or a list of datasets)")
	}
	names := strings.Split(*qualityFlag, ",")
	if *qualityFlag == "all" {
		names = []string{"abalone_19", "bioassay", "car_eval_34", "ecoli", "gmm10", "scene", "us_crime", "wine_quality"}
	}
	var cfg Config
	if *qualityParams != "" {
		for _, kv := range strings.Split(*qualityParams, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if err := cfg.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	total := 0.0
	for _, name := range names {
		var bas, aucs []float64
		secs := 0.0
		for s := 0; s < *qualitySeeds; s++ {
			tr, va, te := splitDataset(t, name, uint64(s))
			var r metrics.Report
			if *qualityGBDT {
				start := time.Now()
				counts := tr.ClassCounts()
				neg, pos := counts[0], counts[1]
				var st boost.Settings
				st.Seed, st.ScalePosWeight = uint64(s), float64(neg)/float64(pos)
				m, err := boost.Train(context.Background(), boost.Data{X: tr.X, Y: tr.Y}, nil, &st)
				if err != nil {
					t.Fatal(err)
				}
				secs += time.Since(start).Seconds()
				grid := deltaGrid(0.01)
				sw := metrics.SweepThresholds(va.Y, m.Predict(va.X, nil), grid, nil)
				r = metrics.Evaluate(te.Y, m.Predict(te.X, nil), sw[sw.Best(metrics.BalancedAccuracy)].Threshold, nil)
			} else {
				m, rep, err := Fit(context.Background(), ld(tr), ld(va), &cfg, learn.Env{Seed: uint64(s)})
				if err != nil {
					t.Fatalf("%s seed %d: %v", name, s, err)
				}
				p, _, err := m.Score(te.X, 0)
				if err != nil {
					t.Fatal(err)
				}
				r = metrics.Evaluate(te.Y, p, m.Threshold(), nil)
				secs += rep.Seconds.Total
			}
			bas = append(bas, r.BalancedAccuracy)
			aucs = append(aucs, r.ROCAUC)
		}
		mb, sb := meanStd(bas)
		ma, _ := meanStd(aucs)
		total += mb
		fmt.Printf("%-14s BA %.3f±%.3f  AUC %.3f  fit %.2fs\n", name, mb, sb, ma, secs/float64(*qualitySeeds))
	}
	fmt.Printf("mean BA %.4f\n", total/float64(len(names)))
}

func meanStd(v []float64) (float64, float64) {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	if len(v) > 1 {
		s /= float64(len(v) - 1)
	}
	return m, sqrt(s)
}

func sqrt(x float64) float64 { return math.Sqrt(x) }

// anchorMeans reads the mean test balanced accuracy (tuned threshold) of a
// method per dataset from ../shared/anchors/runs.csv.
func anchorMeans(tb testing.TB, method string) map[string]float64 {
	tb.Helper()
	f, err := os.Open(sharedtest.Path(tb, "anchors", "runs.csv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	col := map[string]int{}
	for j, h := range rows[0] {
		col[h] = j
	}
	sum, n := map[string]float64{}, map[string]float64{}
	for _, r := range rows[1:] {
		if r[col["method"]] != method || r[col["status"]] != "ok" {
			continue
		}
		v, err := strconv.ParseFloat(r[col["tuned_ba"]], 64)
		if err != nil {
			tb.Fatal(err)
		}
		sum[r[col["dataset"]]] += v
		n[r[col["dataset"]]]++
	}
	for k := range sum {
		sum[k] /= n[k]
	}
	return sum
}

// plusAnchorMeans reads the Python reference's AER+ column (mean test
// balanced accuracy per dataset) from anchors/aerplus.md.
func plusAnchorMeans(tb testing.TB) map[string]float64 {
	tb.Helper()
	b, err := os.ReadFile(sharedtest.Path(tb, "anchors", "aerplus.md"))
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]float64{}
	header := -1
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if header < 0 {
			if len(cells) > 2 && cells[0] == "dataset" {
				header = slices.Index(cells, "AER+")
			}
			continue
		}
		if header < 0 || len(cells) <= header {
			continue
		}
		if v, err := strconv.ParseFloat(cells[header], 64); err == nil {
			out[cells[0]] = v
		}
	}
	if len(out) == 0 {
		tb.Fatal("anchors/aerplus.md: no AER+ column found")
	}
	return out
}

// TestQualityAgainstAnchors fits AER with each preset on the anchors' own
// splits (seeds 0-4) of the three quickest datasets and requires mean test
// balanced accuracy within 3 points of the Python reference: the paper
// preset against AER_exp_simplex, the default (plus) against the Python
// AER+. The full 8-dataset table is TestQualityTable.
func TestQualityAgainstAnchors(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 30 models; skipped in -short mode")
	}
	for _, preset := range []struct {
		name Preset
		ref  map[string]float64
	}{{PresetPaper, anchorMeans(t, "AER_exp_simplex")}, {PresetPlus, plusAnchorMeans(t)}} {
		for _, name := range []string{"ecoli", "car_eval_34", "abalone_19"} {
			var bas []float64
			for s := range 5 {
				tr, va, te := splitDataset(t, name, uint64(s))
				m, _, err := Fit(context.Background(), ld(tr), ld(va), &Config{Preset: preset.name}, learn.Env{Seed: uint64(s)})
				if err != nil {
					t.Fatalf("%s seed %d: %v", name, s, err)
				}
				p, _, err := m.Score(te.X, 0)
				if err != nil {
					t.Fatal(err)
				}
				bas = append(bas, metrics.Evaluate(te.Y, p, m.Threshold(), nil).BalancedAccuracy)
			}
			got, _ := meanStd(bas)
			want, ok := preset.ref[name]
			if !ok {
				t.Fatalf("no anchor for %s", name)
			}
			t.Logf("preset %s, %s: test BA %.3f, Python reference %.3f", preset.name, name, got, want)
			if got < want-0.03 {
				t.Errorf("preset %s, %s: mean test balanced accuracy %.3f is more than 3 points below the Python reference's %.3f", preset.name, name, got, want)
			}
		}
	}
}
