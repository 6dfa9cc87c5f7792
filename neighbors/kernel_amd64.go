//go:build amd64 && !purego

package neighbors

import "golang.org/x/sys/cpu"

// useAVX2 selects the panel scan in AVX2 assembly (scan4x8): AVX2 and
// FMA, with OS support (x/sys/cpu checks it). useAVX512 selects the
// 8-query AVX-512 kernel (scan8x8) too; its kernels zero registers with
// the 512-bit VXORPD/VXORPS of AVX512DQ, hence both flags. Tests turn them
// off to compare with the pure-Go scan.
var (
	useAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	useAVX512 = useAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
)

// scan4x8 is scanPanelsGo for 4 query rows in AVX2 assembly.
//
//go:noescape
func scan4x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[4]float64, out *[32]float64) (done int, hit bool)

// scan8x8 is scanPanelsGo for 8 query rows in AVX-512 assembly.
//
//go:noescape
func scan8x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[8]float64, out *[64]float64) (done int, hit bool)

// scan8x16f is scan8x8 in float32 over panels of 16 rows (panel32.go).
//
//go:noescape
func scan8x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[8]float32, out *[128]float32) (done int, hit bool)

// scan4x16f is scan8x16f for 4 query rows in AVX2 assembly (the float32
// filter on machines without AVX-512).
//
//go:noescape
func scan4x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[4]float32, out *[64]float32) (done int, hit bool)

// scan6x16f is scan4x16f for 6 query rows: 12 accumulators instead of 8.
//
//go:noescape
func scan6x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[6]float32, out *[96]float32) (done int, hit bool)

// scan6x16i is the int16 filter kernel (panel16.go): 6 query rows
// (times -2) against panels of 16 rows, in pairs of columns.
//
//go:noescape
func scan6x16i(q *int16, dp int, panels *int16, norms *int32, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (done int, hit bool)
