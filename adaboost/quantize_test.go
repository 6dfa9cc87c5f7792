package adaboost

import (
	"bytes"
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

func quantBoostData(n int) (*mat.Dense, []int) {
	x := mat.NewDense(n, 4, nil)
	y := make([]int, n)
	for i := range n {
		for j := range 4 {
			x.Set(i, j, math.Sin(float64(i*(j+5)))*float64(j+2))
		}
		if x.At(i, 0)+x.At(i, 1) > 1.5 && i%3 != 0 {
			y[i] = 1
		}
	}
	return x, y
}

// TestQuantizeAdaBoost: rusboost and easy-ensemble models move each
// probability by at most the bound once quantised, and their encoding
// round-trips to the same bytes and probabilities.
func TestQuantizeAdaBoost(t *testing.T) {
	x, y := quantBoostData(700)
	for _, meth := range []learn.Method{NewRUSBoost(), NewEasyEnsemble()} {
		if err := meth.Set("n_estimators", "25"); err != nil {
			t.Fatal(err)
		}
		m, err := meth.Fit(context.Background(), &learn.Data{X: x, Y: y}, nil, learn.Env{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		q, err := learn.Quantize(m, learn.QuantizeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		info, ok := learn.QuantizationOf(q)
		if !ok || info.Trees == 0 || !(info.Bound > 0 && info.Bound < 1e-3) {
			t.Fatalf("%s: quantization %+v %v", meth.Name(), info, ok)
		}
		pf, _ := m.PositiveProba(x, nil)
		pq, _ := q.(learn.Scorer).PositiveProba(x, nil)
		for i := range pf {
			if d := math.Abs(pf[i] - pq[i]); d > info.Bound {
				t.Fatalf("%s: row %d moved %g > %g", meth.Name(), i, d, info.Bound)
			}
		}
		b, _ := q.MarshalBinary()
		full, _ := m.MarshalBinary()
		if 2*len(b) > len(full) {
			t.Errorf("%s: quantised %d bytes, full %d", meth.Name(), len(b), len(full))
		}
		back, err := meth.Load(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := back.MarshalBinary()
		pb, _ := back.PositiveProba(x, nil)
		if !bytes.Equal(b, b2) {
			t.Fatalf("%s: the decoded model encodes to other bytes", meth.Name())
		}
		for i := range pb {
			if math.Float64bits(pb[i]) != math.Float64bits(pq[i]) {
				t.Fatalf("%s: row %d: decoded %v, quantised %v", meth.Name(), i, pb[i], pq[i])
			}
		}
	}
}

// FuzzLoadQuantized: hostile bytes never panic the quantised decoder.
func FuzzLoadQuantized(f *testing.F) {
	x, y := quantBoostData(200)
	meth := NewEasyEnsemble()
	_ = meth.Set("n_estimators", "2")
	m, err := meth.Fit(context.Background(), &learn.Data{X: x, Y: y}, nil, learn.Env{Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	q, err := learn.Quantize(m, learn.QuantizeOptions{Precision: learn.PrecisionInt8})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := q.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		if m, err := meth.Load(data); err == nil && m.NumFeatures() <= 1000 {
			if _, err := m.PositiveProba(mat.NewDense(1, m.NumFeatures(), nil), nil); err != nil {
				t.Fatal(err)
			}
		}
	})
}
