//go:build amd64 && !purego

package boost

import (
	"sync"
	"unsafe"
)

//go:noescape
func accumulateKernel(hist *float64, bins *uint8, nf int, off2 *int32, gp *gpair, w *float64, rows *int32, n int)

//go:noescape
func accumulateRange4(hist *float64, bins *uint8, nf int, off2 *int32, gp *gpair, w *float64, n int)

//go:noescape
func accumulateRange1(hist *float64, bins *uint8, nf int, off2 int, gp *gpair, w *float64, n int)

//go:noescape
func gatherRows(dst *uint8, bins *uint8, nf int, gdst *gpair, gp *gpair, wdst *float64, w *float64, rows *int32, n int)

// accumulate adds the gradient pairs of rows to hist (see accumulateGo).
// rows increase, as every node's rows do (the root's are in order and
// partition keeps the order), so rows that span len(rows) row numbers
// are consecutive: those (the root's) go to accumulateRange; the rows of
// other nodes, scattered over the matrix, to accumulateGather; with
// fewer features than those take (or useRange off), an assembly loop
// adds each row's pairs feature by feature.
func (g *grower) accumulate(hist []float64, rows []int32) {
	n, nf := len(rows), g.m.bcols
	if n == 0 || nf == 0 {
		return
	}
	_ = hist[2*g.m.bLen-1]
	switch {
	case useRange && nf >= 4 && int(rows[n-1])-int(rows[0]) == n-1:
		g.accumulateRange(hist, int(rows[0]), n)
	case useRange && nf >= 8:
		g.accumulateGather(hist, rows)
	default:
		accumulateKernel(unsafe.SliceData(hist), unsafe.SliceData(g.m.bins), nf,
			unsafe.SliceData(g.off2), unsafe.SliceData(g.gp), unsafe.SliceData(g.w), unsafe.SliceData(rows), n)
	}
}

// accumulateRange adds the pairs of rows lo..lo+n-1 to hist, rangeChunk
// rows at a time, four features at a time (accumulateRange4: their
// histograms fit in L1; all nf of them do not), then the last nf%4
// features one by one. A slot belongs to one feature, and within a
// feature the rows go in order, so every slot receives the same pairs in
// the same order as in accumulateGo: the sums are bit-identical.
func (g *grower) accumulateRange(hist []float64, lo, n int) {
	nf := g.m.bcols
	bins := g.m.bins[lo*nf : (lo+n)*nf]
	gp := g.gp[lo : lo+n]
	var w []float64
	if g.w != nil {
		w = g.w[lo : lo+n]
	}
	h := unsafe.SliceData(hist)
	for c := 0; c < n; c += rangeChunk {
		k := min(rangeChunk, n-c)
		var wc *float64
		if w != nil {
			wc = &w[c]
		}
		f := 0
		for ; f+4 <= nf; f += 4 {
			accumulateRange4(h, &bins[c*nf+f], nf, &g.off2[f], &gp[c], wc, k)
		}
		for ; f < nf; f++ {
			accumulateRange1(h, &bins[c*nf+f], nf, int(g.off2[f]), &gp[c], wc, k)
		}
	}
}

// gatherBuf holds rangeChunk gathered rows: codes, pairs, weights.
type gatherBuf struct {
	codes []uint8
	gp    []gpair
	w     []float64
}

var gatherPool sync.Pool

// accumulateGather adds the pairs of rows (nf >= 8) to hist: it gathers
// rangeChunk rows at a time, codes, pairs and weights, into a buffer in
// row order (prefetching the rows ahead: they are scattered over the
// matrix), then adds them as accumulateRange does. The buffer is the
// consecutive rows of accumulateRange, so the sums are bit-identical to
// accumulateGo's for the same reasons.
func (g *grower) accumulateGather(hist []float64, rows []int32) {
	nf := g.m.bcols
	gb, _ := gatherPool.Get().(*gatherBuf)
	if gb == nil || len(gb.codes) < rangeChunk*nf {
		gb = &gatherBuf{codes: make([]uint8, rangeChunk*nf), gp: make([]gpair, rangeChunk), w: make([]float64, rangeChunk)}
	}
	defer gatherPool.Put(gb)
	h := unsafe.SliceData(hist)
	var wc *float64
	if g.w != nil {
		wc = &gb.w[0]
	}
	for c := 0; c < len(rows); c += rangeChunk {
		k := min(rangeChunk, len(rows)-c)
		gatherRows(&gb.codes[0], unsafe.SliceData(g.m.bins), nf, &gb.gp[0], unsafe.SliceData(g.gp), wc, unsafe.SliceData(g.w), &rows[c], k)
		f := 0
		for ; f+4 <= nf; f += 4 {
			accumulateRange4(h, &gb.codes[f], nf, &g.off2[f], &gb.gp[0], wc, k)
		}
		for ; f < nf; f++ {
			accumulateRange1(h, &gb.codes[f], nf, int(g.off2[f]), &gb.gp[0], wc, k)
		}
	}
}
