package learn_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
)

// Attribute spreads rows over workers and returns, per row, a base value
// and one attribution per feature that sum to the model's output in the
// attribution's space (the log-odds for a logistic regression).
func ExampleAttribute() {
	x := mat.NewDense(6, 2, []float64{0, 1, 1, 0, 2, 1, 3, 0, 4, 1, 5, 0})
	d := &learn.Data{X: x, Y: []int{0, 0, 1, 0, 1, 1}}
	m, err := logreg.Fit(context.Background(), d, nil, learn.Env{})
	if err != nil {
		panic(err)
	}
	a, err := learn.Attribute(context.Background(), m, x, 2)
	if err != nil {
		panic(err)
	}
	p, _ := m.PositiveProba(x, nil)
	fmt.Println("space:", a.Space)
	for i := range 3 {
		logOdds := math.Log(p[i] / (1 - p[i]))
		fmt.Printf("row %d: base %.3f, phi %.3f %.3f, output = log-odds: %v\n",
			i, math.Round(a.Base[i]*1000)/1000+0, a.Phi.At(i, 0), a.Phi.At(i, 1), math.Abs(a.Output(i)-logOdds) < 1e-12)
	}
	// Output:
	// space: logit
	// row 0: base 0.000, phi -1.990 0.281, output = log-odds: true
	// row 1: base 0.000, phi -1.194 -0.281, output = log-odds: true
	// row 2: base 0.000, phi -0.398 0.281, output = log-odds: true
}
