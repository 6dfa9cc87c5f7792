package mlp_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/mlp"
)

var (
	quality      = flag.String("quality", "", "TestQuality: comma-separated shared datasets, or all")
	qualityGBDT  = flag.Bool("quality-gbdt", false, "TestQuality: also fit gbdt-tuned on the same splits")
	qualityParam = flag.String("quality-params", "", "TestQuality: mlp-focal parameters key=value,key=value")
)

// TestQuality prints, per shared dataset, mlp-focal's mean test balanced
// accuracy over seeds 0-4 on the anchors' splits (dataset.AnchorSplit),
// the threshold tuned on the validation rows by balanced accuracy over
// 0.01..0.99 ("grid") and, as the anchors did, over that grid plus every
// validation score ("grid+scores"), and its mean test ROC-AUC. The Python
// anchors have no neural network; -quality-gbdt adds gbdt-tuned on the
// same splits and thresholds for comparison. Run with -quality all.
func TestQuality(t *testing.T) {
	if *quality == "" {
		t.Skip("run with -quality all (or a list of datasets)")
	}
	names := strings.Split(*quality, ",")
	if *quality == "all" {
		names = []string{"abalone_19", "bioassay", "car_eval_34", "ecoli", "gmm10", "scene", "us_crime", "wine_quality"}
	}
	methods := []string{"mlp-focal"}
	if *qualityGBDT {
		methods = append(methods, "gbdt-tuned")
	}
	dir := sharedtest.Path(t, "datasets")
	fmt.Printf("%-13s %-10s %-17s %-17s %-7s %-7s %s\n", "dataset", "method", "BA grid", "BA grid+scores", "AUC", "fit s", "epochs (best)")
	for _, name := range names {
		d, err := dataset.Load(filepath.Join(dir, name+".csv"), dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		all := &learn.Data{X: d.X, Y: d.Y, Features: d.Features}
		for _, method := range methods {
			var ba, baq, auc, secs, epochs, best []float64
			for seed := range 5 {
				tr, va, te, err := dataset.AnchorSplit(d.Y, uint32(seed))
				if err != nil {
					t.Fatal(err)
				}
				m, err := learn.New(method)
				if err != nil {
					t.Fatal(err)
				}
				if method == "mlp-focal" && *qualityParam != "" {
					for _, kv := range strings.Split(*qualityParam, ",") {
						k, v, _ := strings.Cut(kv, "=")
						if err := m.Set(k, v); err != nil {
							t.Fatal(err)
						}
					}
				}
				start := time.Now()
				model, err := m.Fit(context.Background(), all.Subset(tr), all.Subset(va), learn.Env{Seed: uint64(seed)})
				if err != nil {
					t.Fatalf("%s %s seed %d: %v", name, method, seed, err)
				}
				secs = append(secs, time.Since(start).Seconds())
				if v, ok := learn.SummaryOf(model).(*mlp.Summary); ok {
					epochs, best = append(epochs, float64(v.Epochs)), append(best, float64(v.BestEpoch))
				}
				pv, err := learn.Predict(context.Background(), model, all.Subset(va).X, 0)
				if err != nil {
					t.Fatal(err)
				}
				pt, err := learn.Predict(context.Background(), model, all.Subset(te).X, 0)
				if err != nil {
					t.Fatal(err)
				}
				yv, yt := learn.Pick(d.Y, va), learn.Pick(d.Y, te)
				grid := metrics.Grid(0.01, 0.99, 99)
				for k, cands := range [][]float64{grid, append(slices.Clone(grid), pv...)} {
					sw := metrics.SweepThresholds(yv, pv, cands, nil)
					r := metrics.Evaluate(yt, pt, sw[sw.Best(metrics.BalancedAccuracy)].Threshold, nil)
					if k == 0 {
						ba, auc = append(ba, r.BalancedAccuracy), append(auc, r.ROCAUC)
					} else {
						baq = append(baq, r.BalancedAccuracy)
					}
				}
			}
			mb, sb := meanStd(ba)
			mq, sq := meanStd(baq)
			ma, _ := meanStd(auc)
			ms, _ := meanStd(secs)
			ep := ""
			if len(epochs) > 0 {
				me, _ := meanStd(epochs)
				mbest, _ := meanStd(best)
				ep = fmt.Sprintf("%.0f (%.0f)", me, mbest)
			}
			fmt.Printf("%-13s %-10s %.3f ± %.3f     %.3f ± %.3f     %.3f   %-7.2f %s\n", name, method, mb, sb, mq, sq, ma, ms, ep)
		}
	}
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
	return m, math.Sqrt(s)
}
