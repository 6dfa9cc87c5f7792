package mlp_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/mlp"
)

// The registered mlp-focal: the network behind imputation and
// standardisation, so features of any scale and missing values are fine.
// Early stopping watches the validation rows.
func ExampleNewStandardized() {
	train, valid, test := blobs(400, 8, 1, 21), blobs(100, 8, 1, 22), blobs(200, 8, 1, 23)
	for _, d := range []*learn.Data{train, valid, test} {
		for i := range d.Rows() {
			d.X.Set(i, 1, 1000*d.X.At(i, 1)) // a feature in other units
		}
	}
	train.X.Set(3, 0, math.NaN()) // a missing value takes the training mean

	m := mlp.NewStandardized()
	if err := m.Set("hidden1", "16"); err != nil {
		log.Fatal(err)
	}
	model, err := m.Fit(context.Background(), train, valid, learn.Env{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	p, err := learn.Predict(context.Background(), model, test.X, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("test ROC AUC %.2f\n", metrics.ROCAUC(test.Y, p, nil))
	sum := learn.SummaryOf(model).(*mlp.Summary)
	fmt.Println("hidden layers", sum.Hidden, "parameters", sum.Params, "validation", sum.Validation)
	fmt.Println(learn.ParamMap(m.Params())["alpha"], learn.ParamMap(m.Params())["gamma"])
	// Output:
	// test ROC AUC 1.00
	// hidden layers [16 32] parameters 625 validation given
	// 0.25 3
}

// Without validation data, a stratified tenth of the training rows is
// held out for early stopping.
func ExampleMethod_Fit() {
	x := mat.NewDense(40, 1, nil)
	y := make([]int, 40)
	for i := range 40 {
		x.Set(i, 0, float64(i%10)-4.5)
		if i%10 >= 8 {
			y[i] = 1
		}
	}
	m := mlp.NewMethod()
	model, err := m.Fit(context.Background(), &learn.Data{X: x, Y: y}, nil, learn.Env{Seed: 3})
	if err != nil {
		log.Fatal(err)
	}
	sum := model.(*mlp.Model).Summary().(*mlp.Summary)
	fmt.Println(sum.Validation, sum.HeldOut, "rows")
	p, _ := model.PositiveProba(mat.NewDense(2, 1, []float64{-4, 4}), nil)
	fmt.Println(p[0] < p[1])
	// Output:
	// held out 4 rows
	// true
}
