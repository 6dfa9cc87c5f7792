//go:build amd64 && !purego

package mixture

import "golang.org/x/sys/cpu"

//go:noescape
func dot4AVX(w, z0, z1, z2, z3 *float64, n int) (s0, s1, s2, s3 float64)

//go:noescape
func axpyAVX(dst, y *float64, n int, a float64)

//go:noescape
func sqdiffAVX(x, mu *float64, n int) float64

// useAVX selects the assembly kernels: AVX, AVX2 and FMA, with OS
// support (x/sys/cpu checks it).
var useAVX = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

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

func axpy(dst, y []float64, a float64) {
	n := len(dst)
	if !useAVX || n < minSIMD {
		axpyGo(dst, y, a)
		return
	}
	_ = y[n-1]
	axpyAVX(&dst[0], &y[0], n, a)
}

func sqdiff(x, mu []float64) float64 {
	n := len(x)
	if !useAVX || n < minSIMD {
		return sqdiffGo(x, mu)
	}
	_ = mu[n-1]
	return sqdiffAVX(&x[0], &mu[0], n)
}

//go:noescape
func mahal8AVX(W *float64, d, jrows int, xt, mu *float64, q *[8]float64)

//go:noescape
func syrk4x8AVX(a, b *float64, stride, rows int, c *float64, cstride int)

// mahal8 computes, for 8 rows stored transposed in xt (xt[l*8+r]), the
// squared Mahalanobis distances |W (x_r - mu)|^2 into q. W has jrows rows
// (a multiple of 4, rows past d zero) of length d.
func mahal8(W []float64, d, jrows int, xt, mu []float64, q *[8]float64) {
	if !useAVX {
		mahal8Go(W, d, jrows, xt, mu, q)
		return
	}
	_, _, _ = W[jrows*d-1], xt[8*d-1], mu[d-1]
	mahal8AVX(&W[0], d, jrows, &xt[0], &mu[0], q)
}

// syrk4x8 adds sum_r a[r*stride+i]*b[r*stride+j] to c[i*cstride+j] for
// i < 4, j < 8.
func syrk4x8(a, b []float64, stride, rows int, c []float64, cstride int) {
	if !useAVX {
		syrk4x8Go(a, b, stride, rows, c, cstride)
		return
	}
	if rows == 0 {
		return
	}
	_, _, _, _ = a[(rows-1)*stride+3], b[(rows-1)*stride+7], c[3*cstride+7], c[0]
	syrk4x8AVX(&a[0], &b[0], stride, rows, &c[0], cstride)
}

//go:noescape
func diag8AVX(xt, mu, p *float64, d int, q *[8]float64)

// diag8 computes q[r] = sum_l ((xt[l*8+r] - mu[l]) p[l])^2 for 8 rows
// held transposed in xt.
func diag8(xt, mu, p []float64, d int, q *[8]float64) {
	if !useAVX {
		diag8Go(xt, mu, p, d, q)
		return
	}
	_, _, _ = xt[8*d-1], mu[d-1], p[d-1]
	diag8AVX(&xt[0], &mu[0], &p[0], d, q)
}

//go:noescape
func expAVX(x *float64, n int)

// expInPlace sets v[i] = exp(v[i]) for v[i] <= 709 (larger values are
// clamped; the callers pass values <= 0); values below -708 give 0.
func expInPlace(v []float64) {
	n := len(v) &^ 3
	if useAVX && n > 0 {
		expAVX(&v[0], n)
	} else {
		n = 0
	}
	expTail(v[n:])
}

//go:noescape
func dotAVX(x, y *float64, n int) float64

// dot returns sum_j x[j]*y[j].
func dot(x, y []float64) float64 {
	n := len(x)
	if !useAVX || n < minSIMD {
		return dotGo(x, y)
	}
	_ = y[n-1]
	return dotAVX(&x[0], &y[0], n)
}

//go:noescape
func lanesAxpyAVX(acc, xt, rt *float64, d, ng int)

//go:noescape
func lanesWsqAVX(acc, xt, rt, mu *float64, d, ng int)

// lanesAxpy adds sum_g rt[g*8+t]*xt[g*d*8+l*8+t] to acc[l*8+t]: ng groups
// of 8 rows held transposed, each row weighted.
func lanesAxpy(acc, xt, rt []float64, d, ng int) {
	if !useAVX || d == 0 || ng == 0 {
		lanesAxpyGo(acc, xt, rt, d, ng)
		return
	}
	_, _, _ = acc[8*d-1], xt[ng*8*d-1], rt[ng*8-1]
	lanesAxpyAVX(&acc[0], &xt[0], &rt[0], d, ng)
}

// lanesWsq adds sum_g rt[g*8+t]*(xt[g*d*8+l*8+t]-mu[l])^2 to acc[l*8+t].
func lanesWsq(acc, xt, rt, mu []float64, d, ng int) {
	if !useAVX || d == 0 || ng == 0 {
		lanesWsqGo(acc, xt, rt, mu, d, ng)
		return
	}
	_, _, _, _ = acc[8*d-1], xt[ng*8*d-1], rt[ng*8-1], mu[d-1]
	lanesWsqAVX(&acc[0], &xt[0], &rt[0], &mu[0], d, ng)
}

//go:noescape
func ediag6AVX(xs, xs2 *float64, d int, pt, bt *float64, out *[48]float64)

//go:noescape
func mdiag8AVX(xs, xs2 *float64, d, rows int, r, s1, s2 *float64)

// ediag6 sets out[t*8+l] = sum_j pt[j*8+l]*xs2[t*d+j] + bt[j*8+l]*xs[t*d+j]
// for 6 rows t and 8 components l.
func ediag6(xs, xs2 []float64, d int, pt, bt []float64, out *[48]float64) {
	if !useAVX || d == 0 {
		ediag6Go(xs, xs2, d, pt, bt, out)
		return
	}
	_, _, _, _ = xs[6*d-1], xs2[6*d-1], pt[8*d-1], bt[8*d-1]
	ediag6AVX(&xs[0], &xs2[0], d, &pt[0], &bt[0], out)
}

// mdiag8 adds sum_i r[i*8+l]*xs[i*d+j] to s1[j*8+l] and
// sum_i r[i*8+l]*xs2[i*d+j] to s2[j*8+l].
func mdiag8(xs, xs2 []float64, d, rows int, r, s1, s2 []float64) {
	if !useAVX || d == 0 || rows == 0 {
		mdiag8Go(xs, xs2, d, rows, r, s1, s2)
		return
	}
	_, _, _, _, _ = xs[rows*d-1], xs2[rows*d-1], r[rows*8-1], s1[8*d-1], s2[8*d-1]
	mdiag8AVX(&xs[0], &xs2[0], d, rows, &r[0], &s1[0], &s2[0])
}
