package neighbors

import (
	"math"
	"math/bits"
)

// The int16 filter: on AVX2 machines the 6-query tiles score the
// reference rows in 16-bit integers (scan6x16i), whose multiply-adds
// (VPMADDWD, two products a lane) run on more execution pipes than
// float32 fused multiply-adds. As with the float32 filter, the scores
// only decide which rows stay candidates; a row that passes is scored
// again in float64 (norms - 2 q·r, as tile1 does) before it is offered,
// so the answers are those of the float64 scan.
//
// Quantization: every value x of column t becomes the integer
// x_i = round((x - c_t)·s), with c_t the column's midrange and one scale
// s = 1/h for all columns, chosen so that |x_i| <= B. The bound on B makes
// every score exact in int32 (below). Queries take the same c and s; a
// query with a value outside [-B, B] after quantization goes through the
// float32 filter instead.
//
// The bound. Let v = fl(fl(x - c_t)·s), the value rounded to x_i, so
// |v - x_i| <= 1/2 and |v| < B + 1/2. v/s = (x - c_t)(1+α)(1+β) with
// |α|, |β| <= u = 2^-53, so |x - c_t - h·x_i| <= h/2 + 3u·|x - c_t| and,
// as |x - c_t| <= (B+1)·h·(1+3u) with B < 2^14, each coordinate is within
// (h/2)(1 + 2^-30) of h·x_i. A difference q_t - r_t is then within
// h(1 + 2^-30) of h(q_it - r_it), and by the triangle inequality over
// the d columns
//
//	h·||q_i - r_i|| <= ||q - r|| + h·(1 + 2^-30)·sqrt(d).
//
// A row r must stay a candidate when its float64 score s_r = ||r||² -
// 2 q·r is at most the query's threshold thr. That score is within δ =
// roundingBound(qn) of the exact ||r||² - 2 q·r, and the computed squared
// norm qn of the query within δ of the exact one, so such a row has
// ||q - r||² <= thr + qn + 2δ; the filter takes Dt = thr + qn + 3δ,
// whose extra δ covers the rounding of that sum (|thr| <= 3(qn+maxNrm)
// and δ >= 8(d+2)u(qn+maxNrm)). Hence every such row has
//
//	||q_i - r_i||² <= X = (sqrt(Dt)·s + (1 + 2^-30)·sqrt(d))²
//
// and its integer score S = ||r_i||² - 2 q_i·r_i = ||q_i - r_i||² -
// ||q_i||² is at most floor(X) - ||q_i||²: the kernel passes a row when
// S < lim = floor(X) - ||q_i||² + 1. X is computed in float64 and
// enlarged by a relative 2^-40, far more than the few roundings of its
// computation (lim16).
//
// Exactness: |q_i|, |r_i| <= B give -d·B² <= S <= 3·d·B² < 2^31 - 1, so
// the kernel's wrapping int32 sums (which start at the int32 norm ||r_i||²
// and add the products of -2q_i and r_i, each pair summed by VPMADDWD)
// end at the exact S; -2q_i fits int16 as B <= 16383. Padding rows have
// norm MaxInt32 and zero values: their score MaxInt32 never passes (lim
// is at most MaxInt32).
//
// The filter pays where h·sqrt(d) is small beside the query's current
// distance sqrt(Dt) (slack16); use16 keeps a tile on the float32 filter
// otherwise (a column with far outliers, duplicates at distance 0), which
// changes the speed and never the answer.

// i16MaxDim is the largest d the int16 filter serves: beyond it the step
// h·sqrt(d) grows past the distances that matter (B shrinks as 1/sqrt(d)).
const i16MaxDim = 64

// i16Bound returns B, the largest magnitude of a quantized value for d
// columns: 3·d·B² < 2^31 - 1 and 2B <= 32767.
func i16Bound(d int) int {
	b := int(math.Sqrt(float64(math.MaxInt32-1) / float64(3*d)))
	for 3*d*b*b >= math.MaxInt32-1 {
		b--
	}
	return min(b, 16383)
}

// quant16 is the int16 quantization of an index.
type quant16 struct {
	c  []float64 // column centres
	s  float64   // scale 1/h
	b  float64   // bound B on |x_i|
	e  float64   // (1 + 2^-30)·sqrt(d)
	f  float64   // slack16's factor, 2/(2^(1/d) - 1)
	dp int       // column pairs, (d+1)/2
}

// quantize writes the quantized row (times mul: 1 or -2) to dst (2·dp
// values, the last one 0 when d is odd) and returns ||x_i||², or false
// when a value falls outside [-B, B] (or is not finite).
func (qz *quant16) quantize(row []float64, mul int, dst []int16) (int64, bool) {
	var nrm int64
	for t, x := range row {
		v := math.Round((x - qz.c[t]) * qz.s)
		if !(math.Abs(v) <= qz.b) {
			return 0, false
		}
		xi := int64(v)
		nrm += xi * xi
		dst[t] = int16(xi * int64(mul))
	}
	if len(row)%2 == 1 {
		dst[len(row)] = 0
	}
	return nrm, true
}

// buildPanels16 fills ix.panels16, ix.pnorms16 and ix.q16, or leaves
// ix.i16ok false. Panel p holds rows 16p..16p+15, column pair t of them at
// panels16[(p*dp+t)*32:][:32], row b's two values at 2b and 2b+1.
func (ix *Index) buildPanels16() {
	ix.panel16Once.Do(func() {
		n, d := ix.n, ix.d
		if d > i16MaxDim || n == 0 || !ix.f32Able() {
			return
		}
		lo := make([]float64, d)
		hi := make([]float64, d)
		copy(lo, ix.data[:d])
		copy(hi, ix.data[:d])
		for r := 1; r < n; r++ {
			for t, v := range ix.data[r*d : (r+1)*d] {
				lo[t] = min(lo[t], v)
				hi[t] = max(hi[t], v)
			}
		}
		B := i16Bound(d)
		qz := &quant16{c: make([]float64, d), b: float64(B), e: (1 + 0x1p-30) * math.Sqrt(float64(d)), dp: (d + 1) / 2}
		qz.f = 2 / (math.Exp2(1/float64(d)) - 1)
		var half float64
		for t := range d {
			qz.c[t] = lo[t]/2 + hi[t]/2
			half = max(half, hi[t]/2-lo[t]/2)
		}
		qz.s = 1
		if half > 0 {
			// A little under B/half, so the rounding of the centres and
			// of the scaling keeps every value within [-B, B] (checked).
			qz.s = float64(B) / half * (1 - 0x1p-20)
		}
		dp := qz.dp
		np := (n + 15) / 16
		pan := make([]int16, np*32*dp)
		nrm := make([]int32, np*16)
		row := make([]int16, 2*dp)
		for p := range np {
			for b := range 16 {
				r := p*16 + b
				if r >= n {
					nrm[p*16+b] = math.MaxInt32
					continue
				}
				rn, ok := qz.quantize(ix.data[r*d:(r+1)*d], 1, row)
				if !ok {
					return
				}
				nrm[p*16+b] = int32(rn)
				for t := range dp {
					pan[(p*dp+t)*32+2*b] = row[2*t]
					pan[(p*dp+t)*32+2*b+1] = row[2*t+1]
				}
			}
		}
		ix.panels16, ix.pnorms16, ix.q16, ix.i16ok = pan, nrm, qz, true
	})
}

// lim16 returns the kernel's limit for a query whose float64 threshold
// is thr, computed squared norm qn and quantized squared norm qq: every
// row whose float64 score could be at most thr has an int16 score below
// it (see the bound above).
func (ix *Index) lim16(thr, qn float64, qq int64) int32 {
	if math.IsInf(thr, 1) {
		return math.MaxInt32
	}
	dt := thr + qn + 3*ix.roundingBound(qn)
	if !(dt >= 0) {
		return math.MinInt32 // no row is that near (or thr is -Inf)
	}
	a := math.Sqrt(dt)*ix.q16.s + ix.q16.e
	x := a * a * (1 + 0x1p-40)
	l := math.Floor(x) - float64(qq) + 1
	if l >= math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(l)
}

// slack16 reports whether the int16 filter is worth its while for a
// query with threshold thr and computed squared norm qn. It passes every
// row within sqrt(Dt) + 2e of the query, e = h·(1+2^-30)·sqrt(d) its
// step, where the float64 scores would pass those within sqrt(Dt); rows
// that pass cost a float64 score each, so the filter serves while
// (1 + 2e/sqrt(Dt))^d <= 2, i.e. at most about twice the rows pass in
// evenly spread data (or the threshold is infinite, or below any
// distance). The factor q16.f = 2/(2^(1/d) - 1) puts it as
// f·e <= sqrt(Dt).
func (ix *Index) slack16(thr, qn float64) bool {
	if math.IsInf(thr, 0) {
		return true
	}
	dt := thr + qn + 3*ix.roundingBound(qn)
	if !(dt >= 0) {
		return true
	}
	return ix.q16.f*ix.q16.e <= math.Sqrt(dt)*ix.q16.s
}

// use16 reports whether the 6 slots from i go through the int16 filter:
// all their queries quantize and none has a threshold too near for it.
func (s *scanner) use16(i int) bool {
	for a := i; a < i+6; a++ {
		if !s.ok16[a] {
			return false
		}
		if _, ok := s.limit16(a); !ok {
			return false
		}
	}
	return true
}

// limit16 returns lim16 and slack16 for slot i, which it recomputes only
// when the slot's threshold has changed since they were last computed
// (most reference blocks change no threshold). A query's threshold only
// falls during a scan, so a stale limit would only pass more rows.
func (s *scanner) limit16(i int) (int32, bool) {
	st := &s.st[i]
	if st.thr != s.thr16[i] { // NaN (no cached value) never equal
		s.thr16[i] = st.thr
		s.lim16[i] = s.ix.lim16(st.thr, s.qn[i], s.qq16[i])
		s.slk16[i] = s.ix.slack16(st.thr, s.qn[i])
	}
	return s.lim16[i], s.slk16[i]
}

// prepare16 quantizes the m queries of the block (times -2) into
// s.qbuf16 and marks those within the index's range (ok16); their float64
// squared norms are in s.qn.
func (s *scanner) prepare16(m int) {
	ix, d := s.ix, s.ix.d
	w := 2 * ix.q16.dp
	if cap(s.qbuf16) < m*w {
		s.qbuf16 = make([]int16, m*w)
	}
	s.qbuf16 = s.qbuf16[:m*w]
	s.ok16, s.qq16 = s.ok16[:0], s.qq16[:0]
	s.thr16, s.lim16, s.slk16 = s.thr16[:0], s.lim16[:0], s.slk16[:0]
	for i := range m {
		s.thr16 = append(s.thr16, math.NaN())
		s.lim16 = append(s.lim16, 0)
		s.slk16 = append(s.slk16, false)
		dst := s.qbuf16[i*w : (i+1)*w]
		qq, ok := ix.q16.quantize(s.qbuf[i*d:(i+1)*d], -2, dst)
		if !ok {
			clear(dst)
		}
		s.ok16 = append(s.ok16, ok)
		s.qq16 = append(s.qq16, qq)
	}
}

// kern6x16i is the kernel tile6i calls (tests swap in scan6x16iGo).
var kern6x16i = scan6x16i

// tile6i scans references r0..r1-1 (r0 a multiple of 16, r1 too unless
// it is the last row) for queries i..i+5 of the block with the int16
// kernel; a row that passes is offered with its float64 score.
func (s *scanner) tile6i(i, r0, r1 int) {
	ix, dp := s.ix, s.ix.q16.dp
	for a := range 6 {
		s.lim6i[a], _ = s.limit16(i + a)
	}
	q := &s.qbuf16[i*2*dp]
	p, p1 := r0/16, (r1+15)/16
	for p < p1 {
		done, hit := kern6x16i(q, dp, &ix.panels16[p*32*dp], &ix.pnorms16[p*16], p1-p, &s.lim6i, &s.out6i, &s.mask6i)
		p += done
		if !hit {
			return
		}
		s.offer16(i, (p-1)*16)
	}
}

// offer16 offers to queries i..i+5 the rows base+b of the panel the
// int16 kernel stopped at whose scores passed (the kernel's masks),
// scored in float64 (norms - 2 q·r, the dot product by dot4), and updates
// their limits. A row that passed the limit of the panel's start passes
// any lowered since: the float64 test decides.
func (s *scanner) offer16(i, base int) {
	ix, d := s.ix, s.ix.d
	for a := range 6 {
		st := &s.st[i+a]
		q := s.qbuf[(i+a)*d : (i+a+1)*d]
		for m := s.mask6i[a]; m != 0; m &= m - 1 {
			r := base + bits.TrailingZeros16(m)
			if v := ix.norms[r] - 2*dot4(q, ix.data[r*d:(r+1)*d]); v <= st.thr {
				st.add(r, v)
				s.lim6i[a], _ = s.limit16(i + a)
			}
		}
	}
}

// scan6x16iGo is scan6x16i in Go, operation for operation (Go's int32
// arithmetic wraps like VPMADDWD and VPADDD): for the 6 query rows of q
// (2·dp values each) it scans the panels (norms their 16 norms each) and
// stops after the first panel where some score is below the query's
// lim[a], whose scores it leaves in out[a*16+b] and whether they passed
// in bit b of mask[a]; it returns the panels done and whether it stopped.
func scan6x16iGo(q []int16, dp int, panels []int16, norms []int32, lim *[6]int32, out *[96]int32, mask *[6]uint16) (int, bool) {
	np := len(norms) / 16
	for p := range np {
		hit := false
		var m [6]uint16
		for a := range 6 {
			qa := q[a*2*dp : (a+1)*2*dp]
			for b := range 16 {
				acc := norms[p*16+b]
				for t := range dp {
					x := panels[(p*dp+t)*32+2*b:]
					acc += int32(qa[2*t])*int32(x[0]) + int32(qa[2*t+1])*int32(x[1])
				}
				out[a*16+b] = acc
				if acc < lim[a] {
					hit = true
					m[a] |= 1 << b
				}
			}
		}
		if hit {
			*mask = m
			return p + 1, true
		}
	}
	return np, false
}

// dot4 is dot with four partial sums (columns t mod 4), which shortens
// the chain of dependent additions fourfold. Its error is within the
// bound roundingBound takes for dot, d·u·Σ|q_t r_t|, which holds for any
// order of the additions.
func dot4(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	t := 0
	for ; t+4 <= len(a); t += 4 {
		s0 += a[t] * b[t]
		s1 += a[t+1] * b[t+1]
		s2 += a[t+2] * b[t+2]
		s3 += a[t+3] * b[t+3]
	}
	for ; t < len(a); t++ {
		s0 += a[t] * b[t]
	}
	return (s0 + s1) + (s2 + s3)
}
