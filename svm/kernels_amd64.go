//go:build amd64 && !purego

package svm

import (
	"math"

	"golang.org/x/sys/cpu"
)

//go:noescape
func dotLanesAVX(xt *float64, nb, d int, v, out *float64)

//go:noescape
func dotLanes4AVX(xt *float64, nb, d int, v, out *float64, ostride int)

// dotLanes4 is dotLanes for the 4 rows v[r*d:(r+1)*d], into
// out[r*ostride:]: each block is loaded once for the 4.
func dotLanes4(xt []float64, nb, d int, v, out []float64, ostride int) {
	if !useAVX || nb == 0 || d == 0 {
		for r := range 4 {
			dotLanesGo(xt, nb, d, v[r*d:(r+1)*d], out[r*ostride:])
		}
		return
	}
	_, _, _ = xt[nb*d*lane-1], v[4*d-1], out[3*ostride+nb*lane-1]
	dotLanes4AVX(&xt[0], nb, d, &v[0], &out[0], ostride)
}

//go:noescape
func rbfRowAVX(s, sq, w *float64, n int, sqi, ng, mul float64)

//go:noescape
func rbfRow32AVX(s, sq *float64, out *float32, n int, sqi, ng float64)

// rbfRow32 sets out[t] = float32(exp(g * max(sqi + sq[t] - 2 s[t], 0)))
// for whole blocks of s.
func rbfRow32(s, sq []float64, out []float32, sqi, g float64) {
	n := len(s)
	if !useAVX || n == 0 {
		rbfRow32Go(s, sq, out, sqi, g)
		return
	}
	_, _ = sq[n-1], out[n-1]
	rbfRow32AVX(&s[0], &sq[0], &out[0], n, sqi, g)
}

// useAVX selects the assembly kernels: AVX, AVX2 and FMA, with OS
// support (x/sys/cpu checks it).
var useAVX = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// SIMD reports whether the AVX2/FMA assembly kernels are in use.
func SIMD() bool { return useAVX }

// dotLanes sets out[b*8+t] = sum_f v[f]*xt[(b*d+f)*8+t] for b < nb.
func dotLanes(xt []float64, nb, d int, v, out []float64) {
	if !useAVX || nb == 0 || d == 0 {
		dotLanesGo(xt, nb, d, v, out)
		return
	}
	_, _, _ = xt[nb*d*lane-1], v[d-1], out[nb*lane-1]
	dotLanesAVX(&xt[0], nb, d, &v[0], &out[0])
}

// rbfRow sets s[t] = exp(g * max(sqi + sq[t] - 2 s[t], 0)) * w[t] * mul
// for whole blocks of s; exponents below -708 give 0.
func rbfRow(s, sq, w []float64, sqi, g, mul float64) {
	n := len(s)
	if !useAVX || n == 0 {
		rbfRowGo(s, sq, w, sqi, g, mul)
		return
	}
	_, _ = sq[n-1], w[n-1]
	rbfRowAVX(&s[0], &sq[0], &w[0], n, sqi, g, mul)
}

//go:noescape
func maxViolatorAVX(f, pen *float64, n int, best, idx *[4]float64)

//go:noescape
func secondOrderAVX(f, pen, qd *float64, ki *float32, n int, gmax, qdi float64, best, idx, gmax2 *[4]float64)

//go:noescape
func updateGradientAVX(f *float64, ki, kj *float32, n int, a, b float64)

//go:noescape
func axpy32AVX(dst *float64, x *float32, n int, a float64)

// maxViolator is maxViolatorGo: four lanes in assembly, then the lanes
// merged (the largest value, the last index among equals) and the tail
// scanned in Go, which picks what the sequential scan picks.
func maxViolator(f, pen []float64) (float64, int) {
	n := len(f) &^ 3
	if !useAVX || n == 0 {
		return maxViolatorGo(f, pen)
	}
	_ = pen[len(f)-1]
	inf := math.Inf(-1)
	best, idx := [4]float64{inf, inf, inf, inf}, [4]float64{-1, -1, -1, -1}
	maxViolatorAVX(&f[0], &pen[0], n, &best, &idx)
	gmax, at := inf, -1.0
	for l := range 4 {
		if best[l] > gmax || best[l] == gmax && idx[l] > at {
			gmax, at = best[l], idx[l]
		}
	}
	t := int(at)
	for k := n; k < len(f); k++ {
		if v := -f[k] - pen[k]; v >= gmax {
			gmax, t = v, k
		}
	}
	if math.IsInf(gmax, -1) {
		return gmax, -1
	}
	return gmax, t
}

// secondOrder is secondOrderGo, four lanes in assembly merged as in
// maxViolator (the least value, the last index among equals).
func secondOrder(f, pen, qd []float64, ki []float32, gmax, qdi float64) (float64, int) {
	n := len(f) &^ 3
	if !useAVX || n == 0 {
		return secondOrderGo(f, pen, qd, ki, gmax, qdi)
	}
	_, _, _ = pen[len(f)-1], qd[len(f)-1], ki[len(f)-1]
	inf := math.Inf(1)
	best, idx, g2 := [4]float64{inf, inf, inf, inf}, [4]float64{-1, -1, -1, -1}, [4]float64{-inf, -inf, -inf, -inf}
	secondOrderAVX(&f[0], &pen[0], &qd[0], &ki[0], n, gmax, qdi, &best, &idx, &g2)
	gmax2, obj, at := -inf, inf, -1.0
	for l := range 4 {
		gmax2 = max(gmax2, g2[l])
		if idx[l] >= 0 && (best[l] < obj || best[l] == obj && idx[l] > at) {
			obj, at = best[l], idx[l]
		}
	}
	t := int(at)
	if n < len(f) {
		g, k := secondOrderGo(f[n:], pen[n:], qd[n:], ki[n:], gmax, qdi)
		gmax2 = max(gmax2, g)
		if k >= 0 {
			gd := gmax + f[n+k] - pen[n+k]
			quad := qdi + qd[n+k] - 2*float64(ki[n+k])
			if !(quad > 0) {
				quad = tau
			}
			if o := -(gd * gd) / quad; o <= obj {
				t = n + k
			}
		}
	}
	return gmax2, t
}

// updateGradient adds a ki + b kj to f (updateGradientGo).
func updateGradient(f []float64, ki, kj []float32, a, b float64) {
	n := len(f) &^ 7
	if useAVX && n > 0 {
		_, _ = ki[n-1], kj[n-1]
		updateGradientAVX(&f[0], &ki[0], &kj[0], n, a, b)
	} else {
		n = 0
	}
	updateGradientGo(f[n:], ki[n:len(f)], kj[n:len(f)], a, b)
}

// axpy32 adds a x to dst (axpy32Go).
func axpy32(dst []float64, x []float32, a float64) {
	n := len(dst) &^ 7
	if useAVX && n > 0 {
		_ = x[n-1]
		axpy32AVX(&dst[0], &x[0], n, a)
	} else {
		n = 0
	}
	axpy32Go(dst[n:], x[n:len(dst)], a)
}
