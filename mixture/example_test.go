package mixture_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/mixture"
)

// blobs returns n rows around (0,0) and (8,8).
func blobs(n int) *mat.Dense {
	r := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		c := float64(8 * (i % 2))
		x.Set(i, 0, c+r.NormFloat64())
		x.Set(i, 1, c+r.NormFloat64())
	}
	return x
}

func ExampleFit() {
	x := blobs(400)
	m, res, err := mixture.Fit(context.Background(), x, &mixture.Settings{Components: 2, NInit: 5, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("converged %v, %d parameters\n", res.Converged, m.NParameters())
	fmt.Printf("weights %.2f\n", m.Weights)
	resp, _ := m.Responsibilities(mat.NewDense(1, 2, []float64{8, 8}), nil)
	fmt.Printf("responsibilities of (8,8): %.3f\n", mat.Row(nil, 0, resp))
	// Output:
	// converged true, 11 parameters
	// weights [0.50 0.50]
	// responsibilities of (8,8): [1.000 0.000]
}

func ExampleSelect() {
	x := blobs(400)
	sel, err := mixture.Select(context.Background(), x, []int{1, 2, 3, 4}, &mixture.Settings{Covariance: mixture.Diag, NInit: 3})
	if err != nil {
		panic(err)
	}
	for _, c := range sel.Candidates {
		fmt.Printf("L=%d BIC %.1f\n", c.Components, c.BIC)
	}
	fmt.Println("chosen", sel.Components)
	// Output:
	// L=1 BIC 4568.5
	// L=2 BIC 2893.3
	// L=3 BIC 2921.4
	// L=4 BIC 2942.2
	// chosen 2
}

func ExampleModel_UnmarshalJSON() {
	m, err := mixture.NewModel(mixture.Spherical, []float64{0.25, 0.75},
		[][]float64{{0, 0}, {3, 4}}, [][]float64{{1}, {2}})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(m)
	fmt.Println(string(b))
	var back mixture.Model
	if err := json.Unmarshal(b, &back); err != nil {
		panic(err)
	}
	ll, _ := back.ScoreSamples(mat.NewDense(1, 2, []float64{3, 4}), nil)
	fmt.Printf("log p(3,4) = %.4f\n", ll[0])
	// Output:
	// {"covariance":"spherical","weights":[0.25,0.75],"means":[[0,0],[3,4]],"covariances":[[1],[2]]}
	// log p(3,4) = -2.8187
}

// ComponentLogDensity gives log N(x | mu_l, Sigma_l) without the weights:
// AER ranks majority rows by it to build one subset per component.
func ExampleModel_ComponentLogDensity() {
	m, err := mixture.NewModel(mixture.Diag, []float64{0.5, 0.5},
		[][]float64{{0, 0}, {4, 0}}, [][]float64{{1, 1}, {1, 4}})
	if err != nil {
		panic(err)
	}
	x := mat.NewDense(2, 2, []float64{0, 0, 4, 1})
	dens, _ := m.ComponentLogDensity(x, nil)
	fmt.Printf("%.4f\n", mat.Formatted(dens))
	resp, _ := m.Responsibilities(x, nil)
	fmt.Printf("%.4f\n", mat.Formatted(resp))
	// Output:
	// ⎡ -1.8379  -10.5310⎤
	// ⎣-10.3379   -2.6560⎦
	// ⎡0.9998  0.0002⎤
	// ⎣0.0005  0.9995⎦
}

// A component holding a thousandth of 100 rows has collapsed.
func ExampleModel_Collapsed() {
	m := &mixture.Model{Covariance: mixture.Diag, Weights: []float64{0.999, 0.001},
		Means: [][]float64{{0}, {5}}, Covariances: [][]float64{{1}, {1}}}
	for _, c := range m.Collapsed(100, 0) {
		fmt.Printf("component %d: %s\n", c.Component, c.Reason)
	}
	// Output:
	// component 1: weight 0.001 is less than one row's worth (0.1 of 100 rows)
}
