package forest

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/classtest"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// multiData returns n rows of p features of k classes, class c drawn
// with weight 1/(c+1)^2 (imbalanced), the first two features shifted by
// the class.
func multiData(n, p, k int, seed uint64) *learn.Data {
	r := rand.New(rand.NewPCG(seed, 5))
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	tot := 0.0
	for c := range k {
		tot += 1 / float64((c+1)*(c+1))
	}
	for i := range n {
		u := r.Float64() * tot
		for c := range k {
			u -= 1 / float64((c+1)*(c+1))
			if u <= 0 || c == k-1 {
				y[i] = c
				break
			}
		}
		for j := range p {
			v := r.NormFloat64()
			if j < 2 {
				v += math.Cos(float64(y[i]*(j+1))) * 1.5
			}
			x.Set(i, j, v)
		}
	}
	return &learn.Data{X: x, Y: y}
}

// TestMultiSamples checks the multi-class draws: every class but the
// smallest under-sampled to the smallest's size, as imbalanced-learn's
// RandomUnderSampler(sampling_strategy="auto").
func TestMultiSamples(t *testing.T) {
	const k = 4
	d := multiData(600, 2, k, 1)
	all := make([]int, k)
	for _, y := range d.Y {
		all[y]++
	}
	for _, scheme := range []Scheme{BootstrapThenBalance, BalanceThenBootstrap} {
		for _, repl := range []bool{false, true} {
			md := newDrawer(d.Y, nil, k, true, repl)
			for trial := range 20 {
				s := md.draw(scheme, rng.Derive(9, uint64(trial)))
				if !slices.IsSorted(s.Rows) {
					t.Fatal("rows not increasing")
				}
				per := make([]float64, k)
				total := 0.0
				for j, i := range s.Rows {
					switch {
					case scheme == BootstrapThenBalance:
						per[d.Y[i]] += float64(s.Count[j])
						if s.Weight[j] != float64(s.Count[j]) {
							t.Fatalf("weight %v of a row drawn %d times", s.Weight[j], s.Count[j])
						}
					default:
						per[d.Y[i]] += s.Weight[j]
					}
				}
				for _, v := range per {
					total += v
				}
				if scheme == BootstrapThenBalance {
					// Balanced exactly: each class has the bootstrap's
					// smallest count.
					for c := 1; c < k; c++ {
						if per[c] != per[0] {
							t.Fatalf("bootstrap then balance, replacement %v: class counts %v", repl, per)
						}
					}
					continue
				}
				// Balanced, then bootstrapped: k times the smallest class
				// drawn in all.
				if total != float64(k*all[k-1]) {
					t.Fatalf("balance then bootstrap: %v rows drawn, want %d", total, k*all[k-1])
				}
				if !repl {
					for j, i := range s.Rows {
						if d.Y[i] == k-1 && s.Weight[j] < 1 {
							t.Fatal("a row of weight below 1")
						}
					}
				}
			}
		}
	}
}

// TestFitMultiInvariants checks both forests on 4 classes: probabilities
// summing to 1, the same bits on 1, 2 and 3 workers, and the payload's
// round trip.
func TestFitMultiInvariants(t *testing.T) {
	d := multiData(500, 5, 4, 2)
	d.Features = []string{"a", "b", "c", "d", "e"}
	test := multiData(200, 5, 4, 3)
	for _, mk := range []func() learn.Method{NewBalancedBagging, NewBalancedRF} {
		m := mk().(*Method)
		if err := m.Set("n_estimators", "12"); err != nil {
			t.Fatal(err)
		}
		var ref []float64
		var refPayload []byte
		for _, workers := range []int{1, 2, 3} {
			mm, err := m.FitClasses(context.Background(), d, nil, 4, learn.Env{Seed: 7, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			p, err := mm.PredictProba(test.X, nil)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := mm.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref, refPayload = p, payload
				for i := 0; i < len(p); i += 4 {
					s := p[i] + p[i+1] + p[i+2] + p[i+3]
					if math.Abs(s-1) > 1e-12 {
						t.Fatalf("%s: row %d: probabilities sum to %v", m.Name(), i/4, s)
					}
				}
				back, err := m.LoadClasses(payload)
				if err != nil {
					t.Fatal(err)
				}
				q, _ := back.PredictProba(test.X, nil)
				if !slices.Equal(p, q) {
					t.Fatalf("%s: probabilities changed in the round trip", m.Name())
				}
				if again, _ := back.MarshalBinary(); !slices.Equal(again, payload) {
					t.Fatalf("%s: payload changed in the round trip", m.Name())
				}
				for _, cut := range []int{0, 5, len(payload) / 2, len(payload) - 1} {
					if _, err := m.LoadClasses(payload[:cut]); err == nil {
						t.Fatalf("%s: a payload cut to %d bytes loaded", m.Name(), cut)
					}
				}
				continue
			}
			if !slices.Equal(p, ref) || !slices.Equal(payload, refPayload) {
				t.Fatalf("%s: %d workers give another forest than 1", m.Name(), workers)
			}
		}
		// Better than chance on the test rows: balanced accuracy of the
		// most probable class.
		if ba := classtest.ArgmaxBA(t, test.Y, ref, 4); ba < 0.5 {
			t.Errorf("%s: balanced accuracy %.3f", m.Name(), ba)
		}
	}
}

// TestFitMultiRefuses checks the refusals of the multi-class fit.
func TestFitMultiRefuses(t *testing.T) {
	d := multiData(100, 3, 3, 4)
	m := NewBalancedRF().(*Method)
	if err := m.Set("class_weight", "0:1,1:2"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.FitClasses(context.Background(), d, nil, 3, learn.Env{}); err == nil {
		t.Error("explicit two-class weights were taken for 3 classes")
	}
	bad := &learn.Data{X: d.X, Y: slices.Clone(d.Y)}
	bad.Y[0] = 3
	if _, err := NewBalancedRF().(*Method).FitClasses(context.Background(), bad, nil, 3, learn.Env{}); err == nil {
		t.Error("a label out of range was taken")
	}
}
