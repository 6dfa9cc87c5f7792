package forest

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// TestAttributeClasses: a multi-class forest's per-class TreeSHAP values
// add up, with their base, to the forest's class probabilities (local
// accuracy), and the bases sum to 1.
func TestAttributeClasses(t *testing.T) {
	n, k := 240, 3
	x := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	state := uint64(5)
	noise := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11)/(1<<53)*2 - 1
	}
	for i := range n {
		y[i] = []int{0, 0, 0, 1, 1, 2}[i%6]
		x.Set(i, 0, float64(y[i])+noise())
		x.Set(i, 1, noise())
		x.Set(i, 2, float64(y[i]%2)+noise())
	}
	x.Set(3, 2, math.NaN())
	m := NewBalancedRF().(*Method)
	if err := m.Set("n_estimators", "15"); err != nil {
		t.Fatal(err)
	}
	mm, err := m.FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, k, learn.Env{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	p, err := mm.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := learn.AttributeClasses(context.Background(), mm, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		bases := 0.0
		for c, a := range as {
			bases += a.Base[i]
			if got := a.Output(i); math.Abs(got-p[i*k+c]) > 1e-12 {
				t.Fatalf("row %d class %d: base + sum %v, probability %v", i, c, got, p[i*k+c])
			}
		}
		if math.Abs(bases-1) > 1e-12 {
			t.Fatalf("row %d: bases sum to %v", i, bases)
		}
	}
}
