package synth

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
)

func generate(t *testing.T, s *Settings, seed uint64) *Data {
	t.Helper()
	d, err := Generate(s, seed)
	if err != nil {
		t.Fatalf("Generate(%+v, %d): %v", s, seed, err)
	}
	return d
}

func sameData(a, b *Data) bool {
	ra, rb := a.X.RawMatrix(), b.X.RawMatrix()
	if len(ra.Data) != len(rb.Data) {
		return false
	}
	for i := range ra.Data {
		if math.Float64bits(ra.Data[i]) != math.Float64bits(rb.Data[i]) {
			return false
		}
	}
	return slices.Equal(a.Y, b.Y) && slices.Equal(a.Informative, b.Informative)
}

func TestDeterminism(t *testing.T) {
	s := &Settings{Samples: 500, Ratio: 9, Clusters: 3, Informative: 4, Repeated: 2, RandomShift: true, RandomScale: true, Polytope: true}
	a := generate(t, s, 7)
	b := generate(t, s, 7)
	if !sameData(a, b) {
		t.Error("same seed gave different data")
	}
	c := generate(t, s, 8)
	if sameData(a, c) {
		t.Error("seeds 7 and 8 gave identical data")
	}
	// nil settings are the defaults.
	if !sameData(generate(t, nil, 3), generate(t, &Settings{}, 3)) {
		t.Error("nil settings differ from zero settings")
	}
	d := generate(t, nil, 3)
	if r, c := d.X.Dims(); r != 100 || c != 20 {
		t.Errorf("defaults: got %d x %d, want 100 x 20", r, c)
	}
	if len(d.Informative) != 2 || len(d.Redundant) != 2 || len(d.Repeated) != 0 || len(d.Noise) != 16 {
		t.Errorf("defaults: roles %d/%d/%d/%d, want 2/2/0/16",
			len(d.Informative), len(d.Redundant), len(d.Repeated), len(d.Noise))
	}
}

// The expected sizes were computed with make_classification's own formula
// in Python (int(n*w/c) per cluster, leftovers round-robin over clusters).
func TestClassSizes(t *testing.T) {
	tests := []struct {
		samples, clusters int
		ratio             float64
		weights           []float64
		want              [2]int
	}{
		{8000, 10, 79, nil, [2]int{7900, 100}}, // the paper's gmm task
		{8000, 1, 79, nil, [2]int{7900, 100}},
		{777, 10, 79, nil, [2]int{769, 8}}, // truncation, leftovers alternate
		{1000, 2, 9, nil, [2]int{900, 100}},
		{10000, 1, 99, nil, [2]int{9900, 100}},
		{12345, 3, 19, nil, [2]int{11729, 616}},
		{101, 1, 1, nil, [2]int{51, 50}},
		{100, 2, 0, nil, [2]int{50, 50}},
		{7, 1, 0, nil, [2]int{4, 3}},
		// weights=[0.9]: 1-0.9 is 0.09999999999999998, so 799 not 800.
		{8000, 1, 0, []float64{0.9}, [2]int{7201, 799}},
		{8000, 2, 0, []float64{0.9, 0.1}, [2]int{7200, 800}},
	}
	for _, tt := range tests {
		s := &Settings{Samples: tt.samples, Clusters: tt.clusters, Ratio: tt.ratio, Weights: tt.weights,
			Informative: 6, FlipY: None}
		got, err := s.ClassSizes()
		if err != nil {
			t.Errorf("%+v: %v", tt, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ClassSizes(n=%d, c=%d, ratio=%v, weights=%v) = %v, want %v",
				tt.samples, tt.clusters, tt.ratio, tt.weights, got, tt.want)
		}
		d := generate(t, s, 1)
		var n [2]int
		for _, y := range d.Y {
			n[y]++
		}
		if n != tt.want {
			t.Errorf("Generate(n=%d, c=%d, ratio=%v): label counts %v, want %v",
				tt.samples, tt.clusters, tt.ratio, n, tt.want)
		}
	}
}

func TestCentroidGeometry(t *testing.T) {
	const (
		inf = 3
		sep = 2.0
		tol = 0.1
	)
	s := &Settings{Samples: 40000, Features: inf, Informative: inf, Redundant: None, Clusters: 2, ClassSep: sep, FlipY: None}
	d := generate(t, s, 11)
	nc, dim := d.Centroids.Dims()
	if nc != 4 || dim != inf {
		t.Fatalf("centroids %d x %d, want 4 x %d", nc, dim, inf)
	}
	seen := map[[inf]float64]bool{}
	var sum [4][inf]float64
	var count [4]int
	for i, k := range d.Cluster {
		for j, c := range d.Informative {
			sum[k][j] += d.X.At(i, c)
		}
		count[k]++
	}
	for k := range nc {
		var v [inf]float64
		for j := range inf {
			v[j] = d.Centroids.At(k, j)
			if math.Abs(v[j]) != sep {
				t.Errorf("centroid %d coordinate %d = %v, want +-%v", k, j, v[j], sep)
			}
		}
		if seen[v] {
			t.Errorf("centroid %d repeats vertex %v", k, v)
		}
		seen[v] = true
		// A cluster's mean is its vertex: the covariance transform has mean 0.
		norm := 0.0
		for j := range inf {
			m := sum[k][j] / float64(count[k])
			norm += m * m
			if math.Abs(m-v[j]) > tol {
				t.Errorf("cluster %d: mean of informative feature %d = %.3f, want %v", k, j, m, v[j])
			}
		}
		if want := sep * math.Sqrt(inf); math.Abs(math.Sqrt(norm)-want) > tol {
			t.Errorf("cluster %d: mean at distance %.3f from the origin, want %.3f", k, math.Sqrt(norm), want)
		}
	}

	// The covariance transform correlates the informative features within
	// a cluster (an identity transform would leave them uncorrelated).
	var xs [inf][]float64
	for i, k := range d.Cluster {
		if k == 0 {
			for j, c := range d.Informative {
				xs[j] = append(xs[j], d.X.At(i, c))
			}
		}
	}
	maxCorr := 0.0
	for a := range inf {
		for b := a + 1; b < inf; b++ {
			maxCorr = max(maxCorr, math.Abs(stat.Correlation(xs[a], xs[b], nil)))
		}
	}
	if maxCorr < 0.1 {
		t.Errorf("largest correlation between informative features within a cluster %.3f, want > 0.1", maxCorr)
	}

	// A random polytope shrinks each vertex towards the origin.
	s.Polytope = true
	p := generate(t, s, 11)
	shrunk := false
	for k := range nc {
		for j := range inf {
			v := p.Centroids.At(k, j)
			if math.Abs(v) > sep {
				t.Errorf("polytope centroid %d coordinate %d = %v outside [-%v, %v]", k, j, v, sep, sep)
			}
			shrunk = shrunk || math.Abs(v) < sep
		}
	}
	if !shrunk {
		t.Error("polytope centroids are all on the hypercube")
	}
}

func TestHypercubeOver30Dimensions(t *testing.T) {
	d := generate(t, &Settings{Samples: 200, Features: 40, Informative: 33, Clusters: 5, FlipY: None}, 2)
	seen := map[string]bool{}
	for k := range 10 {
		row := d.Centroids.RawRowView(k)
		key := ""
		for _, v := range row {
			if math.Abs(v) != 1 {
				t.Fatalf("centroid %d has coordinate %v, want +-1", k, v)
			}
			key += map[bool]string{true: "+", false: "-"}[v > 0]
		}
		if seen[key] {
			t.Errorf("centroid %d repeats a vertex", k)
		}
		seen[key] = true
	}
}

func TestDistinct(t *testing.T) {
	r := rng.New(5)
	for _, tc := range []struct {
		n   int
		pop uint64
	}{{3, 8}, {5, 6}, {10, 1 << 20}, {2, 1 << 30}} {
		counts := map[uint64]int{}
		for range 2000 {
			v := distinct(tc.n, tc.pop, r)
			seen := map[uint64]bool{}
			for _, x := range v {
				if x >= tc.pop || seen[x] {
					t.Fatalf("distinct(%d, %d) = %v", tc.n, tc.pop, v)
				}
				seen[x] = true
			}
			counts[v[0]]++
		}
		if tc.pop <= 8 {
			// The first value is uniform over the population.
			want := 2000 / float64(tc.pop)
			for x := range tc.pop {
				if math.Abs(float64(counts[x])-want) > 5*math.Sqrt(want) {
					t.Errorf("distinct(%d, %d): first value %d drawn %d times, want about %.0f",
						tc.n, tc.pop, x, counts[x], want)
				}
			}
		}
	}
}

// Reservoir sampling, scikit-learn's choice when nearly every vertex is
// taken, keeps a non-random order.
func TestDistinctReservoir(t *testing.T) {
	r := rng.New(1)
	for range 100 {
		if got := distinct(4, 4, r); !slices.Equal(got, []uint64{0, 1, 2, 3}) {
			t.Fatalf("distinct(4, 4) = %v, want [0 1 2 3]", got)
		}
	}
	// 99 of 100: the last value replaces a random one of the first 99.
	counts := make([]int, 99)
	for range 5000 {
		got := distinct(99, 100, r)
		moved := 0
		for i, v := range got {
			if v != uint64(i) {
				if v != 99 {
					t.Fatalf("distinct(99, 100) = %v", got)
				}
				moved++
				counts[i]++
			}
		}
		if moved > 1 {
			t.Fatalf("distinct(99, 100) = %v", got)
		}
	}
	if total := slices.Max(counts); total == 0 || total > 5000/99*3 {
		t.Errorf("replacement positions %v", counts)
	}
}

// With sklearn's defaults (2 informative features, 2 clusters per class)
// all four vertices are taken in order, so the classes sit on either side
// of the second informative feature, as make_classification's do.
func TestDefaultVertexLayout(t *testing.T) {
	d := generate(t, nil, 5)
	want := [][]float64{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	for k, v := range want {
		if got := d.Centroids.RawRowView(k); !slices.Equal(got, v) {
			t.Errorf("centroid %d = %v, want %v", k, got, v)
		}
	}
}

func TestRedundantAndRepeated(t *testing.T) {
	const inf, red, rep = 5, 4, 3
	s := &Settings{Samples: 500, Features: 15, Informative: inf, Redundant: red, Repeated: rep, FlipY: None}
	d := generate(t, s, 4)
	rank := func(cols []int) int {
		m := mat.NewDense(500, len(cols), nil)
		for j, c := range cols {
			for i := range 500 {
				m.Set(i, j, d.X.At(i, c))
			}
		}
		var svd mat.SVD
		if !svd.Factorize(m, mat.SVDNone) {
			t.Fatal("SVD failed")
		}
		sv := svd.Values(nil)
		r := 0
		for _, v := range sv {
			if v > 1e-10*sv[0] {
				r++
			}
		}
		return r
	}
	useful := slices.Concat(d.Informative, d.Redundant, d.Repeated)
	if got := rank(useful); got != inf {
		t.Errorf("rank of informative+redundant+repeated columns = %d, want %d", got, inf)
	}
	if got := rank(slices.Concat(d.Informative, d.Noise)); got != inf+len(d.Noise) {
		t.Errorf("rank of informative+noise columns = %d, want %d", got, inf+len(d.Noise))
	}
	if got := rank(d.Redundant); got != red {
		t.Errorf("rank of redundant columns = %d, want %d", got, red)
	}
	for k, c := range d.Repeated {
		src := d.RepeatedFrom[k]
		if !slices.Contains(d.Informative, src) && !slices.Contains(d.Redundant, src) {
			t.Errorf("repeated column %d copies column %d, neither informative nor redundant", c, src)
		}
		for i := range 500 {
			if d.X.At(i, c) != d.X.At(i, src) {
				t.Fatalf("row %d: repeated column %d = %v, its source %d = %v", i, c, d.X.At(i, c), src, d.X.At(i, src))
			}
		}
	}
	all := slices.Concat(useful, d.Noise)
	slices.Sort(all)
	for j, c := range all {
		if c != j {
			t.Fatalf("column roles %v are not a permutation of 0..14", all)
		}
	}
}

func TestNoShuffleKeepsOrder(t *testing.T) {
	d := generate(t, &Settings{Samples: 60, Features: 8, Informative: 3, Redundant: 2, Repeated: 1, NoShuffle: true, FlipY: None}, 1)
	want := [][]int{{0, 1, 2}, {3, 4}, {5}, {6, 7}}
	for i, got := range [][]int{d.Informative, d.Redundant, d.Repeated, d.Noise} {
		if !slices.Equal(got, want[i]) {
			t.Errorf("roles %d: got %v, want %v", i, got, want[i])
		}
	}
	if !slices.IsSorted(d.Cluster) {
		t.Error("rows are not in cluster order")
	}
}

func TestNoiseIndependentOfLabel(t *testing.T) {
	const n = 20000
	d := generate(t, &Settings{Samples: n, Features: 12, Informative: 4, Ratio: 3}, 9)
	y := make([]float64, n)
	for i, v := range d.Y {
		y[i] = float64(v)
	}
	col := func(c int) []float64 { return mat.Col(nil, c, d.X) }
	limit := 5 / math.Sqrt(n) // five standard errors of a null correlation
	for _, c := range d.Noise {
		x := col(c)
		if r := stat.Correlation(x, y, nil); math.Abs(r) > limit {
			t.Errorf("noise column %d correlates %.4f with the label, want |r| < %.4f", c, r, limit)
		}
		mean, sd := stat.MeanStdDev(x, nil)
		if math.Abs(mean) > 0.05 || math.Abs(sd-1) > 0.05 {
			t.Errorf("noise column %d: mean %.3f sd %.3f, want N(0, 1)", c, mean, sd)
		}
	}
	best := 0.0
	for _, c := range d.Informative {
		best = max(best, math.Abs(stat.Correlation(col(c), y, nil)))
	}
	if best < 4*limit {
		t.Errorf("no informative column correlates with the label (best |r| = %.4f)", best)
	}
}

func TestFlipFraction(t *testing.T) {
	const n = 100000
	for _, tc := range []struct {
		flip, want float64
	}{{None, 0}, {0, 0.005}, {0.2, 0.1}, {1, 0.5}} {
		d := generate(t, &Settings{Samples: n, FlipY: tc.flip}, 3)
		changed := 0
		for i, y := range d.Y {
			if y != d.Cluster[i]%2 {
				changed++
			}
		}
		got := float64(changed) / n
		tol := 5*math.Sqrt(tc.want*(1-tc.want)/n) + 1e-12
		if math.Abs(got-tc.want) > tol {
			t.Errorf("FlipY %v: %.4f of labels changed, want %.4f +- %.4f", tc.flip, got, tc.want, tol)
		}
	}
}

func TestShiftAndScale(t *testing.T) {
	const n = 20000
	d := generate(t, &Settings{Samples: n, Features: 6, Shift: 3, Scale: 2}, 1)
	for _, c := range d.Noise {
		mean, sd := stat.MeanStdDev(mat.Col(nil, c, d.X), nil)
		if math.Abs(mean-6) > 0.1 || math.Abs(sd-2) > 0.1 {
			t.Errorf("shift 3 scale 2: noise column %d has mean %.3f sd %.3f, want 6 and 2", c, mean, sd)
		}
	}
	d = generate(t, &Settings{Samples: n, Features: 6, RandomShift: true, RandomScale: true, ClassSep: 0.5}, 1)
	for _, c := range d.Noise {
		mean, sd := stat.MeanStdDev(mat.Col(nil, c, d.X), nil)
		// Each noise column is (z + shift) * scale with shift in [-0.5, 0.5)
		// and scale in [1, 101): its sd is the scale.
		if sd < 0.95 || sd > 101*1.05 || math.Abs(mean/sd) > 0.55 {
			t.Errorf("random shift and scale: noise column %d has mean %.3f sd %.3f", c, mean, sd)
		}
	}
}

// With well separated classes a nearest-centroid classifier is nearly
// perfect; with barely separated ones it is not (so the check has teeth).
func TestSeparability(t *testing.T) {
	accuracy := func(sep float64) float64 {
		const n = 4000
		d := generate(t, &Settings{Samples: n, Features: 6, Informative: 3, Redundant: None, Clusters: 1, ClassSep: sep, FlipY: None}, 21)
		_, f := d.X.Dims()
		var cent [2][]float64
		var cnt [2]float64
		for c := range cent {
			cent[c] = make([]float64, f)
		}
		for i := range n / 2 { // fit on the first half
			for j := range f {
				cent[d.Y[i]][j] += d.X.At(i, j)
			}
			cnt[d.Y[i]]++
		}
		for c := range cent {
			for j := range f {
				cent[c][j] /= cnt[c]
			}
		}
		right := 0
		for i := n / 2; i < n; i++ {
			var dist [2]float64
			for c := range cent {
				for j := range f {
					e := d.X.At(i, j) - cent[c][j]
					dist[c] += e * e
				}
			}
			pred := 0
			if dist[1] < dist[0] {
				pred = 1
			}
			if pred == d.Y[i] {
				right++
			}
		}
		return float64(right) / (n / 2)
	}
	if acc := accuracy(10); acc < 0.99 {
		t.Errorf("class_sep 10: nearest-centroid accuracy %.4f, want >= 0.99", acc)
	}
	if acc := accuracy(0.05); acc > 0.8 {
		t.Errorf("class_sep 0.05: nearest-centroid accuracy %.4f, want < 0.8", acc)
	}
}

func TestValidation(t *testing.T) {
	tests := []struct {
		name string
		s    Settings
		want string
	}{
		{"negative samples", Settings{Samples: -5}, "samples must be positive"},
		{"negative features", Settings{Features: -1}, "features must be positive"},
		{"negative informative", Settings{Informative: -2}, "informative must be positive"},
		{"negative redundant", Settings{Redundant: -3}, "redundant must be non-negative"},
		{"negative repeated", Settings{Repeated: -1}, "repeated must be non-negative"},
		{"negative clusters", Settings{Clusters: -1}, "clusters per class must be positive"},
		{"too many useful features", Settings{Features: 5, Informative: 3, Redundant: 2, Repeated: 1}, "informative (3) + redundant (2) + repeated (1) = 6 exceeds features (5)"},
		{"too few vertices", Settings{Informative: 3, Clusters: 5}, "2 classes x 5 clusters per class = 10 exceeds 2^informative = 8 vertices"},
		{"more clusters than samples", Settings{Samples: 5, Informative: 4, Clusters: 3}, "exceeds samples (5)"},
		{"too many cells", Settings{Samples: 1 << 30, Features: 4}, "exceeds 2147483648 cells"},
		{"huge covariance", Settings{Samples: 1, Features: 100000, Informative: 50000, Clusters: 1}, "covariance matrices exceed"},
		{"huge mixing matrix", Settings{Samples: 1, Features: 1 << 30, Informative: 30, Redundant: 1 << 29, Clusters: 1}, "informative (30) x redundant (536870912) exceeds"},
		{"ratio below 1", Settings{Ratio: 0.5}, "ratio (majority:minority) must be a finite number >= 1, got 0.5"},
		{"ratio NaN", Settings{Ratio: math.NaN()}, "ratio"},
		{"ratio infinite", Settings{Ratio: math.Inf(1)}, "ratio"},
		{"ratio and weights", Settings{Ratio: 3, Weights: []float64{0.5}}, "either ratio or weights"},
		{"weight out of range", Settings{Weights: []float64{1.5}}, "weight of class 0 must be in [0, 1], got 1.5"},
		{"weights not summing to 1", Settings{Weights: []float64{0.5, 0.6}}, "weights must sum to 1"},
		{"three weights", Settings{Weights: []float64{0.2, 0.3, 0.5}}, "weights need 1 or 2 values"},
		{"empty class", Settings{Weights: []float64{1}}, "class 1 gets no rows"},
		{"tiny minority", Settings{Samples: 50, Ratio: 100, Clusters: 1}, "class 1 gets no rows"},
		{"flip above 1", Settings{FlipY: 1.5}, "flip fraction must be in [0, 1]"},
		{"flip negative", Settings{FlipY: -0.5}, "flip fraction"},
		{"class_sep negative", Settings{ClassSep: -1}, "class separation must be a finite number > 0"},
		{"shift infinite", Settings{Shift: math.Inf(-1)}, "shift must be finite"},
		{"shift and random shift", Settings{Shift: 1, RandomShift: true}, "either shift or random shift"},
		{"scale negative", Settings{Scale: -2}, "scale must be a finite number > 0"},
		{"scale and random scale", Settings{Scale: 2, RandomScale: true}, "either scale or random scale"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Generate(&tt.s, 0)
			if err == nil {
				t.Fatalf("no error for %+v", tt.s)
			}
			if !errors.Is(err, ErrSettings) {
				t.Errorf("error %q does not wrap ErrSettings", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
	// The edges that are allowed.
	for _, s := range []Settings{
		{Features: 4, Informative: 2, Redundant: 2},
		{Informative: 3, Clusters: 4},
		{Samples: 4, Informative: 2, Clusters: 2, FlipY: 1},
		{Redundant: None, FlipY: None, Ratio: 1},
	} {
		if _, err := Generate(&s, 0); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

func TestDatasetRoundTrip(t *testing.T) {
	d := generate(t, &Settings{Samples: 300, Ratio: 5, RandomScale: true, RandomShift: true}, 17)
	ds := d.Dataset("synthetic")
	var buf bytes.Buffer
	if err := dataset.WriteCSV(&buf, ds); err != nil {
		t.Fatal(err)
	}
	back, err := dataset.Read(&buf, "synthetic", dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Features, d.Features) || !slices.Equal(back.Y, d.Y) || !slices.Equal(back.Classes, []string{"0", "1"}) {
		t.Fatalf("read back features %v classes %v", back.Features, back.Classes)
	}
	if !mat.Equal(back.X, d.X) {
		t.Error("features changed in a CSV round trip")
	}
}

// gonum multiplies large matrices in parallel; the data must not depend on
// how many threads it used.
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	s := &Settings{Samples: 20000, Features: 20, Informative: 10, Redundant: 5, Clusters: 3}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	a := generate(t, s, 1)
	runtime.GOMAXPROCS(4)
	b := generate(t, s, 1)
	if !sameData(a, b) {
		t.Error("GOMAXPROCS 1 and 4 gave different data")
	}
}

// Each cluster's covariance is A'A with A uniform in [-1, 1): a diagonal
// entry has mean Informative/3. A standard normal A would give
// Informative, a uniform [0, 1) one the same mean but correlated features.
func TestClusterCovarianceScale(t *testing.T) {
	const inf = 10
	d := generate(t, &Settings{Samples: 40000, Features: inf, Informative: inf, Redundant: None, Clusters: 50, FlipY: None}, 8)
	rows := make([][]int, 100)
	for i, k := range d.Cluster {
		rows[k] = append(rows[k], i)
	}
	var sumVar, sumCorr float64
	var nCorr int
	x := make([][]float64, inf)
	for _, idx := range rows {
		for j, c := range d.Informative {
			x[j] = x[j][:0]
			for _, i := range idx {
				x[j] = append(x[j], d.X.At(i, c))
			}
			sumVar += stat.Variance(x[j], nil)
		}
		for a := range inf {
			for b := a + 1; b < inf; b++ {
				sumCorr += stat.Correlation(x[a], x[b], nil)
				nCorr++
			}
		}
	}
	if got, want := sumVar/(100*inf), inf/3.0; math.Abs(got-want) > 0.2 {
		t.Errorf("mean within-cluster variance of informative features %.3f, want %.3f", got, want)
	}
	if got := sumCorr / float64(nCorr); math.Abs(got) > 0.03 {
		t.Errorf("mean within-cluster correlation %.3f, want about 0", got)
	}
}

// make_classification picks the source of a repeated feature as
// int((n-1)*u + 0.5): with n = 3 sources, probabilities 1/4, 1/2, 1/4.
func TestRepeatedSourceDistribution(t *testing.T) {
	var count [3]int
	const seeds, rep = 400, 10
	for seed := range uint64(seeds) {
		d := generate(t, &Settings{Samples: 4, Features: 13, Informative: 2, Redundant: 1, Repeated: rep, Clusters: 1}, seed)
		src := map[int]int{d.Informative[0]: 0, d.Informative[1]: 1, d.Redundant[0]: 2}
		for _, c := range d.RepeatedFrom {
			count[src[c]]++
		}
	}
	for k, want := range []float64{0.25, 0.5, 0.25} {
		got := float64(count[k]) / (seeds * rep)
		if math.Abs(got-want) > 0.03 {
			t.Errorf("source %d chosen %.3f of the time, want %.2f", k, got, want)
		}
	}
}

// TestFlipped: no label noise flips nothing; FlipY = 0.2 gives each row a
// random label, so about half of a fifth of the rows change class.
func TestFlipped(t *testing.T) {
	if n := generate(t, &Settings{Samples: 2000, FlipY: None}, 1).Flipped(); n != 0 {
		t.Errorf("no label noise: %d flipped", n)
	}
	d := generate(t, &Settings{Samples: 2000, FlipY: 0.2}, 1)
	n := d.Flipped()
	if n < 120 || n > 280 {
		t.Errorf("FlipY 0.2 of 2000 rows: %d flipped, want about 200", n)
	}
	d.Y[0] = 1 - d.Y[0]
	if m := d.Flipped(); m != n+1 && m != n-1 {
		t.Errorf("one more label changed: %d flipped, was %d", m, n)
	}
}
