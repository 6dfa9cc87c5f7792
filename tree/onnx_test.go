package tree

import (
	"errors"
	"strings"
	"testing"

	"github.com/aer-go/aer/interop/onnx"
)

// A multi-class tree's leaves hold class shares: its ONNX graph gives
// them to one target per class (onnx.Marshal of the MultiModel), and the
// two-class path, which reads one value per leaf, refuses the tree.
func TestONNXMultiClassTree(t *testing.T) {
	mt := &Tree{NumFeatures: 1, Feature: []int32{0, -1, -1}, Threshold: []float64{0.5, 0, 0}, DefaultLeft: []bool{true, false, false},
		Left: []int32{1, -1, -1}, Right: []int32{2, -1, -1}, Value: make([]float64, 3),
		Classes: 3, Dist: []float64{0.4, 0.3, 0.3, 0.9, 0.1, 0, 0, 0.25, 0.75}}
	if _, err := onnx.Marshal(&onnx.Spec{Model: &MultiModel{fitted{tree: mt}}, Weights: []float64{1, 1, 1}, Method: "tree"}); err != nil {
		t.Errorf("multi-class model: %v", err)
	}
	_, err := onnx.Marshal(&onnx.Spec{Model: &Model{fitted: fitted{tree: mt}}, Threshold: 0.5, Method: "tree"})
	if !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), "multi-class tree of 3 classes") {
		t.Errorf("a multi-class tree as a two-class model: %v", err)
	}
	bad := *mt
	bad.Dist = bad.Dist[:6]
	if _, err := onnx.Marshal(&onnx.Spec{Model: &MultiModel{fitted{tree: &bad}}, Weights: []float64{1, 1, 1}, Method: "tree"}); err == nil {
		t.Error("a tree of 3 nodes with 6 class shares was taken")
	}
}
