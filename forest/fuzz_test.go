package forest

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
	d := data(60, 2, 0.3, 1)
	m := NewBalancedRF()
	_ = m.Set("n_estimators", "2")
	model, err := m.Fit(context.Background(), d, nil, learn.Env{Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := model.MarshalBinary()
	f.Add(b)
	f.Add(magic)
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := m.Load(payload)
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
