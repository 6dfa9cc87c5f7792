package tree

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// FuzzLoadMulti: loading arbitrary bytes as a multi-class tree either
// fails or gives a model that scores rows (missing values too) without
// panicking or looping.
func FuzzLoadMulti(f *testing.F) {
	x := mat.NewDense(6, 2, []float64{1, 5, 2, math.NaN(), 3, 6, 4, 6, 5, 5, 6, 6})
	m, err := NewMethod().(*Method).FitClasses(context.Background(), &learn.Data{X: x, Y: []int{0, 2, 1, 1, 0, 2}, Features: []string{"a", "b"}}, nil, 3, learn.Env{})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := m.MarshalBinary()
	f.Add(b)
	f.Add(magicMulti)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := NewMethod().(*Method).LoadClasses(data)
		if err != nil || m.NumFeatures() > 1000 {
			return
		}
		x := mat.NewDense(2, m.NumFeatures(), nil)
		for j := range m.NumFeatures() {
			x.Set(1, j, math.NaN())
		}
		if _, err := m.PredictProba(x, nil); err != nil {
			t.Fatal(err)
		}
	})
}
