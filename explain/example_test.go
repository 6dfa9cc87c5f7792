package explain_test

import (
	"context"
	"fmt"

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
