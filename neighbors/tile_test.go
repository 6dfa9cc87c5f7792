package neighbors

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/rng"
)

// TestScan6x16f checks the 6-query float32 kernel, whose scores start
// at the norms and add the products of -2q (not the 4-query kernel's
// arithmetic): every score within roundingBound32 of the exact score, for
// d from 1 to 60 and norms up to 6e7; the kernel stops at the first panel
// where some score is at or under its query's threshold (NaN padding
// never), returning that panel's scores, or runs through, with
// thresholds that pass nothing, everything or a few scores.
func TestScan6x16f(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2/FMA (or purego build): no float32 kernel")
	}
	r := rng.New(11)
	inf6 := [6]float32{}
	for a := range inf6 {
		inf6[a] = float32(math.Inf(1))
	}
	for _, d := range []int{1, 2, 3, 5, 8, 13, 20, 31, 47, 60} {
		for _, off := range []float64{0, 1000} {
			n := 16*6 + 7
			ref := randomData(uint64(d), n, d, false, 1, off)
			ix, err := NewFlat(ref, d)
			if err != nil {
				t.Fatal(err)
			}
			ix.buildPanels32()
			np := len(ix.pnorms32) / 16
			q := randomData(uint64(d)+50, 6, d, false, 1, off)
			m2 := make([]float32, len(q))
			for i, v := range q {
				m2[i] = -2 * float32(v)
			}
			// The kernel's scores of every panel, one panel a call.
			scores := make([][96]float32, np)
			for p := range np {
				if _, hit := scan6x16f(&m2[0], d, &ix.panels32[p*16*d], &ix.pnorms32[p*16], 1, &inf6, &scores[p]); !hit {
					t.Fatalf("d=%d: thresholds +Inf passed nothing", d)
				}
				for a := range 6 {
					qr := q[a*d : (a+1)*d]
					bound := ix.roundingBound32(dot(qr, qr))
					for b := range 16 {
						v, row := scores[p][a*16+b], p*16+b
						if row >= n {
							if !math.IsNaN(float64(v)) {
								t.Fatalf("d=%d: padding row scored %v", d, v)
							}
							continue
						}
						exact := ix.norms[row] - 2*dot(qr, ref[row*d:(row+1)*d])
						if diff := math.Abs(float64(v) - exact); !(diff <= bound) {
							t.Fatalf("d=%d off=%v query %d row %d: score %v, exact %v: error %g over the bound %g", d, off, a, row, v, exact, diff, bound)
						}
					}
				}
			}
			for trial := range 40 {
				var thr [6]float32
				for a := range thr {
					switch {
					case trial%4 == 0:
						thr[a] = float32(math.Inf(1))
					case trial%4 == 1:
						thr[a] = float32(math.Inf(-1))
					case r.IntN(3) == 0:
						thr[a] = float32(math.Inf(-1))
					default:
						// Near the query's lowest score: a few rows pass.
						lo := math.Inf(1)
						for p := range np {
							for b := range 16 {
								if v := float64(scores[p][a*16+b]); v < lo {
									lo = v
								}
							}
						}
						thr[a] = float32(lo + (math.Abs(lo)*1e-4+1)*r.Float64())
					}
				}
				p := trial % np
				want := -1
				for j := p; j < np && want < 0; j++ {
					for a := range 6 {
						for b := range 16 {
							if scores[j][a*16+b] <= thr[a] {
								want = j
							}
						}
					}
				}
				var out [96]float32
				done, hit := scan6x16f(&m2[0], d, &ix.panels32[p*16*d], &ix.pnorms32[p*16], np-p, &thr, &out)
				switch {
				case want < 0 && (hit || done != np-p):
					t.Fatalf("d=%d off=%v trial %d: no score passes, kernel (%d, %v)", d, off, trial, done, hit)
				case want >= 0 && (!hit || done != want-p+1):
					t.Fatalf("d=%d off=%v trial %d: first pass in panel %d from %d, kernel (%d, %v)", d, off, trial, want, p, done, hit)
				}
				if hit {
					for j := range out {
						if math.Float32bits(out[j]) != math.Float32bits(scores[want][j]) {
							t.Fatalf("d=%d off=%v trial %d: score %d: %v, alone %v", d, off, trial, j, out[j], scores[want][j])
						}
					}
				}
			}
		}
	}
}

// nearTies returns nq queries and n references in d columns around a
// common centre far from the origin (norms about off² d, so the expanded
// scores cancel to a few digits): each query has references at distance
// 1 + j·rel for small j in random directions, which the float32 scores
// cannot tell apart, exact duplicates of some of them, and ordinary
// references farther out.
func nearTies(seed uint64, n, nq, d int, off, rel float64) (ref, query []float64) {
	r := rng.New(seed)
	query = make([]float64, nq*d)
	for i := range query {
		query[i] = off + 0.3*r.NormFloat64()
	}
	ref = make([]float64, n*d)
	u := make([]float64, d)
	for i := range n {
		row := ref[i*d : (i+1)*d]
		qi := r.IntN(nq)
		if i > 0 && r.IntN(8) == 0 {
			copy(row, ref[r.IntN(i)*d:])
			continue
		}
		var s float64
		for t := range u {
			u[t] = r.NormFloat64()
			s += u[t] * u[t]
		}
		rho := 1 + float64(r.IntN(5))*rel
		if r.IntN(3) == 0 {
			rho = 1.5 + r.Float64()
		}
		for t := range row {
			row[t] = query[qi*d+t] + rho*u[t]/math.Sqrt(s)
		}
	}
	return ref, query
}

// TestFilterNearTies checks every scan level (Go, float64 and float32
// kernels, the 4-, 6- and 8-query tiles) against the naive search on
// adversarial near-ties: references whose distances to a query differ by
// a relative 1e-12 or not at all, with norms up to 1e6 times the
// distances, for d from 1 to 60. A filter that drops a true neighbour
// (a margin too small, a kernel that skips a row) changes the answer.
func TestFilterNearTies(t *testing.T) {
	for _, d := range []int{1, 2, 3, 5, 8, 13, 20, 31, 47, 60} {
		for _, off := range []float64{0, 30, 1000} {
			ref, query := nearTies(uint64(d)*7+uint64(off), 400, 23, d, off, 1e-12)
			ix, err := NewFlat(ref, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{1, 3} {
				t.Run(fmt.Sprintf("d=%d/off=%v/k=%d", d, off, k), func(t *testing.T) {
					wi, wd := naive(ref, d, query, k, nil)
					for level := range levels {
						var res *Result
						if !withPanel(level, func() {
							res, err = ix.SearchFlat(query, k, nil, &Options{Workers: 2, Exhaustive: true})
						}) {
							continue
						}
						if err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(res.Index, wi) || !slices.Equal(res.Dist, wd) {
							t.Fatalf("level %d: neighbours differ from the naive search", level)
						}
					}
				})
			}
		}
	}
}
