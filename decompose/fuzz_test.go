package decompose

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// FuzzLoad feeds arbitrary payloads to the decomposition's loader (gbdt
// members): an error, or a model that scores a row into probabilities
// summing to 1, never a panic.
func FuzzLoad(f *testing.F) {
	method, err := learn.New("gbdt")
	if err != nil {
		f.Fatal(err)
	}
	if err := method.Set("n_estimators", "2"); err != nil {
		f.Fatal(err)
	}
	x := mat.NewDense(9, 2, []float64{0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2, 0, 0, 2, 1, 2, 2, 2})
	d := &learn.Data{X: x, Y: []int{0, 1, 2, 0, 1, 2, 0, 1, 2}}
	for _, s := range []string{OneVsRest, OneVsOne} {
		m, err := Fit(context.Background(), method, s, d, nil, 3, learn.Env{Seed: 1, Workers: 1})
		if err != nil {
			f.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"strategy":"ovr","classes":3,"features":2,"members":[]}`))
	f.Add([]byte(`{"strategy":"ovo","classes":1000000000,"features":2,"members":[]}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := Load(payload, method)
		if err != nil {
			return
		}
		if m.NumFeatures() != 2 {
			return
		}
		p, err := m.PredictProba(mat.NewDense(1, 2, []float64{1, 1}), nil)
		if err != nil {
			return
		}
		sum := 0.0
		for _, v := range p {
			sum += v
		}
		if len(p) != m.NumClasses() || sum < 1-1e-9 || sum > 1+1e-9 {
			t.Fatalf("%d probabilities summing to %v for %d classes", len(p), sum, m.NumClasses())
		}
	})
}
