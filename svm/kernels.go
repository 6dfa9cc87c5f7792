package svm

import "math"

// Vector kernels of the kernel-column computation. On amd64 with AVX2 and
// FMA the dot products and the exponential run in assembly
// (kernels_amd64.s); elsewhere, and with the purego build tag, in the Go
// loops below. A dot product is the same sequence of fused multiply-adds
// on either path, lane by lane, so a kernel value does not depend on
// where in a block its row sits or on which goroutine computed it.

// lane is the number of rows a block of the lanes layout holds.
const lane = 8

// dotLanesGo sets out[b*8+t] = sum_f v[f]*xt[(b*d+f)*8+t] for the nb
// blocks of xt, one fused multiply-add per term in feature order.
func dotLanesGo(xt []float64, nb, d int, v, out []float64) {
	v = v[:d]
	for b := range nb {
		blk := xt[b*d*lane : (b+1)*d*lane]
		var acc [lane]float64
		for f, vf := range v {
			row := blk[f*lane : f*lane+lane]
			for t := range lane {
				acc[t] = math.FMA(vf, row[t], acc[t])
			}
		}
		copy(out[b*lane:b*lane+lane], acc[:])
	}
}

// rbfRowGo sets s[t] = exp(g * max(sqi + sq[t] - 2 s[t], 0)) * w[t] * mul
// (0 for exponents below -708, as the assembly).
func rbfRowGo(s, sq, w []float64, sqi, g, mul float64) {
	sq, w = sq[:len(s)], w[:len(s)]
	for t, dot := range s {
		s[t] = rbf(sqi, sq[t], dot, g) * w[t] * mul
	}
}

// rbfRow32Go sets out[t] = float32(exp(g * max(sqi + sq[t] - 2 s[t], 0)))
// (0 for exponents below -708).
func rbfRow32Go(s, sq []float64, out []float32, sqi, g float64) {
	sq, out = sq[:len(s)], out[:len(s)]
	for t, dot := range s {
		out[t] = float32(rbf(sqi, sq[t], dot, g))
	}
}

// rbf is exp(g * max(sqi + sqt - 2 dot, 0)), 0 for exponents below -708
// (as the assembly): the kernel of rows of squared norms sqi and sqt and
// dot product dot.
func rbf(sqi, sqt, dot, g float64) float64 {
	d2 := sqi + sqt - 2*dot
	if d2 < 0 {
		d2 = 0
	}
	if a := g * d2; a >= -708 {
		return math.Exp(a)
	}
	return 0
}

// sqNorm returns sum_f x[f]^2 with the fused multiply-adds of a dot
// product, so that the squared distance of a row to itself is exactly 0.
func sqNorm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s = math.FMA(v, v, s)
	}
	return s
}
