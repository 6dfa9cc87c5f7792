package neighbors

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/rng"
)

// TestScan4x8 compares the kernel (assembly where the CPU has it) with
// scan4x8Go bit for bit: the same panels done, the same hit, the same 32
// scores, on data with ties, padding and thresholds that pass nothing,
// everything, or a few rows.
func TestScan4x8(t *testing.T) {
	r := rng.New(7)
	for _, d := range []int{1, 2, 3, 7, 20, 33} {
		for _, grid := range []bool{false, true} {
			n := 8*5 + 3
			ix, err := NewFlat(randomData(uint64(d), n, d, grid, 3, 1), d)
			if err != nil {
				t.Fatal(err)
			}
			ix.buildPanels()
			np := len(ix.pnorms) / 8
			q := randomData(uint64(d)+100, 4, d, grid, 3, 1)
			for trial := range 20 {
				var thr [4]float64
				for a := range thr {
					switch trial % 4 {
					case 0:
						thr[a] = math.Inf(1)
					case 1:
						thr[a] = math.Inf(-1)
					default:
						thr[a] = -float64(d) * r.Float64() * 10
					}
				}
				p := trial % np
				var out1, out2 [32]float64
				d1, h1 := scan4x8(&q[0], d, &ix.panels[p*8*d], &ix.pnorms[p*8], np-p, &thr, &out1)
				d2, h2 := scan4x8Go(&q[0], d, &ix.panels[p*8*d], &ix.pnorms[p*8], np-p, &thr, &out2)
				if d1 != d2 || h1 != h2 {
					t.Fatalf("d=%d trial %d: kernel (%d, %v), Go (%d, %v)", d, trial, d1, h1, d2, h2)
				}
				if h1 {
					for j := range out1 {
						if math.Float64bits(out1[j]) != math.Float64bits(out2[j]) {
							t.Fatalf("d=%d trial %d: score %d: kernel %v, Go %v", d, trial, j, out1[j], out2[j])
						}
					}
				}
			}
		}
	}
}

// withPanel runs f with the panel kernel on or off.
func withPanel(on bool, f func()) {
	old := useAVX2
	useAVX2 = on
	defer func() { useAVX2 = old }()
	f()
}

// TestPanelScan checks that the panel scan gives exactly the pure-Go
// scan's neighbours and distances, and the naive search's, with exact ties
// and duplicate rows, reference counts not a multiple of 8 and query
// counts not a multiple of 4, with and without exclusion, 1 and 2 workers.
func TestPanelScan(t *testing.T) {
	if !useAVX2 {
		t.Log("no AVX2/FMA (or purego build): the panel scan runs scan4x8Go")
	}
	cases := []struct {
		n, nq, d   int
		grid       bool
		scale, off float64
	}{
		{1, 5, 3, false, 1, 0},
		{9, 7, 2, true, 1, 0},
		{203, 61, 20, true, 1, 0},
		{517, 130, 20, false, 1, 0},
		{300, 65, 5, false, 1e-3, 1e4}, // large offset: the rounding bound matters
		{250, 33, 200, false, 1, 0},    // one 4-row query block
		{1500, 250, 18, true, 1, 0},
	}
	for _, c := range cases {
		ref := randomData(uint64(c.n), c.n, c.d, c.grid, c.scale, c.off)
		query := randomData(uint64(c.n+1), c.nq, c.d, c.grid, c.scale, c.off)
		copy(query[:c.d], ref[:c.d]) // a query equal to a reference row
		ix, err := NewFlat(ref, c.d)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 5} {
			if k > c.n-1 && c.n > 1 || k > c.n {
				continue
			}
			t.Run(fmt.Sprintf("n=%d/nq=%d/d=%d/k=%d", c.n, c.nq, c.d, k), func(t *testing.T) {
				wantIdx, wantDist := naive(ref, c.d, query, k, nil)
				for _, on := range []bool{false, true} {
					for _, w := range []int{1, 2} {
						var res *Result
						withPanel(on, func() {
							res, err = ix.SearchFlat(query, k, nil, &Options{Workers: w, Exhaustive: true})
						})
						if err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(res.Index, wantIdx) || !slices.Equal(res.Dist, wantDist) {
							t.Fatalf("panel %v workers %d: neighbours differ from the naive search", on, w)
						}
					}
				}
				if k > c.n-1 {
					return
				}
				pos := make([]int, 0, c.n)
				for p := 0; p < c.n; p += 2 {
					pos = append(pos, p)
				}
				var want *Result
				withPanel(false, func() { want, err = ix.SearchSelf(pos, k, &Options{Workers: 1, Exhaustive: true}) })
				if err != nil {
					t.Fatal(err)
				}
				var got *Result
				withPanel(true, func() { got, err = ix.SearchSelf(pos, k, &Options{Workers: 2, Exhaustive: true}) })
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Index, want.Index) || !slices.Equal(got.Dist, want.Dist) {
					t.Fatalf("SearchSelf: panel scan differs from the Go scan")
				}
			})
		}
	}
}
