package forest_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/forest"
	"github.com/aer-go/aer/learn"
)

// imbalanced returns 400 rows, 1 in 10 of class 1, which the first
// feature separates partly.
func imbalanced() *learn.Data {
	r := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(400, 3, nil)
	y := make([]int, 400)
	for i := range 400 {
		if i%10 == 0 {
			y[i] = 1
		}
		x.Set(i, 0, r.NormFloat64()+2*float64(y[i]))
		x.Set(i, 1, r.NormFloat64())
		x.Set(i, 2, r.NormFloat64())
	}
	return &learn.Data{X: x, Y: y, Features: []string{"signal", "noise1", "noise2"}}
}

func Example() {
	// imbalanced-learn's BalancedRandomForestClassifier, with 50 trees.
	m := forest.NewBalancedRF()
	if err := m.Set("n_estimators", "50"); err != nil {
		log.Fatal(err)
	}
	model, err := m.Fit(context.Background(), imbalanced(), nil, learn.Env{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	s := model.(learn.Summarizer).Summary().(*forest.Summary)
	fmt.Println(s.Trees, "trees; most important:", s.Importance[0].Feature)
	p, err := model.PositiveProba(mat.NewDense(2, 3, []float64{-1, 0, 0, 3, 0, 0}), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("P(1 | signal -1) < 0.5: %v; P(1 | signal 3) > 0.5: %v\n", p[0] < 0.5, p[1] > 0.5)
	e, _ := model.(learn.Explainer).Explain([]float64{3, 0, 0})
	e.WriteText(os.Stdout)
	// Output:
	// 50 trees; most important: signal
	// P(1 | signal -1) < 0.5: true; P(1 | signal 3) > 0.5: true
	// score 0.9800, the mean of 50 trees; trees by probability: [0,0.2) 1, [0.2,0.4) 0, [0.4,0.6) 0, [0.6,0.8) 0, [0.8,1] 49
}

func ExampleNewBalancedBagging() {
	m := forest.NewBalancedBagging()
	for _, p := range m.Params()[:3] {
		fmt.Printf("%s=%s\n", p.Key, p.Value)
	}
	model, err := m.Fit(context.Background(), imbalanced(), nil, learn.Env{Seed: 1, Workers: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(learn.NumParams(model) > 10)
	// Output:
	// n_estimators=10
	// bootstrap=true
	// replacement=false
	// true
}
