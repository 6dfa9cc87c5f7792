package tree

import (
	"bytes"
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// quantData is n rows of 5 features, some missing, labels from a noisy
// rule (k classes).
func quantData(n, k int) (*mat.Dense, []int) {
	x := mat.NewDense(n, 5, nil)
	y := make([]int, n)
	for i := range n {
		for j := range 5 {
			x.Set(i, j, math.Sin(float64(i*(j+3)))*float64(j+1)+float64(i%7)/3)
		}
		if i%11 == 0 {
			x.Set(i, 1, math.NaN())
		}
		y[i] = int(math.Abs(x.At(i, 0)+x.At(i, 2)+float64(i%3)/2)) % k
	}
	return x, y
}

// TestQuantizeTree: a binary and a multi-class tree route every row to
// the same leaf once quantised, move each probability by at most the
// bound, and round-trip through their encoding to the same bytes and
// probabilities.
func TestQuantizeTree(t *testing.T) {
	for _, k := range []int{2, 3} {
		x, y := quantData(800, k)
		meth := NewMethod().(*Method)
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
		q, err := learn.Quantize(m, learn.QuantizeOptions{Precision: learn.PrecisionInt8})
		if err != nil {
			t.Fatal(err)
		}
		info, ok := learn.QuantizationOf(q)
		if !ok || info.Trees != 1 || !(info.Bound > 0 && info.Bound <= 1.0/254+1e-9) {
			t.Fatalf("k=%d: quantization %+v %v", k, info, ok)
		}
		ft, qt := treeOf(m), treeOf(q)
		n, _ := x.Dims()
		for i := range n {
			if ft.Leaf(x.RawRowView(i)) != qt.Leaf(x.RawRowView(i)) {
				t.Fatalf("k=%d: row %d reaches another leaf", k, i)
			}
		}
		pf, _ := m.PredictProba(x, nil)
		pq, _ := q.PredictProba(x, nil)
		for i := range pf {
			if d := math.Abs(pf[i] - pq[i]); d > info.Bound {
				t.Fatalf("k=%d: entry %d moved %g > %g", k, i, d, info.Bound)
			}
		}
		b, err := q.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
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
		if !bytes.Equal(b, b2) || !equalBits(pb, pq) {
			t.Fatalf("k=%d: the decoded tree differs", k)
		}
	}
}

func treeOf(m learn.Model) *Tree {
	switch v := m.(type) {
	case *Model:
		return v.tree
	case *MultiModel:
		return v.tree
	}
	return nil
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// FuzzLoadQuantized: hostile bytes after the quantised magic never
// panic, and a tree that loads predicts.
func FuzzLoadQuantized(f *testing.F) {
	for _, k := range []int{2, 3} {
		x, y := quantData(200, k)
		meth := NewMethod().(*Method)
		var m learn.Model
		if k == 2 {
			m, _ = meth.Fit(context.Background(), &learn.Data{X: x, Y: y}, nil, learn.Env{Seed: 1})
		} else {
			m, _ = meth.FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, k, learn.Env{Seed: 1})
		}
		q, err := learn.Quantize(m, learn.QuantizeOptions{})
		if err != nil {
			f.Fatal(err)
		}
		b, _ := q.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		meth := NewMethod().(*Method)
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
