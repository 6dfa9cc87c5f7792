package mixture

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aer-go/aer/internal/par"
	"gonum.org/v1/gonum/mat"
)

// TestDiagKernels checks ediag6 and mdiag8 (assembly where available)
// against the Go loops and a direct sum.
func TestDiagKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vec := func(n int) []float64 { return normalVec(r, n) }
	close := nearRel
	for d := 1; d <= 23; d++ {
		xs, xs2, pt, bt := vec(6*d), vec(6*d), vec(8*d), vec(8*d)
		var q, g [48]float64
		ediag6(xs, xs2, d, pt, bt, &q)
		ediag6Go(xs, xs2, d, pt, bt, &g)
		for t4 := 0; t4 < 6; t4++ {
			for l := 0; l < 8; l++ {
				want := 0.0
				for j := 0; j < d; j++ {
					want += pt[j*8+l]*xs2[t4*d+j] + bt[j*8+l]*xs[t4*d+j]
				}
				if i := t4*8 + l; !close(q[i], want) || !close(g[i], want) {
					t.Fatalf("ediag6 d=%d row %d comp %d: %v, Go %v, want %v", d, t4, l, q[i], g[i], want)
				}
			}
		}
		for _, rows := range []int{1, 2, 7, 30} {
			xs, xs2, rr := vec(rows*d), vec(rows*d), vec(rows*8)
			s1, s2 := vec(8*d), vec(8*d)
			g1, g2 := append([]float64(nil), s1...), append([]float64(nil), s2...)
			w1, w2 := append([]float64(nil), s1...), append([]float64(nil), s2...)
			mdiag8(xs, xs2, d, rows, rr, s1, s2)
			mdiag8Go(xs, xs2, d, rows, rr, g1, g2)
			for i := 0; i < rows; i++ {
				for j := 0; j < d; j++ {
					for l := 0; l < 8; l++ {
						w1[j*8+l] += rr[i*8+l] * xs[i*d+j]
						w2[j*8+l] += rr[i*8+l] * xs2[i*d+j]
					}
				}
			}
			for i := range s1 {
				if !close(s1[i], w1[i]) || !close(g1[i], w1[i]) || !close(s2[i], w2[i]) || !close(g2[i], w2[i]) {
					t.Fatalf("mdiag8 d=%d rows=%d %d: %v %v, Go %v %v, want %v %v", d, rows, i, s1[i], s2[i], g1[i], g2[i], w1[i], w2[i])
				}
			}
		}
	}
}

// TestDiagFastMatchesExact compares one fast Diag EM iteration (centred
// expansion, one-pass variances) with the exact per-component path, on
// data far from the origin and with a constant feature. With an indicator
// scale, feature 5 (many: every third feature) is a 0/scale indicator
// nearly constant within components: at scale 1 its one-pass variances
// cancel and are recomputed about the means; at scale 1000 the expansion
// would cancel too, so its pairs are computed exactly beside it, and with
// many such features the iteration takes the exact path.
func TestDiagFastMatchesExact(t *testing.T) {
	for _, c := range []struct {
		scale float64
		many  bool
	}{{0, false}, {1, false}, {1000, false}, {1000, true}} {
		t.Run(fmt.Sprint("indicator", c.scale, c.many), func(t *testing.T) { diagFastMatchesExact(t, c.scale, c.many) })
	}
}

func diagFastMatchesExact(t *testing.T, scale float64, many bool) {
	base := synthetic(1100, 37, 5, 11)
	n, d := base.Dims()
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := base.At(i, j)
			switch j % 3 {
			case 0:
				v = 1e4 + v
			case 1:
				v = -3e3 + 0.01*v
			}
			switch {
			case j == 4:
				v = 7.25
			case j == 5 || many && j%3 == 2:
				if scale == 0 {
					break
				}
				if base.At(i, 0) > 0 {
					v = scale
				} else {
					v = 0
				}
			}
			x.Set(i, j, v)
		}
	}
	recomputed := 0
	for _, k := range []int{3, 8, 11} {
		data, stride, n, d, err := rawRows(x, -1)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := (&Settings{Components: k, Covariance: Diag, MaxIter: 3, Seed: 2}).resolve(n, d)
		if err != nil {
			t.Fatal(err)
		}
		e := newEM(data, stride, n, d, cfg, 2, func() []float64 { return globalCovariance(data, stride, n, d, cfg) }, transposeAll(data, stride, n, d))
		if _, _, err := e.run(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
		p0 := e.p.clone()

		// Exact: per-component densities, then the two-pass M-step.
		llExact := e.estep(false)
		respExact := append([]float64(nil), e.resp...)
		par.ForWorker(e.workers, numBlocks(n), func(w, b int) { e.partials(w, b) })
		e.mstep()
		exact := e.p.clone()

		e.p = p0.clone()
		llFast := e.estep(true)
		if e.fast == many {
			t.Fatalf("k=%d: fast path %v (expansion error bound %.2g, %d pairs computed exactly)", k, e.fast, e.expansionError(), len(e.ill))
		}
		if e.fast && (len(e.ill) > 0) != (scale == 1000) {
			t.Errorf("k=%d: %d pairs computed exactly beside the expansion", k, len(e.ill))
		}
		ill := len(e.ill)
		// The expansion's error is bounded by diagMaxErr per log density.
		if math.Abs(llFast-llExact) > diagMaxErr {
			t.Errorf("k=%d: mean log-likelihood %v, exact %v", k, llFast, llExact)
		}
		for i, v := range e.resp {
			if math.Abs(v-respExact[i]) > diagMaxErr {
				t.Fatalf("k=%d: responsibility %d: %v, exact %v", k, i, v, respExact[i])
			}
		}
		e.exactVars = 0
		e.mstep()
		recomputed += e.exactVars
		worstResp, worstVar := 0.0, 0.0
		for i, v := range e.resp {
			worstResp = math.Max(worstResp, math.Abs(v-respExact[i]))
		}
		for l := 0; l < k; l++ {
			if !relClose(e.p.w[l], exact.w[l], 1e-10) {
				t.Errorf("k=%d: weight %d: %v, exact %v", k, l, e.p.w[l], exact.w[l])
			}
			for j := 0; j < d; j++ {
				scale := math.Sqrt(exact.cov[l*d+j])
				if m, me := e.p.mean[l*d+j], exact.mean[l*d+j]; math.Abs(m-me) > 1e-9*scale+1e-12*math.Abs(me) {
					t.Errorf("k=%d: mean %d,%d: %v, exact %v", k, l, j, m, me)
				}
				v, ve := e.p.cov[l*d+j], exact.cov[l*d+j]
				worstVar = math.Max(worstVar, math.Abs(v-ve)/ve)
				if !relClose(v, ve, 1e-9) {
					t.Errorf("k=%d: variance %d,%d: %v, exact %v", k, l, j, v, ve)
				}
			}
		}
		t.Logf("k=%d: mean log-likelihood %.17g (exact %.17g), worst responsibility difference %.2g, worst relative variance difference %.2g, %d variances recomputed, %d densities exact",
			k, llFast, llExact, worstResp, worstVar, e.exactVars, ill)
	}
	if scale == 1 && recomputed == 0 {
		t.Error("no variance was recomputed about its mean")
	}
}

// TestDiagFastDeterministic checks that the fast Diag path gives the same
// model whatever the number of workers, with one and two component chunks.
func TestDiagFastDeterministic(t *testing.T) {
	x := synthetic(1300, diagMinFeatures+3, 4, 6)
	for _, k := range []int{4, 11} {
		var first []byte
		for _, w := range []int{1, 2, 3} {
			m, _, err := Fit(context.Background(), x, &Settings{Components: k, Covariance: Diag, NInit: 2, Seed: 3, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(m)
			if first == nil {
				first = b
			} else if !bytes.Equal(first, b) {
				t.Errorf("k=%d: model with %d workers differs from 1 worker", k, w)
			}
		}
	}
}

// expansionError is the largest per-component bound prepDiag applies to
// the rounding error of the expanded squared distances, before taking any
// pair out: 2 eps sum_j P_j (max|x'_j| + |mu'_j|)^2.
func (e *em) expansionError() float64 {
	K, d := e.k, e.d
	p, dd := e.p, e.dd
	worst := 0.0
	for l := 0; l < K; l++ {
		s := 0.0
		for j := 0; j < d; j++ {
			t := dd.xmax[j] + math.Abs(p.mean[l*d+j]-dd.c[j])
			s += t * t / p.cov[l*d+j]
		}
		worst = max(worst, 2*2.220446049250313e-16*s)
	}
	return worst
}
