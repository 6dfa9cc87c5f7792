package boost

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aer-go/aer/internal/rng"

	"github.com/aer-go/aer/learn"
)

// TestSharedBins: training on bins made once by NewBins gives the model
// bit for bit that binning inside Train gives, for every learning rate and
// depth, with and without weights and missing values; bins of another
// shape or max_bin are refused.
func TestSharedBins(t *testing.T) {
	x, y := testData(600, 4)
	x.Set(3, 1, math.NaN())
	x.Set(40, 2, math.NaN())
	w := make([]float64, len(y))
	for i := range w {
		w[i] = float64(1 + i%3)
	}
	for _, weights := range [][]float64{nil, w} {
		bins, err := NewBins(x, weights, &Settings{MaxBin: 32})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Settings{{Eta: 0.1, MaxDepth: 3, NEstimators: 8, MaxBin: 32}, {Eta: 0.3, MaxDepth: 6, NEstimators: 8, MaxBin: 32}} {
			plain, err := Train(context.Background(), Data{X: x, Y: y, Weight: weights}, nil, &s)
			if err != nil {
				t.Fatal(err)
			}
			shared, err := Train(context.Background(), Data{X: x, Y: y, Weight: weights, Bins: bins}, nil, &s)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := plain.MarshalBinary()
			b, _ := shared.MarshalBinary()
			if !bytes.Equal(a, b) {
				t.Errorf("weights %v, eta %v depth %d: the model on shared bins differs", weights != nil, s.Eta, s.MaxDepth)
			}
		}
	}
	bins, _ := NewBins(x, nil, &Settings{MaxBin: 32})
	if _, err := Train(context.Background(), Data{X: x, Y: y, Bins: bins}, nil, &Settings{MaxBin: 64, NEstimators: 2}); err == nil {
		t.Error("bins of max_bin 32 accepted for max_bin 64")
	}
	xs, ys := testData(100, 4)
	if _, err := Train(context.Background(), Data{X: xs, Y: ys, Bins: bins}, nil, &Settings{MaxBin: 32, NEstimators: 2}); err == nil {
		t.Error("bins of 600 rows accepted for 100")
	}
}

// TestMethodSharesBins: fits through the learn contract with one
// learn.Shared bin the rows once (the second fit finds the bins), on the
// shared workers (env.SharedWorkers), and give the models fits without it
// give on one worker.
func TestMethodSharesBins(t *testing.T) {
	x, y := testData(40000, 9)
	sh := &learn.Shared{}
	for _, eta := range []string{"0.1", "0.3"} {
		m := NewMethod().(*Method)
		if err := m.Set("eta", eta); err != nil {
			t.Fatal(err)
		}
		if err := m.Set("n_estimators", "5"); err != nil {
			t.Fatal(err)
		}
		with, err := m.Fit(context.Background(), &learn.Data{X: x, Y: y, Shared: sh}, nil, learn.Env{Seed: 1, Workers: 1, SharedWorkers: 2})
		if err != nil {
			t.Fatal(err)
		}
		without, err := m.Fit(context.Background(), &learn.Data{X: x, Y: y}, nil, learn.Env{Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := with.(*Fitted).MarshalBinary()
		b, _ := without.(*Fitted).MarshalBinary()
		if !bytes.Equal(a, b) {
			t.Errorf("eta %s: the model fitted with shared bins differs", eta)
		}
	}
	calls := 0
	for range 2 {
		sh.Get("probe", func() any { calls++; return nil })
	}
	if calls != 1 {
		t.Errorf("Shared.Get made a value %d times", calls)
	}
}

// TestBinOfSearch: binOf is the index of the first cut above x (the last
// bin when none is), checked against a linear scan on cut lists of every
// length up to 300 at the cuts, between them and beyond them.
func TestBinOfSearch(t *testing.T) {
	for n := 1; n <= 300; n++ {
		cuts := make([]float64, n)
		for i := range cuts {
			cuts[i] = float64(2*i) - 7
		}
		for x := -10.0; x <= float64(2*n); x += 0.5 {
			want := n - 1
			for i, c := range cuts[:n-1] {
				if c > x {
					want = i
					break
				}
			}
			if got := binOf(cuts, x); got != want {
				t.Fatalf("%d cuts, x=%v: bin %d, want %d", n, x, got, want)
			}
		}
	}
}

// TestCutTableSearch: bin4 and bin1 give binOf's bin for every number of
// cuts binning can make (1..256), at the cuts, between them, beyond both
// ends and at signed zeros.
func TestCutTableSearch(t *testing.T) {
	for n := 1; n <= 256; n++ {
		cuts := make([]float64, n)
		for i := range cuts {
			cuts[i] = float64(2*i) - 7
		}
		tab := newCutTable(cuts)
		var xs []float64
		for x := -10.0; x <= float64(2*n); x += 0.5 {
			xs = append(xs, x)
		}
		xs = append(xs, math.Copysign(0, -1), -math.MaxFloat64, math.MaxFloat64)
		for _, x := range xs {
			want := binOf(cuts, x)
			if got := bin1(tab, x); got != want {
				t.Fatalf("%d cuts, x=%v: bin1 %d, binOf %d", n, x, got, want)
			}
			c0, c1, c2, c3 := bin4(tab, tab, tab, tab, x, x, x, x)
			if c0 != want || c1 != want || c2 != want || c3 != want {
				t.Fatalf("%d cuts, x=%v: bin4 %d %d %d %d, binOf %d", n, x, c0, c1, c2, c3, want)
			}
		}
	}
	// No cuts (a feature without values): bin 0.
	if got := bin1(newCutTable(nil), 3); got != 0 {
		t.Fatalf("no cuts: bin %d", got)
	}
}

// TestBinRows4: the vector binning kernel (where there is one) gives
// bin4's codes, and nb for NaN, on tables of 0 to 255 cuts, for values
// at, between and beyond the cuts.
func TestBinRows4(t *testing.T) {
	r := rng.New(9)
	const rows, stride = 203, 6
	for trial := 0; trial < 200; trial++ {
		tabs := make([]cutTable, 4)
		var nb [4]int64
		for j := range tabs {
			nc := r.IntN(256) // 0: a feature without values; at most 255 with missing values
			cuts := make([]float64, nc)
			for i := range cuts {
				cuts[i] = float64(i) + r.Float64()*0.5 - 40
			}
			tabs[j] = *newCutTable(cuts)
			nb[j] = int64(max(0, nc))
		}
		x := make([]float64, rows*stride)
		for i := range x {
			switch r.IntN(8) {
			case 0:
				x[i] = math.NaN()
			case 1:
				x[i] = float64(r.IntN(300) - 45) // at or near cuts' integer parts
			case 2:
				x[i] = tabs[r.IntN(4)][r.IntN(256)] // exactly a cut (or +Inf pad: skipped below)
				if math.IsInf(x[i], 0) {
					x[i] = 1e300
				}
			default:
				x[i] = r.NormFloat64() * 80
			}
		}
		out := make([]uint8, rows*5)
		off := 1 // start inside the rows, as newMatrix does for feature groups
		done := binRows4(tabs, x[off:], stride, out[off:], 5, &nb, rows-1)
		if done%4 != 0 || done > rows-1 {
			t.Fatalf("did %d of %d rows", done, rows-1)
		}
		for i := 0; i < done; i++ {
			v := x[off+i*stride : off+i*stride+4]
			c0, c1, c2, c3 := bin4(&tabs[0], &tabs[1], &tabs[2], &tabs[3], v[0], v[1], v[2], v[3])
			want := [4]int{c0, c1, c2, c3}
			for j := range want {
				if v[j] != v[j] {
					want[j] = int(nb[j])
				}
				if got := out[off+i*5+j]; int(got) != want[j] {
					t.Fatalf("trial %d row %d feature %d (x=%v): code %d, want %d", trial, i, j, v[j], got, want[j])
				}
			}
		}
	}
}

// TestFewCuts: weighted values of at most maxBin distinct values get the
// cuts of the weighted sort (the weights move no cut there) through the
// plain sort of fewSorted, with ties, zero weights and signed zeros; past
// maxBin distinct values, or beyond fewCutsRows values, the weighted
// sort decides.
func TestFewCuts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := 1 + r.IntN(600)
		levels := 1 + r.IntN(300)
		v := make([]float64, n)
		w := make([]float64, n)
		for i := range v {
			v[i] = float64(r.IntN(levels)-levels/2) / 4
			if v[i] == 0 && r.IntN(2) == 0 {
				v[i] = math.Copysign(0, -1)
			}
			w[i] = []float64{0, 0.25, 1, 3.5}[r.IntN(4)]
		}
		maxBin := []int{2, 16, 64, 256}[trial%4]
		got, gotMin := cutsFor(v, w, maxBin)
		saved := fewCutsRows
		fewCutsRows = -1
		want, wantMin := cutsFor(v, w, maxBin)
		fewCutsRows = saved
		if len(got) != len(want) || gotMin != wantMin {
			t.Fatalf("trial %d (%d values, max_bin %d): %d cuts (min %v), weighted sort %d (min %v)", trial, n, maxBin, len(got), gotMin, len(want), wantMin)
		}
		for i := range got {
			if got[i] != want[i] { // -0 == +0: the same bins
				t.Fatalf("trial %d: cut %d is %v, weighted sort %v", trial, i, got[i], want[i])
			}
		}
	}
	// The fast path gives up past maxBin distinct values.
	if s := fewSorted([]float64{1, 2, 3}, []float64{1, 1, 1}, 2); s != nil {
		t.Error("3 distinct values in 2 bins taken by fewSorted")
	}
	if s := fewSorted([]float64{1, 2, 2}, []float64{1, 1, 0}, 2); s == nil {
		t.Error("2 distinct values in 2 bins refused by fewSorted")
	}
}
