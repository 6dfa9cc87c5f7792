package neighbors

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/aer-go/aer/internal/rng"
)

// TestScanKernels compares the kernels scan4x8 and scan8x8 (assembly
// where the CPU has it) with scanPanelsGo bit for bit: the same panels done, the same hit, the same 32
// scores, on data with ties, padding and thresholds that pass nothing,
// everything, or a few rows.
func TestScanKernels(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2/FMA (or purego build): no assembly kernel to compare")
	}
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
			q := randomData(uint64(d)+100, 8, d, grid, 3, 1)
			for trial := range 20 {
				var thr [8]float64
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
				pan, nrm := ix.panels[p*8*d:], ix.pnorms[p*8:]
				var out4, want4 [32]float64
				d1, h1 := scan4x8(&q[0], d, &pan[0], &nrm[0], np-p, (*[4]float64)(thr[:4]), &out4)
				d2, h2 := scanPanelsGo(q[:4*d], d, pan, nrm, thr[:4], want4[:])
				check := func(kernel string, d1, d2 int, h1, h2 bool, got, want []float64) {
					t.Helper()
					if d1 != d2 || h1 != h2 {
						t.Fatalf("%s d=%d trial %d: kernel (%d, %v), Go (%d, %v)", kernel, d, trial, d1, h1, d2, h2)
					}
					if h1 {
						for j := range got {
							if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
								t.Fatalf("%s d=%d trial %d: score %d: kernel %v, Go %v", kernel, d, trial, j, got[j], want[j])
							}
						}
					}
				}
				check("scan4x8", d1, d2, h1, h2, out4[:], want4[:])
				if useAVX512 {
					var out8, want8 [64]float64
					d1, h1 = scan8x8(&q[0], d, &pan[0], &nrm[0], np-p, &thr, &out8)
					d2, h2 = scanPanelsGo(q, d, pan, nrm, thr[:], want8[:])
					check("scan8x8", d1, d2, h1, h2, out8[:], want8[:])
				}
			}
		}
	}
}

// withPanel runs f with the scan kernels of level 0 (Go tiles), 1 (the
// 4-query AVX2 kernel), 2 (and its float32 filter, with the int16 filter
// in the 6-query tiles), 3 (the 8-query AVX-512 kernel), 4 (and its
// float32 filter), 5 (level 2 without the int16 filter) and 6 (level 2
// with the int16 kernel in Go), as far as the CPU has them; it reports
// whether it could.
//
// Without AVX-512, levels 3 and 4 run with the 8-query kernels emulated
// (emulate8x8, emulate8x16f), so the 8-query tiles are tested on every
// AVX2 machine; the AVX-512 kernels themselves are compared with the Go
// scan by TestScanKernels and TestScan8x16f where the CPU has them.
func withPanel(level int, f func()) bool {
	o2, o512, o32, o16 := useAVX2, useAVX512, useF32, useI16
	if level >= 1 && !o2 {
		return false
	}
	avx512 := level == 3 || level == 4
	if avx512 && !o512 {
		k8, k8f := kern8x8, kern8x16f
		kern8x8, kern8x16f = emulate8x8, emulate8x16f
		defer func() { kern8x8, kern8x16f = k8, k8f }()
	}
	if level == 6 {
		k := kern6x16i
		kern6x16i = emulate6x16i
		defer func() { kern6x16i = k }()
	}
	useAVX2, useAVX512 = level >= 1, avx512
	useF32, useI16 = level == 2 || level >= 4, level != 5
	defer func() { useAVX2, useAVX512, useF32, useI16 = o2, o512, o32, o16 }()
	f()
	return true
}

// levels is the number of levels withPanel knows.
const levels = 7

// emulate6x16i is scan6x16i by its Go model.
func emulate6x16i(q *int16, dp int, panels *int16, norms *int32, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (int, bool) {
	return scan6x16iGo(unsafe.Slice(q, 12*dp), dp, unsafe.Slice(panels, np*32*dp), unsafe.Slice(norms, np*16), lim, out, mask)
}

// emulate8x8 is scan8x8 by the pure-Go scan it is tested against.
func emulate8x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[8]float64, out *[64]float64) (int, bool) {
	return scanPanelsGo(unsafe.Slice(q, 8*d), d, unsafe.Slice(panels, np*8*d), unsafe.Slice(norms, np*8), thr[:], out[:])
}

// emulate8x16f is scan8x16f by two runs of scan4x16f: it stops at the
// first panel where any of the 8 queries has a score at or under its
// threshold. The half that had none there reports NaN scores, which the
// tiles never take (they take a score at or under the threshold, and the
// kernel's true scores there were above it).
func emulate8x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[8]float32, out *[128]float32) (int, bool) {
	var a, b [64]float32
	dA, hA := scan4x16f(q, d, panels, norms, np, (*[4]float32)(thr[:4]), &a)
	lim := np
	if hA {
		lim = dA
	}
	qb := unsafe.Slice(q, 8*d)[4*d:]
	dB, hB := scan4x16f(&qb[0], d, panels, norms, lim, (*[4]float32)(thr[4:]), &b)
	nan := float32(math.NaN())
	fill := func(dst []float32, src *[64]float32, ok bool) {
		for j := range dst {
			dst[j] = nan
			if ok {
				dst[j] = src[j]
			}
		}
	}
	switch {
	case hB && (!hA || dB < dA):
		fill(out[:64], &a, false)
		fill(out[64:], &b, true)
		return dB, true
	case hA:
		fill(out[:64], &a, true)
		fill(out[64:], &b, hB && dB == dA)
		return dA, true
	}
	return dA, false
}

// TestPanelScan checks that the panel scan gives exactly the pure-Go
// scan's neighbours and distances, and the naive search's, with exact ties
// and duplicate rows, reference counts not a multiple of 8 and query
// counts not a multiple of 4, with and without exclusion, 1 and 2 workers.
func TestPanelScan(t *testing.T) {
	if !useAVX2 {
		t.Log("no AVX2/FMA (or purego build): only the Go scan is compared")
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
		{300, 65, 5, false, 1e-6, 1e2}, // the float32 filter keeps many candidates
		{300, 40, 4, false, 1e20, 0},   // out of the float32 filter's range
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
				for level := range levels {
					for _, w := range []int{1, 2} {
						var res *Result
						if !withPanel(level, func() {
							res, err = ix.SearchFlat(query, k, nil, &Options{Workers: w, Exhaustive: true})
						}) {
							continue
						}
						if err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(res.Index, wantIdx) || !slices.Equal(res.Dist, wantDist) {
							t.Fatalf("kernel level %d workers %d: neighbours differ from the naive search", level, w)
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
				withPanel(0, func() { want, err = ix.SearchSelf(pos, k, &Options{Workers: 1, Exhaustive: true}) })
				if err != nil {
					t.Fatal(err)
				}
				for level := 1; level < levels; level++ {
					var got *Result
					if !withPanel(level, func() { got, err = ix.SearchSelf(pos, k, &Options{Workers: 2, Exhaustive: true}) }) {
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got.Index, want.Index) || !slices.Equal(got.Dist, want.Dist) {
						t.Fatalf("SearchSelf: kernel level %d differs from the Go scan", level)
					}
				}
			})
		}
	}
}

// TestScan8x16f checks the float32 kernels' scores (scan4x16f and
// scan6x16f with AVX2, scan8x16f with AVX-512) against the exact scores (computed in float64
// from the float32 panels' sources) within roundingBound32, and their
// stopping rule.
func TestScan8x16f(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2/FMA (or purego build): no float32 kernel")
	}
	type kernel struct {
		name string
		nq   int
		run  func(q *float32, d int, panels, norms *float32, np int, thr *[8]float32, out *[128]float32) (int, bool)
	}
	kernels := []kernel{{"scan4x16f", 4, func(q *float32, d int, panels, norms *float32, np int, thr *[8]float32, out *[128]float32) (int, bool) {
		return scan4x16f(q, d, panels, norms, np, (*[4]float32)(thr[:4]), (*[64]float32)(out[:64]))
	}}, {"scan6x16f", 6, func(q *float32, d int, panels, norms *float32, np int, thr *[8]float32, out *[128]float32) (int, bool) {
		m2 := make([]float32, 6*d) // scan6x16f takes -2q
		for j, v := range unsafe.Slice(q, 6*d) {
			m2[j] = -2 * v
		}
		return scan6x16f(&m2[0], d, panels, norms, np, (*[6]float32)(thr[:6]), (*[96]float32)(out[:96]))
	}}}
	if useAVX512 {
		kernels = append(kernels, kernel{"scan8x16f", 8, scan8x16f})
	}
	for _, kn := range kernels {
		for _, d := range []int{1, 3, 20, 37} {
			for _, grid := range []bool{false, true} {
				n := 16*4 + 5
				ref := randomData(uint64(d), n, d, grid, 2, 100)
				ix, err := NewFlat(ref, d)
				if err != nil {
					t.Fatal(err)
				}
				ix.buildPanels32()
				if !ix.f32ok {
					t.Fatal("float32 panels refused in-range data")
				}
				np := len(ix.pnorms32) / 16
				q := randomData(uint64(d)+9, 8, d, grid, 2, 100)
				q32 := make([]float32, len(q))
				for j, v := range q {
					q32[j] = float32(v)
				}
				var thr [8]float32
				for a := range thr {
					thr[a] = float32(math.Inf(1))
				}
				for p := range np {
					var out [128]float32
					done, hit := kn.run(&q32[0], d, &ix.panels32[p*16*d], &ix.pnorms32[p*16], np-p, &thr, &out)
					if done != 1 || !hit {
						t.Fatalf("%s d=%d panel %d: infinite thresholds: done %d hit %v", kn.name, d, p, done, hit)
					}
					for a := range kn.nq {
						qr := q[a*d : (a+1)*d]
						qn := dot(qr, qr)
						for b := range 16 {
							r := p*16 + b
							if r >= n {
								if !math.IsNaN(float64(out[a*16+b])) {
									t.Fatalf("%s: padding row scored %v", kn.name, out[a*16+b])
								}
								continue
							}
							exact := ix.norms[r] - 2*dot(qr, ref[r*d:(r+1)*d])
							if diff := math.Abs(float64(out[a*16+b]) - exact); diff > ix.roundingBound32(qn) {
								t.Fatalf("%s d=%d query %d row %d: score %v, exact %v: error %g over the bound %g", kn.name, d, a, r, out[a*16+b], exact, diff, ix.roundingBound32(qn))
							}
						}
					}
				}
				// A threshold only one query's score in one panel passes:
				// the kernel stops at that panel.
				stop := np / 2
				var out [128]float32
				if _, hit := kn.run(&q32[0], d, &ix.panels32[stop*16*d], &ix.pnorms32[stop*16], 1, &thr, &out); !hit {
					t.Fatalf("%s d=%d: thresholds +Inf missed", kn.name, d)
				}
				for a := range thr {
					thr[a] = float32(math.Inf(-1))
				}
				thr[kn.nq-1] = out[(kn.nq-1)*16+3]
				var out2 [128]float32
				done, hit := kn.run(&q32[0], d, &ix.panels32[0], &ix.pnorms32[0], np, &thr, &out2)
				if done > stop+1 || !hit {
					t.Fatalf("%s d=%d: one passing score in panel %d: done %d, hit %v", kn.name, d, stop, done, hit)
				}
				if done == stop+1 && out2 != out {
					t.Fatalf("%s d=%d: scores of panel %d differ between calls", kn.name, d, stop)
				}
				for a := range thr {
					thr[a] = float32(math.Inf(-1))
				}
				if done, hit := kn.run(&q32[0], d, &ix.panels32[0], &ix.pnorms32[0], np, &thr, &out); done != np || hit {
					t.Fatalf("%s d=%d: thresholds -Inf: done %d of %d, hit %v", kn.name, d, done, np, hit)
				}
			}
		}
	}
}

// TestSearchSelfWithin checks SearchSelfWithin against the naive search:
// a query's row is the naive answer or, only when some other row is
// strictly nearer than its bound, (-1, +Inf); with ties, duplicates, far
// rows, values outside float32's range, every kernel level and 1 and 2
// workers. It also checks that the search does give up: with bounds above
// every distance, every query that has a row nearer is abandoned.
func TestSearchSelfWithin(t *testing.T) {
	cases := []struct {
		n, d       int
		grid       bool
		scale, off float64
	}{
		{2, 1, false, 1, 0},
		{37, 2, true, 1, 0},
		{700, 3, false, 1, 0},
		{900, 20, true, 1, 0},
		{1100, 20, false, 1, 0},
		{600, 60, false, 1, 0},
		{2000, 20, false, 1, 0},    // query blocks of 240 rows (scanBlocks)
		{500, 5, false, 1e-3, 1e4}, // large offset: the rounding bound matters
		{500, 4, false, 1e20, 0},   // out of the float32 filter's range
	}
	for _, c := range cases {
		ref := randomData(uint64(c.n)+5, c.n, c.d, c.grid, c.scale, c.off)
		// A far outlier, but not in the 2000-row case: it makes every row
		// a candidate of the float32 filter, which costs seconds there.
		if c.n > 100 && c.n < 2000 {
			for t := range c.d {
				ref[(c.n-1)*c.d+t] = 1e6 * c.scale
			}
		}
		ix, err := NewFlat(ref, c.d)
		if err != nil {
			t.Fatal(err)
		}
		var pos []int
		for p := 0; p < c.n; p += 1 + p%3 {
			pos = append(pos, p)
		}
		for _, k := range []int{1, 2} {
			if k > c.n-1 {
				continue
			}
			query := make([]float64, 0, len(pos)*c.d)
			for _, p := range pos {
				query = append(query, ref[p*c.d:(p+1)*c.d]...)
			}
			wantIdx, wantDist := naive(ref, c.d, query, k, pos)
			r := rng.New(uint64(c.n * k))
			within := make([]float64, len(pos))
			for q := range within {
				nn := wantDist[q*k]
				switch r.IntN(6) {
				case 0:
					within[q] = nn // exact: never abandoned
				case 1:
					within[q] = nn * (1 + 1e-12)
				case 2:
					within[q] = nn * 0.5
				case 3:
					within[q] = nn*2 + 1
				case 4:
					within[q] = math.Inf(1)
				default:
					within[q] = 0
				}
			}
			huge := make([]float64, len(pos))
			for q := range huge {
				huge[q] = 1e100
			}
			for level := range levels {
				for _, w := range []int{1, 2} {
					var res, all *Result
					if !withPanel(level, func() {
						res, err = ix.SearchSelfWithin(pos, k, within, &Options{Workers: w, Exhaustive: true})
						if err == nil {
							all, err = ix.SearchSelfWithin(pos, k, huge, &Options{Workers: w, Exhaustive: true})
						}
					}) {
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("n=%d d=%d k=%d level %d workers %d", c.n, c.d, k, level, w)
					for q := range pos {
						for _, g := range []struct {
							res    *Result
							within float64
						}{{res, within[q]}, {all, huge[q]}} {
							idx, dist := g.res.Row(q)
							if idx[0] == -1 {
								if !(wantDist[q*k] < g.within) {
									t.Fatalf("%s: query %d abandoned with nearest %v, bound %v", name, q, wantDist[q*k], g.within)
								}
								if !math.IsInf(dist[0], 1) {
									t.Fatalf("%s: query %d abandoned at distance %v", name, q, dist[0])
								}
								continue
							}
							if !slices.Equal(idx, wantIdx[q*k:(q+1)*k]) || !slices.Equal(dist, wantDist[q*k:(q+1)*k]) {
								t.Fatalf("%s: query %d: %v %v, naive %v %v", name, q, idx, dist, wantIdx[q*k:(q+1)*k], wantDist[q*k:(q+1)*k])
							}
						}
						if all.Index[q*k] != -1 {
							t.Fatalf("%s: query %d not abandoned with a bound above every distance", name, q)
						}
					}
				}
			}
		}
	}
}
