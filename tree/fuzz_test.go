package tree

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// FuzzLoad: loading arbitrary bytes either fails or gives a model that
// scores rows (missing values too) without panicking or looping.
func FuzzLoad(f *testing.F) {
	x := mat.NewDense(6, 2, []float64{1, 5, 2, math.NaN(), 3, 6, 4, 6, 5, 5, 6, 6})
	m, err := NewMethod().Fit(context.Background(), &learn.Data{X: x, Y: []int{0, 0, 1, 1, 0, 1}, Features: []string{"a", "b"}}, nil, learn.Env{})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := m.MarshalBinary()
	f.Add(b)
	f.Add(magic)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := NewMethod().Load(data)
		if err != nil || m.NumFeatures() > 1000 {
			return
		}
		x := mat.NewDense(2, m.NumFeatures(), nil)
		for j := range m.NumFeatures() {
			x.Set(1, j, math.NaN())
		}
		if _, err := m.PositiveProba(x, nil); err != nil {
			t.Fatal(err)
		}
	})
}
