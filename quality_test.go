package aer

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/metrics"
)

var (
	qualityFlag   = flag.String("quality", "", "comma-separated datasets for TestQualityTable (all = every shared dataset)")
	qualitySeeds  = flag.Int("quality-seeds", 5, "seeds per dataset for TestQualityTable")
	qualityParams = flag.String("quality-params", "", "AER parameters key=value&key=value for TestQualityTable")
)

func sharedDatasets(tb testing.TB) string {
	tb.Helper()
	p, _ := filepath.Abs(filepath.Join("..", "shared", "datasets"))
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s not found: the shared datasets sit beside the repository (../shared); skipping", p)
	}
	return p
}

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
			c := cfg
			c.Seed = uint64(s)
			m, rep, err := Fit(context.Background(), tr.X, tr.Y, va.X, va.Y, &c)
			if err != nil {
				t.Fatalf("%s seed %d: %v", name, s, err)
			}
			p, _, err := m.PredictProba(te.X)
			if err != nil {
				t.Fatal(err)
			}
			r := metrics.Evaluate(te.Y, p, m.Threshold())
			bas = append(bas, r.BalancedAccuracy)
			aucs = append(aucs, r.ROCAUC)
			secs += rep.Seconds.Total
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
