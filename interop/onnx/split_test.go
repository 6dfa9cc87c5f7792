package onnx

import (
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/dataset"
)

// A boosted tree's split (the layout without Right, BRANCH_LT) at a data value (0.27, whose float32 lies above
// it) and at one whose float32 lies below it (0.7) becomes BRANCH_LT at
// the float32: the value itself, rounded to float32, goes right as in
// aer. A CART split goes left at most at its threshold: at 0.27 the
// bucket of float32(0.27) goes left (BRANCH_LEQ); at the float64 just
// below 0.27 it goes right (BRANCH_LT), as aer sends 0.27. Missing
// values follow DefaultLeft, leaf values stay float64.
func TestTreeSplits(t *testing.T) {
	in := &Features{nf: 2}
	bt := Nodes{Feature: []int32{1, 0, -1, -1, -1}, Threshold: []float64{0.27, 0.7, 0, 0, 0}, DefaultLeft: []bool{true, false, false, false, false},
		Left: []int32{1, 3, -1, -1, -1}, Values: []float64{0, 0, -0.1234567890123, 0.5, 2}}
	e := NewTrees(in)
	if err := e.Add(bt, 0); err != nil {
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
	ct := Nodes{Feature: []int32{0, 1, -1, -1, -1}, Threshold: []float64{below, 0.27, 0, 0, 0},
		DefaultLeft: []bool{false, true, false, false, false}, Left: []int32{1, 3, -1, -1, -1}, Right: []int32{2, 4, -1, -1, -1},
		LEQ: true, Values: []float64{0, 0, 0.75, 0.125, 1}}
	e = NewTrees(in)
	if err := e.Add(ct, 0); err != nil {
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
	raw := &Features{nf: 1}
	in, err := raw.With([]float64{0.5}, &dataset.Scaler{Mean: []float64{0.5}, Scale: []float64{0.1}})
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
	e := NewTrees(in)
	bt := Nodes{Feature: []int32{0, -1, -1}, Threshold: []float64{0.5, 0, 0}, DefaultLeft: []bool{false, false, false},
		Left: []int32{1, -1, -1}, Values: []float64{0, 1, 2}}
	if err := e.Add(bt, 0); err != nil {
		t.Fatal(err)
	}
	if e.missing[0] != 1 {
		t.Error("a missing value does not go where the imputed mean goes")
	}
	if _, err := raw.With([]float64{1, 2}, nil); err == nil {
		t.Error("a stage of 2 means for 1 feature was taken")
	}
	if _, err := raw.With([]float64{1}, &dataset.Scaler{Mean: []float64{0}, Scale: []float64{0}}); err == nil {
		t.Error("a scale of 0 was taken")
	}
}

// Trees the graph cannot hold are refused, never written wrong.
func TestTreesRefused(t *testing.T) {
	ok := func() Nodes {
		return Nodes{Feature: []int32{0, -1, -1}, Threshold: []float64{0.5, 0, 0}, DefaultLeft: make([]bool, 3),
			Left: []int32{1, -1, -1}, Values: []float64{0, 1, 2}}
	}
	if err := NewTrees(&Features{nf: 1}).Add(ok(), 0); err != nil {
		t.Fatalf("a well-formed tree: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Nodes)
	}{
		{"child beyond the tree", func(n *Nodes) { n.Left[0] = 5 }},
		{"feature beyond the input", func(n *Nodes) { n.Feature[0] = 3 }},
		{"node its own child", func(n *Nodes) { n.Right = []int32{0, -1, -1} }},
		{"NaN threshold", func(n *Nodes) { n.Threshold[0] = math.NaN() }},
		{"values of 2 per leaf", func(n *Nodes) { n.K = 2 }},
		{"no nodes", func(n *Nodes) { *n = Nodes{} }},
	} {
		n := ok()
		tc.edit(&n)
		if err := NewTrees(&Features{nf: 1}).Add(n, 0); err == nil {
			t.Errorf("%s: taken", tc.name)
		}
	}
}

// A leaf of K values gives them to targets first..first+K-1: a
// multi-class tree's class shares.
func TestTreeTargets(t *testing.T) {
	mt := Nodes{Feature: []int32{0, -1, -1}, Threshold: []float64{0.5, 0, 0}, DefaultLeft: []bool{true, false, false},
		Left: []int32{1, -1, -1}, Right: []int32{2, -1, -1}, LEQ: true,
		K: 3, Values: []float64{0.4, 0.3, 0.3, 0.9, 0.1, 0, 0, 0.25, 0.75}}
	e := NewTrees(&Features{nf: 1})
	if err := e.Add(mt, 0); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.modes, []string{"BRANCH_LEQ", "LEAF", "LEAF"}) || !slices.Equal(e.missing, []int64{1, 0, 0}) ||
		!slices.Equal(e.targetNode, []int64{1, 1, 1, 2, 2, 2}) || !slices.Equal(e.targetID, []int64{0, 1, 2, 0, 1, 2}) ||
		!slices.Equal(e.weights, []float64{0.9, 0.1, 0, 0, 0.25, 0.75}) {
		t.Errorf("modes %v, missing %v, targets %v %v, weights %v", e.modes, e.missing, e.targetNode, e.targetID, e.weights)
	}
	// A second tree, one leaf of 2 values, to targets 3 and 4.
	two := Nodes{Feature: []int32{-1}, Threshold: []float64{0}, DefaultLeft: []bool{false}, Left: []int32{-1}, K: 2, Values: []float64{7, 8}}
	if err := e.Add(two, 3); err != nil {
		t.Fatal(err)
	}
	if got := e.targetID[6:]; !slices.Equal(got, []int64{3, 4}) || !slices.Equal(e.targetTree[6:], []int64{1, 1}) {
		t.Errorf("second tree's targets %v, trees %v", got, e.targetTree[6:])
	}
}
