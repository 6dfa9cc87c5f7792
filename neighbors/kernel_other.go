//go:build !amd64 || purego

package neighbors

import "unsafe"

// useAVX2 and useAVX512 are false: no assembly on this platform or build,
// the scan runs in Go (tile3, tile1). Tests may turn them on to run the
// panel scan with the Go kernels.
var useAVX2, useAVX512 = false, false

func scan4x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[4]float64, out *[32]float64) (done int, hit bool) {
	return scanPanelsGo(unsafe.Slice(q, 4*d), d, unsafe.Slice(panels, np*8*d), unsafe.Slice(norms, np*8), thr[:], out[:])
}

func scan8x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[8]float64, out *[64]float64) (done int, hit bool) {
	return scanPanelsGo(unsafe.Slice(q, 8*d), d, unsafe.Slice(panels, np*8*d), unsafe.Slice(norms, np*8), thr[:], out[:])
}

// scan8x16f, scan6x16f and scan4x16f are never called: the float32 filter needs the
// assembly.
func scan8x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[8]float32, out *[128]float32) (done int, hit bool) {
	panic("neighbors: scan8x16f without assembly")
}

func scan4x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[4]float32, out *[64]float32) (done int, hit bool) {
	panic("neighbors: scan4x16f without assembly")
}

func scan6x16f(q *float32, d int, panels *float32, norms *float32, np int, thr *[6]float32, out *[96]float32) (done int, hit bool) {
	panic("neighbors: scan6x16f without assembly")
}

// scan6x16i is scan6x16iGo; the scan reaches it only where tests turn the
// float32 filter on without the assembly.
func scan6x16i(q *int16, dp int, panels *int16, norms *int32, np int, lim *[6]int32, out *[96]int32, mask *[6]uint16) (done int, hit bool) {
	return scan6x16iGo(unsafe.Slice(q, 12*dp), dp, unsafe.Slice(panels, np*32*dp), unsafe.Slice(norms, np*16), lim, out, mask)
}
