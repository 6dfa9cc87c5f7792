package boost

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/aer-go/aer/internal/rng"
	"gonum.org/v1/gonum/mat"
)

// oneHotWide returns n rows: numeric noise columns (the first two
// informative), groups one-hot encoded text columns of levels values
// each (standardised-looking codes, -0.3 and 3, the first group
// informative), and rare sparse columns: 0 in most rows, else a value or
// (with missing) NaN.
func oneHotWide(n, numeric, groups, levels, rare int, missing bool, seed uint64) (*mat.Dense, []int) {
	r := rng.New(seed)
	nf := numeric + groups*levels + rare
	x := mat.NewDense(n, nf, nil)
	y := make([]int, n)
	for i := range n {
		if r.Float64() < 0.15 {
			y[i] = 1
		}
		row := x.RawRowView(i)
		for j := range numeric {
			row[j] = r.NormFloat64()
			if j < 2 {
				row[j] += 0.7 * float64(y[i])
			}
		}
		for g := range groups {
			v := r.IntN(levels)
			if g == 0 && y[i] == 1 && r.Float64() < 0.5 {
				v = 0
			}
			for l := range levels {
				row[numeric+g*levels+l] = -0.3
			}
			row[numeric+g*levels+v] = 3
		}
		for k := range rare {
			j := numeric + groups*levels + k
			switch u := r.Float64(); {
			case missing && u < 0.01:
				row[j] = math.NaN()
			case u < 0.03:
				row[j] = float64(1 + r.IntN(4))
			}
		}
	}
	return x, y
}

func trainBundled(t *testing.T, on bool, d Data, s Settings) *Model {
	t.Helper()
	old := bundleAuto
	bundleAuto = on
	defer func() { bundleAuto = old }()
	m, err := Train(context.Background(), d, nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBundleSameModels trains with and without exclusive feature
// bundling: the trees must split on the same features at the same
// thresholds, with leaf values equal but for the last bits (a bundled
// feature's default slot is a difference of sums).
func TestBundleSameModels(t *testing.T) {
	base := Settings{NEstimators: 30, MaxDepth: 6, Eta: 0.3, Threads: 2}
	with := func(f func(*Settings)) Settings { s := base; f(&s); return s }
	cases := []struct {
		n, numeric, groups, levels, rare int
		missing, weights                 bool
		s                                Settings
	}{
		{600, 20, 50, 10, 0, false, false, base},
		{3000, 5, 30, 8, 40, true, false, base},
		{1500, 10, 20, 12, 20, true, true, with(func(s *Settings) { s.GrowPolicy = LeafWise; s.MaxLeaves = 20; s.MaxDepth = 0 })},
		{20000, 4, 12, 6, 10, false, false, with(func(s *Settings) { s.Subsample = 0.8; s.ColsampleByTree = 0.7; s.MaxBin = 32 })},
	}
	for k, c := range cases {
		t.Run(fmt.Sprintf("%d_%drows", k, c.n), func(t *testing.T) {
			x, y := oneHotWide(c.n, c.numeric, c.groups, c.levels, c.rare, c.missing, uint64(k+1))
			d := Data{X: x, Y: y}
			if c.weights {
				r := rng.New(5)
				d.Weight = make([]float64, c.n)
				for i := range d.Weight {
					d.Weight[i] = float64(r.IntN(4)) * 0.5
				}
			}
			set, err := c.s.resolved()
			if err != nil {
				t.Fatal(err)
			}
			m := newMatrix(x, d.Weight, set.MaxBin, 2)
			nf := c.numeric + c.groups*c.levels + c.rare
			if m.bundles == nil || m.bcols > c.numeric+c.groups+c.rare {
				t.Fatalf("bundling gave %d columns for %d features (%d text columns)", m.bcols, nf, c.groups)
			}
			plain, bundled := trainBundled(t, false, d, c.s), trainBundled(t, true, d, c.s)
			if len(plain.Trees) != len(bundled.Trees) {
				t.Fatalf("%d trees against %d", len(bundled.Trees), len(plain.Trees))
			}
			for i, a := range plain.Trees {
				b := bundled.Trees[i]
				if fmt.Sprint(a.Feature, a.Threshold, a.Left, a.DefaultLeft) != fmt.Sprint(b.Feature, b.Threshold, b.Left, b.DefaultLeft) {
					t.Fatalf("tree %d: splits differ with bundling", i)
				}
				for j, v := range a.Value {
					if math.Abs(v-b.Value[j]) > 1e-9*(1+math.Abs(v)) {
						t.Fatalf("tree %d node %d: value %v against %v", i, j, b.Value[j], v)
					}
				}
			}
		})
	}
}

// TestBundleExpand builds node histograms through the bundled columns
// and compares them slot by slot with histograms summed from each
// feature's codes.
func TestBundleExpand(t *testing.T) {
	x, _ := oneHotWide(2000, 6, 15, 7, 30, true, 9)
	m := newMatrix(x, nil, 256, 2)
	if m.bundles == nil {
		t.Fatal("no bundling")
	}
	s := Settings{Threads: 2}
	set, err := s.resolved()
	if err != nil {
		t.Fatal(err)
	}
	g := newGrower(m, &set)
	r := rng.New(3)
	for i := range g.gp {
		g.gp[i] = gpair{float32(r.NormFloat64()), float32(0.05 + r.Float64())}
	}
	for trial := range 5 {
		var rows []int32
		for i := range m.n {
			if r.Float64() < 0.1*float64(trial+1) {
				rows = append(rows, int32(i))
			}
		}
		bh := make([]float64, 2*m.bLen)
		g.accumulate(bh, rows)
		h := make([]float64, 2*m.histLen)
		m.expand(h, bh)
		want := make([]float64, 2*m.histLen)
		for f := range m.nf {
			for _, i := range rows {
				c := int(m.cols[f*m.n+int(i)])
				want[2*(int(m.off[f])+c)] += float64(g.gp[i].g)
				want[2*(int(m.off[f])+c)+1] += float64(g.gp[i].h)
			}
		}
		for k := range want {
			if math.Abs(h[k]-want[k]) > 1e-9 {
				t.Fatalf("trial %d slot %d: %v against %v", trial, k/2, h[k], want[k])
			}
		}
	}
}

// TestBundleNotDense: a dense numeric table is not bundled (it trains as
// it always did).
func TestBundleNotDense(t *testing.T) {
	x, _ := smallWide(500, 40, 0.05, 1)
	if m := newMatrix(x, nil, 256, 2); m.bundles != nil || m.bcols != m.nf {
		t.Fatalf("a dense table got %d bundled columns for %d features", m.bcols, m.nf)
	}
}
