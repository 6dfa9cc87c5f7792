package adaptive

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
)

// fallbackData returns labels and, per member, probabilities whose logit
// is the label's sign times strength plus standard noise.
func fallbackData(n int, strength []float64, seed uint64) ([]int, *mat.Dense) {
	r := rng.New(seed)
	y := make([]int, n)
	f := mat.NewDense(n, len(strength), nil)
	for i := range n {
		if r.Float64() < 0.15 {
			y[i] = 1
		}
		for k, s := range strength {
			z := s*float64(2*y[i]-1) + r.NormFloat64()
			f.Set(i, k, 1/(1+math.Exp(-z)))
		}
	}
	return y, f
}

func TestFallback(t *testing.T) {
	// Member 0 is a component's, 1 and 2 are not (a global member and a
	// peer); the ensemble's scores are as good as member 2's only in
	// the second case.
	y, f := fallbackData(2000, []float64{3, 0.5, 3}, 9)
	owner := []int{0, -1, -1}
	weak := mat.Col(nil, 1, f)
	k, rep := fallback(weak, f, owner, y, nil, 1e-7, 2.5)
	if k != 2 || rep == nil || !(rep.Z > 2.5) || !(rep.MemberLoss < rep.EnsembleLoss) {
		t.Fatalf("weak ensemble: fell back on %d, %+v; want member 2", k, rep)
	}
	// Member 0 is as strong but owns a component: never a fallback.
	owner = []int{0, -1, 1}
	if k, rep := fallback(weak, f, owner, y, nil, 1e-7, 2.5); k != -1 || rep != nil {
		t.Fatalf("only component members strong: fell back on %d, %+v", k, rep)
	}
	// An ensemble as good as the best member stays.
	owner = []int{0, -1, -1}
	same := mat.Col(nil, 2, f)
	if k, _ := fallback(same, f, owner, y, nil, 1e-7, 2.5); k != -1 {
		t.Fatalf("ensemble equal to member 2 fell back on %d", k)
	}
	// A bar too high for the evidence.
	if k, _ := fallback(weak, f, owner, y, nil, 1e-7, 1e6); k != -1 {
		t.Fatalf("z bar 1e6 fell back on %d", k)
	}
	// One class only: no fallback, no panic.
	if k, _ := fallback(weak, f, owner, make([]int, len(y)), nil, 1e-7, 2.5); k != -1 {
		t.Fatalf("one class fell back on %d", k)
	}
}

func TestFallbackParam(t *testing.T) {
	m := NewMethod()
	if err := m.Set("fallback", "2.5"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"-2", "-0.5", "NaN"} {
		c := &Config{Fallback: math.NaN()}
		if bad != "NaN" {
			c.Fallback = -2
			if bad == "-0.5" {
				c.Fallback = -0.5
			}
		}
		if _, err := c.resolve(); err == nil {
			t.Errorf("fallback %s accepted", bad)
		}
	}
	r, err := (&Config{}).resolve()
	if err != nil || r.Fallback != 2 {
		t.Fatalf("plus preset's fallback %v (%v), want 2", r.Fallback, err)
	}
	r, err = (&Config{Preset: PresetPaper}).resolve()
	if err != nil || r.Fallback != -1 {
		t.Fatalf("paper preset's fallback %v (%v), want -1", r.Fallback, err)
	}
}
