package boost

import (
	"slices"

	"github.com/aer-go/aer/internal/par"
)

// Exclusive feature bundling (LightGBM's EFB, without conflicts).
//
// Building histograms costs rows x columns: every row adds its pair to
// one slot of every column. On wide tables of one-hot encoded text most
// of those additions go to one bin per feature (the value a row does not
// have), and the features of one text column are never non-default in
// the same row. Such mutually exclusive features share one histogram
// column: its code 0 means every feature of the bundle is at its default
// (most frequent) bin, and each feature's other codes have slots of
// their own. A 10-valued text column then costs one addition a row
// instead of ten.
//
// Split finding is unchanged: after a node's bundle histogram is built,
// expand writes every feature's histogram in the usual layout. A
// bundled feature's non-default slots are copied; its default slot is
// the column's total minus them (every row falls in exactly one slot of
// a column). That subtraction is the only difference from building the
// feature's histogram from its rows: the default slot may differ in the
// last bits, so bundling is used only where it saves at least a quarter
// of the columns (bundleMinSaving), and never on tables without
// exclusive sparse features (dense numeric tables train exactly as
// before).

// bundleCol describes one histogram column: one feature copied verbatim
// (def < 0), or a bundle of features.
type bundleCol struct {
	feats []bundleFeat
}

// bundleFeat is a feature's place in its column: its default code def
// (-1: the column is this feature alone, codes as they are) and the
// column code of its first non-default code. Its value codes other than
// def follow in order, then its missing code if the feature has missing
// values.
type bundleFeat struct {
	f, def, base int32
	miss         bool // the feature has missing values (and a code for them)
}

// Bundling limits: a feature is a candidate when at most half of the rows
// are off its default bin; a bundle holds at most 255 non-default codes
// (code 0 is every feature at its default); bundling is used when it
// saves at least a quarter of the columns.
const (
	bundleMaxCodes     = 255
	bundleMinSaving    = 4 // columns after bundling <= nf - nf/bundleMinSaving
	bundleMinFeatures  = 8
	bundleMaxTries     = 64 // bundles tried per feature before it opens a new one
	bundleMinCandidate = 2  // candidates needed to try at all
)

// bundleAuto lets tests turn bundling off to compare models.
var bundleAuto = true

// planBundles groups m's exclusive sparse features (from the column-major
// codes) and, if that saves enough columns, rewrites m.bins as the
// bundled columns' codes, row-major. missing[f] tells whether feature f
// has missing values.
func (m *matrix) planBundles(missing []bool, threads int) {
	n, nf := m.n, m.nf
	if !bundleAuto || nf < bundleMinFeatures || n == 0 {
		return
	}
	// Each feature's default (most frequent value code) and how many rows
	// are off it.
	def := make([]int32, nf)
	nnz := make([]int, nf)
	par.For(threads, nf, func(f int) {
		var cnt [256]int
		for _, c := range m.cols[f*n : (f+1)*n] {
			cnt[c]++
		}
		d := 0
		for c := 1; c < int(m.nb[f]); c++ {
			if cnt[c] > cnt[d] {
				d = c
			}
		}
		def[f], nnz[f] = int32(d), n-cnt[d]
	})
	codes := func(f int) int {
		k := int(m.nb[f]) - 1
		if missing[f] {
			k++
		}
		return k
	}
	var cand []int
	for f := range nf {
		if m.nb[f] > 0 && nnz[f] <= n/2 && codes(f) <= bundleMaxCodes {
			cand = append(cand, f)
		}
	}
	if len(cand) < bundleMinCandidate {
		return
	}
	slices.SortStableFunc(cand, func(a, b int) int { return nnz[b] - nnz[a] })
	type open struct {
		feats []int
		codes int
		used  []uint64 // rows off default in some feature of the bundle
	}
	var bundles []*open
	words := (n + 63) / 64
	for _, f := range cand {
		col := m.cols[f*n : (f+1)*n]
		d := uint8(def[f])
		placed := false
		for k := max(0, len(bundles)-bundleMaxTries); k < len(bundles) && !placed; k++ {
			b := bundles[k]
			if b.codes+codes(f) > bundleMaxCodes {
				continue
			}
			clash := false
			for i, c := range col {
				if c != d && b.used[i>>6]&(1<<(i&63)) != 0 {
					clash = true
					break
				}
			}
			if clash {
				continue
			}
			for i, c := range col {
				if c != d {
					b.used[i>>6] |= 1 << (i & 63)
				}
			}
			b.feats = append(b.feats, f)
			b.codes += codes(f)
			placed = true
		}
		if !placed {
			b := &open{feats: []int{f}, codes: codes(f), used: make([]uint64, words)}
			for i, c := range col {
				if c != d {
					b.used[i>>6] |= 1 << (i & 63)
				}
			}
			bundles = append(bundles, b)
		}
	}
	// Columns: every bundle of two or more features, and every other
	// feature alone, ordered by their lowest feature.
	inBundle := make([]bool, nf)
	var cols []bundleCol
	for _, b := range bundles {
		if len(b.feats) < 2 {
			continue
		}
		slices.Sort(b.feats)
		var c bundleCol
		base := int32(1)
		for _, f := range b.feats {
			inBundle[f] = true
			c.feats = append(c.feats, bundleFeat{f: int32(f), def: def[f], base: base, miss: missing[f]})
			base += int32(codes(f))
		}
		cols = append(cols, c)
	}
	for f := range nf {
		if !inBundle[f] {
			cols = append(cols, bundleCol{feats: []bundleFeat{{f: int32(f), def: -1}}})
		}
	}
	if len(cols) > nf-nf/bundleMinSaving {
		return
	}
	slices.SortFunc(cols, func(a, b bundleCol) int { return int(a.feats[0].f - b.feats[0].f) })
	B := len(cols)
	m.bundles = cols
	m.boff = make([]int32, B+1)
	for c, col := range cols {
		size := int32(1)
		if col.feats[0].def < 0 {
			size = m.nb[col.feats[0].f] + 1
		} else {
			for _, bf := range col.feats {
				size += int32(codes(int(bf.f)))
			}
		}
		m.boff[c+1] = m.boff[c] + size
	}
	m.bLen = int(m.boff[B])
	m.bcols = B
	// The codes, row-major, in the first n*B bytes of the row-major
	// buffer (read from the column-major copy, so overwriting is safe).
	bins := m.bins[:n*B]
	par.For(threads, (n+block-1)/block, func(bl int) {
		lo, hi := bl*block, min(n, (bl+1)*block)
		for c, col := range cols {
			if col.feats[0].def < 0 {
				src := m.cols[int(col.feats[0].f)*n:]
				for i := lo; i < hi; i++ {
					bins[i*B+c] = src[i]
				}
				continue
			}
			for i := lo; i < hi; i++ {
				bins[i*B+c] = 0
			}
			for _, bf := range col.feats {
				src := m.cols[int(bf.f)*n:]
				d, nbf := uint8(bf.def), uint8(m.nb[bf.f])
				for i := lo; i < hi; i++ {
					v := src[i]
					switch {
					case v == d:
					case v == nbf: // missing: after the value codes
						bins[i*B+c] = uint8(bf.base) + nbf - 1
					case v < d:
						bins[i*B+c] = uint8(bf.base) + v
					default:
						bins[i*B+c] = uint8(bf.base) + v - 1
					}
				}
			}
		}
	})
	m.bins = bins
}

// expand writes the feature histogram h (2*histLen) from the bundled
// column histogram bh (2*bLen); see the top of this file.
func (m *matrix) expand(h, bh []float64) {
	for c, col := range m.bundles {
		b := bh[2*m.boff[c] : 2*m.boff[c+1]]
		if col.feats[0].def < 0 {
			f := col.feats[0].f
			copy(h[2*m.off[f]:2*m.off[f+1]], b)
			continue
		}
		var tg, th float64
		for k := 0; k < len(b); k += 2 {
			tg += b[k]
			th += b[k+1]
		}
		for _, bf := range col.feats {
			f, d := bf.f, int(bf.def)
			nb := int(m.nb[f])
			hf := h[2*m.off[f] : 2*m.off[f+1]]
			src := b[2*bf.base:]
			var sg, sh float64
			k := 0
			for v := 0; v < nb; v++ {
				if v == d {
					continue
				}
				hf[2*v], hf[2*v+1] = src[2*k], src[2*k+1]
				sg += src[2*k]
				sh += src[2*k+1]
				k++
			}
			// The missing slot: its code when the feature has one.
			hf[2*nb], hf[2*nb+1] = 0, 0
			if bf.miss {
				hf[2*nb], hf[2*nb+1] = src[2*k], src[2*k+1]
				sg += src[2*k]
				sh += src[2*k+1]
			}
			hf[2*d], hf[2*d+1] = tg-sg, th-sh
		}
	}
}
