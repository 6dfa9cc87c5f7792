package onnx

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/aer-go/aer/adaboost"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/forest"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/mixture"
	"github.com/aer-go/aer/prep"
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

// The exporter knows every exported field of the parts it converts: a
// field added to one of them (a tree's new kind of split, a combiner's
// new rule) may change the score, and must be converted, or refused,
// before this list is extended.
func TestFieldsKnown(t *testing.T) {
	for _, tc := range []struct {
		typ   reflect.Type
		known []string
	}{
		{reflect.TypeFor[boost.Tree](), []string{"Feature", "Threshold", "DefaultLeft", "Left", "Value", "Gain", "Cover", "Categories", "CategoryRule", "ZeroMissing"}},
		{reflect.TypeFor[tree.Tree](), []string{"NumFeatures", "Feature", "Threshold", "DefaultLeft", "Left", "Right", "Value", "Weight", "Samples", "Impurity", "Classes", "Dist"}},
		{reflect.TypeFor[boost.Model](), []string{"Settings", "NumFeatures", "BaseMargin", "Trees", "Eval"}},
		{reflect.TypeFor[logreg.Model](), []string{"Coef", "Intercept", "FitIntercept", "Means"}},
		{reflect.TypeFor[prep.Prep](), []string{"Means", "Scaler"}},
		{reflect.TypeFor[forest.Forest](), []string{"NumFeatures", "Trees"}},
		{reflect.TypeFor[adaboost.Ensemble](), []string{"NumFeatures", "Trees", "Errors", "Terms"}},
		{reflect.TypeFor[ensemble.Combiner](), []string{"Static", "Owner", "Dynamic", "Lambda", "Delta", "Space", "Eps"}},
		{reflect.TypeFor[ensemble.DynamicSettings](), []string{"Rule", "T", "LogPi"}},
		{reflect.TypeFor[mixture.Model](), []string{"Covariance", "Weights", "Means", "Covariances"}},
		{reflect.TypeFor[decision.Calibration](), []string{"Method", "Logit", "A", "B", "X", "Y"}},
	} {
		for i := range tc.typ.NumField() {
			if f := tc.typ.Field(i); f.IsExported() && !slices.Contains(tc.known, f.Name) {
				t.Errorf("%s has a field %s the ONNX export does not know", tc.typ, f.Name)
			}
		}
	}
}

// Splits the graph cannot express are refused, never written wrong.
func TestTreeSplitsRefused(t *testing.T) {
	bt := &boost.Tree{Feature: []int32{0, -1, -1}, Threshold: []float64{0.5, 0, 0}, DefaultLeft: make([]bool, 3),
		Left: []int32{1, -1, -1}, Value: []float64{0, 1, 2}, ZeroMissing: []bool{true, false, false}}
	if err := (&treeSet{in: &input{nf: 1}}).addBoost(bt, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("zero-as-missing split: %v", err)
	}
	bt.ZeroMissing, bt.Categories = nil, [][]int32{{2}, nil, nil}
	if err := (&treeSet{in: &input{nf: 1}}).addBoost(bt, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("categorical split: %v", err)
	}
	bt.Categories, bt.Left = nil, []int32{5, -1, -1}
	if err := (&treeSet{in: &input{nf: 1}}).addBoost(bt, 0); err == nil {
		t.Error("a child beyond the tree was taken")
	}
	bt.Left, bt.Feature = []int32{1, -1, -1}, []int32{3, -1, -1}
	if err := (&treeSet{in: &input{nf: 1}}).addBoost(bt, 0); err == nil {
		t.Error("a feature beyond the input was taken")
	}
}

// A multi-class tree's leaf gives its class shares to targets 0..K-1;
// a tree without matching shares is refused, and the binary path still
// refuses a multi-class tree.
func TestCARTDist(t *testing.T) {
	mt := &tree.Tree{NumFeatures: 1, Feature: []int32{0, -1, -1}, Threshold: []float64{0.5, 0, 0}, DefaultLeft: []bool{true, false, false},
		Left: []int32{1, -1, -1}, Right: []int32{2, -1, -1}, Value: make([]float64, 3),
		Classes: 3, Dist: []float64{0.4, 0.3, 0.3, 0.9, 0.1, 0, 0, 0.25, 0.75}}
	e := &treeSet{in: &input{nf: 1}}
	if err := e.addCARTDist(mt); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.modes, []string{"BRANCH_LEQ", "LEAF", "LEAF"}) || !slices.Equal(e.missing, []int64{1, 0, 0}) ||
		!slices.Equal(e.targetNode, []int64{1, 1, 1, 2, 2, 2}) || !slices.Equal(e.targetID, []int64{0, 1, 2, 0, 1, 2}) ||
		!slices.Equal(e.weights, []float64{0.9, 0.1, 0, 0, 0.25, 0.75}) {
		t.Errorf("modes %v, missing %v, targets %v %v, weights %v", e.modes, e.missing, e.targetNode, e.targetID, e.weights)
	}
	if err := (&treeSet{in: &input{nf: 1}}).addCART(mt, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("a multi-class tree as a binary one: %v", err)
	}
	mt.Dist = mt.Dist[:6]
	if err := (&treeSet{in: &input{nf: 1}}).addCARTDist(mt); err == nil {
		t.Error("a tree of 3 nodes with 6 class shares was taken")
	}
}
