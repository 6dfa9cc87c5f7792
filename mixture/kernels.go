package mixture

import "math"

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

func mahal8Go(W []float64, d, jrows int, xt, mu []float64, q *[8]float64) {
	var acc [8]float64
	for jg := 0; jg < jrows; jg += 4 {
		lmax := min(jg+4, d)
		for j := jg; j < jg+4; j++ {
			var s [8]float64
			if j < d {
				row := W[j*d : j*d+lmax]
				for l, w := range row {
					z := xt[l*8 : l*8+8]
					m := mu[l]
					for r := range s {
						s[r] += w * (z[r] - m)
					}
				}
			}
			for r := range acc {
				acc[r] += s[r] * s[r]
			}
		}
	}
	*q = acc
}

func syrk4x8Go(a, b []float64, stride, rows int, c []float64, cstride int) {
	var acc [4][8]float64
	for r := 0; r < rows; r++ {
		ar := a[r*stride : r*stride+4]
		br := b[r*stride : r*stride+8]
		for i, av := range ar {
			for j, bv := range br {
				acc[i][j] += av * bv
			}
		}
	}
	for i := range acc {
		for j := range acc[i] {
			c[i*cstride+j] += acc[i][j]
		}
	}
}

func diag8Go(xt, mu, p []float64, d int, q *[8]float64) {
	var acc [8]float64
	for l := 0; l < d; l++ {
		z := xt[l*8 : l*8+8]
		m, w := mu[l], p[l]
		for r := range acc {
			t := (z[r] - m) * w
			acc[r] += t * t
		}
	}
	*q = acc
}

// respRow turns the log densities a (one row, per component) into
// responsibilities in place, with the log weights, and returns the row's
// log-likelihood log sum_l w_l N_l (log-sum-exp, one exp per component).
func respRow(a, logw []float64) float64 {
	logw = logw[:len(a)]
	m := math.Inf(-1)
	for k, v := range a {
		if t := v + logw[k]; t > m {
			m = t
		}
	}
	if math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	s := 0.0
	for k, v := range a {
		e := math.Exp(v + logw[k] - m)
		a[k] = e
		s += e
	}
	inv := 1 / s
	for k := range a {
		a[k] *= inv
	}
	return m + math.Log(s)
}
