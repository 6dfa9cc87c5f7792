package boost

import (
	"encoding/json"
	"fmt"
)

// NewMultiModel returns the multi-class model of the given rounds
// (trees[r][c] is class c's tree of round r) and per-class base margins,
// for numFeatures features, checked as UnmarshalBinary checks a saved
// model: for models another library trained (package interop/xgboost,
// interop/lightgbm). Its Settings are s (Objective Softmax); it predicts
// on one goroutine.
func NewMultiModel(s Settings, numFeatures int, base []float64, trees [][]Tree) (*MultiModel, error) {
	b, err := json.Marshal(multiJSON{Settings: s, NumFeatures: numFeatures, Base: base, Trees: trees})
	if err != nil {
		return nil, fmt.Errorf("boost: encoding multi-class model: %w", err)
	}
	m := new(MultiModel)
	if err := m.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	m.SetThreads(1)
	return m, nil
}

// GroupRounds arranges trees, tree i of class class[i] (0..k-1), into the
// rounds of a MultiModel: class c's trees in their order, round r
// holding each class's r-th tree, and a tree of one leaf of value 0
// where a class has fewer trees than another. A class's margin is
// unchanged: the sum of its trees.
func GroupRounds(trees []Tree, class []int, k int) ([][]Tree, error) {
	if len(class) != len(trees) {
		return nil, fmt.Errorf("boost: %d classes for %d trees", len(class), len(trees))
	}
	per := make([][]Tree, k)
	for i, c := range class {
		if c < 0 || c >= k {
			return nil, fmt.Errorf("boost: tree %d of class %d; the model has %d", i, c, k)
		}
		per[c] = append(per[c], trees[i])
	}
	n := 0
	for _, ts := range per {
		n = max(n, len(ts))
	}
	rounds := make([][]Tree, n)
	for r := range rounds {
		rounds[r] = make([]Tree, k)
		for c := range k {
			if r < len(per[c]) {
				rounds[r][c] = per[c][r]
			} else {
				rounds[r][c] = Tree{Feature: []int32{-1}, Threshold: []float64{0}, DefaultLeft: []bool{false},
					Left: []int32{-1}, Value: []float64{0}, Gain: []float64{0}, Cover: []float64{0}}
			}
		}
	}
	return rounds, nil
}
