package neighbors

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/synth"
	"gonum.org/v1/gonum/mat"
)

// naive is the O(n·m) reference: direct distances, ties to the smaller
// position, the excluded position skipped.
func naive(ref []float64, d int, query []float64, k int, exclude []int) ([]int, []float64) {
	n, nq := len(ref)/d, len(query)/d
	idx := make([]int, 0, nq*k)
	dist := make([]float64, 0, nq*k)
	for q := range nq {
		type pd struct {
			p int
			s float64
		}
		all := make([]pd, 0, n)
		for p := range n {
			if exclude != nil && exclude[q] == p {
				continue
			}
			var s float64
			for t := range d {
				x := query[q*d+t] - ref[p*d+t]
				s += x * x
			}
			all = append(all, pd{p, s})
		}
		slices.SortStableFunc(all, func(a, b pd) int { return cmp.Compare(a.s, b.s) })
		for _, e := range all[:k] {
			idx = append(idx, e.p)
			dist = append(dist, math.Sqrt(e.s))
		}
	}
	return idx, dist
}

// randomData returns n x d values; with grid set they are small integers
// (many exact ties) and a quarter of the rows duplicate earlier rows.
func randomData(seed uint64, n, d int, grid bool, scale, offset float64) []float64 {
	r := rng.New(seed)
	x := make([]float64, n*d)
	for i := range n {
		if i > 0 && r.IntN(4) == 0 {
			copy(x[i*d:(i+1)*d], x[r.IntN(i)*d:])
			continue
		}
		for t := range d {
			if grid {
				x[i*d+t] = float64(r.IntN(3))
			} else {
				x[i*d+t] = offset + scale*r.NormFloat64()
			}
		}
	}
	return x
}

func TestAgainstNaive(t *testing.T) {
	cases := []struct {
		name          string
		n, nq, d, k   int
		grid          bool
		scale, offset float64
	}{
		{"gauss", 300, 77, 5, 3, false, 1, 0},
		{"grid ties", 250, 61, 3, 4, true, 1, 0},
		{"grid one dim", 90, 33, 1, 5, true, 1, 0},
		// A large offset makes the expanded form lose most digits; the
		// direct recomputation must still give the naive answer.
		{"offset cancels", 200, 50, 4, 2, false, 1e-6, 1e4},
		{"wide", 130, 19, 37, 2, false, 1, 0},
		{"k equals n", 9, 7, 2, 9, false, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := randomData(1, c.n, c.d, c.grid, c.scale, c.offset)
			query := randomData(2, c.nq, c.d, c.grid, c.scale, c.offset)
			copy(query[:c.d], ref[3*c.d:4*c.d]) // a query equal to a reference
			ix, err := NewFlat(ref, c.d)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{1, 2, 3} {
				got, err := ix.SearchFlat(query, c.k, nil, &Options{Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				wi, wd := naive(ref, c.d, query, c.k, nil)
				if !slices.Equal(got.Index, wi) || !slices.Equal(got.Dist, wd) {
					t.Fatalf("workers %d: got %v %v\nwant %v %v", w, got.Index, got.Dist, wi, wd)
				}
				if c.k >= c.n {
					continue
				}
				self, err := ix.SearchSelf(nil, c.k, &Options{Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				all := make([]int, c.n)
				for i := range all {
					all[i] = i
				}
				wi, wd = naive(ref, c.d, ref, c.k, all)
				if !slices.Equal(self.Index, wi) || !slices.Equal(self.Dist, wd) {
					t.Fatalf("workers %d: SearchSelf(nil) differs from naive", w)
				}
			}
		})
	}
}

func TestSearchSelf(t *testing.T) {
	for _, grid := range []bool{false, true} {
		const n, d, k = 400, 3, 2 // n > one row block, not a multiple of it
		ref := randomData(7, n, d, grid, 1, 0)
		ix, err := NewFlat(ref, d)
		if err != nil {
			t.Fatal(err)
		}
		pos := []int{5, 0, 399, 17, 17, 250}
		got, err := ix.SearchSelf(pos, k, &Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		query := make([]float64, 0, len(pos)*d)
		for _, p := range pos {
			query = append(query, ref[p*d:(p+1)*d]...)
		}
		wi, wd := naive(ref, d, query, k, pos)
		if !slices.Equal(got.Index, wi) || !slices.Equal(got.Dist, wd) {
			t.Fatalf("grid %v: got %v %v, want %v %v", grid, got.Index, got.Dist, wi, wd)
		}
		allPos := make([]int, n)
		for i := range allPos {
			allPos[i] = i
		}
		for _, kk := range []int{1, 2, 5} {
			wi, wd = naive(ref, d, ref, kk, allPos)
			for _, w := range []int{1, 2, 3, 7} {
				all, err := ix.SearchSelf(nil, kk, &Options{Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(all.Index, wi) || !slices.Equal(all.Dist, wd) {
					t.Fatalf("grid %v, k %d, workers %d: all rows differ from naive", grid, kk, w)
				}
			}
		}
	}
}

func TestDuplicatesAndTies(t *testing.T) {
	// Rows 1, 2 and 4 coincide; rows 0 and 3 are both at distance 1 from
	// them. Row 1's neighbours: 2 and 4 at distance 0 (smaller first), then
	// 0 before 3 at distance 1.
	x := mat.NewDense(5, 2, []float64{
		0, 0,
		1, 0,
		1, 0,
		2, 0,
		1, 0,
	})
	ix, err := New(x)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.SearchSelf([]int{1}, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	idx, dist := res.Row(0)
	if !slices.Equal(idx, []int{2, 4, 0, 3}) || !slices.Equal(dist, []float64{0, 0, 1, 1}) {
		t.Fatalf("got %v %v", idx, dist)
	}
	// Without exclusion the query finds itself first.
	res, err = ix.Search(mat.NewDense(1, 2, []float64{1, 0}), 2, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if idx, _ := res.Row(0); !slices.Equal(idx, []int{1, 2}) {
		t.Fatalf("got %v", idx)
	}
}

func TestNewRows(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{10, 0, 3, 4})
	ix, err := NewRows(x, []int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(mat.NewDense(1, 1, []float64{3}), 2, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if idx, dist := res.Row(0); !slices.Equal(idx, []int{1, 0}) || !slices.Equal(dist, []float64{1, 3}) {
		t.Fatalf("got %v %v", idx, dist)
	}
	if _, err := NewRows(x, []int{4}); err == nil {
		t.Fatal("row out of range accepted")
	}
}

func TestStridedQuery(t *testing.T) {
	big := mat.NewDense(5, 3, []float64{
		9, 9, 9,
		0, 0, 7,
		5, 5, 7,
		1, 0, 7,
		9, 9, 9,
	})
	view := big.Slice(1, 4, 0, 2).(*mat.Dense)
	ix, err := New(mat.DenseCopyOf(view))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(view, 2, []int{0, 1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 1, 2, 0, 0, 1}; !slices.Equal(res.Index, want) {
		t.Fatalf("got %v, want %v", res.Index, want)
	}
}

func TestErrors(t *testing.T) {
	ix, err := NewFlat([]float64{0, 1, 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.SearchFlat([]float64{0}, 4, nil, nil); !errors.Is(err, ErrK) {
		t.Errorf("k > rows: %v", err)
	}
	if _, err := ix.SearchFlat([]float64{0}, 0, nil, nil); !errors.Is(err, ErrK) {
		t.Errorf("k = 0: %v", err)
	}
	if _, err := ix.SearchSelf(nil, 3, nil); !errors.Is(err, ErrK) {
		t.Errorf("k = rows with self excluded: %v", err)
	}
	if _, err := ix.SearchSelf(nil, 2, nil); err != nil {
		t.Errorf("k = rows-1 with self excluded: %v", err)
	}
	if _, err := ix.SearchFlat([]float64{0, 1}, 1, []int{0}, nil); err == nil {
		t.Error("wrong exclude length accepted")
	}
	if _, err := ix.SearchFlat([]float64{math.NaN()}, 1, nil, nil); err == nil {
		t.Error("NaN query accepted")
	}
	if _, err := NewFlat([]float64{0, 1, math.Inf(1), 2}, 2); err == nil || err.Error() != "neighbors: reference row 1: column 0 is +Inf" {
		t.Errorf("Inf reference: %v", err)
	}
	if _, err := NewFlat([]float64{0, 1, 2}, 2); err == nil {
		t.Error("ragged data accepted")
	}
	if _, err := ix.Search(mat.NewDense(2, 1, []float64{0, math.NaN()}), 1, nil, nil); err == nil || err.Error() != "neighbors: query row 1: column 0 is NaN" {
		t.Errorf("NaN in a Dense query: %v", err)
	}
	if _, err := ix.Search(mat.NewDense(1, 2, nil), 1, nil, nil); err == nil {
		t.Error("column mismatch accepted")
	}
	empty, err := ix.SearchFlat(nil, 1, nil, nil)
	if err != nil || len(empty.Index) != 0 {
		t.Errorf("no queries: %v %v", empty, err)
	}
}

func ExampleIndex_SearchSelf() {
	x := mat.NewDense(4, 2, []float64{
		0, 0,
		3, 4,
		0, 1,
		3, 5,
	})
	ix, err := New(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := ix.SearchSelf(nil, 1, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for q := range ix.Len() {
		idx, dist := res.Row(q)
		fmt.Printf("row %d: nearest %d at %.0f\n", q, idx[0], dist[0])
	}
	// Output:
	// row 0: nearest 2 at 1
	// row 1: nearest 3 at 1
	// row 2: nearest 0 at 1
	// row 3: nearest 1 at 1
}

// ExampleIndex_SearchSelfWithin asks whether row 1's nearest neighbour is
// row 0, 5 away, and whether row 3's is row 1, 1 away: row 2 is nearer to
// row 1 (the search may give up: -1), row 3's answer is exact.
func ExampleIndex_SearchSelfWithin() {
	x := mat.NewDense(4, 2, []float64{
		0, 0,
		3, 4,
		3, 3,
		3, 5,
	})
	ix, err := New(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := ix.SearchSelfWithin([]int{1, 3}, 1, []float64{5, 1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for q, row := range []int{1, 3} {
		idx, dist := res.Row(q)
		fmt.Printf("row %d: nearest %d at %v\n", row, idx[0], dist[0])
	}
	// Output:
	// row 1: nearest -1 at +Inf
	// row 3: nearest 1 at 1
}

// anchorData is n x 20 data from synth (make_classification with the
// settings of the scikit-learn speed anchors: 10 informative, 5 redundant
// features, 2 clusters per class, weights 0.9/0.1).
func anchorData(b *testing.B, n int) *mat.Dense {
	d, err := synth.Generate(&synth.Settings{Samples: n, Features: 20, Informative: 10, Redundant: 5,
		Weights: []float64{0.9, 0.1}}, uint64(n))
	if err != nil {
		b.Fatal(err)
	}
	return d.X
}

func benchmarkSelf2NN(b *testing.B, n int) {
	ix, err := New(anchorData(b, n))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := ix.SearchSelf(nil, 2, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Every row's 2 nearest neighbours (scikit-learn NearestNeighbors brute:
// 0.39 s for 10k x 20, 34.6 s for 100k x 20; ../shared/anchors/speed.md).
func BenchmarkSelf2NN10k(b *testing.B)  { benchmarkSelf2NN(b, 10_000) }
func BenchmarkSelf2NN100k(b *testing.B) { benchmarkSelf2NN(b, 100_000) }

// The same 10k rows as queries of another index: the one-way scan.
func BenchmarkSearch2NN10k(b *testing.B) {
	x := anchorData(b, 10_000)
	ix, err := New(x)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := ix.Search(x, 2, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
