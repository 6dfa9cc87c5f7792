package explain_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
)

// Permutation importance of boosted trees on a task whose first feature
// is informative and whose other two are noise: shuffling the first
// costs ROC-AUC, shuffling the others next to nothing.
func ExamplePermutation() {
	g, err := synth.Generate(&synth.Settings{Samples: 600, Features: 3, Informative: 1, Redundant: synth.None,
		Clusters: 1, Ratio: 3, NoShuffle: true}, 1)
	if err != nil {
		panic(err)
	}
	d := &learn.Data{X: g.X, Y: g.Y, Features: []string{"signal", "noise1", "noise2"}}
	m, err := boost.NewMethod().Fit(context.Background(), d, nil, learn.Env{Seed: 1})
	if err != nil {
		panic(err)
	}
	r, err := explain.Permutation(context.Background(), m, d, &explain.PermutationSettings{Repeats: 3}, learn.Env{Seed: 7})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s baseline %.2f\n", r.Metric, r.Baseline)
	for _, f := range r.Features {
		fmt.Printf("%-7s drop > 0.1: %v\n", f.Feature, f.Mean > 0.1)
	}
	// Output:
	// roc_auc baseline 1.00
	// signal  drop > 0.1: true
	// noise1  drop > 0.1: false
	// noise2  drop > 0.1: false
}

// One row's attributions as aer explain and aer serve show them: the
// one-hot features of a categorical column summed into one value, named
// by the row's category, largest first.
func ExampleRow() {
	// Features: age, color=blue, color=red.
	a := &learn.Attribution{Space: learn.Logit, Base: []float64{-2},
		Phi: mat.NewDense(1, 3, []float64{0.25, 0, 1.5})}
	cols := []explain.Column{{Name: "age", Feature: 0}, {Name: "color", Feature: 1, Values: []string{"blue", "red"}}}
	r := explain.Row(a, 0, []float64{61, 0, 1}, cols, 0)
	fmt.Printf("base %v + attributions = output %v\n", r.Base, r.Output)
	for _, v := range r.Values {
		fmt.Printf("%s = %v: %+.2f\n", v.Feature, v.Value, v.Attribution)
	}
	// Output:
	// base -2 + attributions = output -0.25
	// color = red: +1.50
	// age = 61: +0.25
}
