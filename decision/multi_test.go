package decision

import (
	"math"
	"slices"
	"testing"
)

// TestFitMulti checks the multi-class rules: argmax weighs every class 1;
// bayes divides by the training shares without validation rows, by the
// model's mean probabilities with them; tuned does not lower the
// validation balanced accuracy; Predict takes the largest weighted
// probability.
func TestFitMulti(t *testing.T) {
	ytrain := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 2}
	l, err := FitMulti(MultiArgmax, 3, ytrain, nil, nil, nil)
	if err != nil || !slices.Equal(l.Weights, []float64{1, 1, 1}) {
		t.Fatalf("argmax: %v %v", l, err)
	}
	l, err = FitMulti("", 3, ytrain, nil, nil, nil)
	if err != nil || l.Rule != MultiBayes {
		t.Fatal(err)
	}
	for c, want := range []float64{10.0 / 6, 10.0 / 3, 10} {
		if math.Abs(l.Weights[c]-want) > 1e-12 {
			t.Errorf("bayes weight %d: %v, want %v", c, l.Weights[c], want)
		}
	}
	yvalid := []int{0, 1, 2, 2}
	proba := []float64{0.8, 0.1, 0.1, 0.5, 0.4, 0.1, 0.3, 0.3, 0.4, 0.4, 0.4, 0.2}
	l, err = FitMulti(MultiBayes, 3, ytrain, nil, yvalid, proba)
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
	(&MultiLayer{Rule: MultiArgmax, Weights: []float64{1, 1, 1}}).Predict(proba, pred)
	if want := []int{0, 0, 2, 0}; !slices.Equal(pred, want) {
		t.Errorf("argmax predictions %v, want %v", pred, want)
	}
	if _, err := FitMulti(MultiTuned, 3, ytrain, nil, nil, nil); err == nil {
		t.Error("tuned without validation rows was accepted")
	}
	if _, err := FitMulti(MultiBayes, 3, []int{0, 1, 1}, nil, nil, nil); err == nil {
		t.Error("a class without training rows was accepted")
	}
	if err := (&MultiLayer{Rule: "nosuch", Weights: []float64{1, 1}}).Check(); err == nil {
		t.Error("an unknown rule passed Check")
	}
}
