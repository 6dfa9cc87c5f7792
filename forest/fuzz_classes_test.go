package forest

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// FuzzLoadMulti: loading arbitrary bytes as a multi-class forest either
// fails or gives a model that scores rows (missing values too) without
// panicking or looping.
func FuzzLoadMulti(f *testing.F) {
	d := multiData(60, 2, 3, 1)
	m := NewBalancedRF().(*Method)
	_ = m.Set("n_estimators", "2")
	model, err := m.FitClasses(context.Background(), d, nil, 3, learn.Env{Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := model.MarshalBinary()
	f.Add(b)
	f.Add(magicMulti)
	f.Fuzz(func(t *testing.T, payload []byte) {
		mm, err := m.LoadClasses(payload)
		if err != nil || mm.NumFeatures() > 1000 {
			return
		}
		x := mat.NewDense(2, mm.NumFeatures(), nil)
		for j := range mm.NumFeatures() {
			x.Set(1, j, math.NaN())
		}
		if _, err := mm.PredictProba(x, nil); err != nil {
			t.Fatal(err)
		}
	})
}
