package neighbors

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/rng"
)

// TestScan6x16f checks the 6-query float32 kernel against the 4-query one
// bit for bit: every query's 16 scores of the panel where the kernel
// stops, the panels done and the hit, for d from 1 to 60, thresholds that
// pass nothing, everything or a few scores, and padding rows.
func TestScan6x16f(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2/FMA (or purego build): no float32 kernel")
	}
	r := rng.New(11)
	for _, d := range []int{1, 2, 3, 5, 8, 13, 20, 31, 47, 60} {
		for _, off := range []float64{0, 1000} {
			n := 16*6 + 7
			ix, err := NewFlat(randomData(uint64(d), n, d, false, 1, off), d)
			if err != nil {
				t.Fatal(err)
			}
			ix.buildPanels32()
			np := len(ix.pnorms32) / 16
			q := randomData(uint64(d)+50, 6, d, false, 1, off)
			q32 := make([]float32, len(q))
			for i, v := range q {
				q32[i] = float32(v)
			}
			for trial := range 30 {
				var thr [6]float32
				for a := range thr {
					switch trial % 3 {
					case 0:
						thr[a] = float32(math.Inf(1 - 2*(trial/3%2)))
					default:
						// A threshold a little above the query's lowest
						// exact score: a few rows pass, in some panel,
						// or (threshold -Inf) none for this query.
						qr := q[a*d : (a+1)*d]
						lo := math.Inf(1)
						for j := range n {
							lo = min(lo, ix.norms[j]-2*dot(qr, ix.data[j*d:(j+1)*d]))
						}
						thr[a] = float32(lo + math.Abs(lo)*1e-3*r.Float64() + float64(d)*r.Float64())
						if r.IntN(3) == 0 {
							thr[a] = float32(math.Inf(-1))
						}
					}
				}
				p := trial % np
				pan, nrm := &ix.panels32[p*16*d], &ix.pnorms32[p*16]
				var out6 [96]float32
				d6, h6 := scan6x16f(&q32[0], d, pan, nrm, np-p, &thr, &out6)
				// The 4-query kernel on queries 0-3 and 2-5: the 6-query
				// kernel stops where the first of them does.
				stop := math.MaxInt
				for _, first := range []int{0, 2} {
					var out4 [64]float32
					if d4, h4 := scan4x16f(&q32[first*d], d, pan, nrm, np-p, (*[4]float32)(thr[first:first+4]), &out4); h4 {
						stop = min(stop, d4)
					}
				}
				if h6 != (stop < math.MaxInt) || h6 && d6 != stop || !h6 && d6 != np-p {
					t.Fatalf("d=%d off=%v trial %d: 6-query kernel (%d, %v), 4-query kernels stop after %d of %d", d, off, trial, d6, h6, stop, np-p)
				}
				if !h6 {
					continue
				}
				// Scores of the stopping panel, recomputed by the 4-query
				// kernel with thresholds +Inf.
				inf := [4]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
				at := p + d6 - 1
				for _, first := range []int{0, 2} {
					var out4 [64]float32
					if _, hit := scan4x16f(&q32[first*d], d, &ix.panels32[at*16*d], &ix.pnorms32[at*16], 1, &inf, &out4); !hit {
						t.Fatal("thresholds +Inf passed nothing")
					}
					for a := range 4 {
						for b := range 16 {
							g, w := out6[(first+a)*16+b], out4[a*16+b]
							if math.Float32bits(g) != math.Float32bits(w) && !(math.IsNaN(float64(g)) && math.IsNaN(float64(w))) {
								t.Fatalf("d=%d off=%v trial %d: query %d row %d: 6-query kernel %v, 4-query kernel %v", d, off, trial, first+a, b, g, w)
							}
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
					for level := range 5 {
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
