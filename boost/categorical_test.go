package boost

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// categoricalModel has one tree: the root sends codes {1, 3, 40} of
// feature 1 right (missing values left), its left child splits feature 0
// at 0.5.
func categoricalModel() *Model {
	return &Model{NumFeatures: 2, BaseMargin: 0.25, Trees: []Tree{{
		Feature:     []int32{1, 0, -1, -1, -1},
		Threshold:   []float64{0, 0.5, 0, 0, 0},
		DefaultLeft: []bool{true, false, false, false, false},
		Left:        []int32{1, 3, -1, -1, -1},
		Value:       []float64{0, 0, 2, -1, 1},
		Gain:        []float64{3, 1, 0, 0, 0},
		Cover:       []float64{10, 6, 4, 2, 4},
		Categories:  [][]int32{{1, 3, 40}, nil, nil, nil, nil},
	}}}
}

func TestCategoricalSplit(t *testing.T) {
	m := categoricalModel()
	rows := [][]float64{
		{0, 1}, {0, 3}, {0, 40}, {0, 3.7}, // in the set: right, leaf 2
		{0, 0}, {0, 2}, {0, 41}, {0, -1}, {0, 1 << 24}, // not: left, then x < 0.5: leaf 3
		{0.7, 2}, {0.7, math.NaN()}, // left, x >= 0.5: leaf 4
		{math.NaN(), 2}, // left, x missing goes right: leaf 4
	}
	want := []float64{2, 2, 2, 2, -1, -1, -1, -1, -1, 1, 1, 1}
	x := mat.NewDense(len(rows), 2, nil)
	for i, r := range rows {
		x.SetRow(i, r)
		if got := m.PredictRowMargin(r) - m.BaseMargin; got != want[i] {
			t.Errorf("row %v: margin %v, want %v", r, got, want[i])
		}
		if got := m.Trees[0].Value[m.Trees[0].Leaf(r)]; got != want[i] {
			t.Errorf("row %v: Leaf's value %v, want %v", r, got, want[i])
		}
	}
	// Batches of 8 rows and more take other paths on a numeric model.
	got := m.PredictMargin(x, nil)
	for i := range rows {
		if got[i]-m.BaseMargin != want[i] {
			t.Errorf("batch row %v: margin %v, want %v", rows[i], got[i]-m.BaseMargin, want[i])
		}
	}
	// TreeSHAP follows the same rule: the values sum to the margin.
	phi, err := m.SHAP(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		sum := m.SHAPBase() + mat.Sum(phi.RowView(i))
		if math.Abs(sum-got[i]) > 1e-12 {
			t.Errorf("row %v: SHAP base + values = %v, margin %v", rows[i], sum, got[i])
		}
	}

	// The categories survive a round trip, and a model without them
	// writes no "categories" key (files of numeric trees are unchanged).
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if b2, _ := back.MarshalBinary(); !bytes.Equal(b, b2) {
		t.Error("round trip changed the model's encoding")
	}
	m.Trees[0].Categories = nil
	if b, _ := m.MarshalBinary(); bytes.Contains(b, []byte("categories")) {
		t.Error("a numeric model's encoding names categories")
	}
}

func TestCategoricalValidate(t *testing.T) {
	for name, f := range map[string]func(*Tree){
		"short":     func(t *Tree) { t.Categories = t.Categories[:2] },
		"leaf":      func(t *Tree) { t.Categories[2] = []int32{1} },
		"empty":     func(t *Tree) { t.Categories[0] = []int32{} },
		"negative":  func(t *Tree) { t.Categories[0] = []int32{-1, 2} },
		"unordered": func(t *Tree) { t.Categories[0] = []int32{3, 1} },
	} {
		m := categoricalModel()
		f(&m.Trees[0])
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back Model
		if err := back.UnmarshalBinary(b); err == nil || !strings.Contains(err.Error(), "tree 0") {
			t.Errorf("%s: UnmarshalBinary = %v, want an error naming tree 0", name, err)
		}
	}
}
