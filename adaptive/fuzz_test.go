package adaptive

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// FuzzLoad: decoding arbitrary bytes as an AER model either fails or gives
// a model that scores and explains rows without panicking.
func FuzzLoad(f *testing.F) {
	tr, va, _ := task(f, 300, 9)
	cfg := &Config{Components: []int{2}, NInit: 1, NoGrid: true, MemberParams: []string{"n_estimators=2", "max_depth=2"}}
	m, _, err := Fit(context.Background(), ld(tr), ld(va), cfg, learn.Env{})
	if err != nil {
		f.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte(`{"format":"aer-model-2"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(data)
		if err != nil {
			return
		}
		d := m.NumFeatures()
		if d == 0 || d > 1000 {
			return
		}
		x := mat.NewDense(2, d, nil)
		for j := range d {
			x.Set(1, j, math.NaN())
		}
		m.Score(x, 1)
		m.Breakdown(x.RawRowView(0))
	})
}
