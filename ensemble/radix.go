package ensemble

import "math"

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
// as scratch: a least-significant-digit radix sort on the scores' bits,
// 11 bits a pass, skipping the passes whose digit every score shares (the
// high digits of scores in [0, 1]). The counts of every digit are taken
// in one pass over the scores (a digit's counts do not depend on the
// order the passes leave), so each pass only moves the pairs. Equal scores
// keep their input order. Tuning sorts the validation scores once per
// candidate and lambda, where the comparison sort was most of its time.
func sortScored(pairs, tmp []scored) {
	const bits, buckets, digits = 11, 1 << 11, (64 + 10) / 11
	if len(pairs) < 256 {
		insertionSort(pairs)
		return
	}
	src, dst := pairs, tmp[:len(pairs)]
	var count [digits][buckets]int
	for _, p := range src {
		k := sortKey(p.s)
		for d := range digits {
			count[d][(k>>(d*bits))&(buckets-1)]++
		}
	}
	for d := range digits {
		shift := uint(d * bits)
		c := &count[d]
		if c[(sortKey(src[0].s)>>shift)&(buckets-1)] == len(src) {
			continue
		}
		sum := 0
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		for _, p := range src {
			b := (sortKey(p.s) >> shift) & (buckets - 1)
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
		for j := i; j > 0 && sortKey(pairs[j].s) < sortKey(pairs[j-1].s); j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
}
