package aer_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/cv"
)

// Cross-validate boosted trees on a table of three classes: folds
// stratified on every class, each round fitted with its multi-class
// decision and scored by the multi-class metrics.
func ExampleCrossValidate_classes() {
	n := 600
	x1, x2 := make([]float64, n), make([]float64, n)
	label := make([]string, n)
	for i := range n {
		x1[i], x2[i] = math.Sin(float64(i)), math.Cos(float64(7*i))
		switch {
		case x1[i] > 0.8:
			label[i] = "rare"
		case x1[i]+x2[i] > 0.5:
			label[i] = "middle"
		default:
			label[i] = "common"
		}
	}
	t, err := aer.NewTable([]aer.Column{{Name: "x1", Values: x1}, {Name: "x2", Values: x2}, {Name: "label", Values: label}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	gbdt, _ := aer.Method("gbdt")
	s := &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=30"}}, Env: aer.Env{Seed: 1}}
	res, err := aer.CrossValidate(context.Background(), t, s, gbdt, &cv.Settings{Folds: 5}, nil)
	if err != nil {
		log.Fatal(err)
	}
	sum, err := res.Summaries("balanced_accuracy", "mauc")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("classes:", t.Dataset().Classes, "rounds:", len(res.Rounds))
	fmt.Println("mean balanced accuracy above 0.9:", sum[0].Mean > 0.9, "MAUC above 0.95:", sum[1].Mean > 0.95)
	// Output:
	// classes: [common middle rare] rounds: 5
	// mean balanced accuracy above 0.9: true MAUC above 0.95: true
}
