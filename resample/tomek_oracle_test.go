package resample

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/cputime"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/neighbors"
	"github.com/aer-go/aer/synth"
	"gonum.org/v1/gonum/mat"
)

// oracleTomek is tomek as it was before the tree search: the same two
// rounds of nearest-neighbour queries, answered by the exhaustive blocked
// scan. The links of the default search must be identical to its links.
func oracleTomek(x *mat.Dense, rows []int, minority func(int) bool, strict bool) ([]Link, error) {
	if len(rows) < 2 {
		return nil, nil
	}
	var pos [2][]int
	for p, i := range rows {
		if minority(i) {
			pos[1] = append(pos[1], p)
		} else {
			pos[0] = append(pos[0], p)
		}
	}
	if len(pos[0]) == 0 || len(pos[1]) == 0 {
		return nil, nil
	}
	small := pos[1]
	if len(pos[0]) < len(pos[1]) {
		small = pos[0]
	}
	ix, err := neighbors.NewRows(x, rows)
	if err != nil {
		return nil, err
	}
	k := 1
	if strict && len(rows) > 2 {
		k = 2
	}
	search := &neighbors.Options{Exhaustive: true}
	first, err := ix.SearchSelf(small, k, search)
	if err != nil {
		return nil, err
	}
	unique := func(res *neighbors.Result, q int) bool {
		_, d := res.Row(q)
		return k == 1 || !strict || d[1] > d[0]
	}
	isMin := func(p int) bool { return minority(rows[p]) }
	var partners []int
	partnerOf := make([]int, len(small))
	seen := make(map[int]int)
	for q, p := range small {
		partnerOf[q] = -1
		nn, _ := first.Row(q)
		if isMin(nn[0]) == isMin(p) || !unique(first, q) {
			continue
		}
		j, ok := seen[nn[0]]
		if !ok {
			j = len(partners)
			seen[nn[0]] = j
			partners = append(partners, nn[0])
		}
		partnerOf[q] = j
	}
	if len(partners) == 0 {
		return nil, nil
	}
	second, err := ix.SearchSelf(partners, k, search)
	if err != nil {
		return nil, err
	}
	var links []Link
	for q, p := range small {
		j := partnerOf[q]
		if j < 0 {
			continue
		}
		nn, _ := second.Row(j)
		if nn[0] != p || !unique(second, j) {
			continue
		}
		a, b := rows[p], rows[partners[j]]
		if !minority(a) {
			a, b = b, a
		}
		links = append(links, Link{Minority: a, Majority: b})
	}
	slices.SortFunc(links, func(a, b Link) int { return a.Minority - b.Minority })
	return links, nil
}

// naiveTomek is the definition itself, for the oracle's own check: every
// row of the smaller class and its nearest other row on direct squared
// distances summed in feature order (ties to the smaller position), then
// that row's nearest. It does not use package neighbors.
func naiveTomek(x *mat.Dense, rows []int, minority func(int) bool, strict bool) []Link {
	_, d := x.Dims()
	n := len(rows)
	data := make([]float64, n*d)
	for p, i := range rows {
		mat.Row(data[p*d:(p+1)*d], i, x)
	}
	var nMin int
	for _, i := range rows {
		if minority(i) {
			nMin++
		}
	}
	if nMin == 0 || nMin == n {
		return nil
	}
	smallIsMin := nMin <= n-nMin
	// nn returns p's nearest other position and whether it is unique.
	nn := func(p int) (int, bool) {
		best, second, arg := math.Inf(1), math.Inf(1), -1
		for j := range n {
			if j == p {
				continue
			}
			var s float64
			for t := range d {
				v := data[p*d+t] - data[j*d+t]
				s += v * v
			}
			if s < best {
				best, second, arg = s, best, j
			} else if s < second {
				second = s
			}
		}
		return arg, !strict || n <= 2 || math.Sqrt(second) > math.Sqrt(best)
	}
	var links []Link
	for p, i := range rows {
		if minority(i) != smallIsMin {
			continue
		}
		j, ok := nn(p)
		if !ok || minority(rows[j]) == minority(i) {
			continue
		}
		if back, ok := nn(j); !ok || back != p {
			continue
		}
		a, b := i, rows[j]
		if !minority(a) {
			a, b = b, a
		}
		links = append(links, Link{Minority: a, Majority: b})
	}
	slices.SortFunc(links, func(a, b Link) int { return a.Minority - b.Minority })
	return links
}

// compareOracle checks TomekLinks against oracleTomek on x, y over subset
// (nil: all rows) for both conditions and 1 and 2 workers, and returns the
// number of links.
func compareOracle(t *testing.T, name string, x *mat.Dense, y []int, subset []int) int {
	t.Helper()
	r, _ := x.Dims()
	rows, err := sortedRows(subset, r)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, strict := range []bool{false, true} {
		want, err := oracleTomek(x, rows, func(i int) bool { return y[i] == 1 }, strict)
		if err != nil {
			t.Fatal(err)
		}
		total += len(want)
		if naive := naiveTomek(x, rows, func(i int) bool { return y[i] == 1 }, strict); !slices.Equal(naive, want) {
			t.Fatalf("%s strict %v: the exhaustive search finds %d links, the definition %d", name, strict, len(want), len(naive))
		}
		for _, w := range []int{1, 2} {
			got, err := TomekLinks(x, y, subset, &TomekOptions{Strict: strict, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s strict %v workers %d: %d links, the exhaustive search %d", name, strict, w, len(got), len(want))
			}
		}
	}
	return total
}

// TestTomekTreeAgainstOracle: random data large enough for the tree
// (several thousand rows per class side), with exact duplicates across
// classes and grid ties, in 2 to 20 dimensions.
func TestTomekTreeAgainstOracle(t *testing.T) {
	r := rng.New(21)
	total := 0
	for trial, d := range []int{2, 3, 5, 8, 20} {
		n := 6000
		grid := trial%2 == 1
		x := mat.NewDense(n, d, nil)
		y := make([]int, n)
		for i := range n {
			// A quarter minority: enough minority queries (more than the
			// tree's probe) in the smaller class.
			if r.IntN(4) == 0 {
				y[i] = 1
			}
			if i > 0 && r.IntN(5) == 0 {
				mat.Row(x.RawRowView(i), r.IntN(i), x) // a duplicate, maybe of the other class
				continue
			}
			for j := range d {
				if grid {
					x.Set(i, j, float64(r.IntN(5)))
				} else {
					x.Set(i, j, r.NormFloat64()+0.5*float64(y[i]))
				}
			}
		}
		var subset []int
		for i := range n {
			if r.IntN(8) > 0 {
				subset = append(subset, i)
			}
		}
		total += compareOracle(t, fmt.Sprintf("d=%d grid=%v", d, grid), x, y, subset)
	}
	if total < 100 {
		t.Fatalf("only %d links in all trials: the comparison is too weak", total)
	}
	t.Logf("%d links compared", total)
}

// TestTomekTreeSynth: make_classification data with 3% minority (the AER
// setting), all rows and a subset.
func TestTomekTreeSynth(t *testing.T) {
	g, err := synth.Generate(&synth.Settings{Samples: 20000, Features: 20, Informative: 10, Ratio: 30, Clusters: 4}, 3)
	if err != nil {
		t.Fatal(err)
	}
	n := compareOracle(t, "synth", g.X, g.Y, nil)
	t.Logf("%d links", n)
}

// BenchmarkTomekScale times the Tomek links of all rows of AER-like data
// (aer gen --ratio 99 --features 20 --informative 10 --clusters 4) at
// 60k, 180k and 600k rows, with the default search and the exhaustive
// scan (the oracle, up to 180k rows; GOMAXPROCS workers), reporting the
// process CPU time per run beside the wall time (the machine is shared). The fitted log-log slope
// of time against rows is the growth exponent.
func BenchmarkTomekScale(b *testing.B) {
	for _, n := range []int{60_000, 180_000, 600_000} {
		g, err := synth.Generate(&synth.Settings{Samples: n, Features: 20, Informative: 10, Ratio: 99, Clusters: 4}, 1)
		if err != nil {
			b.Fatal(err)
		}
		rows, _ := sortedRows(nil, n)
		isMin := func(i int) bool { return g.Y[i] == 1 }
		b.Run(fmt.Sprintf("tree/n=%d", n), func(b *testing.B) {
			c0 := cputime.Seconds()
			for b.Loop() {
				if _, err := tomek(g.X, rows, isMin, &TomekOptions{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Seconds()-c0)/float64(b.N), "cpu-s/op")
		})
		if n > 180_000 {
			continue
		}
		b.Run(fmt.Sprintf("exhaustive/n=%d", n), func(b *testing.B) {
			c0 := cputime.Seconds()
			for b.Loop() {
				if _, err := oracleTomek(g.X, rows, isMin, false); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Seconds()-c0)/float64(b.N), "cpu-s/op")
		})
	}
}
