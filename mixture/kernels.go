package mixture

// Vector kernels of the E- and M-steps. On amd64 with AVX2 and FMA they
// run in assembly (kernels_amd64.s); elsewhere, and for short vectors, in
// the Go loops below. Either way a given machine always takes the same path
// for the same sizes, so results stay deterministic.

// minSIMD is the vector length from which the assembly kernels pay for
// their call overhead.
const minSIMD = 16

func dot4Go(w, z0, z1, z2, z3 []float64) (s0, s1, s2, s3 float64) {
	z0, z1, z2, z3 = z0[:len(w)], z1[:len(w)], z2[:len(w)], z3[:len(w)]
	for l, v := range w {
		s0 += v * z0[l]
		s1 += v * z1[l]
		s2 += v * z2[l]
		s3 += v * z3[l]
	}
	return
}

func axpy4Go(dst, y0, y1, y2, y3 []float64, a0, a1, a2, a3 float64) {
	y0, y1, y2, y3 = y0[:len(dst)], y1[:len(dst)], y2[:len(dst)], y3[:len(dst)]
	for j := range dst {
		dst[j] += a0*y0[j] + a1*y1[j] + a2*y2[j] + a3*y3[j]
	}
}

func axpyGo(dst, y []float64, a float64) {
	y = y[:len(dst)]
	for j := range dst {
		dst[j] += a * y[j]
	}
}

func wsqdiffGo(x, mu, p []float64) float64 {
	mu, p = mu[:len(x)], p[:len(x)]
	s := 0.0
	for j, v := range x {
		t := (v - mu[j]) * p[j]
		s += t * t
	}
	return s
}

func sqdiffGo(x, mu []float64) float64 {
	mu = mu[:len(x)]
	s := 0.0
	for j, v := range x {
		t := v - mu[j]
		s += t * t
	}
	return s
}

func wsqaccGo(dst, x, mu []float64, r float64) {
	x, mu = x[:len(dst)], mu[:len(dst)]
	for j := range dst {
		t := x[j] - mu[j]
		dst[j] += r * t * t
	}
}
