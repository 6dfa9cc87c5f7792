package boost

import (
	"errors"
	"strings"
	"testing"

	"github.com/aer-go/aer/internal/catsplit"
	"github.com/aer-go/aer/interop/onnx"
)

// TestONNXRefusesCategorical: an imported model's categorical split is
// refused naming the library it came from.
func TestONNXRefusesCategorical(t *testing.T) {
	tree := func(rule catsplit.Rule) *Tree {
		return &Tree{Feature: []int32{0, -1, -1}, Threshold: make([]float64, 3), DefaultLeft: make([]bool, 3),
			Left: []int32{1, -1, -1}, Value: make([]float64, 3), Categories: [][]int32{{1, 2}, nil, nil}, CategoryRule: rule}
	}
	for rule, want := range map[catsplit.Rule]string{
		catsplit.LightGBM: "node 0 is an imported LightGBM model's categorical split",
		catsplit.XGBoost:  "node 0 is an imported XGBoost model's categorical partition split",
	} {
		err := addONNX(nil, tree(rule), 0)
		if !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), want) {
			t.Errorf("rule %q: %v, want %q", rule, err, want)
		}
	}
}
