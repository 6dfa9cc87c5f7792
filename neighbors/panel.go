package neighbors

import "math"

// The panel scan: reference rows are copied, 8 at a time, into panels
// stored column by column (panel p holds rows 8p..8p+7, column t of them at
// panels[(p*d+t)*8:][:8]), so a kernel can multiply one query value by 8
// reference values at once. The last panel is padded with zero rows whose
// norm is NaN: their scores never pass a threshold.

// buildPanels fills ix.panels and ix.pnorms (once).
func (ix *Index) buildPanels() {
	ix.panelOnce.Do(func() {
		ix.panels, ix.pnorms = panelsOf[float64](ix, 8)
	})
}

// panelsOf lays the reference rows out in panels of w rows, converted to
// T: panel p holds its rows' value t at (p*d+t)*w+b, and norms their
// norms, NaN for the zero rows that pad the last panel.
func panelsOf[T float32 | float64](ix *Index, w int) (pan, norms []T) {
	n, d := ix.n, ix.d
	np := (n + w - 1) / w
	pan = make([]T, np*w*d)
	norms = make([]T, np*w)
	for p := range np {
		for b := range w {
			r := p*w + b
			if r >= n {
				norms[p*w+b] = T(math.NaN())
				continue
			}
			norms[p*w+b] = T(ix.norms[r])
			for t, v := range ix.data[r*d : (r+1)*d] {
				pan[(p*d+t)*w+b] = T(v)
			}
		}
	}
	return pan, norms
}

// scanPanelsGo is the reference for the assembly kernels scan4x8 and
// scan8x8, for the nq = len(thr) query rows q (row-major, d columns): it
// scans the panels (norms their 8 norms each) and stops after the first
// panel where some score norm - 2*dot is <= the query's threshold thr[a],
// writes that panel's scores to out[a*8+b] and returns the panels done and
// true; or it returns all panels and false. Dot products are accumulated
// over the columns in order with fused multiply-adds, as the kernels do.
func scanPanelsGo(q []float64, d int, panels, norms, thr, out []float64) (done int, hit bool) {
	nq, np := len(thr), len(norms)/8
	acc := out[:nq*8]
	for p := range np {
		clear(acc)
		for t := range d {
			col := panels[(p*d+t)*8 : (p*d+t)*8+8]
			for a := range nq {
				x := q[a*d+t]
				for b := range 8 {
					acc[a*8+b] = math.FMA(x, col[b], acc[a*8+b])
				}
			}
		}
		any := false
		for a := range nq {
			for b := range 8 {
				v := norms[p*8+b] - 2*acc[a*8+b]
				acc[a*8+b] = v
				if v <= thr[a] {
					any = true
				}
			}
		}
		if any {
			return p + 1, true
		}
	}
	return np, false
}

// tile4 scans references r0..r1-1 (r0 a multiple of 8) for queries
// i..i+3 of the block with the kernel. A threshold handed to the kernel
// is never below the query's current one, so every reference the Go
// tiles would offer is offered.
func (s *scanner) tile4(i, r0, r1 int) {
	ix, d := s.ix, s.ix.d
	ix.buildPanels() // only where the float32 filter does not serve
	sts := s.st[i : i+4]
	thr := &s.thr4
	for a := range 4 {
		thr[a] = sts[a].thr
	}
	q := &s.qbuf[i*d]
	p, p1 := r0/8, (r1+7)/8
	for p < p1 {
		done, hit := scan4x8(q, d, &ix.panels[p*8*d], &ix.pnorms[p*8], p1-p, thr, &s.out)
		p += done
		if !hit {
			return
		}
		offer(sts, thr[:], s.out[:], (p-1)*8)
	}
}

// offer hands each query a of sts the scores out[a*8+b] of the 8
// reference rows base+b of the panel the kernel stopped at that are at
// most its threshold, and stores its new threshold in thr[a].
func offer(sts []qstate, thr, out []float64, base int) {
	for a := range sts {
		st := &sts[a]
		t := st.thr
		for b := range 8 {
			if v := out[a*8+b]; v <= t {
				t = st.add(base+b, v)
			}
		}
		thr[a] = t
	}
}

// tile8 is tile4 for queries i..i+7 with the AVX-512 kernel.
func (s *scanner) tile8(i, r0, r1 int) {
	ix, d := s.ix, s.ix.d
	ix.buildPanels()
	sts := s.st[i : i+8]
	thr := &s.thr8
	for a := range 8 {
		thr[a] = sts[a].thr
	}
	q := &s.qbuf[i*d]
	p, p1 := r0/8, (r1+7)/8
	for p < p1 {
		done, hit := kern8x8(q, d, &ix.panels[p*8*d], &ix.pnorms[p*8], p1-p, thr, &s.out8)
		p += done
		if !hit {
			return
		}
		offer(sts, thr[:], s.out8[:], (p-1)*8)
	}
}

// kern8x8 and kern8x16f are the 8-query kernels tile8 and tile8f call:
// the AVX-512 assembly. Tests on machines without AVX-512 put emulations
// built from the tested kernels in their place, so that the 8-query tiles
// and the scan's handling of them run everywhere.
var (
	kern8x8   = scan8x8
	kern8x16f = scan8x16f
)
