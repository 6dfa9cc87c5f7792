package boost

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/catsplit"
)

// lightgbmRulesModel has one tree with LightGBM's rules: the root sends
// feature 0's codes {0, 40} right under catsplit.LightGBM (missing left);
// its left child splits feature 1 at 0.5 with zero as missing, missing
// going right although zero is below the threshold.
func lightgbmRulesModel() *Model {
	return &Model{NumFeatures: 2, BaseMargin: 0.25, Trees: []Tree{{
		Feature:      []int32{0, 1, -1, -1, -1},
		Threshold:    []float64{0, 0.5, 0, 0, 0},
		DefaultLeft:  []bool{true, false, false, false, false},
		Left:         []int32{1, 3, -1, -1, -1},
		Value:        []float64{0, 0, 2, -1, 1},
		Gain:         []float64{3, 1, 0, 0, 0},
		Cover:        []float64{10, 6, 4, 2, 4},
		Categories:   [][]int32{{0, 40}, nil, nil, nil, nil},
		CategoryRule: catsplit.LightGBM,
		ZeroMissing:  []bool{false, true, false, false, false},
	}}}
}

func TestImportedRules(t *testing.T) {
	m := lightgbmRulesModel()
	rows := [][]float64{
		{0, 0.1}, {-0.5, 0.1}, {40.9, 0.1}, // codes 0, 0, 40: right, leaf 2
		{1, 0.1}, {-1, 0.1}, {math.NaN(), 0.1}, {1 << 31, 0.1}, // no code in the set: left, 0.1 < 0.5: leaf 3
		{1, -0.2},                                        // left, below the threshold: leaf 3
		{1, 0}, {1, 1e-36}, {1, -1e-35}, {1, math.NaN()}, // zero or missing: right, leaf 4
		{1, 0.7}, // left, above: leaf 4
	}
	want := []float64{2, 2, 2, -1, -1, -1, -1, -1, 1, 1, 1, 1, 1}
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
	got := m.PredictMargin(x, nil)
	for i := range rows {
		if got[i]-m.BaseMargin != want[i] {
			t.Errorf("batch row %v: margin %v, want %v", rows[i], got[i]-m.BaseMargin, want[i])
		}
	}
	phi, err := m.SHAP(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if sum := m.SHAPBase() + mat.Sum(phi.RowView(i)); math.Abs(sum-got[i]) > 1e-12 {
			t.Errorf("row %v: SHAP base + values = %v, margin %v", rows[i], sum, got[i])
		}
	}

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
	if back.PredictRowMargin([]float64{1, 0}) != m.BaseMargin+1 {
		t.Error("the loaded model lost zero as missing")
	}
	m.Trees[0].Categories, m.Trees[0].CategoryRule, m.Trees[0].ZeroMissing = nil, catsplit.XGBoost, nil
	if b, _ := m.MarshalBinary(); bytes.Contains(b, []byte("category_rule")) || bytes.Contains(b, []byte("zero_missing")) {
		t.Error("a numeric model's encoding names the imported rules")
	}
}

func TestImportedRulesValidate(t *testing.T) {
	for name, f := range map[string]func(*Tree){
		"rule":          func(t *Tree) { t.CategoryRule = "sklearn" },
		"short":         func(t *Tree) { t.ZeroMissing = t.ZeroMissing[:2] },
		"leaf":          func(t *Tree) { t.ZeroMissing[3] = true },
		"categorical":   func(t *Tree) { t.ZeroMissing[0] = true },
		"negative code": func(t *Tree) { t.Categories[0] = []int32{-1, 2} },
	} {
		m := lightgbmRulesModel()
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
