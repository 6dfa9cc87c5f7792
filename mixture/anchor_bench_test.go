package mixture

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/cputime"
)

// BenchmarkAnchorSelection replays the mixture step of the Python AER
// reference (anchors/runs.csv, method AER_exp_simplex): the same
// scikit-learn 3:1:1 split (dataset.AnchorSplit), standardisation fitted on
// train, full covariances on the train majority rows, L in 2..8 by BIC,
// 5 restarts. It logs the L each side chose and our fit time beside the
// reference's gmm_s (single-threaded Python on a quiet machine).
// Run: go test -run XXX -bench AnchorSelection -benchtime 1x ./mixture
func BenchmarkAnchorSelection(b *testing.B) {
	shared := sharedDir(b)
	ref := anchorRuns(b, filepath.Join(shared, "anchors", "runs.csv"))
	for _, name := range sharedDatasets {
		d, err := dataset.Load(filepath.Join(shared, "datasets", name+".csv"), dataset.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for seed := 0; seed < 5; seed++ {
			r, ok := ref[name][seed]
			if !ok {
				continue
			}
			train, _, _, err := dataset.AnchorSplit(d.Y, uint32(seed))
			if err != nil {
				b.Fatal(err)
			}
			tr := d.Subset(train)
			dataset.FitScaler(tr.X).Transform(tr.X)
			var maj []int
			for i, y := range tr.Y {
				if y == 0 {
					maj = append(maj, i)
				}
			}
			x := mat.NewDense(len(maj), tr.Cols(), nil)
			for k, i := range maj {
				x.SetRow(k, tr.X.RawRowView(i))
			}
			cpu0, t0 := cputime.Seconds(), time.Now()
			sel, err := Select(context.Background(), x, []int{2, 3, 4, 5, 6, 7, 8}, &Settings{NInit: 5, Seed: uint64(seed)})
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("%-12s seed %d: L %d (Python %d); fit %.2f s wall, %.2f s CPU (Python gmm_s %.2f)",
				name, seed, sel.Components, r.L, time.Since(t0).Seconds(), cputime.Seconds()-cpu0, r.GMMSeconds)
		}
	}
}

type anchorRun struct {
	L          int
	GMMSeconds float64
}

// anchorRuns reads L and the mixture time of AER_exp_simplex per dataset
// and seed from runs.csv.
func anchorRuns(b *testing.B, path string) map[string]map[int]anchorRun {
	f, err := os.Open(path)
	if err != nil {
		b.Skipf("anchors absent: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	col := map[string]int{}
	for j, h := range recs[0] {
		col[h] = j
	}
	out := map[string]map[int]anchorRun{}
	for _, r := range recs[1:] {
		if r[col["method"]] != "AER_exp_simplex" || r[col["status"]] != "ok" {
			continue
		}
		var extra struct {
			L      int `json:"L"`
			Timing struct {
				GMM float64 `json:"gmm_s"`
			} `json:"timing"`
		}
		if err := json.Unmarshal([]byte(r[col["extra"]]), &extra); err != nil {
			continue
		}
		seed, _ := strconv.Atoi(r[col["seed"]])
		if out[r[col["dataset"]]] == nil {
			out[r[col["dataset"]]] = map[int]anchorRun{}
		}
		out[r[col["dataset"]]][seed] = anchorRun{extra.L, extra.Timing.GMM}
	}
	return out
}
