package onnx

import (
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/tree"
)

// A boosted tree's split at a data value (0.27, whose float32 lies above
// it) and at one whose float32 lies below it (0.7) becomes BRANCH_LT at
// the float32: the value itself, rounded to float32, goes right as in
// aer. A CART split goes left at most at its threshold: at 0.27 the
// bucket of float32(0.27) goes left (BRANCH_LEQ); at the float64 just
// below 0.27 it goes right (BRANCH_LT), as aer sends 0.27. Missing
// values follow DefaultLeft, leaf values stay float64.
func TestTreeSplits(t *testing.T) {
	in := &input{nf: 2}
	bt := &boost.Tree{Feature: []int32{1, 0, -1, -1, -1}, Threshold: []float64{0.27, 0.7, 0, 0, 0}, DefaultLeft: []bool{true, false, false, false, false},
		Left: []int32{1, 3, -1, -1, -1}, Value: []float64{0, 0, -0.1234567890123, 0.5, 2}}
	e := &treeSet{in: in}
	if err := e.addBoost(bt, 0); err != nil {
		t.Fatal(err)
	}
	want := []string{"BRANCH_LT", "BRANCH_LT", "LEAF", "LEAF", "LEAF"}
	if !slices.Equal(e.modes, want) || !slices.Equal(e.values, []float64{float64(float32(0.27)), float64(float32(0.7)), 0, 0, 0}) ||
		!slices.Equal(e.missing, []int64{1, 0, 0, 0, 0}) || !slices.Equal(e.weights, []float64{-0.1234567890123, 0.5, 2}) ||
		!slices.Equal(e.trueIDs[:2], []int64{1, 3}) || !slices.Equal(e.falseIDs[:2], []int64{2, 4}) {
		t.Errorf("boosted tree: modes %v values %v missing %v leaves %v true %v false %v", e.modes, e.values, e.missing, e.weights, e.trueIDs, e.falseIDs)
	}
	if float64(float32(0.7)) >= 0.7 || float64(float32(0.27)) <= 0.27 {
		t.Fatal("the test's values no longer round as it assumes")
	}

	below := math.Nextafter(0.27, 0)
	ct := &tree.Tree{NumFeatures: 2, Feature: []int32{0, 1, -1, -1, -1}, Threshold: []float64{below, 0.27, 0, 0, 0},
		DefaultLeft: []bool{false, true, false, false, false}, Left: []int32{1, 3, -1, -1, -1}, Right: []int32{2, 4, -1, -1, -1},
		Value: []float64{0, 0, 0.75, 0.125, 1}}
	e = &treeSet{in: in}
	if err := e.addCART(ct, 0); err != nil {
		t.Fatal(err)
	}
	f := float64(float32(0.27))
	if !slices.Equal(e.modes, []string{"BRANCH_LT", "BRANCH_LEQ", "LEAF", "LEAF", "LEAF"}) || !slices.Equal(e.values, []float64{f, f, 0, 0, 0}) ||
		!slices.Equal(e.missing, []int64{0, 1, 0, 0, 0}) || !slices.Equal(e.weights, []float64{0.75, 0.125, 1}) {
		t.Errorf("CART tree: modes %v values %v missing %v leaves %v", e.modes, e.values, e.missing, e.weights)
	}
}

// Behind imputation and standardisation, a split's threshold is the
// float32 bucket of the raw value it stands for, mapped forward as the
// graph maps its input, and a missing value goes where aer sends the
// imputed mean.
func TestSplitsBehindPreprocessing(t *testing.T) {
	raw := &input{nf: 1}
	in, err := raw.with(stage{means: []float64{0.5}, sc: &dataset.Scaler{Mean: []float64{0.5}, Scale: []float64{0.1}}})
	if err != nil {
		t.Fatal(err)
	}
	// Boosted trees split at standardised data values: 0.27 standardised.
	std := (0.27 - 0.5) / 0.1
	thr, leq := in.split(0, std, false)
	if want := (float64(float32(0.27)) - 0.5) / 0.1; thr != want || leq {
		t.Errorf("split at standardised 0.27: %v, leq %v; want %v, false", thr, leq, want)
	}
	// The imputed mean standardises to 0: left of a positive threshold.
	e := &treeSet{in: in}
	bt := &boost.Tree{Feature: []int32{0, -1, -1}, Threshold: []float64{0.5, 0, 0}, DefaultLeft: []bool{false, false, false},
		Left: []int32{1, -1, -1}, Value: []float64{0, 1, 2}}
	if err := e.addBoost(bt, 0); err != nil {
		t.Fatal(err)
	}
	if e.missing[0] != 1 {
		t.Error("a missing value does not go where the imputed mean goes")
	}
	if _, err := raw.with(stage{means: []float64{1, 2}}); err == nil {
		t.Error("a stage of 2 means for 1 feature was taken")
	}
	if _, err := raw.with(stage{means: []float64{1}, sc: &dataset.Scaler{Mean: []float64{0}, Scale: []float64{0}}}); err == nil {
		t.Error("a scale of 0 was taken")
	}
}
