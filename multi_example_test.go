package aer_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
)

// Fit boosted trees on a table of three classes (softmax, natively),
// with a cost matrix: a missed "rare" row costs ten times any other
// mistake, so the decision predicts "rare" at a lower probability than
// the most probable class would.
func Example_multiClass() {
	n := 900
	x1, x2 := make([]float64, n), make([]float64, n)
	label := make([]string, n)
	for i := range n {
		x1[i], x2[i] = math.Sin(float64(i)), math.Cos(float64(7*i))
		switch {
		case x1[i]+0.3*x2[i] > 0.85:
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
	train, valid := t.Subset(rowsOf(0, 600)), t.Subset(rowsOf(600, 900))
	cost, err := decision.ParseCostMatrix("0,1,1;1,0,1;10,10,0") // rows: the true class, in label order
	if err != nil {
		log.Fatal(err)
	}
	gbdt, _ := aer.Method("gbdt")
	model, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=30"}, Decision: decision.Options{Objective: &decision.Objective{Matrix: cost}}}, Env: aer.Env{Seed: 1}}, gbdt)
	if err != nil {
		log.Fatal(err)
	}
	preds, err := model.Predict(context.Background(), valid, nil)
	if err != nil {
		log.Fatal(err)
	}
	k := len(preds.Classes)
	sum := 0.0
	for _, p := range preds.Proba[:k] {
		sum += p
	}
	rare, caught := 0, 0
	for i, y := range preds.Label {
		if preds.Classes[y] == "rare" {
			rare++
			if preds.Class(i) == "rare" {
				caught++
			}
		}
	}
	fmt.Println("classes:", model.Classes(), "decision:", model.Layer().Rule)
	fmt.Println("first row's probabilities sum to 1:", math.Abs(sum-1) < 1e-12)
	fmt.Println("rare rows caught above 90%:", float64(caught)/float64(rare) > 0.9)
	// Output:
	// classes: [common middle rare] decision: cost
	// first row's probabilities sum to 1: true
	// rare rows caught above 90%: true
}

// rowsOf lists the rows from i to j-1.
func rowsOf(i, j int) []int {
	out := make([]int, 0, j-i)
	for r := i; r < j; r++ {
		out = append(out, r)
	}
	return out
}
