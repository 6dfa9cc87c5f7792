package resample

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/synth"
	"gonum.org/v1/gonum/mat"
)

// crafted: majority rows 0..7 at x = 0, 10, ..., 70; minority row 8 at 31
// (nearest to row 3) and row 9 at 100. Two components.
//
// Component 0 ranks 0, then 1 before 2 (tied, smaller row first), 3, 4, ...
// Its global subset {0,1,2,3} + {8,9} has the link (8, 3), so row 3 goes.
// Component 1 ranks 4, 5, 6, 7 (6 and 7 tied) first; its global subset
// {4,5,6,7} + {8,9} has the link (8, 4): row 8 is 9 from row 4, which is
// 10 from row 5. Row 9's nearest is row 7 at 30, but row 7's is row 6.
// Local subsets: the top m_k = 2 (rows 0, 1 and rows 4, 5) plus
// floor(0.5*2) = 1 row drawn from the rest, plus both minority rows.
func crafted() (x, scores *mat.Dense, majority, minority []int) {
	x = mat.NewDense(10, 1, []float64{0, 10, 20, 30, 40, 50, 60, 70, 31, 100})
	scores = mat.NewDense(8, 2, []float64{
		5, 0,
		4, 0,
		4, 0,
		3, 0,
		1, 9,
		0, 8,
		-1, 7,
		-2, 7,
	})
	return x, scores, []int{0, 1, 2, 3, 4, 5, 6, 7}, []int{8, 9}
}

func TestSubsetsCrafted(t *testing.T) {
	x, scores, maj, mino := crafted()
	const seed = 42
	subs, err := Subsets(x, scores, maj, mino, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 4 {
		t.Fatalf("%d subsets, want 4", len(subs))
	}
	g0, l0, g1, l1 := subs[0], subs[1], subs[2], subs[3]
	check := func(name string, s Subset, kind string, comp int, rows []int, nMaj, nRand, removed int) {
		t.Helper()
		if s.Kind != kind || s.Component != comp || !slices.Equal(s.Rows, rows) ||
			s.Majority != nMaj || s.Random != nRand || s.Minority != 2 || s.TomekRemoved != removed {
			t.Errorf("%s: got %+v, want rows %v majority %d random %d removed %d", name, s, rows, nMaj, nRand, removed)
		}
	}
	check("global 0", g0, Global, 0, []int{0, 1, 2, 8, 9}, 3, 0, 1)
	check("global 1", g1, Global, 1, []int{5, 6, 7, 8, 9}, 3, 0, 1)
	if !slices.Equal(g0.Links, []Link{{8, 3}}) || !slices.Equal(g1.Links, []Link{{8, 4}}) {
		t.Errorf("links %v %v", g0.Links, g1.Links)
	}
	// The random row of local subset l is the first draw of
	// rng.Derive(seed, l) from the rest of the ranking.
	want0, _ := Sample([]int{2, 3, 4, 5, 6, 7}, 1, rng.Derive(seed, 0))
	want1, _ := Sample([]int{6, 7, 0, 1, 2, 3}, 1, rng.Derive(seed, 1))
	check("local 0", l0, Local, 0, slices.Sorted(slices.Values([]int{0, 1, want0[0], 8, 9})), 3, 1, 0)
	check("local 1", l1, Local, 1, slices.Sorted(slices.Values([]int{4, 5, want1[0], 8, 9})), 3, 1, 0)

	noTomek, err := Subsets(x, scores, maj, mino, seed, &SubsetOptions{NoTomek: true})
	if err != nil {
		t.Fatal(err)
	}
	check("global 0 without Tomek", noTomek[0], Global, 0, []int{0, 1, 2, 3, 8, 9}, 4, 0, 0)
}

func TestSubsetsSizes(t *testing.T) {
	// More minority than majority: local subsets take every majority row
	// and draw none; LocalRandom scales the draw.
	x := mat.NewDense(7, 1, []float64{0, 1, 2, 3, 4, 5, 6})
	scores := mat.NewDense(2, 1, []float64{1, 2})
	subs, err := Subsets(x, scores, []int{0, 1}, []int{2, 3, 4, 5, 6}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l := subs[1]; l.Majority != 2 || l.Random != 0 || len(l.Rows) != 7 {
		t.Errorf("local: %+v", l)
	}
	x = mat.NewDense(20, 1, nil)
	for i := range 20 {
		x.Set(i, 0, float64(i))
	}
	maj := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	scores = mat.NewDense(16, 3, nil)
	subs, err = Subsets(x, scores, maj, []int{16, 17, 18, 19}, 0, &SubsetOptions{LocalRandom: 1.5, NoTomek: true})
	if err != nil {
		t.Fatal(err)
	}
	for l := range 3 {
		g, loc := subs[2*l], subs[2*l+1]
		// floor(16/3) = 5 global majority rows; all scores tie, so the
		// smallest row numbers win. Local: top 4 + floor(1.5*4) = 6.
		if !slices.Equal(g.Rows, []int{0, 1, 2, 3, 4, 16, 17, 18, 19}) {
			t.Errorf("global %d rows %v", l, g.Rows)
		}
		if loc.Majority != 10 || loc.Random != 6 || len(loc.Rows) != 14 || !slices.Equal(loc.Rows[:4], []int{0, 1, 2, 3}) {
			t.Errorf("local %d: %+v", l, loc)
		}
	}
	// A huge share draws every remaining majority row (it overflowed the
	// count to a negative number).
	subs, err = Subsets(x, scores, maj, []int{16, 17, 18, 19}, 0, &SubsetOptions{LocalRandom: 1e300, NoTomek: true})
	if err != nil {
		t.Fatal(err)
	}
	if loc := subs[1]; loc.Random != 12 || loc.Majority != 16 {
		t.Errorf("local_random 1e300: %+v", loc)
	}
}

func TestSubsetsErrors(t *testing.T) {
	x, scores, maj, mino := crafted()
	nan := mat.DenseCopyOf(scores)
	nan.Set(5, 1, math.NaN())
	cases := []struct {
		name   string
		scores *mat.Dense
		maj    []int
		mino   []int
		opt    *SubsetOptions
		want   string
	}{
		{"score rows", scores, maj[:7], mino, nil, "resample: 8 score rows for 7 majority rows"},
		{"overlap", scores, maj, []int{8, 7}, nil, "resample: row 7 listed twice"},
		{"range", scores, maj, []int{8, 10}, nil, "resample: row 10 out of range [0, 10)"},
		{"NaN", nan, maj, mino, nil, "resample: score of row 5 under component 1 is NaN"},
		{"LocalRandom", scores, maj, mino, &SubsetOptions{LocalRandom: -1}, "resample: LocalRandom -1 is not a non-negative number"},
	}
	for _, c := range cases {
		_, err := Subsets(x, c.scores, c.maj, c.mino, 0, c.opt)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	bad := mat.DenseCopyOf(x)
	bad.Set(2, 0, math.NaN())
	_, err := Subsets(bad, scores, maj, mino, 0, nil)
	if want := "resample: component 0: tomek links: neighbors: reference row 2: column 0 is NaN"; err == nil || err.Error() != want {
		t.Errorf("NaN feature: got %v, want %q", err, want)
	}
}

// synthetic returns n rows of d features, a fraction pMin of them minority
// drawn from a shifted Gaussian that overlaps the majority.
func synthetic(seed uint64, n, d int, pMin float64) (*mat.Dense, []int, []int) {
	r := rng.New(seed)
	x := mat.NewDense(n, d, nil)
	var maj, mino []int
	for i := range n {
		shift := 0.0
		if r.Float64() < pMin {
			mino = append(mino, i)
			shift = 1
		} else {
			maj = append(maj, i)
		}
		for j := range d {
			x.Set(i, j, r.NormFloat64()+shift)
		}
	}
	return x, maj, mino
}

func TestSubsetsWorkersDeterministic(t *testing.T) {
	x, maj, mino := synthetic(5, 3000, 4, 0.05)
	const L = 5
	r := rng.New(6)
	scores := mat.NewDense(len(maj), L, nil)
	for i := range maj {
		for l := range L {
			scores.Set(i, l, math.Round(r.NormFloat64()*4)) // many ties
		}
	}
	var first []Subset
	for _, w := range []int{1, 2, 3, 8} {
		subs, err := Subsets(x, scores, maj, mino, 99, &SubsetOptions{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = subs
			continue
		}
		if !reflect.DeepEqual(subs, first) {
			t.Fatalf("workers %d differ from workers 1", w)
		}
	}
	for _, s := range first {
		if s.Minority != len(mino) || len(s.Rows) != s.Majority+s.Minority {
			t.Errorf("%s %d: %d rows, %d majority, %d minority", s.Kind, s.Component, len(s.Rows), s.Majority, s.Minority)
		}
		if s.Kind == Global && s.Majority+s.TomekRemoved != len(maj)/L {
			t.Errorf("global %d: %d kept + %d removed != %d", s.Component, s.Majority, s.TomekRemoved, len(maj)/L)
		}
		if s.Kind == Local && (s.Majority != len(mino)+len(mino)/2 || s.Random != len(mino)/2) {
			t.Errorf("local %d: %+v", s.Component, s)
		}
	}
	// Global subsets agree with a direct reading of Algorithm 1: rank by
	// score (ties to the smaller row), take the top floor(m_n/L), add the
	// minority, drop the majority end of every brute-force Tomek link.
	y := make([]int, len(maj)+len(mino))
	for _, i := range mino {
		y[i] = 1
	}
	for l := range L {
		order := slices.Clone(maj)
		at := make(map[int]float64)
		for i, row := range maj {
			at[row] = scores.At(i, l)
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(at[b], at[a]) })
		top := order[:len(maj)/L]
		set := append(slices.Clone(top), mino...)
		want := DropMajority(slices.Sorted(slices.Values(set)), bruteTomek(x, y, set, false))
		if !slices.Equal(first[2*l].Rows, want) {
			t.Errorf("global %d differs from the direct reading", l)
		}
		loc := first[2*l+1].Rows
		inLoc := make(map[int]bool)
		for _, i := range loc {
			inLoc[i] = true
		}
		for _, i := range append(slices.Clone(order[:len(mino)]), mino...) {
			if !inLoc[i] {
				t.Errorf("local %d lacks row %d", l, i)
			}
		}
	}

	// A different seed changes only the random part of local subsets.
	other, err := Subsets(x, scores, maj, mino, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(other[0], first[0]) || reflect.DeepEqual(other[1].Rows, first[1].Rows) {
		t.Error("seed should change local subsets only")
	}
}

func TestSampleAndUnderSample(t *testing.T) {
	rows := []int{10, 11, 12, 13, 14, 15, 16}
	s, err := Sample(rows, 7, rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(slices.Sorted(slices.Values(s)), rows) {
		t.Errorf("full draw %v is not a permutation", s)
	}
	if !slices.Equal(rows, []int{10, 11, 12, 13, 14, 15, 16}) {
		t.Error("Sample modified its input")
	}
	if _, err := Sample(rows, 8, rng.New(1)); err == nil {
		t.Error("drawing 8 of 7 accepted")
	}
	// Each row is drawn with probability n/len(rows).
	counts := make(map[int]int)
	r := rng.New(2)
	const trials = 20000
	for range trials {
		s, _ := Sample(rows, 3, r)
		for _, v := range s {
			counts[v]++
		}
	}
	for _, v := range rows {
		if p := float64(counts[v]) / trials; math.Abs(p-3.0/7) > 0.015 {
			t.Errorf("row %d drawn with frequency %.3f, want %.3f", v, p, 3.0/7)
		}
	}
	y := []int{0, 1, 0, 0, 0, 1, 0, 0}
	maj, mino, err := ClassRows(y)
	if err != nil || !slices.Equal(maj, []int{0, 2, 3, 4, 6, 7}) || !slices.Equal(mino, []int{1, 5}) {
		t.Errorf("ClassRows: %v %v %v", maj, mino, err)
	}
	u, err := UnderSample(y, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	nMin := 0
	for _, i := range u {
		nMin += y[i]
	}
	if len(u) != 5 || nMin != 2 || !slices.IsSorted(u) {
		t.Errorf("UnderSample: %v", u)
	}
	if again, _ := UnderSample(y, 3, 7); !slices.Equal(again, u) {
		t.Error("UnderSample is not deterministic")
	}
	if _, err := UnderSample([]int{0, 2}, 1, 0); err == nil {
		t.Error("label 2 accepted")
	}
}

func ExampleUnderSample() {
	y := []int{0, 0, 1, 0, 0, 0, 1, 0, 0, 0}
	rows, err := UnderSample(y, 4, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	majority, minority := 0, 0
	for _, i := range rows {
		if y[i] == 1 {
			minority++
		} else {
			majority++
		}
	}
	fmt.Println("majority", majority, "minority", minority)
	// Output:
	// majority 4 minority 2
}

func ExampleSubsets() {
	// Majority rows 0..7 on a line, minority rows 8 and 9; row 8 sits next
	// to majority row 3. Scores rank rows 0-3 first under component 0 and
	// rows 4-7 first under component 1.
	x := mat.NewDense(10, 1, []float64{0, 10, 20, 30, 40, 50, 60, 70, 31, 100})
	scores := mat.NewDense(8, 2, []float64{
		5, 0,
		4, 0,
		4, 0,
		3, 0,
		1, 9,
		0, 8,
		-1, 7,
		-2, 7,
	})
	majority := []int{0, 1, 2, 3, 4, 5, 6, 7}
	minority := []int{8, 9}
	subs, err := Subsets(x, scores, majority, minority, 1, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range subs {
		fmt.Printf("%s %d: majority %d (random %d), minority %d, Tomek removed %d\n",
			s.Kind, s.Component, s.Majority, s.Random, s.Minority, s.TomekRemoved)
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(subs[0]); err != nil {
		fmt.Println(err)
	}
	// Output:
	// global 0: majority 3 (random 0), minority 2, Tomek removed 1
	// local 0: majority 3 (random 1), minority 2, Tomek removed 0
	// global 1: majority 3 (random 0), minority 2, Tomek removed 1
	// local 1: majority 3 (random 1), minority 2, Tomek removed 0
	// {"component":0,"kind":"global","majority":3,"random":0,"minority":2,"tomek_removed":1}
}

// anchorData is n x 20 make_classification data (synth) shaped like the
// scikit-learn speed anchors but with a fraction pMin of minority rows.
func anchorData(b *testing.B, n int, pMin float64) (*mat.Dense, []int) {
	d, err := synth.Generate(&synth.Settings{Samples: n, Features: 20, Informative: 10, Redundant: 5,
		Weights: []float64{1 - pMin, pMin}}, 8)
	if err != nil {
		b.Fatal(err)
	}
	return d.X, d.Y
}

// Tomek links inside 100k x 20 rows with about 1% minority (scikit-learn's
// full 2-NN search alone takes 34.6 s here; ../shared/anchors/speed.md).
func BenchmarkTomek100k(b *testing.B) {
	x, y := anchorData(b, 100_000, 0.01)
	b.ResetTimer()
	var links []Link
	for range b.N {
		var err error
		if links, err = TomekLinks(x, y, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	nMin := 0
	for _, v := range y {
		nMin += v
	}
	b.ReportMetric(float64(len(links)), "links")
	b.ReportMetric(float64(nMin), "minority")
}

// Subsets of 100k x 20 rows, ~1% minority, L = 4: four Tomek searches over
// 25k-row global subsets.
func BenchmarkSubsets100k(b *testing.B) {
	x, y := anchorData(b, 100_000, 0.01)
	var maj, mino []int
	for i, v := range y {
		if v == 1 {
			mino = append(mino, i)
		} else {
			maj = append(maj, i)
		}
	}
	const L = 4
	r := rng.New(10)
	scores := mat.NewDense(len(maj), L, nil)
	for i := range maj {
		for l := range L {
			scores.Set(i, l, r.NormFloat64())
		}
	}
	b.ResetTimer()
	for range b.N {
		if _, err := Subsets(x, scores, maj, mino, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSubsetsSharedTomek checks the global subsets' links, found with the
// shared first search (sharedFirst), against the definition, strict and
// not, when the subsets overlap (components 0 and 1 rank alike) and when a
// subset lies away from most minority rows (component 3), so that many
// minority rows find none of its rows among their sharedK nearest of the
// union and fall back to the subset's own search.
func TestSubsetsSharedTomek(t *testing.T) {
	misses := sharedMisses.Load()
	for _, d := range []int{2, 20} {
		x, maj, mino := synthetic(uint64(d), 2500, d, 0.1)
		const L = 4
		centres := [L][]float64{make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)}
		for j := range d {
			centres[1][j] = 0.1
			centres[2][j] = 1
			centres[3][j] = -3
		}
		scores := mat.NewDense(len(maj), L, nil)
		for i, row := range maj {
			for l := range L {
				var s float64
				for j := range d {
					v := x.At(row, j) - centres[l][j]
					s -= v * v
				}
				scores.Set(i, l, s)
			}
		}
		y := make([]int, len(maj)+len(mino))
		for _, i := range mino {
			y[i] = 1
		}
		for _, strict := range []bool{false, true} {
			subs, err := Subsets(x, scores, maj, mino, 1, &SubsetOptions{StrictTomek: strict, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			var globals [][]int
			for l := range L {
				g := slices.Clone(subs[2*l].Rows)
				for _, lk := range subs[2*l].Links {
					g = append(g, lk.Majority)
				}
				slices.Sort(g)
				globals = append(globals, g)
				want := bruteTomek(x, y, g, strict)
				if !slices.Equal(subs[2*l].Links, want) {
					t.Fatalf("d=%d strict %v component %d: %d links, the definition %d", d, strict, l, len(subs[2*l].Links), len(want))
				}
			}
			// The first search was shared, and some rows fell back.
			firsts, err := sharedFirst(x, globals, mino, 2, 1)
			if err != nil || firsts == nil {
				t.Fatalf("d=%d: the first search was not shared (%v)", d, err)
			}
		}
	}
	if sharedMisses.Load() == misses {
		t.Error("no row fell back to its subset's own search")
	}
}
