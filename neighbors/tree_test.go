package neighbors

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/sharedtest"
)

// treeAll answers every query with the tree, without the probe's fallback.
func treeAll(ix *Index, query []float64, k int, exclude []int) ([]int, []float64) {
	d := ix.d
	nq := len(query) / d
	idx, dist := make([]int, nq*k), make([]float64, nq*k)
	s := &treeSearcher{t: ix.buildTree(), k: k}
	for q := range nq {
		e := -1
		if exclude != nil {
			e = exclude[q]
		}
		s.query(query[q*d:(q+1)*d], e, idx[q*k:(q+1)*k], dist[q*k:(q+1)*k])
	}
	return idx, dist
}

// TestTreeAgainstScan compares the tree with the exhaustive scan on data
// with many exact ties and duplicates, in several dimensions, for queries
// that are reference rows (self excluded) and for outside queries.
func TestTreeAgainstScan(t *testing.T) {
	cases := []struct {
		name          string
		n, d, k       int
		grid          bool
		scale, offset float64
	}{
		{"gauss 2-D", 3000, 2, 1, false, 1, 0},
		{"grid 3-D ties", 2500, 3, 2, true, 1, 0},
		{"gauss 8-D", 3000, 8, 2, false, 1, 0},
		{"grid 20-D", 2000, 20, 2, true, 1, 0},
		{"gauss 20-D", 2000, 20, 3, false, 1, 0},
		{"offset 5-D", 2000, 5, 2, false, 1e-6, 1e4},
		{"one dim", 1500, 1, 2, true, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := randomData(3, c.n, c.d, c.grid, c.scale, c.offset)
			ix, err := NewFlat(ref, c.d)
			if err != nil {
				t.Fatal(err)
			}
			pos := make([]int, 0, c.n/2)
			for p := 0; p < c.n; p += 2 {
				pos = append(pos, p)
			}
			want, err := ix.SearchSelf(pos, c.k, &Options{Exhaustive: true})
			if err != nil {
				t.Fatal(err)
			}
			query := make([]float64, 0, len(pos)*c.d)
			for _, p := range pos {
				query = append(query, ref[p*c.d:(p+1)*c.d]...)
			}
			gi, gd := treeAll(ix, query, c.k, pos)
			if !slices.Equal(gi, want.Index) || !slices.Equal(gd, want.Dist) {
				t.Fatal("tree differs from the scan on self queries")
			}
			other := randomData(4, 700, c.d, c.grid, c.scale, c.offset)
			want, err = ix.SearchFlat(other, c.k, nil, &Options{Exhaustive: true})
			if err != nil {
				t.Fatal(err)
			}
			gi, gd = treeAll(ix, other, c.k, nil)
			if !slices.Equal(gi, want.Index) || !slices.Equal(gd, want.Dist) {
				t.Fatal("tree differs from the scan on outside queries")
			}
		})
	}
}

// TestTreeDefaultPath checks that the default search, which probes the
// tree and keeps or leaves it, answers as the scan does for 1 and 2
// workers, on data where the tree pays (low dimension) and where it does
// not (isotropic 40-D).
func TestTreeDefaultPath(t *testing.T) {
	for _, d := range []int{3, 40} {
		n := treeMin + 500
		ref := randomData(5, n, d, false, 1, 0)
		ix, err := NewFlat(ref, d)
		if err != nil {
			t.Fatal(err)
		}
		pos := make([]int, 0, n/3)
		for p := 1; p < n; p += 3 {
			pos = append(pos, p)
		}
		want, err := ix.SearchSelf(pos, 2, &Options{Exhaustive: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 2} {
			got, err := ix.SearchSelf(pos, 2, &Options{Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Index, want.Index) || !slices.Equal(got.Dist, want.Dist) {
				t.Fatalf("d %d workers %d: default search differs from the scan", d, w)
			}
		}
	}
}

// TestTreeSharedDatasets forces the tree on standardised shared datasets
// (car_eval_34 is one-hot: full of duplicates and ties) and compares every
// row's two nearest neighbours with the scan's.
func TestTreeSharedDatasets(t *testing.T) {
	dir := sharedtest.Path(t, "datasets")
	for _, name := range []string{"car_eval_34", "abalone_19", "wine_quality", "bioassay"} {
		d, err := dataset.Load(filepath.Join(dir, name+".csv"), dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		dataset.Impute(d.X, dataset.ColumnMeans(d.X))
		dataset.FitScaler(d.X).Transform(d.X)
		ix, err := New(d.X)
		if err != nil {
			t.Fatal(err)
		}
		var pos []int
		var query []float64
		for p := 0; p < ix.n; p += 3 {
			pos = append(pos, p)
			query = append(query, ix.data[p*ix.d:(p+1)*ix.d]...)
		}
		want, err := ix.SearchSelf(pos, 2, &Options{Exhaustive: true})
		if err != nil {
			t.Fatal(err)
		}
		gi, gd := treeAll(ix, query, 2, pos)
		if !slices.Equal(gi, want.Index) || !slices.Equal(gd, want.Dist) {
			t.Errorf("%s: the tree differs from the scan", name)
		}
	}
}

// TestTreePreProbe checks the pre-probe's verdicts: the thinned tree
// prunes on 3 columns (the full tree is then built, probed and kept) and,
// with the panel kernel, not on 40 isotropic columns (the search scans
// without building it); the answers are the scan's either way.
func TestTreePreProbe(t *testing.T) {
	n := treePreStride*treeMin + 100
	for _, c := range []struct {
		d    int
		want bool
	}{{3, true}, {40, false}} {
		ref := randomData(11, n, c.d, false, 1, 0)
		ix, err := NewFlat(ref, c.d)
		if err != nil {
			t.Fatal(err)
		}
		pos := make([]int, 0, 300)
		for p := 0; p < n; p += n / 300 {
			pos = append(pos, p)
		}
		row := func(q int) []float64 { return ref[pos[q]*c.d : (pos[q]+1)*c.d] }
		// Without the panel kernel the tree may visit a tenth of the
		// rows: the thinned tree cannot rule it out.
		wantPre := c.want || treePreStride*treeWorth() >= 1
		if got := ix.preProbe(len(pos), row, 1, pos); got != wantPre {
			t.Errorf("d=%d: pre-probe %v, want %v", c.d, got, wantPre)
		}
		want, err := ix.SearchSelf(pos, 1, &Options{Exhaustive: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := ix.SearchSelf(pos, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Index, want.Index) || !slices.Equal(got.Dist, want.Dist) {
			t.Errorf("d=%d: default search differs from the scan", c.d)
		}
		if built := ix.tree != nil; built != c.want {
			t.Errorf("d=%d: tree built %v, want %v", c.d, built, c.want)
		}
	}
}
