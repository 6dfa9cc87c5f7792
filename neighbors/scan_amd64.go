//go:build amd64 && !purego

package neighbors

import "golang.org/x/sys/cpu"

// useAVX says whether the AVX2/FMA distance kernel runs.
var useAVX = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// scan8x4AVX scans n reference rows (a multiple of 4, row-major with d
// columns, from refs; their squared norms from norms) for 8 queries held
// transposed in qT (qT[t*8+i] is feature t of query i), 4 rows at a time:
// the expanded scores norm_r - 2 q·r, with the dot products by fused
// multiply-adds. It stops after the first group of 4 rows where some score
// is at most its query's threshold thr[i], writes that group's 32 scores
// to out (out[j*8+i]: row j of the group, query i) and returns the number
// of rows scanned and the mask of those scores (bit j*8+i); with no such
// group it returns n and 0.
//
//go:noescape
func scan8x4AVX(qT, refs, norms *float64, n, d int, thr, out *float64) (next int, mask uint64)

func scan8x4(qT, refs, norms *float64, n, d int, thr, out *float64) (int, uint64) {
	return scan8x4AVX(qT, refs, norms, n, d, thr, out)
}
