package mixture

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// wideClusters is n rows of d features: four clusters in the first two
// features (as fourClusters), then d-2 features of one-hot-like noise
// (0 or 1, 10% ones) that no cluster structure explains.
func wideClusters(n, d int, seed uint64) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	r := rand.New(rand.NewPCG(seed, 2))
	for i := range n {
		x.Set(i, 0, float64(10*(i%2))+r.NormFloat64())
		x.Set(i, 1, float64(10*(i/2%2))+r.NormFloat64())
		for j := 2; j < d; j++ {
			if r.Float64() < 0.1 {
				x.Set(i, j, 1)
			}
		}
	}
	return x
}

// TestPrincipal compares the randomised principal directions with the
// eigenvectors of the covariance matrix: with a clear gap in the spectrum
// the two subspaces agree (every cosine of their principal angles is 1).
func TestPrincipal(t *testing.T) {
	const n, d, k = 1500, 60, 5
	r := rand.New(rand.NewPCG(4, 4))
	// Rows with variance 100, 80, 60, 40, 20 along five random directions
	// and 1 elsewhere.
	dirs := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			dirs.Set(i, j, r.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(dirs)
	var q mat.Dense
	qr.QTo(&q)
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			sd := 1.0
			if j < k {
				sd = math.Sqrt(float64(100 - 20*j))
			}
			z := sd * r.NormFloat64()
			for c := range d {
				x.Set(i, c, x.At(i, c)+z*q.At(c, j))
			}
			x.Set(i, j, x.At(i, j)+3) // a mean to remove
		}
	}
	p, err := principal(x, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	var cov mat.SymDense
	xc := mat.DenseCopyOf(x)
	for j := range d {
		m := 0.0
		for i := range n {
			m += x.At(i, j)
		}
		m /= n
		for i := range n {
			xc.Set(i, j, x.At(i, j)-m)
		}
	}
	cov.SymOuterK(1.0/n, xc.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		t.Fatal("eigen")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := vecs.Slice(0, d, d-k, d) // ascending eigenvalues: the last k
	var m mat.Dense
	m.Mul(p.basis.T(), top)
	var svd mat.SVD
	if !svd.Factorize(&m, mat.SVDNone) {
		t.Fatal("svd")
	}
	for i, c := range svd.Values(nil) {
		if c < 1-1e-6 {
			t.Errorf("principal angle %d: cosine %v", i, c)
		}
	}
	// The projection centres: projected rows have mean zero.
	z := p.apply(x)
	for j := range k {
		s := 0.0
		for i := range n {
			s += z.At(i, j)
		}
		if math.Abs(s/n) > 1e-9 {
			t.Errorf("projected column %d has mean %v", j, s/n)
		}
	}
}

// TestSelectProjection: on wide data with four clusters in two of 60
// features and binary noise in the rest, comparing the pool on principal
// components finds the four clusters, where diagonal covariances on the
// features let components collapse onto the binary columns and the
// largest L win; the chosen L is fitted on the features (diag), and
// workers do not change the result.
func TestSelectProjection(t *testing.T) {
	x := wideClusters(2000, 60, 7)
	pool := []int{2, 3, 4, 5, 6, 7, 8}
	s := &Settings{Covariance: Diag, SelectProjection: 8, Seed: 5, Workers: 2}
	sel, err := Select(context.Background(), x, pool, s)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Projection != 8 || sel.Components != 4 || sel.Model.Dim() != 60 || sel.Model.Covariance != Diag {
		t.Fatalf("projection %d chose %d components over %d features (%v)", sel.Projection, sel.Components, sel.Model.Dim(), sel.Model.Covariance)
	}
	plain, err := Select(context.Background(), x, pool, &Settings{Covariance: Diag, Seed: 5, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Components <= 4 {
		t.Errorf("diagonal covariances on the features chose %d components: the case no longer shows the collapse", plain.Components)
	}
	one := *s
	one.Workers = 1
	sel1, err := Select(context.Background(), x, pool, &one)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := sel.Model.MarshalBinary()
	b, _ := sel1.Model.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("1 and 2 workers give different models")
	}
	// Fewer features than twice the projection: compared on the features.
	if _, err := principal(x.Slice(0, 2000, 0, 8).(*mat.Dense), 8, 1); err == nil {
		t.Error("8 components of 8 features accepted")
	}
}

// TestDiagNoSquareBuffer: a diagonal fit and its model hold nothing of
// size features x features (a scratch of that size asked for 20 GB at
// 50,000 features).
func TestDiagNoSquareBuffer(t *testing.T) {
	const n, d = 40, 12000
	r := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, r.NormFloat64()+float64(i%2)*3)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, _, err := Fit(context.Background(), x, &Settings{Components: 2, Covariance: Diag, Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got, square := after.TotalAlloc-before.TotalAlloc, uint64(d*d*8); got > square/2 {
		t.Errorf("a diagonal fit of %d features allocated %d bytes (features^2 doubles: %d)", d, got, square)
	}
	if m.Dim() != d {
		t.Fatalf("dim %d", m.Dim())
	}
}
