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
// high digits of scores in [0, 1]). Equal scores keep their input order.
// Tuning sorts the validation scores once per candidate and lambda, where
// the comparison sort was most of its time.
func sortScored(pairs, tmp []scored) {
	const bits, buckets = 11, 1 << 11
	if len(pairs) < 256 {
		insertionSort(pairs)
		return
	}
	src, dst := pairs, tmp[:len(pairs)]
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(count[:])
		for _, p := range src {
			count[(sortKey(p.s)>>shift)&(buckets-1)]++
		}
		if count[(sortKey(src[0].s)>>shift)&(buckets-1)] == len(src) {
			continue
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, p := range src {
			d := (sortKey(p.s) >> shift) & (buckets - 1)
			dst[count[d]] = p
			count[d]++
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
