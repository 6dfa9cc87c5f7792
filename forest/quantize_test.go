package forest

import (
	"bytes"
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

func quantForestData(n, k int) (*mat.Dense, []int) {
	x := mat.NewDense(n, 4, nil)
	y := make([]int, n)
	for i := range n {
		for j := range 4 {
			x.Set(i, j, math.Cos(float64(i*(j+2)))*float64(j+1))
		}
		y[i] = int(math.Abs(3*x.At(i, 0)+x.At(i, 1))) % k
		if k == 2 && i%9 != 0 {
			y[i] = 0
		}
	}
	return x, y
}

// TestQuantizeForest: balanced-rf's binary and multi-class forests move
// each probability by at most the bound once quantised, the encoding is
// smaller and round-trips to the same bytes and probabilities.
func TestQuantizeForest(t *testing.T) {
	for _, k := range []int{2, 3} {
		x, y := quantForestData(600, k)
		meth := NewBalancedRF().(*Method)
		if err := meth.Set("n_estimators", "15"); err != nil {
			t.Fatal(err)
		}
		var m learn.Model
		var err error
		if k == 2 {
			m, err = meth.Fit(context.Background(), &learn.Data{X: x, Y: y}, nil, learn.Env{Seed: 1})
		} else {
			m, err = meth.FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, k, learn.Env{Seed: 1})
		}
		if err != nil {
			t.Fatal(err)
		}
		q, err := learn.Quantize(m, learn.QuantizeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		info, ok := learn.QuantizationOf(q)
		if !ok || info.Trees != 15 || !(info.Bound > 0 && info.Bound < 1e-4) {
			t.Fatalf("k=%d: quantization %+v %v", k, info, ok)
		}
		pf, _ := m.PredictProba(x, nil)
		pq, _ := q.PredictProba(x, nil)
		for i := range pf {
			if d := math.Abs(pf[i] - pq[i]); d > info.Bound {
				t.Fatalf("k=%d: entry %d moved %g > %g", k, i, d, info.Bound)
			}
		}
		b, _ := q.MarshalBinary()
		full, _ := m.MarshalBinary()
		if 3*len(b) > len(full) {
			t.Errorf("k=%d: quantised %d bytes, full %d", k, len(b), len(full))
		}
		var back learn.Model
		if k == 2 {
			back, err = meth.Load(b)
		} else {
			back, err = meth.LoadClasses(b)
		}
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := back.MarshalBinary()
		pb, _ := back.PredictProba(x, nil)
		if !bytes.Equal(b, b2) {
			t.Fatalf("k=%d: the decoded forest encodes to other bytes", k)
		}
		for i := range pb {
			if math.Float64bits(pb[i]) != math.Float64bits(pq[i]) {
				t.Fatalf("k=%d: entry %d: decoded %v, quantised %v", k, i, pb[i], pq[i])
			}
		}
	}
}

// FuzzLoadQuantized: hostile bytes never panic the quantised decoder.
func FuzzLoadQuantized(f *testing.F) {
	x, y := quantForestData(200, 2)
	meth := NewBalancedRF().(*Method)
	_ = meth.Set("n_estimators", "3")
	m, err := meth.Fit(context.Background(), &learn.Data{X: x, Y: y}, nil, learn.Env{Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	q, err := learn.Quantize(m, learn.QuantizeOptions{})
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
		if m, err := meth.LoadClasses(data); err == nil && m.NumFeatures() <= 1000 {
			if _, err := m.PredictProba(mat.NewDense(1, m.NumFeatures(), nil), nil); err != nil {
				t.Fatal(err)
			}
		}
	})
}
