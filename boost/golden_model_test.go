package boost

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateModelGolden = flag.Bool("update-model-golden", false, "rewrite testdata/model_sha256.txt")

// goldenModelCases are trainings whose models must not change when the
// training code is made faster: dense and with missing values, weighted,
// depth-wise and leaf-wise, with row and feature sampling. 40k rows make
// the root span several blocks and the first levels use dense histograms.
func goldenModelCases() []struct {
	name string
	data func() Data
	s    Settings
} {
	dense := func() Data {
		x, y := synthData(40_000, 20, 11)
		return Data{X: x, Y: y}
	}
	missing := func() Data {
		x, y := synthData(40_000, 20, 12)
		raw := x.RawMatrix()
		w := make([]float64, len(y))
		for i := range y {
			for f := 0; f < 20; f += 3 {
				if (uint32(i*20+f)*2654435761)>>28 == 0 {
					raw.Data[i*raw.Stride+f] = math.NaN()
				}
			}
			w[i] = float64(1 + i%3)
		}
		return Data{X: x, Y: y, Weight: w}
	}
	type c = struct {
		name string
		data func() Data
		s    Settings
	}
	return []c{
		{"dense-depthwise", dense, Settings{NEstimators: 20, MaxDepth: 6}},
		{"missing-weighted", missing, Settings{NEstimators: 20, MaxDepth: 5, ScalePosWeight: 3}},
		{"leafwise-sampled", dense, Settings{NEstimators: 20, GrowPolicy: LeafWise, MaxLeaves: 24, MaxDepth: -1, Subsample: 0.7, ColsampleByTree: 0.8, Seed: 5}},
	}
}

// TestModelGolden: the trained models are byte-identical, on 1 and 2
// threads, to those recorded in testdata/model_sha256.txt (made by the
// training code before its speed work; -update-model-golden rewrites it).
func TestModelGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 6 models on 40k rows")
	}
	path := filepath.Join("testdata", "model_sha256.txt")
	want := map[string]string{}
	if b, err := os.ReadFile(path); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k, v, ok := strings.Cut(line, " "); ok {
				want[k] = v
			}
		}
	} else if !*updateModelGolden {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, tc := range goldenModelCases() {
		d := tc.data()
		var sums [2]string
		for th := 1; th <= 2; th++ {
			s := tc.s
			s.Threads = th
			m, err := Train(context.Background(), d, nil, &s)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256(b)
			sums[th-1] = hex.EncodeToString(h[:])
		}
		if sums[0] != sums[1] {
			t.Errorf("%s: model on 2 threads differs from 1 thread", tc.name)
		}
		fmt.Fprintf(&out, "%s %s\n", tc.name, sums[0])
		if !*updateModelGolden && want[tc.name] != sums[0] {
			t.Errorf("%s: model sha256 %s, want %s", tc.name, sums[0], want[tc.name])
		}
	}
	if *updateModelGolden {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
