package decision

import (
	"math"
	"slices"
	"testing"

	"github.com/aer-go/aer/metrics"
)

// TestFitWeights checks the multi-class rules: argmax weighs every class 1;
// bayes divides by the training shares without validation rows, by the
// model's mean probabilities with them; tuned does not lower the
// validation balanced accuracy; Predict takes the largest weighted
// probability.
func TestFitWeights(t *testing.T) {
	ytrain := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 2}
	l, err := FitWeights(Options{Rule: RuleArgmax}, 3, ytrain, nil, nil, nil)
	if err != nil || !slices.Equal(l.Weights, []float64{1, 1, 1}) {
		t.Fatalf("argmax: %v %v", l, err)
	}
	l, err = FitWeights(Options{}, 3, ytrain, nil, nil, nil)
	if err != nil || l.Rule != RuleBayes {
		t.Fatal(err)
	}
	for c, want := range []float64{10.0 / 6, 10.0 / 3, 10} {
		if math.Abs(l.Weights[c]-want) > 1e-12 {
			t.Errorf("bayes weight %d: %v, want %v", c, l.Weights[c], want)
		}
	}
	yvalid := []int{0, 1, 2, 2}
	proba := []float64{0.8, 0.1, 0.1, 0.5, 0.4, 0.1, 0.3, 0.3, 0.4, 0.4, 0.4, 0.2}
	l, err = FitWeights(Options{Rule: RuleBayes}, 3, ytrain, nil, yvalid, proba)
	if err != nil {
		t.Fatal(err)
	}
	for c, mean := range []float64{0.5, 0.3, 0.2} {
		if math.Abs(l.Weights[c]-1/mean) > 1e-12 {
			t.Errorf("bayes weight %d with validation rows: %v, want %v", c, l.Weights[c], 1/mean)
		}
	}
	pred := make([]int, 4)
	l.Predict(proba, pred)
	if want := []int{0, 1, 2, 1}; !slices.Equal(pred, want) {
		t.Errorf("bayes predictions %v, want %v", pred, want)
	}
	(&Layer{Rule: RuleArgmax, Weights: []float64{1, 1, 1}}).Predict(proba, pred)
	if want := []int{0, 0, 2, 0}; !slices.Equal(pred, want) {
		t.Errorf("argmax predictions %v, want %v", pred, want)
	}
	if _, err := FitWeights(Options{Rule: RuleTuned}, 3, ytrain, nil, nil, nil); err == nil {
		t.Error("tuned without validation rows was accepted")
	}
	if _, err := FitWeights(Options{Rule: RuleBayes}, 3, []int{0, 1, 1}, nil, nil, nil); err == nil {
		t.Error("a class without training rows was accepted")
	}
	if err := (&Layer{Rule: "nosuch", Weights: []float64{1, 1}}).Check(); err == nil {
		t.Error("an unknown rule passed Check")
	}
}

// TestFitRuleCost checks the cost rule: the class of least expected cost
// under the probabilities (brute force), argmax under 0-1 costs, a
// costly class predicted more; and the tuned rule's metrics: tuning for
// macro F1 does not lower the validation macro F1.
func TestFitRuleCost(t *testing.T) {
	ytrain := []int{0, 0, 0, 0, 1, 1, 2}
	proba := []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.45, 0.1, 0.45, 0.1, 0.2, 0.7, 0.5, 0.25, 0.25}
	n := len(proba) / 3
	zeroOne := [][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}
	l, err := FitWeights(Options{Rule: RuleCost, Objective: &Objective{Matrix: zeroOne}}, 3, ytrain, nil, nil, nil)
	if err != nil || l.Check() != nil {
		t.Fatalf("cost: %v %v", l, err)
	}
	arg, _ := FitWeights(Options{Rule: RuleArgmax}, 3, ytrain, nil, nil, nil)
	a, b := make([]int, n), make([]int, n)
	l.Predict(proba, a)
	arg.Predict(proba, b)
	if !slices.Equal(a, b) {
		t.Errorf("0-1 costs predict %v, argmax %v", a, b)
	}
	costly := [][]float64{{0, 1, 1}, {1, 0, 1}, {3, 3, 0}}
	l, err = FitWeights(Options{Rule: RuleCost, Objective: &Objective{Matrix: costly}}, 3, ytrain, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Predict(proba, a)
	for i := range n {
		row := proba[i*3 : i*3+3]
		best, bv := 0, math.Inf(1)
		for j := range 3 {
			v := row[0]*costly[0][j] + row[1]*costly[1][j] + row[2]*costly[2][j]
			if v < bv {
				best, bv = j, v
			}
		}
		if a[i] != best {
			t.Errorf("row %d: predicted %d, least expected cost %d", i, a[i], best)
		}
	}
	if a[0] != 0 || a[2] != 2 || a[4] != 2 {
		t.Errorf("a costly class 2 is predicted at p 0.45 and 0.25: %v", a)
	}
	for _, bad := range []Options{
		{Rule: RuleCost}, {Rule: RuleCost, Objective: &Objective{Matrix: [][]float64{{0, 1}, {1, 0}}}}, {Rule: RuleBayes, Objective: &Objective{Matrix: zeroOne}},
		{Rule: RuleCost, Objective: &Objective{Matrix: [][]float64{{0, 1, 1}, {1, 0, -1}, {1, 1, 0}}}}, {Rule: RuleBayes, Objective: &Objective{Metric: metrics.F1}},
		{Rule: RuleTuned, Objective: &Objective{Metric: metrics.MCC}}, {Objective: &Objective{CostFN: 1, CostFP: 2}}, {Calibrate: Isotonic},
	} {
		if _, err := FitWeights(bad, 3, ytrain, nil, []int{0, 1, 2, 0, 0}, proba); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	yvalid := []int{0, 1, 2, 2, 0}
	l, err = FitWeights(Options{Rule: RuleTuned, Objective: &Objective{Metric: metrics.F1}}, 3, ytrain, nil, yvalid, proba)
	if err != nil || l.Metric != "macro_f1" {
		t.Fatalf("tuned for macro F1: %v %v", l, err)
	}
	start, _ := FitWeights(Options{Rule: RuleBayes}, 3, ytrain, nil, yvalid, proba)
	f1 := func(l *Layer) float64 {
		pred := make([]int, n)
		l.Predict(proba, pred)
		r, _ := metrics.EvaluateMulti(yvalid, pred, nil, 3, nil)
		return r.MacroF1
	}
	if f1(l) < f1(start) {
		t.Errorf("tuned macro F1 %v below the Bayes rule's %v", f1(l), f1(start))
	}
	if m, err := ParseCostMatrix(" 0,1,4; 1,0,4 ;9,9,0"); err != nil || !slices.Equal(m[2], []float64{9, 9, 0}) {
		t.Errorf("ParseCostMatrix: %v %v", m, err)
	}
	for _, bad := range []string{"0,1;1,0", "0,1,1;1,0", "0,1,1;1,0,x;1,1,0", "0,1,1;1,0,-2;1,1,0"} {
		if _, err := ParseCostMatrix(bad); err == nil {
			t.Errorf("ParseCostMatrix(%q): no error", bad)
		}
	}
}
