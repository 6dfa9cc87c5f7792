//go:build !amd64 || purego

package neighbors

// useAVX is false: the pure-Go tiles scan.
const useAVX = false

func scan8x4(qT, refs, norms *float64, n, d int, thr, out *float64) (int, uint64) {
	panic("neighbors: the AVX kernel is not built")
}
