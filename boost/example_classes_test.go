package boost_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/learn"
)

func ExampleTrainMulti() {
	// Three classes along one feature: 0 below 3, 1 from 3 to 6, 2
	// above. XGBoost 1.7's multi:softprob with these parameters gives the
	// same probabilities.
	x := mat.NewDense(9, 1, []float64{1, 2, 2.5, 3, 4, 5, 7, 8, 9})
	y := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	s := &boost.Settings{NEstimators: 20, MaxDepth: 2, MinChildWeight: -1} // min_child_weight 0
	m, err := boost.TrainMulti(context.Background(), boost.Data{X: x, Y: y}, nil, 3, s)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d rounds of %d trees\n", len(m.Trees), m.NumClasses())
	p, err := m.PredictProba(mat.NewDense(2, 1, []float64{4.5, 8.5}), nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("x=4.5: P = %.3f %.3f %.3f\n", p[0], p[1], p[2])
	fmt.Printf("x=8.5: P = %.3f %.3f %.3f\n", p[3], p[4], p[5])
	// Output:
	// 20 rounds of 3 trees
	// x=4.5: P = 0.027 0.947 0.027
	// x=8.5: P = 0.025 0.036 0.939
}

func ExampleMethod_FitClasses() {
	// The method as the registry gives it, XGBoost's parameter names.
	m := boost.NewMethod()
	for _, kv := range [][2]string{{"n_estimators", "10"}, {"max_depth", "2"}, {"min_child_weight", "0"}} {
		if err := m.Set(kv[0], kv[1]); err != nil {
			panic(err)
		}
	}
	x := mat.NewDense(6, 2, []float64{0, 1, 0, 2, 5, 1, 5, 2, 9, 1, 9, 2})
	train := &learn.Data{X: x, Y: []int{0, 0, 1, 1, 2, 2}}
	mm, err := m.(learn.ClassFitter).FitClasses(context.Background(), train, nil, 3, learn.Env{Seed: 1})
	if err != nil {
		panic(err)
	}
	b, _ := mm.MarshalBinary()
	loaded, err := m.(learn.ClassFitter).LoadClasses(b)
	if err != nil {
		panic(err)
	}
	p, _ := loaded.PredictProba(mat.NewDense(1, 2, []float64{5, 1.5}), nil)
	fmt.Printf("%d classes; P(class 1 | x0=5) = %.3f\n", loaded.NumClasses(), p[1])
	// Output:
	// 3 classes; P(class 1 | x0=5) = 0.824
}

func ExampleMultiModel_Class() {
	// Class c's trees alone: its margins and its TreeSHAP attributions
	// (XGBoost's pred_contribs for the class).
	x := mat.NewDense(6, 2, []float64{0, 1, 0, 2, 5, 1, 5, 2, 9, 1, 9, 2})
	m, err := boost.TrainMulti(context.Background(), boost.Data{X: x, Y: []int{0, 0, 1, 1, 2, 2}}, nil, 3,
		&boost.Settings{NEstimators: 5, MaxDepth: 2, MinChildWeight: -1})
	if err != nil {
		panic(err)
	}
	row := mat.NewDense(1, 2, []float64{9, 1})
	c2 := m.Class(2)
	phi, err := c2.SHAP(row, nil)
	if err != nil {
		panic(err)
	}
	margins, _ := m.Margins(row, nil)
	fmt.Printf("class 2 margin %.4f = base %.4f + %.4f (x0) + %.4f (x1)\n", margins[2], c2.SHAPBase(), phi.At(0, 0), phi.At(0, 1))
	// Output:
	// class 2 margin 1.3029 = base 0.4376 + 0.8653 (x0) + 0.0000 (x1)
}
