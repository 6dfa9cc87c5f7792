package boost

import (
	"bytes"
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// TestQuantizeBinary: routing is unchanged (every row reaches the same
// leaf of every tree), the margin moves by at most the stated log-odds
// bound and the probability by at most the stated bound, the encoding is
// much smaller than the JSON, and it round-trips to the same bytes and
// the same predictions.
func TestQuantizeBinary(t *testing.T) {
	x, y := testData(3000, 5)
	m := train(t, x, y, &Settings{NEstimators: 60, MaxDepth: 5})
	full, _ := m.MarshalBinary()
	for _, prec := range []string{"", learn.PrecisionInt8} {
		q, err := m.Quantize(learn.QuantizeOptions{Precision: prec})
		if err != nil {
			t.Fatal(err)
		}
		info, ok := q.Quantization()
		if !ok || info.Trees != len(m.Trees) || info.LogitBound <= 0 || info.Bound <= 0 {
			t.Fatalf("%s: quantization %+v, %v", prec, info, ok)
		}
		if _, ok := m.Quantization(); ok {
			t.Fatal("the full model says it is quantised")
		}
		n, _ := x.Dims()
		for i := range n {
			row := x.RawRowView(i)
			for ti := range m.Trees {
				if m.Trees[ti].Leaf(row) != q.Trees[ti].Leaf(row) {
					t.Fatalf("%s: row %d reaches another leaf of tree %d", prec, i, ti)
				}
			}
		}
		mf, mq := m.PredictMargin(x, nil), q.PredictMargin(x, nil)
		pf, pq := m.Predict(x, nil), q.Predict(x, nil)
		var worst float64
		for i := range mf {
			if d := math.Abs(mf[i] - mq[i]); d > info.LogitBound {
				t.Fatalf("%s: row %d margin moved %g > bound %g", prec, i, d, info.LogitBound)
			}
			if d := math.Abs(pf[i] - pq[i]); d > info.Bound {
				t.Fatalf("%s: row %d probability moved %g > bound %g", prec, i, d, info.Bound)
			} else {
				worst = max(worst, d)
			}
		}
		if worst == 0 {
			t.Fatalf("%s: no probability moved: the leaves were not rounded", prec)
		}
		b, err := q.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if 5*len(b) > len(full) {
			t.Errorf("%s: quantised encoding %d bytes, full %d", prec, len(b), len(full))
		}
		var back Model
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		b2, _ := back.MarshalBinary()
		if !bytes.Equal(b, b2) {
			t.Fatalf("%s: the decoded model encodes to other bytes", prec)
		}
		pb := back.Predict(x, nil)
		for i := range pb {
			if math.Float64bits(pb[i]) != math.Float64bits(pq[i]) {
				t.Fatalf("%s: row %d: decoded model predicts %v, quantised %v", prec, i, pb[i], pq[i])
			}
		}
		// Importances and SHAP values still come, from the rounded covers.
		if _, err := back.Importance(TotalGain); err != nil {
			t.Fatal(err)
		}
		f := &Fitted{Model: &back}
		a, err := f.Attribute(x.Slice(0, 5, 0, 8).(*mat.Dense))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if sum := a.Output(i); math.Abs(sum-mq[i]) > 1e-9 {
				t.Fatalf("%s: SHAP values of row %d sum to %v, margin %v", prec, i, sum, mq[i])
			}
		}
	}
}

// TestQuantizeInt8Coarser: 8-bit leaves give a larger bound than 16-bit.
func TestQuantizeInt8Coarser(t *testing.T) {
	x, y := testData(1000, 6)
	m := train(t, x, y, &Settings{NEstimators: 20, MaxDepth: 4})
	q16, err := m.Quantize(learn.QuantizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	q8, err := m.Quantize(learn.QuantizeOptions{Precision: learn.PrecisionInt8})
	if err != nil {
		t.Fatal(err)
	}
	b16, _ := q16.Quantization()
	b8, _ := q8.Quantization()
	if b16.Precision != learn.PrecisionInt16 || b8.Precision != learn.PrecisionInt8 || !(b8.LogitBound > 50*b16.LogitBound) {
		t.Fatalf("int16 %+v, int8 %+v", b16, b8)
	}
	if _, err := m.Quantize(learn.QuantizeOptions{Precision: "float7"}); err == nil {
		t.Fatal("an unknown precision quantised")
	}
}

// TestQuantizeMulti: a multi-class model's class probabilities move by at
// most the bound, and the encoding round-trips.
func TestQuantizeMulti(t *testing.T) {
	x, y := multiData(1500, 5, 3, 7)
	meth := NewMethod().(*Method)
	mm, err := meth.FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, 3, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	qm, err := learn.Quantize(mm, learn.QuantizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	info, ok := learn.QuantizationOf(qm)
	if !ok || info.Bound <= 0 {
		t.Fatalf("quantization %+v %v", info, ok)
	}
	pf, _ := mm.PredictProba(x, nil)
	pq, _ := qm.PredictProba(x, nil)
	for i := range pf {
		if d := math.Abs(pf[i] - pq[i]); d > info.Bound {
			t.Fatalf("entry %d moved %g > %g", i, d, info.Bound)
		}
	}
	b, _ := qm.MarshalBinary()
	back, err := meth.LoadClasses(b)
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := back.PredictProba(x, nil)
	for i := range pb {
		if pb[i] != pq[i] {
			t.Fatalf("entry %d: decoded %v, quantised %v", i, pb[i], pq[i])
		}
	}
	if bi, ok := learn.QuantizationOf(back); !ok || bi != info {
		t.Fatalf("decoded quantization %+v, want %+v", bi, info)
	}
}

// FuzzUnmarshalQuantized: hostile bytes after the quantised magic never
// panic, and what decodes predicts.
func FuzzUnmarshalQuantized(f *testing.F) {
	x, y := testData(300, 3)
	m, err := Train(context.Background(), Data{X: x, Y: y}, nil, &Settings{NEstimators: 3, MaxDepth: 3})
	if err != nil {
		f.Fatal(err)
	}
	q, err := m.Quantize(learn.QuantizeOptions{})
	if err != nil {
		f.Fatal(err)
	}
	b, _ := q.MarshalBinary()
	f.Add(b)
	f.Add(b[:len(b)/2])
	xm, ym := multiData(200, 3, 3, 1)
	mm, err := NewMethod().(*Method).FitClasses(context.Background(), &learn.Data{X: xm, Y: ym}, nil, 3, learn.Env{Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	qm, _ := learn.Quantize(mm, learn.QuantizeOptions{Precision: learn.PrecisionInt8})
	bm, _ := qm.MarshalBinary()
	f.Add(bm)
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Model
		if err := m.UnmarshalBinary(data); err == nil && m.NumFeatures <= 1000 {
			row := make([]float64, m.NumFeatures)
			m.PredictRow(row)
			for i := range row {
				row[i] = math.NaN()
			}
			m.PredictRow(row)
		}
		var mm MultiModel
		if err := mm.UnmarshalBinary(data); err == nil && mm.NumFeatures() <= 1000 {
			if _, err := mm.PredictProba(mat.NewDense(1, mm.NumFeatures(), nil), nil); err != nil {
				t.Fatal(err)
			}
		}
	})
}
