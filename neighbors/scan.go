package neighbors

import (
	"cmp"
	"math"
	"slices"
)

// cand is a reference kept for the exact final decision.
type cand struct {
	pos int
	s   float64 // expanded score ||r||² - 2 q·r, or the direct distance at the end
}

// qstate tracks one query during a scan.
type qstate struct {
	best   []float64 // k smallest scores so far, ascending
	thr    float64   // best[k-1] + margin: scores above it cannot be in the answer
	margin float64   // twice the rounding bound of the expanded score
	excl   int       // reference position the query must skip, or -1
	limit  int       // compaction trigger for cand
	cand   []cand
	// With early, a score below stop shows a reference certainly nearer
	// than the query's bound (SearchSelfWithin): the query is done, its
	// threshold -Inf.
	early bool
	done  bool
	stop  float64
}

// add offers reference pos with score s (already known to be <= thr) and
// returns the possibly lowered threshold.
func (q *qstate) add(pos int, s float64) float64 {
	if pos == q.excl {
		return q.thr
	}
	if q.early && s < q.stop {
		q.done, q.thr, q.cand = true, math.Inf(-1), q.cand[:0]
		return q.thr
	}
	k := len(q.best)
	if s < q.best[k-1] {
		i := k - 1
		for i > 0 && q.best[i-1] > s {
			q.best[i] = q.best[i-1]
			i--
		}
		q.best[i] = s
		q.thr = q.best[k-1] + q.margin
	}
	if s <= q.thr {
		q.cand = append(q.cand, cand{pos, s})
		if len(q.cand) >= q.limit {
			q.compact()
			// Many exact ties keep the list long: grow the trigger so
			// compaction stays amortised O(1) per candidate.
			q.limit = max(q.limit, 2*len(q.cand))
		}
	}
	return q.thr
}

func (q *qstate) compact() {
	kept := q.cand[:0]
	for _, c := range q.cand {
		if c.s <= q.thr {
			kept = append(kept, c)
		}
	}
	q.cand = kept
}

// scanner is one worker's scratch space.
type scanner struct {
	ix     *Index
	k      int
	qb, rb int
	qbuf   []float64
	st     []qstate
	thr4   [4]float64  // thresholds handed to the panel kernel
	out    [32]float64 // its scores
	thr8   [8]float64  // the same for the AVX-512 kernel
	out8   [64]float64
	qbuf32 []float32  // the query block in float32
	qbufm2 []float32  // and times -2, for scan6x16f
	g32    int        // queries per float32 kernel call: 8 (AVX-512) or 4 (AVX2)
	ok32   []bool     // whether each query's values allow the float32 filter
	slot   []int      // the query (offset in the block) in each slot
	thr8f  [8]float32 // thresholds and scores of the float32 kernels
	out8f  [128]float32
	thr4f  [4]float32
	out4f  [64]float32
	thr6f  [6]float32
	out6f  [96]float32
	qn     []float64 // the block's queries' squared norms
	qbuf16 []int16   // the block quantized for the int16 filter (times -2)
	ok16   []bool    // whether each query quantizes
	qq16   []int64   // its quantized squared norm
	thr16  []float64 // the threshold lim16 and slk16 were computed for
	lim16  []int32   // the int16 kernel's limit (lim16) for it
	slk16  []bool    // and slack16
	lim6i  [6]int32  // limits, scores and masks of the int16 kernel
	out6i  [96]int32
	mask6i [6]uint16
}

func newScanner(ix *Index, k, qb, rb int) *scanner {
	s := &scanner{ix: ix, k: k, qb: qb, rb: rb, qbuf: make([]float64, qb*ix.d), st: make([]qstate, qb)}
	best := make([]float64, qb*k)
	for i := range s.st {
		s.st[i].best = best[i*k : (i+1)*k]
	}
	return s
}

// roundingBound returns δ with |computed score - exact score| <= δ and
// |direct distance - exact distance| <= δ, for a query of squared norm qn.
// A dot product of length d errs by at most d·u·Σ|q_t r_t| <= d·u·(qn+rn)/2
// (u = eps/2); the norm, the doubling and the subtraction add a few units,
// and the direct sum errs by (d+1)·u·||q-r||² <= (d+1)·u·2(qn+rn). The
// factor 4(d+2)·eps covers the sum of both with room to spare.
func (ix *Index) roundingBound(qn float64) float64 {
	const eps = 0x1p-52
	return 4 * float64(ix.d+2) * eps * (qn + ix.maxNrm)
}

// run answers queries lo..hi-1 and writes their rows of res. With within
// (SearchSelfWithin), a query that finds a reference certainly nearer than
// within[q] is done: it leaves the block, whose remaining queries are
// packed into the first slots after each reference block, and its row of
// res is -1 at distance +Inf.
func (s *scanner) run(lo, hi int, row func(int) []float64, exclude []int, within []float64, res *Result) {
	ix, d, k := s.ix, s.ix.d, s.k
	m := hi - lo
	s.slot = s.slot[:0]
	s.qn = s.qn[:0]
	for i := range m {
		s.slot = append(s.slot, i)
		qr := row(lo + i)
		copy(s.qbuf[i*d:(i+1)*d], qr)
		var qn float64
		for _, v := range qr {
			qn += v * v
		}
		s.qn = append(s.qn, qn)
		st := &s.st[i]
		for j := range st.best {
			st.best[j] = math.Inf(1)
		}
		st.thr = math.Inf(1)
		st.margin = 2 * ix.roundingBound(qn)
		st.excl = -1
		if exclude != nil {
			st.excl = exclude[lo+i]
		}
		st.limit = 2*k + 32
		st.cand = st.cand[:0]
		st.early, st.done = false, false
	}
	panel := useAVX2 && m >= 4 // float64 panels built by tile4 and tile8
	s.g32 = 4
	if useAVX512 {
		s.g32 = 8
	}
	f32 := panel && useF32 && m >= s.g32 && ix.f32Able()
	// The int16 filter serves the 6-query tiles; the block is padded to
	// whole tiles with done slots (threshold -Inf, copies of the first
	// query), so that no 4-query tile needs the float32 panels.
	i16 := f32 && s.g32 == 4 && useI16 && ix.d <= i16MaxDim && (m+5)/6*6 <= s.qb
	if i16 {
		ix.buildPanels16()
		i16 = ix.i16ok
	}
	mp := m
	if i16 {
		mp = (m + 5) / 6 * 6
		for i := m; i < mp; i++ {
			s.slot = append(s.slot, i)
			copy(s.qbuf[i*d:(i+1)*d], s.qbuf[:d])
			s.qn = append(s.qn, s.qn[0])
			st := &s.st[i]
			for j := range st.best {
				st.best[j] = math.Inf(1)
			}
			st.thr, st.excl, st.cand = math.Inf(-1), -1, st.cand[:0]
			st.early, st.done = false, true
		}
	}
	if f32 {
		s.prepare32(mp)
	}
	if i16 {
		s.prepare16(mp)
	}
	if within != nil {
		s.bound(m, within[lo:hi])
	}
	live := m // slots 0..live-1 hold the queries not done
	for r0 := 0; r0 < ix.n && live > 0; r0 += s.rb {
		r1 := min(r0+s.rb, ix.n)
		// The tiles cover the live slots, rounded up to whole kernel
		// tiles with done queries (threshold -Inf: nothing offered).
		mt := mp
		if !panel {
			mt = live
		} else if live < m {
			switch {
			case useAVX512:
				mt = min(m, (live+7)/8*8)
			case f32:
				mt = min(mp, (live+5)/6*6)
			default:
				mt = min(m, (live+3)/4*4)
			}
		}
		i := 0
		if panel && useAVX512 {
			for ; i+8 <= mt; i += 8 {
				if f32 && s.group32(i, 8) {
					s.tile8f(i, r0, r1)
				} else {
					s.tile8(i, r0, r1)
				}
			}
		}
		if f32 && s.g32 == 4 {
			for ; i+6 <= mt && s.group32(i, 6); i += 6 {
				if i16 && s.use16(i) {
					s.tile6i(i, r0, r1)
				} else {
					s.tile6f(i, r0, r1)
				}
			}
		}
		if panel {
			for ; i+4 <= mt; i += 4 {
				if f32 && s.g32 == 4 && s.group32(i, 4) {
					s.tile4f(i, r0, r1)
				} else {
					s.tile4(i, r0, r1)
				}
			}
		}
		for ; i+3 <= mt; i += 3 {
			s.tile3(i, r0, r1)
		}
		for ; i < mt; i++ {
			s.tile1(i, r0, r1)
		}
		if within != nil {
			live = s.pack(live, f32, i16)
		}
	}
	for i := range m {
		s.finish(i, lo+s.slot[i], res)
	}
}

// group32 reports whether the float32 kernel may scan the w slots from i.
func (s *scanner) group32(i, w int) bool {
	for _, ok := range s.ok32[i : i+w] {
		if !ok {
			return false
		}
	}
	return true
}

// bound sets the early stop of the m queries of the block from their
// bounds (Euclidean distances). A reference r is certainly nearer than
// b = within[i] when its score s_r satisfies s_r + qn + 2·margin <
// b²·(1 - 2^-40): the score errs by at most margin/2, the query's norm and
// the direct distance b was computed from by less than margin/2 each, and
// the relative 2^-40 covers rounding b² (b from a square root).
func (s *scanner) bound(m int, within []float64) {
	d := s.ix.d
	for i := range m {
		st := &s.st[i]
		b := within[i]
		if math.IsNaN(b) || b <= 0 || math.IsInf(b, 1) {
			continue // nothing is nearer than 0; no bound
		}
		var qn float64
		for _, v := range s.qbuf[i*d : (i+1)*d] {
			qn += v * v
		}
		w := b * b
		if math.IsInf(w, 1) {
			continue
		}
		w -= w * 0x1p-40
		st.early, st.stop = true, w-qn-2*st.margin
	}
}

// pack moves the done queries among the first live slots behind the
// others and returns the number still live.
func (s *scanner) pack(live int, f32, i16 bool) int {
	d := s.ix.d
	for i := 0; i < live; {
		if !s.st[i].done {
			i++
			continue
		}
		live--
		if i == live {
			break
		}
		j := live
		s.st[i], s.st[j] = s.st[j], s.st[i]
		s.slot[i], s.slot[j] = s.slot[j], s.slot[i]
		s.qn[i], s.qn[j] = s.qn[j], s.qn[i]
		a, b := s.qbuf[i*d:(i+1)*d], s.qbuf[j*d:(j+1)*d]
		for t := range d {
			a[t], b[t] = b[t], a[t]
		}
		if f32 {
			s.ok32[i], s.ok32[j] = s.ok32[j], s.ok32[i]
			for _, buf := range [2][]float32{s.qbuf32, s.qbufm2} {
				a, b := buf[i*d:(i+1)*d], buf[j*d:(j+1)*d]
				for t := range d {
					a[t], b[t] = b[t], a[t]
				}
			}
		}
		if i16 {
			s.ok16[i], s.ok16[j] = s.ok16[j], s.ok16[i]
			s.qq16[i], s.qq16[j] = s.qq16[j], s.qq16[i]
			s.thr16[i], s.thr16[j] = s.thr16[j], s.thr16[i]
			s.lim16[i], s.lim16[j] = s.lim16[j], s.lim16[i]
			s.slk16[i], s.slk16[j] = s.slk16[j], s.slk16[i]
			w := 2 * s.ix.q16.dp
			a, b := s.qbuf16[i*w:(i+1)*w], s.qbuf16[j*w:(j+1)*w]
			for t := range w {
				a[t], b[t] = b[t], a[t]
			}
		}
	}
	return live
}

// useF32 enables the float32 filter where it applies, and useI16 the
// int16 filter in its place in the 6-query tiles (tests turn them off).
var useF32, useI16 = true, true

// prepare32 copies the m queries of the block to float32 (and times -2,
// exactly, for scan6x16f) and marks those
// whose values allow the float32 filter (ok32; the others' rows are zero),
// whose margins it widens to roundingBound32. A group of queries goes
// through the float32 kernel when all its queries allow it (group32).
func (s *scanner) prepare32(m int) {
	d := s.ix.d
	if cap(s.qbuf32) < m*d {
		s.qbuf32 = make([]float32, m*d)
		s.qbufm2 = make([]float32, m*d)
	}
	s.qbuf32, s.qbufm2 = s.qbuf32[:m*d], s.qbufm2[:m*d]
	s.ok32 = s.ok32[:0]
	for i := range m {
		row := s.qbuf[i*d : (i+1)*d]
		q32, m2 := s.qbuf32[i*d:(i+1)*d], s.qbufm2[i*d:(i+1)*d]
		ok := f32Range(row)
		s.ok32 = append(s.ok32, ok)
		if !ok {
			clear(q32)
			clear(m2)
			continue
		}
		var qn float64
		for t, v := range row {
			q32[t] = float32(v)
			m2[t] = -2 * q32[t] // exact: |v| <= 2^50
			qn += v * v
		}
		s.st[i].margin = 2 * s.ix.roundingBound32(qn)
	}
}

// finish decides query i of the block on direct distances.
func (s *scanner) finish(i, q int, res *Result) {
	ix, d, k := s.ix, s.ix.d, s.k
	st := &s.st[i]
	if st.done {
		for j := range k {
			res.Index[q*k+j] = -1
			res.Dist[q*k+j] = math.Inf(1)
		}
		return
	}
	st.compact()
	qr := s.qbuf[i*d : (i+1)*d]
	for j := range st.cand {
		p := st.cand[j].pos
		st.cand[j].s = sqDist(qr, ix.data[p*d:(p+1)*d])
	}
	slices.SortFunc(st.cand, func(a, b cand) int {
		if c := cmp.Compare(a.s, b.s); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	for j := range k {
		res.Index[q*k+j] = st.cand[j].pos
		res.Dist[q*k+j] = math.Sqrt(st.cand[j].s)
	}
}

// sqDist is the direct squared distance, summed in feature order; every
// answer is decided on it.
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for t := range a {
		x := a[t] - b[t]
		s += x * x
	}
	return s
}

// tile3 scans references r0..r1-1 for queries i..i+2 of the block.
func (s *scanner) tile3(i, r0, r1 int) {
	d := s.ix.d
	data, norms := s.ix.data, s.ix.norms
	q0 := s.qbuf[i*d : (i+1)*d]
	q1 := s.qbuf[(i+1)*d : (i+2)*d]
	q2 := s.qbuf[(i+2)*d : (i+3)*d]
	s0, s1, s2 := &s.st[i], &s.st[i+1], &s.st[i+2]
	t0, t1, t2 := s0.thr, s1.thr, s2.thr
	j := r0
	for ; j+2 <= r1; j += 2 {
		a0, b0, a1, b1, a2, b2 := dot3x2(q0, q1, q2, data[j*d:(j+1)*d], data[(j+1)*d:(j+2)*d])
		na, nb := norms[j], norms[j+1]
		if v := na - 2*a0; v <= t0 {
			t0 = s0.add(j, v)
		}
		if v := nb - 2*b0; v <= t0 {
			t0 = s0.add(j+1, v)
		}
		if v := na - 2*a1; v <= t1 {
			t1 = s1.add(j, v)
		}
		if v := nb - 2*b1; v <= t1 {
			t1 = s1.add(j+1, v)
		}
		if v := na - 2*a2; v <= t2 {
			t2 = s2.add(j, v)
		}
		if v := nb - 2*b2; v <= t2 {
			t2 = s2.add(j+1, v)
		}
	}
	if j < r1 {
		r := data[j*d : (j+1)*d]
		n := norms[j]
		if v := n - 2*dot(q0, r); v <= t0 {
			s0.add(j, v)
		}
		if v := n - 2*dot(q1, r); v <= t1 {
			s1.add(j, v)
		}
		if v := n - 2*dot(q2, r); v <= t2 {
			s2.add(j, v)
		}
	}
}

// tile1 scans references r0..r1-1 for query i of the block.
func (s *scanner) tile1(i, r0, r1 int) {
	d := s.ix.d
	q := s.qbuf[i*d : (i+1)*d]
	st := &s.st[i]
	t := st.thr
	for j := r0; j < r1; j++ {
		if v := s.ix.norms[j] - 2*dot(q, s.ix.data[j*d:(j+1)*d]); v <= t {
			t = st.add(j, v)
		}
	}
}

func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for t := range a {
		s += a[t] * b[t]
	}
	return s
}

// dot3x2 returns the dot products of three query rows with two reference
// rows. Six accumulators, two reference values and a product fit the 15
// registers Go's amd64 compiler allocates; a 4x2 tile spills and runs at
// half the speed.
func dot3x2(q0, q1, q2, ra, rb []float64) (a0, b0, a1, b1, a2, b2 float64) {
	n := len(ra)
	rb, q0, q1, q2 = rb[:n], q0[:n], q1[:n], q2[:n]
	for t := 0; t < n; t++ {
		x, y := ra[t], rb[t]
		a0 += q0[t] * x
		b0 += q0[t] * y
		a1 += q1[t] * x
		b1 += q1[t] * y
		a2 += q2[t] * x
		b2 += q2[t] * y
	}
	return
}
