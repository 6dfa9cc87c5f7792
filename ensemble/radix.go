package ensemble

import "math"

// scored is a validation row's score and label in one word, half the
// bytes of a (float64, int) pair for the sort to move: the score's bits
// with bit 63 set (sortKey's order key for a score >= +0) and the label
// in bit 62, which every score in [+0, 2) leaves clear. Tuning's scores
// are in [0, 1] (finish); newScored checks the range.
type scored uint64

const (
	keyBit   = 1 << 63
	labelBit = 1 << 62
)

// newScored packs score s (in [+0, 2), not -0) and label y (0 or 1); a
// score out of range reports false.
func newScored(s float64, y int) (scored, bool) {
	u := math.Float64bits(s)
	if u>>62 != 0 || s >= 2 { // negative (-0 too), NaN, or 2 and above
		return 0, false
	}
	return scored(u | keyBit | uint64(y&1)<<62), true
}

// s returns the score.
func (p scored) s() float64 { return math.Float64frombits(uint64(p) &^ (keyBit | labelBit)) }

// y returns the label.
func (p scored) y() int { return int(p>>62) & 1 }

// key returns the order key: scores in increasing order are keys in
// increasing order, equal scores equal keys, whatever their labels.
func (p scored) key() uint64 { return uint64(p) &^ labelBit }

// sortKey maps a score to an unsigned integer with the same order
// (negative zero just below positive zero; scores are never NaN).
func sortKey(s float64) uint64 {
	u := math.Float64bits(s)
	if u>>63 == 1 {
		return ^u
	}
	return u | 1<<63
}

// sortScored sorts pairs by score, ascending, with tmp (as long as pairs)
// as scratch: a least-significant-digit radix sort on the scores' keys,
// a byte a pass (the counts, 16 KB, stay in L1, and each pass writes to
// 256 places: faster than fewer passes of 11 bits at 2M scores), skipping
// the passes whose digit every score shares (the high digits of scores in
// [0, 1]). The counts of every digit are taken
// in one pass over the scores (a digit's counts do not depend on the
// order the passes leave), so each pass only moves the pairs. Equal scores
// keep their input order. Tuning sorts the validation scores once per
// candidate and lambda, where the comparison sort was most of its time.
func sortScored(pairs, tmp []scored) {
	const bits, buckets, digits = 8, 1 << 8, 64 / 8
	if len(pairs) < 256 {
		insertionSort(pairs)
		return
	}
	src, dst := pairs, tmp[:len(pairs)]
	var count [digits][buckets]int
	for _, p := range src {
		k := p.key()
		for d := range digits {
			count[d][(k>>(d*bits))&(buckets-1)]++
		}
	}
	for d := range digits {
		shift := uint(d * bits)
		c := &count[d]
		if c[(src[0].key()>>shift)&(buckets-1)] == len(src) {
			continue
		}
		sum := 0
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		for _, p := range src {
			b := (p.key() >> shift) & (buckets - 1)
			dst[c[b]] = p
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &pairs[0] {
		copy(pairs, src)
	}
}

// insertionSort sorts a few pairs by score, stably.
func insertionSort(pairs []scored) {
	for i := 1; i < len(pairs); i++ {
		for j := i; j > 0 && pairs[j].key() < pairs[j-1].key(); j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
}
