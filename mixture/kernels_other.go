//go:build !amd64 || purego

package mixture

func dot4(w, z0, z1, z2, z3 []float64) (s0, s1, s2, s3 float64) { return dot4Go(w, z0, z1, z2, z3) }
func axpy4(dst, y0, y1, y2, y3 []float64, a0, a1, a2, a3 float64) {
	axpy4Go(dst, y0, y1, y2, y3, a0, a1, a2, a3)
}
func axpy(dst, y []float64, a float64)       { axpyGo(dst, y, a) }
func wsqdiff(x, mu, p []float64) float64     { return wsqdiffGo(x, mu, p) }
func sqdiff(x, mu []float64) float64         { return sqdiffGo(x, mu) }
func wsqacc(dst, x, mu []float64, r float64) { wsqaccGo(dst, x, mu, r) }

// SIMD reports whether the assembly kernels are in use.
func SIMD() bool { return false }
