package tree_test

import (
	"context"
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

func ExampleMethod_FitClasses() {
	// Three classes on one feature, class 2 rare: the balanced class
	// weights (the method's default) make its one row weigh as much as
	// the four of class 0.
	x := mat.NewDense(9, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9})
	y := []int{0, 0, 0, 0, 1, 1, 1, 1, 2}
	m := tree.NewMethod().(*tree.Method)
	mm, err := m.FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, 3, learn.Env{})
	if err != nil {
		log.Fatal(err)
	}
	p, err := mm.PredictProba(mat.NewDense(3, 1, []float64{2.5, 6.5, 10}), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(mm.NumClasses(), "classes;", mm.(*tree.MultiModel).Tree().NumLeaves(), "leaves")
	for i := range 3 {
		fmt.Println(p[3*i : 3*i+3])
	}
	// Output:
	// 3 classes; 3 leaves
	// [1 0 0]
	// [0 1 0]
	// [0 0 1]
}
