package adaboost

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// FuzzLoadMulti: loading arbitrary bytes as a multi-class ensemble either
// fails or gives a model that scores rows (missing values too) without
// panicking or looping.
func FuzzLoadMulti(f *testing.F) {
	x := mat.NewDense(9, 2, []float64{1, 5, 2, math.NaN(), 3, 6, 4, 6, 5, 5, 6, 6, 7, 1, 8, 2, 9, 0})
	m := NewEasyEnsemble().(*Method)
	_ = m.Set("n_estimators", "2")
	_ = m.Set("rounds", "3")
	model, err := m.FitClasses(context.Background(), &learn.Data{X: x, Y: []int{0, 0, 1, 1, 2, 2, 0, 1, 2}}, nil, 3, learn.Env{Seed: 1})
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
