package neighbors

import "math"

// The float32 filter: the scan scores 8 queries (AVX-512, scan8x16f) or 6
// (AVX2, scan6x16f; scan4x16f for 4 left over) against 16 reference rows
// at once in float32, over a
// float32 copy of the reference rows in panels of 16; on AVX2 it does
// twice the multiply-adds of the float64 kernel per instruction. The scores only decide which rows
// stay candidates, under a margin that bounds their float32 error
// (roundingBound32); every answer is still decided on direct float64
// distances, so results are those of the float64 scan.
//
// The bound needs float32 to hold every value and product without
// overflow or gradual underflow: every value of the reference rows and of
// the queries is 0 or of magnitude within [2^-50, 2^50] (f32Range), and
// d <= f32MaxDim. Otherwise the float64 kernels scan.

const f32MaxDim = 256

// f32Range reports whether every value of row is 0 or of magnitude in
// [2^-50, 2^50].
func f32Range(row []float64) bool {
	for _, v := range row {
		if a := math.Abs(v); a != 0 && (a < 0x1p-50 || a > 0x1p50) {
			return false
		}
	}
	return true
}

// f32Able reports whether the rows allow the float32 filter (ix.f32ok),
// checked once.
func (ix *Index) f32Able() bool {
	ix.f32Once.Do(func() {
		ix.f32ok = ix.d <= f32MaxDim && f32Range(ix.data)
	})
	return ix.f32ok
}

// buildPanels32 fills ix.panels32 and ix.pnorms32 when the rows allow the
// float32 filter (f32Able); the tiles call it, so that a scan the int16
// filter serves alone never builds them.
func (ix *Index) buildPanels32() {
	ix.panel32Once.Do(func() {
		if !ix.f32Able() {
			return
		}
		ix.panels32, ix.pnorms32 = panelsOf[float32](ix, 16)
	})
}

// roundingBound32 bounds |float32 score - exact score| plus the float64
// errors roundingBound covers, for a query of squared norm qn. With
// u = 2^-24: rounding q and r to float32 moves q·r by at most
// (2u+u²)·Σ|q_t r_t|; d fused multiply-adds add at most
// γ_d·(1+u)²·Σ|q_t r_t|; Σ|q_t r_t| <= (qn+rn)/2; rounding rn to float32
// errs by u·rn and the subtraction by u·(rn + 2|q·r|) <= u·(qn+2rn).
// Together under (d+6)·u·(qn+rn)·(1+1e-4) for d <= 256; the bound takes
// twice (d+8)·u·(qn+maxNrm), plus an absolute 2^-90 for any subnormal
// partial sum (each loses at most 2^-150).
//
// scan6x16f starts each sum at the float32 norm (error u·rn) and adds the
// d products of -2q (exact) and r by fused multiply-adds: the products
// are off by (2u+u²)·2Σ|q_t r_t| <= (2u+u²)·(qn+rn) for the rounding of q
// and r, and the running sums, each at most (1+u)^d·(rn + 2Σ|q_t r_t|)
// <= (1+u)^d·(qn+2rn) in magnitude, add γ_d·(1+u)^3·(qn+2rn). Together
// under ((d+3)·qn + (2d+4)·rn)·u·(1+1e-4), within the same bound.
func (ix *Index) roundingBound32(qn float64) float64 {
	const u = 0x1p-24
	return 2*float64(ix.d+8)*u*(qn+ix.maxNrm) + 0x1p-90 + ix.roundingBound(qn)
}

// up32 is t rounded up to float32.
func up32(t float64) float32 {
	f := float32(t)
	if float64(f) < t {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// tilef scans references r0..r1-1 (r0 a multiple of 16, r1 too unless
// it is the last row) for the len(thr) queries i.. of the block with a
// float32 kernel; their margins are those of roundingBound32. kern scans
// np panels from the given ones for the query rows at q (row-major) with
// the thresholds in thr, and stops after the first panel where a score
// passes (hit), whose scores it leaves in out.
func (s *scanner) tilef(i, r0, r1 int, thr, out []float32, kern func(panels, norms *float32, np int) (done int, hit bool)) {
	ix, d := s.ix, s.ix.d
	ix.buildPanels32()
	sts := s.st[i : i+len(thr)]
	for a := range thr {
		thr[a] = up32(sts[a].thr)
	}
	p, p1 := r0/16, (r1+15)/16
	for p < p1 {
		done, hit := kern(&ix.panels32[p*16*d], &ix.pnorms32[p*16], p1-p)
		p += done
		if !hit {
			return
		}
		offer32(sts, thr, out, (p-1)*16)
	}
}

// tile8f is tilef for queries i..i+7 with the AVX-512 kernel, on the
// query rows of s.qbuf32.
func (s *scanner) tile8f(i, r0, r1 int) {
	q, d := &s.qbuf32[i*s.ix.d], s.ix.d
	s.tilef(i, r0, r1, s.thr8f[:], s.out8f[:], func(panels, norms *float32, np int) (int, bool) {
		return kern8x16f(q, d, panels, norms, np, &s.thr8f, &s.out8f)
	})
}

// tile4f is tilef for queries i..i+3 with the AVX2 kernel, on the query
// rows of s.qbuf32.
func (s *scanner) tile4f(i, r0, r1 int) {
	q, d := &s.qbuf32[i*s.ix.d], s.ix.d
	s.tilef(i, r0, r1, s.thr4f[:], s.out4f[:], func(panels, norms *float32, np int) (int, bool) {
		return scan4x16f(q, d, panels, norms, np, &s.thr4f, &s.out4f)
	})
}

// tile6f is tilef for queries i..i+5 with the 6-query AVX2 kernel, which
// does the same work in fewer instructions per multiply-add; its query
// rows are s.qbufm2's (-2q).
func (s *scanner) tile6f(i, r0, r1 int) {
	q, d := &s.qbufm2[i*s.ix.d], s.ix.d
	s.tilef(i, r0, r1, s.thr6f[:], s.out6f[:], func(panels, norms *float32, np int) (int, bool) {
		return scan6x16f(q, d, panels, norms, np, &s.thr6f, &s.out6f)
	})
}

// offer32 is offer for the float32 kernels: it hands each query a of sts
// the scores out[a*16+b] of the 16 reference rows base+b of the panel the
// kernel stopped at that are at most its (float64) threshold, and stores
// its new threshold, rounded up to float32, in thr[a].
func offer32(sts []qstate, thr, out []float32, base int) {
	for a := range sts {
		st := &sts[a]
		t := st.thr
		for b := range 16 {
			if v := float64(out[a*16+b]); v <= t {
				t = st.add(base+b, v)
			}
		}
		thr[a] = up32(t)
	}
}
