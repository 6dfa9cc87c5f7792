package adaboost_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/adaboost"
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
	// imbalanced-learn's RUSBoostClassifier(): 50 rounds of SAMME.R over
	// stumps, each on a random under-sample of the majority class.
	m := adaboost.NewRUSBoost()
	model, err := m.Fit(context.Background(), imbalanced(), nil, learn.Env{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	e := model.(*adaboost.Model).Ensembles()[0]
	fmt.Printf("%d rounds; the first stump splits on %s\n", len(e.Trees), []string{"signal", "noise1", "noise2"}[e.Trees[0].Feature[0]])
	p, err := model.PositiveProba(mat.NewDense(2, 3, []float64{-1, 0, 0, 3, 0, 0}), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("P(1 | signal -1) < 0.5: %v; P(1 | signal 3) > 0.5: %v\n", p[0] < 0.5, p[1] > 0.5)
	// Output:
	// 50 rounds; the first stump splits on signal
	// P(1 | signal -1) < 0.5: true; P(1 | signal 3) > 0.5: true
}

func ExampleNewEasyEnsemble() {
	m := adaboost.NewEasyEnsemble()
	for _, p := range m.Params()[:4] {
		fmt.Printf("%s=%s\n", p.Key, p.Value)
	}
	model, err := m.Fit(context.Background(), imbalanced(), nil, learn.Env{Seed: 1, Workers: 2})
	if err != nil {
		log.Fatal(err)
	}
	e, err := model.(learn.Explainer).Explain([]float64{3, 0, 0})
	if err != nil {
		log.Fatal(err)
	}
	x := e.(*adaboost.Explanation)
	fmt.Printf("%d ensembles; score > 0.5: %v\n", len(x.Ensembles), x.Score > 0.5)
	// Output:
	// n_estimators=10
	// replacement=false
	// rounds=50
	// learning_rate=1
	// 10 ensembles; score > 0.5: true
}

// Fit boosts one ensemble: here scikit-learn's AdaBoostClassifier() on
// six rows that one stump separates, so boosting stops after one round.
func ExampleFit() {
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 3, 4, 5})
	d := &learn.Data{X: x, Y: []int{0, 0, 0, 1, 1, 1}}
	e, err := adaboost.Fit(context.Background(), d, adaboost.Settings{}, 0, 1, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d tree, error %v, threshold %v\n", len(e.Trees), e.Errors[0], e.Trees[0].Threshold[0])
	// A pure leaf's probabilities are clipped at the machine epsilon: the
	// decision is log(1/eps).
	fmt.Printf("decision %.4f, P(1) %.3g\n", e.Decision([]float64{4}), 1-e.PredictRow([]float64{4}))
	// Output:
	// 1 tree, error 0, threshold 2.5
	// decision 36.0437, P(1) 2.22e-16
}

func ExampleExplanation_WriteText() {
	m := adaboost.NewRUSBoost()
	_ = m.Set("n_estimators", "5")
	model, err := m.Fit(context.Background(), imbalanced(), nil, learn.Env{Seed: 3})
	if err != nil {
		log.Fatal(err)
	}
	e, _ := model.(learn.Explainer).Explain([]float64{3, 0, 0})
	e.WriteText(os.Stdout)
	// Output:
	// score 0.7584
	//   ensemble: P(1) 0.7584, decision +1.1442 (mean of 5 rounds' log p1 - log p0; largest round 2 +36.044, round 5 -31.845, round 1 +1.447)
}
