package platt

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A row of weight 2 is the row twice; separable scores keep A finite.
func TestFit(t *testing.T) {
	f := []float64{-2, -1, -0.5, 0.3, 1, 2.5}
	y := []int{0, 0, 1, 0, 1, 1}
	w := []float64{1, 2, 1, 1, 1, 2}
	a, b := Fit(f, y, w, 4, 4)
	fd := []float64{-2, -1, -1, -0.5, 0.3, 1, 2.5, 2.5}
	yd := []int{0, 0, 0, 1, 0, 1, 1, 1}
	ad, bd := Fit(fd, yd, nil, 4, 4)
	if math.Abs(a-ad) > 1e-9 || math.Abs(b-bd) > 1e-9 {
		t.Errorf("weighted (%v, %v) != duplicated (%v, %v)", a, b, ad, bd)
	}
	if !(a < 0) {
		t.Errorf("A = %v: higher scores must mean higher probability (A < 0)", a)
	}
	a, b = Fit([]float64{-1, -0.5, 0.5, 1}, []int{0, 0, 1, 1}, nil, 2, 2)
	if math.IsInf(a, 0) || math.IsNaN(a) || math.IsNaN(b) || !(a < 0) {
		t.Errorf("separable scores: A %v, B %v", a, b)
	}
	// The smoothed targets keep P(1 | f) strictly inside (0, 1).
	if p := 1 / (1 + math.Exp(a*1+b)); !(p > 0.5 && p < 1) {
		t.Errorf("P(1 | 1) = %v", p)
	}
}

// refFit is Fit without the reuse of exp(-|z|) between the line search
// and the next Newton step: every exp computed where it is used.
func refFit(f []float64, y []int, w []float64, pos, neg float64) (a, b float64) {
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	hi, lo := (pos+1)/(pos+2), 1/(neg+2)
	t := make([]float64, len(f))
	for i, c := range y {
		t[i] = lo
		if c == 1 {
			t[i] = hi
		}
	}
	loss := func(a, b float64) float64 {
		v := 0.0
		for i, fi := range f {
			z := fi*a + b
			if z >= 0 {
				v += weight(i) * (t[i]*z + math.Log1p(math.Exp(-z)))
			} else {
				v += weight(i) * ((t[i]-1)*z + math.Log1p(math.Exp(z)))
			}
		}
		return v
	}
	a, b = 0, math.Log((neg+1)/(pos+1))
	fval := loss(a, b)
	for range 100 {
		h11, h22, h21, g1, g2 := 1e-12, 1e-12, 0.0, 0.0, 0.0
		for i, fi := range f {
			z := fi*a + b
			var p, q float64
			if z >= 0 {
				e := math.Exp(-z)
				p, q = e/(1+e), 1/(1+e)
			} else {
				e := math.Exp(z)
				p, q = 1/(1+e), e/(1+e)
			}
			wi := weight(i)
			d2 := wi * p * q
			h11 += fi * fi * d2
			h22 += d2
			h21 += fi * d2
			d1 := wi * (t[i] - p)
			g1 += fi * d1
			g2 += d1
		}
		if math.Abs(g1) < 1e-5 && math.Abs(g2) < 1e-5 {
			break
		}
		det := h11*h22 - h21*h21
		da := -(h22*g1 - h21*g2) / det
		db := -(-h21*g1 + h11*g2) / det
		gd := g1*da + g2*db
		step := 1.0
		for step >= 1e-10 {
			na, nb := a+step*da, b+step*db
			if nf := loss(na, nb); nf < fval+1e-4*step*gd {
				a, b, fval = na, nb, nf
				break
			}
			step /= 2
		}
		if step < 1e-10 {
			break
		}
	}
	return a, b
}

// TestFitExact: Fit is bit for bit the fit that computes every exp where
// it is used (refFit), on scores with overlapping, separable and
// weighted classes.
func TestFitExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 2 + r.IntN(400)
		f, y := make([]float64, n), make([]int, n)
		var w []float64
		if trial%3 == 0 {
			w = make([]float64, n)
		}
		sep := float64(trial%5) * 1.5
		pos, neg := 0.0, 0.0
		for i := range f {
			y[i] = r.IntN(2)
			f[i] = r.NormFloat64()*2 + sep*float64(2*y[i]-1)
			wi := 1.0
			if w != nil {
				wi = 0.5 + r.Float64()*3
				w[i] = wi
			}
			if y[i] == 1 {
				pos += wi
			} else {
				neg += wi
			}
		}
		a, b := Fit(f, y, w, pos, neg)
		ra, rb := refFit(f, y, w, pos, neg)
		if math.Float64bits(a) != math.Float64bits(ra) || math.Float64bits(b) != math.Float64bits(rb) {
			t.Fatalf("trial %d: (%v, %v), the reference (%v, %v)", trial, a, b, ra, rb)
		}
	}
}
