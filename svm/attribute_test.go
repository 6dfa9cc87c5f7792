package svm

import (
	"errors"
	"math"
	"math/bits"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// logOdds is the model's log-odds of the positive class at every row of x.
func logOdds(t *testing.T, m *Model, x *mat.Dense) []float64 {
	t.Helper()
	f, err := m.Decision(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range f {
		f[i] = -(m.plattA*v + m.plattB)
	}
	return f
}

// bruteShapley is the baseline Shapley values of row about the training
// means, from every coalition's value.
func bruteShapley(t *testing.T, m *Model, row []float64) []float64 {
	d := len(row)
	n := 1 << d
	x := mat.NewDense(n, d, nil)
	for S := range n {
		for j := range d {
			v := m.means[j]
			if S>>j&1 == 1 {
				v = row[j]
			}
			x.Set(S, j, v)
		}
	}
	v := logOdds(t, m, x)
	fact := func(k int) float64 { return math.Gamma(float64(k + 1)) }
	phi := make([]float64, d)
	for j := range d {
		for S := range n {
			if S>>j&1 == 1 {
				continue
			}
			s := bits.OnesCount(uint(S))
			phi[j] += fact(s) * fact(d-s-1) / fact(d) * (v[S|1<<j] - v[S])
		}
	}
	return phi
}

func TestAttributeRBFMatchesBruteForce(t *testing.T) {
	d := problem(t, 150, 5, 3)
	m := fit(t, d, nil, Settings{}, learn.Env{})
	a, err := m.Attribute(d.X)
	if err != nil {
		t.Fatal(err)
	}
	lo := logOdds(t, m, d.X)
	for i := range 8 {
		want := bruteShapley(t, m, d.X.RawRowView(i))
		for j, w := range want {
			if got := a.Phi.At(i, j); math.Abs(got-w) > 1e-9*(1+math.Abs(w)) {
				t.Fatalf("row %d, feature %d: %v, brute force %v", i, j, got, w)
			}
		}
	}
	for i := range lo {
		if got := a.Output(i); math.Abs(got-lo[i]) > 1e-9*(1+math.Abs(lo[i])) {
			t.Fatalf("row %d: base + attributions %v, log-odds %v", i, got, lo[i])
		}
	}
	if a.Space != learn.Logit {
		t.Fatalf("space %v", a.Space)
	}
}

// With many features (quadrature on 20 nodes) and rows far from every
// support vector (kernel factors that underflow), the values still sum to
// the log-odds.
func TestAttributeRBFManyFeatures(t *testing.T) {
	d := problem(t, 200, 40, 5)
	m := fit(t, d, nil, Settings{}, learn.Env{})
	x := mat.DenseCopyOf(d.X.Slice(0, 20, 0, 40))
	for j := range 40 {
		x.Set(19, j, 30*float64(j%3-1))
	}
	a, err := m.Attribute(x)
	if err != nil {
		t.Fatal(err)
	}
	lo := logOdds(t, m, x)
	for i := range lo {
		got := a.Output(i)
		if math.IsNaN(got) || math.Abs(got-lo[i]) > 1e-8*(1+math.Abs(lo[i])) {
			t.Fatalf("row %d: base + attributions %v, log-odds %v", i, got, lo[i])
		}
	}
}

func TestAttributeLinearAndRefusals(t *testing.T) {
	d := problem(t, 150, 4, 9)
	m := fit(t, d, nil, Settings{Kernel: Linear}, learn.Env{})
	a, err := m.Attribute(d.X)
	if err != nil {
		t.Fatal(err)
	}
	lo := logOdds(t, m, d.X)
	for i := range 5 {
		want := bruteShapley(t, m, d.X.RawRowView(i))
		for j, w := range want {
			if got := a.Phi.At(i, j); math.Abs(got-w) > 1e-9*(1+math.Abs(w)) {
				t.Fatalf("linear row %d, feature %d: %v, brute force %v", i, j, got, w)
			}
		}
		if math.Abs(a.Output(i)-lo[i]) > 1e-9*(1+math.Abs(lo[i])) {
			t.Fatalf("linear row %d: %v, log-odds %v", i, a.Output(i), lo[i])
		}
	}
	poly := fit(t, d, nil, Settings{Kernel: Polynomial}, learn.Env{})
	if _, err := poly.Attribute(d.X); !errors.Is(err, learn.ErrNoAttribution) {
		t.Fatalf("poly kernel: %v, want ErrNoAttribution", err)
	}
	nan := mat.DenseCopyOf(d.X)
	nan.Set(2, 1, math.NaN())
	if _, err := m.Attribute(nan); !errors.Is(err, learn.ErrData) {
		t.Fatalf("NaN row: %v, want ErrData", err)
	}
	if _, err := m.Attribute(mat.NewDense(1, 3, nil)); !errors.Is(err, learn.ErrData) {
		t.Fatalf("3 features: %v, want ErrData", err)
	}
}

func TestAttributeSavedModel(t *testing.T) {
	d := problem(t, 120, 3, 13)
	m := fit(t, d, nil, Settings{}, learn.Env{})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	a1, err := m.Attribute(d.X)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := back.Attribute(d.X)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a1.Phi, a2.Phi) {
		t.Fatal("attributions differ after a round trip")
	}
	// A file without the training means (written before attributions)
	// loads and scores, and says why it has none.
	m.means = nil
	b, _ = m.MarshalBinary()
	old, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Attribute(d.X); !errors.Is(err, learn.ErrNoAttribution) {
		t.Fatalf("model without means: %v, want ErrNoAttribution", err)
	}
}
