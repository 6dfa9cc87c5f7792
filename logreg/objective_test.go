package logreg

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
)

// testObjective is a random weighted problem of n rows and p features.
func testObjective(t testing.TB, n, p, workers int, intercept bool) *objective {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), uint64(p)))
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	s := make([]float64, n)
	for i := range n {
		for j := range p {
			x.Set(i, j, r.NormFloat64()*float64(j+1))
		}
		if r.Float64() < 0.2 {
			y[i] = 1
		}
		s[i] = 0.5 + r.Float64()
	}
	o, err := newObjective(context.Background(), x, nil, y, s, 0.7, intercept, workers)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestObjectiveDerivatives: the gradient and the Hessian equal central
// differences of the loss and of the gradient.
func TestObjectiveDerivatives(t *testing.T) {
	for _, intercept := range []bool{true, false} {
		o := testObjective(t, 103, 6, 1, intercept)
		theta := make([]float64, o.dim)
		for j := range theta {
			theta[j] = 0.3 * math.Sin(float64(j+1))
		}
		g := make([]float64, o.dim)
		o.Grad(g, theta)
		h := mat.NewSymDense(o.dim, nil)
		o.Hess(h, theta)
		const step = 1e-5
		for j := range theta {
			tp, tm := slices.Clone(theta), slices.Clone(theta)
			tp[j] += step
			tm[j] -= step
			if fd := (o.Func(tp) - o.Func(tm)) / (2 * step); math.Abs(fd-g[j]) > 1e-8 {
				t.Errorf("intercept %v: gradient[%d] = %v, central difference %v", intercept, j, g[j], fd)
			}
			gp, gm := make([]float64, o.dim), make([]float64, o.dim)
			o.Grad(gp, tp)
			o.Grad(gm, tm)
			for k := range theta {
				if fd := (gp[k] - gm[k]) / (2 * step); math.Abs(fd-h.At(j, k)) > 1e-8 {
					t.Errorf("intercept %v: Hessian[%d][%d] = %v, central difference %v", intercept, j, k, h.At(j, k), fd)
				}
			}
		}
	}
}

// TestObjectiveExtremeMargins: margins of +-1e4 give a finite loss (the
// margin itself for a wrong sign), a gradient of +-a_i and a zero
// curvature, not NaN or Inf.
func TestObjectiveExtremeMargins(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{1, 1})
	o, _ := newObjective(context.Background(), x, nil, []int{1, 0}, []float64{1, 1}, 1, false, 1)
	theta := []float64{1e4}
	// Row 1 (label 1) is right by 1e4, row 2 (label 0) wrong by 1e4.
	want := 0.5*1e4 + o.lambda/2*1e8
	if f := o.Func(theta); math.Abs(f-want) > 1e-9*want {
		t.Errorf("loss %v, want %v", f, want)
	}
	g := make([]float64, 1)
	o.Grad(g, theta)
	if want := 0.5 + o.lambda*1e4; math.Abs(g[0]-want) > 1e-12 {
		t.Errorf("gradient %v, want %v", g[0], want)
	}
	h := mat.NewSymDense(1, nil)
	o.Hess(h, theta)
	if h.At(0, 0) != o.lambda {
		t.Errorf("Hessian %v, want lambda %v", h.At(0, 0), o.lambda)
	}
}

// TestObjectiveWorkers: loss, gradient and Hessian are bit-identical for
// 1, 2, 3 and 8 workers, over sizes that exercise the blocks, chunks and
// bands.
func TestObjectiveWorkers(t *testing.T) {
	for _, sz := range [][2]int{{5, 1}, {300, 7}, {zBlock + 17, 13}, {2*hessChunk + 3, 40}} {
		var ref *objective
		var refF float64
		var refG []float64
		var refH *mat.SymDense
		for _, w := range []int{1, 2, 3, 8} {
			o := testObjective(t, sz[0], sz[1], w, true)
			theta := make([]float64, o.dim)
			for j := range theta {
				theta[j] = 0.1 * float64(j%5-2)
			}
			f := o.Func(theta)
			g := make([]float64, o.dim)
			o.Grad(g, theta)
			h := mat.NewSymDense(o.dim, nil)
			o.Hess(h, theta)
			if ref == nil {
				ref, refF, refG, refH = o, f, g, h
				continue
			}
			if math.Float64bits(f) != math.Float64bits(refF) || !slices.Equal(g, refG) || !slices.Equal(h.RawSymmetric().Data, refH.RawSymmetric().Data) {
				t.Errorf("%d x %d: %d workers give a different loss, gradient or Hessian than 1", sz[0], sz[1], w)
			}
		}
	}
}

func TestBandsOf(t *testing.T) {
	for _, tc := range []struct{ dim, parts int }{{1, 1}, {1, 4}, {10, 1}, {10, 2}, {10, 3}, {295, 2}, {295, 8}, {3, 8}} {
		b := bandsOf(tc.dim, tc.parts)
		if b[0] != 0 || b[len(b)-1] != tc.dim || len(b)-1 > max(1, min(tc.parts, tc.dim)) {
			t.Errorf("bandsOf(%d, %d) = %v", tc.dim, tc.parts, b)
		}
		for k := 1; k < len(b); k++ {
			if b[k] <= b[k-1] {
				t.Errorf("bandsOf(%d, %d) = %v: empty band", tc.dim, tc.parts, b)
			}
		}
	}
	// Two bands of a 295-row triangle split its area about in half.
	b := bandsOf(295, 2)
	top := 0.0
	for j := 0; j < b[1]; j++ {
		top += float64(295 - j)
	}
	if total := 295.0 * 296 / 2; math.Abs(top/total-0.5) > 0.01 {
		t.Errorf("bandsOf(295, 2) = %v: first band holds %.3f of the area", b, top/total)
	}
}

// BenchmarkObjective times one Hessian, one loss-and-gradient and the
// Cholesky factorisation Newton's method adds, at scene's size (1444
// training rows, 294 features), on one worker.
func BenchmarkObjective(b *testing.B) {
	g, err := synth.Generate(&synth.Settings{Samples: 1444, Features: 294, Informative: 8, Redundant: 4, Ratio: 20}, 1)
	if err != nil {
		b.Fatal(err)
	}
	s := make([]float64, len(g.Y))
	for i := range s {
		s[i] = 1
	}
	o, _ := newObjective(context.Background(), g.X, nil, g.Y, s, 1, true, 1)
	theta := make([]float64, o.dim)
	for j := range theta {
		theta[j] = 0.01 * float64(j%7)
	}
	h := mat.NewSymDense(o.dim, nil)
	grad := make([]float64, o.dim)
	b.Run("hessian", func(b *testing.B) {
		for b.Loop() {
			o.Hess(h, theta)
		}
	})
	b.Run("loss+gradient", func(b *testing.B) {
		for b.Loop() {
			o.cached = false
			o.Func(theta)
			o.Grad(grad, theta)
		}
	})
	b.Run("cholesky", func(b *testing.B) {
		o.Hess(h, theta)
		var c mat.Cholesky
		for b.Loop() {
			c.Factorize(h)
		}
	})
}

// TestFitMemoryCoversBuffers: the memory estimate covers the solver's
// buffers (the feature-major copy and the per-row vectors, plus the
// rows' class weights) and exceeds them by at most its fixed MB.
func TestFitMemoryCoversBuffers(t *testing.T) {
	for _, sh := range [][2]int{{1000, 3}, {4097, 20}, {10001, 7}} {
		n, p := sh[0], sh[1]
		x := mat.NewDense(n, p, nil)
		y := make([]int, n)
		s := make([]float64, n)
		for i := range n {
			y[i] = i % 2
			s[i] = 1
		}
		o, err := newObjective(context.Background(), x, nil, y, s, 1, true, 1)
		if err != nil {
			t.Fatal(err)
		}
		held := int64(8 * (len(o.xt) + len(o.y) + len(o.a) + len(o.z) + len(o.r) + len(o.d) + len(s)))
		est := (&Method{}).FitMemory(learn.Shape{Rows: n, Features: p})
		if est < held || est > held+2<<20 {
			t.Errorf("%d x %d: estimate %d bytes for %d bytes of buffers", n, p, est, held)
		}
	}
}
