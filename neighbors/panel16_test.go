package neighbors

import (
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/rng"
)

// quantized returns the int16 rows (times mul) and squared norms of the
// rows of x under ix's quantization, failing the test when one does not
// quantize.
func quantized(t *testing.T, ix *Index, x []float64, mul int) ([]int16, []int64) {
	t.Helper()
	d, w := ix.d, 2*ix.q16.dp
	n := len(x) / d
	out := make([]int16, n*w)
	nrm := make([]int64, n)
	for i := range n {
		qq, ok := ix.q16.quantize(x[i*d:(i+1)*d], mul, out[i*w:(i+1)*w])
		if !ok {
			t.Fatalf("row %d does not quantize", i)
		}
		nrm[i] = qq
	}
	return out, nrm
}

// TestScan6x16i checks the int16 kernel, assembly and Go, against the
// integer scores computed directly (int64) from the quantized rows, for d
// from 1 to 64 (odd d pad a zero column), the padding rows of the tail
// panel, and its stopping rule and masks of passing rows with limits that
// pass nothing, everything or a few scores.
func TestScan6x16i(t *testing.T) {
	r := rng.New(12)
	for _, d := range []int{1, 2, 3, 5, 8, 13, 20, 31, 47, 60, 64} {
		for _, off := range []float64{0, 1000} {
			n := 16*6 + 7
			ref := randomData(uint64(d)+3, n, d, false, 1, off)
			ix, err := NewFlat(ref, d)
			if err != nil {
				t.Fatal(err)
			}
			ix.buildPanels16()
			if !ix.i16ok {
				t.Fatalf("d=%d: int16 panels refused", d)
			}
			dp := ix.q16.dp
			np := len(ix.pnorms16) / 16
			// Queries: reference rows and midpoints of two of them (inside
			// the quantization box).
			q := make([]float64, 6*d)
			for a := range 6 {
				i, j := r.IntN(n), r.IntN(n)
				for c := range d {
					q[a*d+c] = ref[i*d+c]
					if a%2 == 1 {
						q[a*d+c] = ref[i*d+c]/2 + ref[j*d+c]/2
					}
				}
			}
			q16, _ := quantized(t, ix, q, -2)
			r16, _ := quantized(t, ix, ref, 1)
			want := func(a, row int) int32 {
				if row >= n {
					return math.MaxInt32
				}
				var s int64
				for c := range 2 * dp {
					x := int64(r16[row*2*dp+c])
					s += x*x + int64(q16[a*2*dp+c])*x
				}
				if s != int64(int32(s)) {
					t.Fatalf("d=%d: score %d overflows int32", d, s)
				}
				return int32(s)
			}
			kernels := []struct {
				name string
				run  func(p, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (int, bool)
			}{
				{"go", func(p, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (int, bool) {
					return scan6x16iGo(q16, dp, ix.panels16[p*32*dp:(p+np)*32*dp], ix.pnorms16[p*16:(p+np)*16], lim, out, mask)
				}},
			}
			if useAVX2 {
				kernels = append(kernels, struct {
					name string
					run  func(p, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (int, bool)
				}{"asm", func(p, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (int, bool) {
					return scan6x16i(&q16[0], dp, &ix.panels16[p*32*dp], &ix.pnorms16[p*16], np, lim, out, mask)
				}})
			}
			var all6 [6]int32
			for a := range all6 {
				all6[a] = math.MaxInt32
			}
			scores := make([][96]int32, np)
			for p := range np {
				for a := range 6 {
					for b := range 16 {
						scores[p][a*16+b] = want(a, p*16+b)
					}
				}
			}
			for _, kn := range kernels {
				for p := range np {
					var out [96]int32
					var mask [6]uint16
					if done, hit := kn.run(p, 1, &all6, &out, &mask); done != 1 || !hit {
						t.Fatalf("%s d=%d: limits MaxInt32 passed nothing (%d, %v)", kn.name, d, done, hit)
					}
					if out != scores[p] {
						t.Fatalf("%s d=%d off=%v panel %d: scores %v, want %v", kn.name, d, off, p, out, scores[p])
					}
					if want := passMask(&scores[p], &all6); mask != want {
						t.Fatalf("%s d=%d panel %d: masks %x, want %x", kn.name, d, p, mask, want)
					}
				}
				for trial := range 40 {
					var lim [6]int32
					for a := range lim {
						switch {
						case trial%4 == 0:
							lim[a] = math.MaxInt32
						case trial%4 == 1:
							lim[a] = math.MinInt32
						case r.IntN(3) == 0:
							lim[a] = math.MinInt32
						default:
							// Just above the query's lowest score: a few rows pass.
							lo := int32(math.MaxInt32)
							for p := range np {
								for b := range 16 {
									lo = min(lo, scores[p][a*16+b])
								}
							}
							lim[a] = lo + 1 + int32(r.IntN(1000))
						}
					}
					p := trial % np
					first := -1
					for j := p; j < np && first < 0; j++ {
						for a := range 6 {
							for b := range 16 {
								if scores[j][a*16+b] < lim[a] {
									first = j
								}
							}
						}
					}
					var out [96]int32
					var mask [6]uint16
					done, hit := kn.run(p, np-p, &lim, &out, &mask)
					switch {
					case first < 0 && (hit || done != np-p):
						t.Fatalf("%s d=%d trial %d: no score passes, kernel (%d, %v)", kn.name, d, trial, done, hit)
					case first >= 0 && (!hit || done != first-p+1):
						t.Fatalf("%s d=%d trial %d: first pass in panel %d from %d, kernel (%d, %v)", kn.name, d, trial, first, p, done, hit)
					case hit && out != scores[first]:
						t.Fatalf("%s d=%d trial %d: scores differ from the panel's", kn.name, d, trial)
					case hit && mask != passMask(&scores[first], &lim):
						t.Fatalf("%s d=%d trial %d: masks %x, want %x", kn.name, d, trial, mask, passMask(&scores[first], &lim))
					}
				}
			}
		}
	}
}

// passMask returns the masks of the scores below their query's limit.
func passMask(out *[96]int32, lim *[6]int32) (m [6]uint16) {
	for a := range 6 {
		for b := range 16 {
			if out[a*16+b] < lim[a] {
				m[a] |= 1 << b
			}
		}
	}
	return m
}

// TestScan6x16iWrap checks that the Go model of the int16 kernel wraps
// exactly like VPMADDWD and VPADDD, on arbitrary int16 values (-32768
// included, whose pair of products overflows int32) and int32 norms.
func TestScan6x16iWrap(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 (or purego build): no int16 kernel in assembly")
	}
	r := rng.New(13)
	for _, dp := range []int{1, 2, 7, 10, 32} {
		const np = 3
		q := make([]int16, 12*dp)
		pan := make([]int16, np*32*dp)
		nrm := make([]int32, np*16)
		for trial := range 20 {
			for _, s := range [][]int16{q, pan} {
				for i := range s {
					s[i] = int16(r.Uint64())
					if trial%2 == 0 && r.IntN(2) == 0 {
						s[i] = math.MinInt16
					}
				}
			}
			for i := range nrm {
				nrm[i] = int32(r.Uint64())
			}
			lim := [6]int32{math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MaxInt32}
			var a, b [96]int32
			var ma, mb [6]uint16
			da, ha := scan6x16i(&q[0], dp, &pan[0], &nrm[0], np, &lim, &a, &ma)
			db, hb := scan6x16iGo(q, dp, pan, nrm, &lim, &b, &mb)
			if da != db || ha != hb || a != b || ha && ma != mb {
				t.Fatalf("dp=%d trial %d: assembly (%d, %v) %v, Go (%d, %v) %v", dp, trial, da, ha, a, db, hb, b)
			}
		}
	}
}

// TestLim16 checks the bound of the int16 filter where it is tight: a
// query whose every value sits just under a half step above its grid
// point and reference rows just over a half step below theirs, so that
// h·||q_i - r_i|| exceeds ||q - r|| by nearly h·sqrt(d), the most the
// bound allows. With the threshold at a row's own float64 score
// (the least a threshold can be for the row to be offered), its int16
// score must pass; it must also pass for random data of every scale.
func TestLim16(t *testing.T) {
	r := rng.New(14)
	for _, d := range []int{1, 2, 3, 7, 20, 33, 64} {
		for _, span := range []float64{1, 1e-9, 1e9} {
			// Rows 0 and 1 fix the box [0, span]^d: c = span/2, one scale.
			n := 2 + 40
			ref, qz, at := boxQuant(t, n, d, span)
			B := int(qz.b)
			const eps = 1e-4
			kq := -B / 2
			q := make([]float64, d)
			for c := range d {
				q[c] = at(kq, 0.5-eps)
			}
			for i := 2; i < n; i++ {
				j := 1 + r.IntN(B) // grid steps from the query, every column
				if i%4 == 0 {
					j = 1 + r.IntN(3)
				}
				for c := range d {
					ref[i*d+c] = at(kq+j, -0.5+eps)
				}
			}
			ix, err := NewFlat(ref, d)
			if err != nil {
				t.Fatal(err)
			}
			ix.buildPanels16()
			if !ix.i16ok || ix.q16.s != qz.s || ix.q16.c[0] != qz.c[0] {
				t.Fatalf("d=%d span=%v: quantization differs from the box's", d, span)
			}
			check := func(name string, q []float64) {
				q16, qq := quantized(t, ix, q, -2)
				r16, _ := quantized(t, ix, ref, 1)
				qn := dot(q, q)
				tight := 0.0
				for i := range n {
					var s, di int64
					for c := range 2 * ix.q16.dp {
						x := int64(r16[i*2*ix.q16.dp+c])
						s += x*x + int64(q16[c])*x
						e := x + int64(q16[c])/2
						di += e * e
					}
					thr := ix.norms[i] - 2*dot(q, ref[i*d:(i+1)*d])
					if lim := ix.lim16(thr, qn, qq[0]); !(int64(lim) > s) {
						t.Fatalf("%s d=%d span=%v row %d: int16 score %d, limit %d at its own threshold", name, d, span, i, s, lim)
					}
					// How much of the bound's step the row uses.
					tight = max(tight, math.Sqrt(float64(di))-math.Sqrt(sqDist(q, ref[i*d:(i+1)*d]))*ix.q16.s)
				}
				if name == "tight" && tight < 0.99*math.Sqrt(float64(d)) {
					t.Fatalf("d=%d span=%v: the rows use %v of the step %v", d, span, tight, math.Sqrt(float64(d)))
				}
			}
			check("tight", q)
			for range 5 {
				rq := make([]float64, d)
				for c := range rq {
					rq[c] = span * r.Float64()
				}
				check("random", rq)
			}
		}
	}
}

// TestFilter16 checks searches through the int16 filter against the naive
// search where it decides: the tight rows of TestLim16 (a row whose
// int16 distance is nearly h·sqrt(d) longer than its true one is the
// nearest, behind rows whose int16 distances are shorter), columns of
// very different spreads, exact duplicates, a far outlier, d from 1 to 64, with and without
// the Go model of the kernel, with the scan's choice of filter and with
// the int16 filter forced on every tile.
func TestFilter16(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 (or purego build): the scan does not use the filters")
	}
	r := rng.New(15)
	for _, d := range []int{1, 2, 5, 20, 47, 64} {
		for _, kind := range []string{"tight", "spread", "outlier"} {
			var ref, query []float64
			n, nq := 900, 30
			switch kind {
			case "tight":
				var qz *quant16
				var at func(k int, frac float64) float64
				ref, qz, at = boxQuant(t, n, d, 1)
				B := int(qz.b)
				// Queries on the diagonal; each has a decoy (near-zero
				// quantization error) early and its true nearest,
				// 1e-9 steps nearer but a whole step longer in int16,
				// late; the other rows are far.
				query = make([]float64, nq*d)
				for i := 2; i < n; i++ {
					k := B/4 + r.IntN(B/2)
					for c := range d {
						ref[i*d+c] = at(k, 0)
					}
				}
				// Queries S steps apart, their rows within S/3 + 2.
				S := B / (4 * nq)
				for a := range nq {
					kq := -B/2 + a*S
					j := 2 + r.IntN(S/3)
					for c := range d {
						query[a*d+c] = at(kq, 0.5-1e-6)
						// True distance j-1+2e-6 steps a column, int16 j.
						ref[(n-1-3*a)*d+c] = at(kq+j, -0.5+1e-6)
						ref[(n/2+a)*d+c] = at(kq+j, -0.5+1e-6) + 1e-12
						// The decoy, on the other side: 1e-9 steps farther,
						// int16 j-1.
						ref[(2+a)*d+c] = at(kq-j+1, 0.5-3e-6-1e-9)
					}
				}
			case "spread":
				ref = randomData(uint64(d)+40, n, d, false, 1, 0)
				for i := range n {
					for c := range d {
						ref[i*d+c] *= math.Pow(10, float64(c%5)-2)
					}
				}
				for i := 10; i < n; i += 7 {
					copy(ref[i*d:(i+1)*d], ref[(i-9)*d:(i-8)*d])
				}
				query = slices.Clone(ref[:nq*d])
			case "outlier":
				ref = randomData(uint64(d)+41, n, d, false, 1, 0)
				ref[(n-1)*d] = 1e9
				query = randomData(uint64(d)+42, nq, d, false, 1, 0)
			}
			// Once as the scan chooses (slack16), once with the int16
			// filter forced on every tile (its factor 0), however loose.
			for _, force := range []bool{false, true} {
				ix, err := NewFlat(ref, d)
				if err != nil {
					t.Fatal(err)
				}
				ix.buildPanels16()
				if !ix.i16ok {
					t.Fatalf("d=%d %s: int16 panels refused", d, kind)
				}
				if force {
					ix.q16.f = 0
				}
				for _, k := range []int{1, 3} {
					wi, wd := naive(ref, d, query, k, nil)
					if kind == "tight" && k == 1 {
						for a := range nq {
							if wi[a] != n-1-3*a {
								t.Fatalf("d=%d: query %d's nearest is %d, not the tight row %d", d, a, wi[a], n-1-3*a)
							}
						}
					}
					for _, level := range []int{2, 6} {
						var res *Result
						withPanel(level, func() {
							res, err = ix.SearchFlat(query, k, nil, &Options{Workers: 2, Exhaustive: true})
						})
						if err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(res.Index, wi) || !slices.Equal(res.Dist, wd) {
							t.Fatalf("d=%d %s force=%v k=%d level %d: neighbours differ from the naive search", d, kind, force, k, level)
						}
					}
				}
			}
		}
	}
}

// TestFilter16Alone checks that a scan the int16 filter serves alone
// (rows well spread, queries inside their box, a query count that is not
// a multiple of 6: the last tile is padded) gives the naive answer
// without building the float32 or float64 panels, whose memory it spares;
// and that queries at distance 0 from a row fall back on the float32
// filter.
func TestFilter16Alone(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 (or purego build): the scan does not use the filters")
	}
	const n, nq, d = 2000, 47, 20 // 3 reference blocks
	ref := randomData(16, n, d, false, 1, 0)
	// Midpoints of reference rows: inside the quantization box.
	query := make([]float64, nq*d)
	r := rng.New(17)
	for a := range nq {
		i, j := r.IntN(n), r.IntN(n)
		for c := range d {
			query[a*d+c] = ref[i*d+c]/2 + ref[j*d+c]/2
		}
	}
	ix, err := NewFlat(ref, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 4} {
		wi, wd := naive(ref, d, query, k, nil)
		var res *Result
		withPanel(2, func() {
			res, err = ix.SearchFlat(query, k, nil, &Options{Workers: 2, Exhaustive: true})
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Index, wi) || !slices.Equal(res.Dist, wd) {
			t.Fatalf("k=%d: neighbours differ from the naive search", k)
		}
	}
	if ix.panels16 == nil || ix.panels32 != nil || ix.panels != nil {
		t.Fatalf("panels built: int16 %v, float32 %v, float64 %v", ix.panels16 != nil, ix.panels32 != nil, ix.panels != nil)
	}
	// Queries equal to reference rows of the first block: from the next
	// block on, their threshold (nearest at distance 0) is far below the
	// int16 step (slack16), and the tiles fall back on the float32 filter.
	copy(query, ref[:nq*d])
	wi, wd := naive(ref, d, query, 1, nil)
	var res *Result
	withPanel(2, func() {
		res, err = ix.SearchFlat(query, 1, nil, &Options{Workers: 2, Exhaustive: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Index, wi) || !slices.Equal(res.Dist, wd) {
		t.Fatal("queries at reference rows: neighbours differ from the naive search")
	}
	if ix.panels32 == nil {
		t.Fatal("queries at reference rows: the float32 filter did not take over")
	}
}

// TestFilter16Far is TestFilter16's tight case where the int16 bound,
// not the float32 margin the thresholds carry, decides: rows far apart
// (a quarter of the box), so that the float32 margin, which grows with
// the norms, is small beside the int16 step. The query's true nearest row
// sits in a later panel than a decoy 1e-9 steps farther whose int16
// distance is a step shorter; a bound shorter than the step by a few
// tenths drops the true nearest.
func TestFilter16Far(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 (or purego build): the scan does not use the filters")
	}
	for _, d := range []int{1, 2, 5, 20, 64} {
		const n = 41
		ref, qz, at := boxQuant(t, n, d, 1)
		j := int(qz.b) / 2
		query := make([]float64, 4*d)
		for c := range d {
			for a := range 4 {
				query[a*d+c] = at(0, 0.5-1e-6)
			}
			ref[2*d+c] = at(-j+1, 0.5-3e-6-1e-9) // decoy, panel 0
			ref[(n-1)*d+c] = at(j, -0.5+1e-6)    // true nearest, panel 2
		}
		// Rows 3..n-2 stay at the corner 0, half the box away.
		ix, err := NewFlat(ref, d)
		if err != nil {
			t.Fatal(err)
		}
		ix.buildPanels16()
		if ix.q16.s != qz.s {
			t.Fatal("quantization differs from the box's")
		}
		wi, wd := naive(ref, d, query, 1, nil)
		if wi[0] != n-1 {
			t.Fatalf("d=%d: the nearest is row %d, not the far tight row", d, wi[0])
		}
		for _, level := range []int{2, 6} {
			var res *Result
			withPanel(level, func() {
				res, err = ix.SearchFlat(query, 1, nil, &Options{Workers: 1, Exhaustive: true})
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Index, wi) || !slices.Equal(res.Dist, wd) {
				t.Fatalf("d=%d level %d: %v, naive %v", d, level, res.Index, wi)
			}
		}
		if ix.panels32 != nil {
			t.Fatalf("d=%d: the float32 filter served", d)
		}
	}
}

// boxQuant returns n rows of d columns whose first two fix the box
// [0, span]^d (the rest zero, for the caller to fill), the int16
// quantization an index over those two rows takes (centre span/2, one
// scale), and at(k, frac), the value of column 0 at quantized level k plus
// frac of a step.
func boxQuant(t *testing.T, n, d int, span float64) ([]float64, *quant16, func(k int, frac float64) float64) {
	t.Helper()
	ref := make([]float64, n*d)
	for c := range d {
		ref[d+c] = span
	}
	ix0, err := NewFlat(ref[:2*d], d)
	if err != nil {
		t.Fatal(err)
	}
	ix0.buildPanels16()
	qz := ix0.q16
	return ref, qz, func(k int, frac float64) float64 { return qz.c[0] + (float64(k)+frac)/qz.s }
}
