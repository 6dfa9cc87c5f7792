package boost

import (
	"math"
	"slices"
)

// sketchRows is the number of rows sampled (by stride) to place quantile
// cuts when a feature has more distinct values than bins: sorting every
// value of a million-row column costs more than the rank error it saves.
const sketchRows = 1 << 18

// cutsFor returns the bin boundaries of one feature from its non-missing
// values v (with weights w, nil = 1; values of weight zero are ignored): value bin b holds the values x with
// cuts[b-1] <= x < cuts[b], so a split "x < cuts[b]" sends bins 0..b left.
// With at most maxBin distinct values every distinct value gets its own
// bin, as in XGBoost: cuts are the distinct values from the second on,
// closed by one value above the maximum. Otherwise the cuts are weighted
// quantiles. It also returns the value below every training value used as
// the threshold of a split that sends only missing values left.
func cutsFor(v, w []float64, maxBin int) (cuts []float64, minVal float64) {
	if len(v) == 0 {
		return nil, 0
	}
	type vw struct{ v, w float64 }
	var distinct []vw
	// Unweighted (the common case): sorting plain floats is faster. With
	// at most maxBin distinct values the weights place no cut either, so
	// weighted values sort as plain floats too (fewSorted).
	var s []float64
	if w == nil {
		s = radixSort(v)
	} else {
		s = fewSorted(v, w, maxBin)
	}
	if s != nil {
		nd := 0
		for i, x := range s {
			if i == 0 || x != s[i-1] {
				nd++
			}
		}
		distinct = make([]vw, 0, nd)
		for i, x := range s {
			if i == 0 || x != s[i-1] {
				distinct = append(distinct, vw{x, 1})
			} else {
				distinct[len(distinct)-1].w++
			}
		}
	} else {
		// Values of weight zero place no cut, as in XGBoost's sketch
		// (WQuantileSketch::Push): a row of weight zero is then no
		// different from an absent row.
		vals := make([]vw, 0, len(v))
		for i, x := range v {
			if w[i] != 0 {
				vals = append(vals, vw{x, w[i]})
			}
		}
		if len(vals) == 0 {
			return nil, 0
		}
		slices.SortFunc(vals, func(a, b vw) int {
			switch {
			case a.v < b.v:
				return -1
			case a.v > b.v:
				return 1
			}
			return 0
		})
		distinct = vals[:1]
		for _, x := range vals[1:] {
			if x.v == distinct[len(distinct)-1].v {
				distinct[len(distinct)-1].w += x.w
			} else {
				distinct = append(distinct, x)
			}
		}
	}
	lo, hi := distinct[0].v, distinct[len(distinct)-1].v
	minVal = lo - (math.Abs(lo) + 1e-5)
	last := hi + (math.Abs(hi) + 1e-5)
	if len(distinct) <= maxBin {
		cuts = make([]float64, 0, len(distinct))
		for _, d := range distinct[1:] {
			cuts = append(cuts, d.v)
		}
		return append(cuts, last), minVal
	}
	total := 0.0
	for _, d := range distinct {
		total += d.w
	}
	cuts = make([]float64, 0, maxBin)
	cum := 0.0 // weight of the values below distinct[i]
	k := 1
	for i, d := range distinct {
		if i > 0 && k < maxBin && cum >= float64(k)*total/float64(maxBin) {
			cuts = append(cuts, d.v)
			for k < maxBin && cum >= float64(k)*total/float64(maxBin) {
				k++
			}
		}
		cum += d.w
	}
	return append(cuts, last), minVal
}

// fewSorted returns the values of v of non-zero weight w, sorted as
// cutsFor sorts unweighted values, when they hold at most maxBin distinct
// values (every distinct value is then a cut, wherever the weights lie);
// nil when they hold more, or none, or when more than fewCutsRows values
// would make the wasted sort of a many-valued column too dear.
func fewSorted(v, w []float64, maxBin int) []float64 {
	if len(v) > fewCutsRows {
		return nil
	}
	pv := make([]float64, 0, len(v))
	for i, x := range v {
		if w[i] != 0 {
			pv = append(pv, x)
		}
	}
	if len(pv) == 0 {
		return nil
	}
	s := radixSort(pv)
	nd := 1
	for i := 1; i < len(s); i++ {
		if s[i] != s[i-1] {
			if nd++; nd > maxBin {
				return nil
			}
		}
	}
	return s
}

// fewCutsRows is the most values fewSorted sorts: beyond, a column of many
// distinct values (the common case of a large table) would be sorted
// twice. Tests set it to -1 to compare with the weighted sort.
var fewCutsRows = 4096

// binOf returns the value bin of x: the index of the first cut above x,
// the last bin for values beyond every cut.
func binOf(cuts []float64, x float64) int {
	// Branch-free upper bound over cuts[:len-1]: the number of those cuts
	// <= x, which is the first index whose cut is above x (cuts ascend), or
	// len-1 when there is none. The comparisons become flag-to-integer moves:
	// a search with branches mispredicts about every other step.
	n := len(cuts) - 1
	base := 0
	for n > 1 {
		half := n >> 1
		base += half * int(b2i(cuts[base+half] <= x))
		n -= half
	}
	if n == 1 && cuts[base] <= x {
		base++
	}
	return base
}

// cutTable is a feature's cuts but the last, padded with +Inf to 256
// entries: cuts come from at most 256 bins, so at least one entry is
// +Inf, and the number of entries <= x is binOf(cuts, x) for every x
// that is not NaN (no training value is infinite).
type cutTable [256]float64

func newCutTable(cuts []float64) *cutTable {
	var t cutTable
	k := copy(t[:], cuts[:max(0, len(cuts)-1)])
	for i := k; i < len(t); i++ {
		t[i] = math.Inf(1)
	}
	return &t
}

// bin4 returns binOf of x0..x3 (not NaN) in the cuts of t0..t3: four
// branch-free searches of eight fixed steps, interleaved so that their
// dependent loads overlap (one search alone waits on every load).
func bin4(t0, t1, t2, t3 *cutTable, x0, x1, x2, x3 float64) (c0, c1, c2, c3 int) {
	for s := 128; s > 0; s >>= 1 {
		c0 += s & -int(b2i(t0[(c0+s-1)&255] <= x0))
		c1 += s & -int(b2i(t1[(c1+s-1)&255] <= x1))
		c2 += s & -int(b2i(t2[(c2+s-1)&255] <= x2))
		c3 += s & -int(b2i(t3[(c3+s-1)&255] <= x3))
	}
	return c0, c1, c2, c3
}

// bin1 is bin4 for one value.
func bin1(t *cutTable, x float64) (c int) {
	for s := 128; s > 0; s >>= 1 {
		c += s & -int(b2i(t[(c+s-1)&255] <= x))
	}
	return c
}

// radixMin is the length from which radixSort sorts by radix: below it
// a pass's 2,048 counters cost more than the values (BenchmarkSortValues;
// an AER fit sorts every feature of every member's rows, a few hundred
// values each on the small tables).
var radixMin = 2048

// radixSort returns the values of v (none NaN) in ascending order: an LSD
// radix sort on the order-preserving integer image of each float64, 11
// bits a pass, several times faster than a comparison sort on the long
// columns binning meets. Shorter columns (radixMin) sort the same images
// by comparison, which orders them identically (-0 before +0 too).
func radixSort(v []float64) []float64 {
	const bits, buckets = 11, 1 << 11
	if len(v) == 0 {
		return nil
	}
	a := make([]uint64, len(v))
	for i, x := range v {
		u := math.Float64bits(x)
		if u>>63 == 1 {
			u = ^u
		} else {
			u |= 1 << 63
		}
		a[i] = u
	}
	if len(a) < radixMin {
		slices.Sort(a)
		return fromSortKeys(a)
	}
	b := make([]uint64, len(v))
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(count[:])
		for _, u := range a {
			count[(u>>shift)&(buckets-1)]++
		}
		if count[(a[0]>>shift)&(buckets-1)] == len(a) {
			continue // every key has this digit
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, u := range a {
			d := (u >> shift) & (buckets - 1)
			b[count[d]] = u
			count[d]++
		}
		a, b = b, a
	}
	return fromSortKeys(a)
}

// fromSortKeys returns the float64 values of radixSort's integer images.
func fromSortKeys(a []uint64) []float64 {
	out := make([]float64, len(a))
	for i, u := range a {
		if u>>63 == 1 {
			u &^= 1 << 63
		} else {
			u = ^u
		}
		out[i] = math.Float64frombits(u)
	}
	return out
}
