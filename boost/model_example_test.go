package boost_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
)

// A multi-class model built from another library's trees: three stumps
// on one feature, two of class 0 and one of class 2, arranged into
// rounds by GroupRounds (class 1 gets a tree of one leaf of 0, and
// class 2 one in the second round), with per-class base margins.
func ExampleNewMultiModel() {
	stump := func(t, left, right float64) boost.Tree {
		return boost.Tree{Feature: []int32{0, -1, -1}, Threshold: []float64{t, 0, 0}, DefaultLeft: []bool{true, false, false},
			Left: []int32{1, -1, -1}, Value: []float64{0, left, right}, Gain: make([]float64, 3), Cover: []float64{2, 1, 1}}
	}
	trees := []boost.Tree{stump(0, 1, -1), stump(1, 0.5, 0), stump(0, -1, 1)}
	rounds, err := boost.GroupRounds(trees, []int{0, 0, 2}, 3)
	if err != nil {
		log.Fatal(err)
	}
	m, err := boost.NewMultiModel(boost.Settings{Objective: boost.Softmax}, 1, []float64{0, 0.5, 0}, rounds)
	if err != nil {
		log.Fatal(err)
	}
	z, err := m.Margins(mat.NewDense(2, 1, []float64{-1, 2}), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(m.Trees), "rounds; margins", z[:3], z[3:])
	// Output: 2 rounds; margins [1.5 0.5 -1] [-1 0.5 1]
}
