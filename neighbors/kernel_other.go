//go:build !amd64 || purego

package neighbors

// useAVX2 is false: no assembly on this platform or build, the scan runs
// in Go (tile3, tile1).
var useAVX2 = false

// scan4x8 is scan4x8Go (never called when useAVX2 is false; kept so both
// builds share the panel code).
func scan4x8(q *float64, d int, panels *float64, norms *float64, np int, thr *[4]float64, out *[32]float64) (done int, hit bool) {
	return scan4x8Go(q, d, panels, norms, np, thr, out)
}
