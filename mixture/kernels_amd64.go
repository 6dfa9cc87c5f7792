//go:build amd64 && !purego

package mixture

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

//go:noescape
func dot4AVX(w, z0, z1, z2, z3 *float64, n int) (s0, s1, s2, s3 float64)

//go:noescape
func axpy4AVX(dst, y0, y1, y2, y3 *float64, n int, a *[4]float64)

//go:noescape
func axpyAVX(dst, y *float64, n int, a float64)

//go:noescape
func wsqdiffAVX(x, mu, p *float64, n int) float64

//go:noescape
func sqdiffAVX(x, mu *float64, n int) float64

//go:noescape
func wsqaccAVX(dst, x, mu *float64, n int, r float64)

var useAVX = detectAVX2FMA()

func detectAVX2FMA() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&fma == 0 || ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

// SIMD reports whether the AVX2/FMA assembly kernels are in use.
func SIMD() bool { return useAVX }

func dot4(w, z0, z1, z2, z3 []float64) (s0, s1, s2, s3 float64) {
	n := len(w)
	if !useAVX || n < minSIMD {
		return dot4Go(w, z0, z1, z2, z3)
	}
	_, _, _, _ = z0[n-1], z1[n-1], z2[n-1], z3[n-1]
	return dot4AVX(&w[0], &z0[0], &z1[0], &z2[0], &z3[0], n)
}

func axpy4(dst, y0, y1, y2, y3 []float64, a0, a1, a2, a3 float64) {
	n := len(dst)
	if !useAVX || n < minSIMD {
		axpy4Go(dst, y0, y1, y2, y3, a0, a1, a2, a3)
		return
	}
	_, _, _, _ = y0[n-1], y1[n-1], y2[n-1], y3[n-1]
	a := [4]float64{a0, a1, a2, a3}
	axpy4AVX(&dst[0], &y0[0], &y1[0], &y2[0], &y3[0], n, &a)
}

func axpy(dst, y []float64, a float64) {
	n := len(dst)
	if !useAVX || n < minSIMD {
		axpyGo(dst, y, a)
		return
	}
	_ = y[n-1]
	axpyAVX(&dst[0], &y[0], n, a)
}

func wsqdiff(x, mu, p []float64) float64 {
	n := len(x)
	if !useAVX || n < minSIMD {
		return wsqdiffGo(x, mu, p)
	}
	_, _ = mu[n-1], p[n-1]
	return wsqdiffAVX(&x[0], &mu[0], &p[0], n)
}

func sqdiff(x, mu []float64) float64 {
	n := len(x)
	if !useAVX || n < minSIMD {
		return sqdiffGo(x, mu)
	}
	_ = mu[n-1]
	return sqdiffAVX(&x[0], &mu[0], n)
}

func wsqacc(dst, x, mu []float64, r float64) {
	n := len(dst)
	if !useAVX || n < minSIMD {
		wsqaccGo(dst, x, mu, r)
		return
	}
	_, _ = x[n-1], mu[n-1]
	wsqaccAVX(&dst[0], &x[0], &mu[0], n, r)
}
