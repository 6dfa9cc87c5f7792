package logreg_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
)

// Fit with the defaults: balanced class weights, C 1, solved to the
// optimum by Newton's method (scikit-learn's LogisticRegression with
// class_weight='balanced' and a tight tol gives the same numbers).
func ExampleFit() {
	train := &learn.Data{
		X:        mat.NewDense(8, 1, []float64{-3, -2, -1, 0, 1, 2, 2.5, 3}),
		Y:        []int{0, 0, 0, 0, 1, 0, 1, 1},
		Features: []string{"dose"},
	}
	m, err := logreg.Fit(context.Background(), train, nil, learn.Env{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.PositiveProba(mat.NewDense(2, 1, []float64{0, 2}), nil)
	fmt.Printf("w %.4f, b %.4f\n", m.Coef[0], m.Intercept)
	fmt.Printf("P(y=1 | dose 0) = %.4f, P(y=1 | dose 2) = %.4f\n", p[0], p[1])
	fmt.Println(m.Summary().(*logreg.Summary).Converged)
	// Output:
	// w 0.8984, b -0.7773
	// P(y=1 | dose 0) = 0.3149, P(y=1 | dose 2) = 0.7349
	// true
}

// The registered method standardises the features inside the model and
// takes its parameters as text, as aer fit --param does.
func ExampleNewStandardized() {
	m := logreg.NewStandardized()
	if err := m.Set("C", "0.5"); err != nil {
		fmt.Println(err)
		return
	}
	if err := m.Set("class_weight", "0:1,1:3"); err != nil {
		fmt.Println(err)
		return
	}
	train := &learn.Data{
		X: mat.NewDense(6, 2, []float64{
			100, 1, 120, 0, 130, 1,
			180, 0, 200, 1, 210, 0}),
		Y: []int{0, 0, 0, 1, 1, 1},
	}
	model, err := m.Fit(context.Background(), train, nil, learn.Env{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := model.PositiveProba(mat.NewDense(1, 2, []float64{150, 1}), nil)
	fmt.Printf("%d parameters, P(y=1) = %.4f\n", learn.NumParams(model), p[0])
	fmt.Println(learn.ParamMap(m.Params())["class_weight"])
	// Output:
	// 3 parameters, P(y=1) = 0.5832
	// 0:1,1:3
}

func ExampleParseClassWeight() {
	for _, s := range []string{"balanced", "none", "1:5"} {
		cw, _ := logreg.ParseClassWeight(s)
		w0, w1 := cw.Weights(90, 10) // total row weight of label 0 and of label 1
		fmt.Printf("%-8s -> %-8s label 0 rows weigh %.4g, label 1 rows %.4g\n", s, cw, w0, w1)
	}
	// Output:
	// balanced -> balanced label 0 rows weigh 0.5556, label 1 rows 5
	// none     -> none     label 0 rows weigh 1, label 1 rows 1
	// 1:5      -> 0:1,1:5  label 0 rows weigh 1, label 1 rows 5
}
