package mlp_test

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mlp"
)

// FuzzLoad: any payload loads or fails with an error, and a loaded model
// predicts without panicking.
func FuzzLoad(f *testing.F) {
	model := fitQuiet(f)
	good, _ := model.MarshalBinary()
	f.Add(good)
	f.Add([]byte(`{"format":"aer/mlp-focal/1","features":1,"hidden":[1,1],"theta":[1,0,1,0,1,0]}`))
	f.Add([]byte(`{"format":"aer/mlp-focal/1","features":1,"hidden":[1],"theta":[1,0,1,0]}`))
	f.Add([]byte(`{"format":"aer/mlp-focal/1","features":-1,"hidden":[-1,2],"theta":null}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := mlp.Load(payload)
		if err != nil {
			return
		}
		x := mat.NewDense(3, m.NumFeatures(), nil)
		p, err := m.PositiveProba(x, nil)
		if err != nil || len(p) != 3 {
			t.Fatalf("PositiveProba: %v, %v", p, err)
		}
		for _, v := range p {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("probability %v", v)
			}
		}
	})
}

func fitQuiet(f *testing.F) *mlp.Model {
	f.Helper()
	m := mlp.NewMethod()
	_ = m.Set("max_epochs", "2")
	_ = m.Set("hidden1", "3")
	_ = m.Set("hidden2", "2")
	model, err := m.Fit(f.Context(), blobs(40, 4, 1, 1), nil, learn.Env{Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	return model.(*mlp.Model)
}
