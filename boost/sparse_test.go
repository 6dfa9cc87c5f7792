package boost

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/aer-go/aer/dataset"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
)

// smallWide returns n rows of nf features: a few informative columns,
// the rest noise; coarse columns (many ties), a constant column, and,
// with missing > 0, that fraction of missing cells.
func smallWide(n, nf int, missing float64, seed uint64) (*mat.Dense, []int) {
	r := rng.New(seed)
	x := mat.NewDense(n, nf, nil)
	y := make([]int, n)
	for i := range n {
		if r.Float64() < 0.2 {
			y[i] = 1
		}
		for j := range nf {
			v := r.NormFloat64()
			switch {
			case j < 8:
				v += float64(y[i]) * 0.8
			case j%7 == 3:
				v = math.Round(v * 2) // ties
			case j == nf-1:
				v = 1
			}
			if missing > 0 && r.Float64() < missing {
				v = math.NaN()
			}
			x.Set(i, j, v)
		}
	}
	return x, y
}

func trainBytes(t *testing.T, mode int, d Data, s Settings) []byte {
	t.Helper()
	old := sparseMode
	sparseMode = mode
	defer func() { sparseMode = old }()
	m, err := Train(context.Background(), d, nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSparseExact checks that the sparse histograms give bit-identical
// models: the sparse path forced on, off and chosen automatically.
func TestSparseExact(t *testing.T) {
	type tc struct {
		n, nf   int
		missing float64
		s       Settings
		weights bool
	}
	base := Settings{NEstimators: 20, MaxDepth: 6, Eta: 0.3, Threads: 2}
	with := func(f func(*Settings)) Settings { s := base; f(&s); return s }
	cases := []tc{
		{270, 294, 0, base, false},
		{270, 294, 0.1, base, false},
		{300, 120, 0.3, with(func(s *Settings) { s.MinChildWeight = -1; s.Alpha = 0.5; s.Lambda = 0.1 }), true},
		{500, 60, 0.05, with(func(s *Settings) { s.GrowPolicy = LeafWise; s.MaxLeaves = 24; s.MaxDepth = 0 }), false},
		{800, 40, 0, with(func(s *Settings) { s.Subsample = 0.7; s.ColsampleByTree = 0.6; s.MaxBin = 64 }), true},
		{3000, 30, 0.02, with(func(s *Settings) { s.MaxDepth = 8; s.Gamma = 0.01 }), false},
		{20000, 6, 0.01, with(func(s *Settings) { s.MaxDepth = 10; s.NEstimators = 5 }), false},
		{60, 500, 0.5, with(func(s *Settings) { s.MinChildWeight = 1e-3; s.Objective = Focal }), false},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for k, c := range cases {
		t.Run(fmt.Sprintf("%d_%dx%d", k, c.n, c.nf), func(t *testing.T) {
			x, y := smallWide(c.n, c.nf, c.missing, uint64(k+1))
			d := Data{X: x, Y: y}
			if c.weights {
				r := rng.New(99)
				d.Weight = make([]float64, c.n)
				for i := range d.Weight {
					d.Weight[i] = float64(r.IntN(4)) * 0.5 // some zero weights
				}
			}
			dense := trainBytes(t, sparseNever, d, c.s)
			for _, mode := range []int{sparseAlways, sparseAuto} {
				if got := trainBytes(t, mode, d, c.s); !bytes.Equal(got, dense) {
					t.Errorf("sparse mode %d: model differs from the dense path", mode)
				}
			}
		})
	}
}

// BenchmarkSmallWide trains one AER-member-sized model: 270 rows of 294
// features (like the scene data set), depth 6, 100 trees.
func BenchmarkSmallWide(b *testing.B) {
	x, y := smallWide(270, 294, 0, 1)
	s := &Settings{NEstimators: 100, MaxDepth: 6, Eta: 0.3, Threads: 1}
	for _, mode := range []struct {
		name string
		mode int
	}{{"dense", sparseNever}, {"auto", sparseAuto}} {
		b.Run(mode.name, func(b *testing.B) {
			old := sparseMode
			sparseMode = mode.mode
			defer func() { sparseMode = old }()
			for range b.N {
				if _, err := Train(context.Background(), Data{X: x, Y: y}, nil, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sceneMember returns 270 random rows of the scene data set (294
// features), the size of an AER member's training set on it.
func sceneMember(tb testing.TB) Data {
	d, err := dataset.Load(filepath.Join(sharedDir(tb), "datasets", "scene.csv"), dataset.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	// AER's subsets are roughly balanced: 100 positives, 170 negatives.
	var idx []int
	npos, nneg := 0, 0
	for _, i := range rng.New(7).Perm(d.Rows()) {
		if d.Y[i] == 1 && npos < 100 {
			idx = append(idx, i)
			npos++
		} else if d.Y[i] == 0 && nneg < 170 {
			idx = append(idx, i)
			nneg++
		}
	}
	sub := d.Subset(idx)
	return Data{X: sub.X, Y: sub.Y}
}

// BenchmarkSceneMember trains AER members on 270 rows of scene: the AER
// base settings (depth 3, eta 0.1) and XGBoost's defaults (depth 6, eta
// 0.3), 100 trees, one thread, with the dense and the automatic path.
func BenchmarkSceneMember(b *testing.B) {
	d := sceneMember(b)
	for _, depth := range []int{3, 6} {
		s := &Settings{NEstimators: 100, MaxDepth: depth, Eta: 0.1, Threads: 1}
		if depth == 6 {
			s.Eta = 0.3
		}
		for _, mode := range []struct {
			name string
			mode int
		}{{"dense", sparseNever}, {"auto", sparseAuto}} {
			b.Run(fmt.Sprintf("depth%d/%s", depth, mode.name), func(b *testing.B) {
				old := sparseMode
				sparseMode = mode.mode
				defer func() { sparseMode = old }()
				for range b.N {
					if _, err := Train(context.Background(), d, nil, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSparseThreshold trains scene members with several sparseDiv
// values, to tune the choice between dense and sparse histograms.
func BenchmarkSparseThreshold(b *testing.B) {
	d := sceneMember(b)
	defer func(old int) { sparseDiv = old }(sparseDiv)
	for _, depth := range []int{3, 6} {
		s := &Settings{NEstimators: 100, MaxDepth: depth, Eta: 0.1, Threads: 1}
		for _, div := range []int{2, 3, 4} {
			b.Run(fmt.Sprintf("depth%d/div%d", depth, div), func(b *testing.B) {
				sparseDiv = div
				for range b.N {
					if _, err := Train(context.Background(), d, nil, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestTinyBinsExact: features of few bins (binary and three-valued, as
// one-hot and ordinal columns are), which evaluateDense scans with
// evalTiny, give the reference evaluate's model bit for bit, with and
// without missing values, beside continuous features that go in pairs.
func TestTinyBinsExact(t *testing.T) {
	for _, missing := range []float64{0, 0.05} {
		r := rng.New(11)
		n, nf := 2000, 12
		x := mat.NewDense(n, nf, nil)
		y := make([]int, n)
		for i := range n {
			if r.Float64() < 0.15 {
				y[i] = 1
			}
			for j := range nf {
				var v float64
				switch {
				case j < 6:
					v = float64(r.IntN(2))
					if y[i] == 1 && r.Float64() < 0.3 {
						v = 1
					}
				case j < 9:
					v = float64(r.IntN(3) + y[i]*r.IntN(2))
				default:
					v = r.NormFloat64() + float64(y[i])*0.5
				}
				if missing > 0 && r.Float64() < missing {
					v = math.NaN()
				}
				x.Set(i, j, v)
			}
		}
		d := Data{X: x, Y: y}
		s := Settings{NEstimators: 30, MaxDepth: 4, Eta: 0.3, Threads: 1}
		if got, want := trainBytes(t, sparseAuto, d, s), trainBytes(t, sparseNever, d, s); !bytes.Equal(got, want) {
			t.Errorf("missing %v: the model differs from the reference evaluate's", missing)
		}
	}
}

// TestScan checks the assembly scan against scanGo.
func TestScan(t *testing.T) {
	r := rng.New(3)
	for trial := range 2000 {
		n := r.IntN(40)
		gh := make([]float64, 2*n)
		var ng, nh float64
		for i := range n {
			gh[2*i] = r.NormFloat64()
			gh[2*i+1] = r.Float64()
			ng += gh[2*i]
			nh += gh[2*i+1]
		}
		bound := r.Float64() * 10 * float64(trial%4)
		st0 := [6]float64{r.NormFloat64() * float64(trial%2), r.Float64() * float64(trial%2), ng, nh, 1, bound}
		for e := 0; e <= n; {
			a, b := st0, st0
			ka := scan(gh[2*e:], n-e, &a)
			kb := scanGo(gh[2*e:], n-e, &b)
			if ka != kb || a != b {
				t.Fatalf("trial %d from %d: scan %d %v, scanGo %d %v", trial, e, ka, a, kb, b)
			}
			e += ka + 1
			st0 = a
		}
	}
}

// TestScan2 checks scan2 (the AVX kernel where the CPU has it) against
// scan2Go, and scan2Go against scanGo run on each feature alone: the same
// sums, and a survivor exactly where scanGo stops.
func TestScan2(t *testing.T) {
	r := rng.New(5)
	fill := func(n int) ([]float64, float64, float64) {
		gh := make([]float64, 2*n)
		var g, h float64
		for i := range n {
			gh[2*i] = r.NormFloat64()
			gh[2*i+1] = r.Float64()
			g += gh[2*i]
			h += gh[2*i+1]
		}
		return gh, g, h
	}
	for trial := range 3000 {
		n := r.IntN(41)
		a, ng, nh := fill(n)
		b, _, _ := fill(n)
		bd := r.Float64() * 10 * float64(trial%4)
		st0 := [8]float64{0, 0, 0, 0, ng, nh, 1, bd}
		for e := 0; e <= n; {
			x, y := st0, st0
			kx, mx := scan2(a[2*e:], b[2*e:], n-e, &x)
			ky, my := scan2Go(a[2*e:], b[2*e:], n-e, &y)
			if kx != ky || mx != my || x != y {
				t.Fatalf("trial %d from %d: scan2 %d %d %v, scan2Go %d %d %v", trial, e, kx, mx, x, ky, my, y)
			}
			// Each feature alone stops at its first survivor.
			for f, gh := range [][]float64{a, b} {
				one := [6]float64{st0[2*f], st0[2*f+1], ng, nh, 1, bd}
				k := scanGo(gh[2*e:], n-e, &one)
				if inMask := my&(1<<f) != 0; k < ky || inMask != (k == ky && ky < n-e) {
					t.Fatalf("trial %d from %d: feature %d alone stops at %d, the pair at %d mask %d", trial, e, f, k, ky, my)
				}
				if k == ky && (one[0] != y[2*f] || one[1] != y[2*f+1]) {
					t.Fatalf("trial %d from %d: feature %d sums %v, pair %v", trial, e, f, one[:2], y[2*f:2*f+2])
				}
			}
			e += kx + 1
			st0 = x
		}
	}
}

// benchSlots returns 256 slots of gradient, hessian pairs and their sums,
// for the scan benchmarks.
func benchSlots() (gh []float64, ng, nh float64) {
	r := rng.New(1)
	gh = make([]float64, 512)
	for i := range 256 {
		gh[2*i] = r.NormFloat64()
		gh[2*i+1] = 0.2
		ng += gh[2*i]
		nh += gh[2*i+1]
	}
	return gh, ng, nh
}

// BenchmarkScan2 measures scan2 over two features' 256 slots, all pruned.
func BenchmarkScan2(b *testing.B) {
	gh, ng, nh := benchSlots()
	for range b.N {
		st := [8]float64{0, 0, 0, 0, ng, nh, 1, 1e9}
		if k, _ := scan2(gh, gh, 256, &st); k != 256 {
			b.Fatal("found")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/512, "ns/slot")
}

// BenchmarkScan measures scan over 256 slots that are all pruned.
func BenchmarkScan(b *testing.B) {
	gh, ng, nh := benchSlots()
	for range b.N {
		st := [6]float64{0, 0, ng, nh, 1, 1e9}
		if scan(gh, 256, &st) != 256 {
			b.Fatal("found")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/256, "ns/slot")
}
