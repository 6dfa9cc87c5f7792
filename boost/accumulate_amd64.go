//go:build amd64 && !purego

package boost

import "unsafe"

//go:noescape
func accumulateKernel(hist *float64, bins *uint8, nf int, off2 *int32, gp *gpair, w *float64, rows *int32, n int)

// accumulate adds the gradient pairs of rows to hist (see accumulateGo);
// on amd64 an assembly loop adds each pair with one packed instruction.
func (g *grower) accumulate(hist []float64, rows []int32) {
	if len(rows) == 0 || g.m.nf == 0 {
		return
	}
	_ = hist[2*g.m.histLen-1]
	accumulateKernel(unsafe.SliceData(hist), unsafe.SliceData(g.m.bins), g.m.nf,
		unsafe.SliceData(g.off2), unsafe.SliceData(g.gp), unsafe.SliceData(g.w), unsafe.SliceData(rows), len(rows))
}
