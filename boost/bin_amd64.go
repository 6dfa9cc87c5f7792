//go:build amd64 && !purego

package boost

import "unsafe"

//go:noescape
func binKernelAVX2(tab *float64, x *float64, xstride int, out *uint8, ostride int, nb *[4]int64, rows int)

// binRows4 sets out[r*ostride+j] for r < rows and j < 4 to the bin code
// of x[r*xstride+j] in feature table tabs[j] (nb[j] when NaN), as bin4
// does, and returns how many rows it did: a multiple of 4, the rest
// (fewer than 4) left to the caller. tabs are consecutive in memory.
func binRows4(tabs []cutTable, x []float64, xstride int, out []uint8, ostride int, nb *[4]int64, rows int) int {
	// The kernel needs AVX2 only; the check of the gradient kernel (AVX2
	// and FMA) is stricter and makes one switch for both.
	if !useAVX2Exp || rows < 4 {
		return 0
	}
	k := rows &^ 3
	_ = tabs[3]
	_ = x[(k-1)*xstride+3]
	_ = out[(k-1)*ostride+3]
	binKernelAVX2(&tabs[0][0], unsafe.SliceData(x), xstride, unsafe.SliceData(out), ostride, nb, k)
	return k
}
