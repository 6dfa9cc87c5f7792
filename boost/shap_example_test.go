package boost_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
)

// TreeSHAP values split a row's margin (log-odds) among its features:
// the base value plus the values is the margin. The second feature is
// constant, so no tree splits on it and its value is 0.
func ExampleModel_SHAP() {
	x := mat.NewDense(8, 2, []float64{
		1, 5,
		2, 5,
		3, 5,
		4, 5,
		8, 5,
		math.NaN(), 5,
		10, 5,
		11, 5,
	})
	y := []int{0, 0, 0, 0, 1, 1, 1, 1}
	s := &boost.Settings{NEstimators: 10, MaxDepth: 2, MinChildWeight: -1}
	m, err := boost.Train(context.Background(), boost.Data{X: x, Y: y}, nil, s)
	if err != nil {
		panic(err)
	}
	rows := mat.NewDense(2, 2, []float64{2.5, 5, math.NaN(), 5})
	phi, err := m.SHAP(rows, nil)
	if err != nil {
		panic(err)
	}
	margin := m.PredictMargin(rows, nil)
	for i := range 2 {
		fmt.Printf("row %d: base %.3f + %.3f + %.3f = %.3f (margin %.3f)\n",
			i, m.SHAPBase(), phi.At(i, 0), phi.At(i, 1), m.SHAPBase()+phi.At(i, 0)+phi.At(i, 1), margin[i])
	}
	// Output:
	// row 0: base 0.000 + -1.869 + 0.000 = -1.869 (margin -1.869)
	// row 1: base 0.000 + 1.869 + 0.000 = 1.869 (margin 1.869)
}
