package decision_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/decision"
)

// minorityFirst is a rule registered from outside the package: every
// class weighs 1 but the rarest training class, which weighs 4.
func minorityFirst(d decision.RuleData) ([]float64, error) {
	n := make([]float64, d.Classes)
	for _, y := range d.TrainY {
		n[y]++
	}
	w := make([]float64, d.Classes)
	rare := 0
	for c := range w {
		w[c] = 1
		if n[c] < n[rare] {
			rare = c
		}
	}
	w[rare] = 4
	return w, nil
}

func init() { decision.RegisterRule("minority-first", minorityFirst) }

// TestRegisteredRule: a rule registered from outside the package is
// listed, accepted by Options, fits the weights it returns, decides with
// them, and its layer survives the model file's JSON and Check.
func TestRegisteredRule(t *testing.T) {
	if !slices.Contains(decision.RuleNames(), "minority-first") {
		t.Fatalf("RuleNames %v lacks the registered rule", decision.RuleNames())
	}
	opt := decision.Options{Rule: "minority-first"}
	if err := opt.CheckClasses(3); err != nil {
		t.Fatalf("CheckClasses(3): %v", err)
	}
	if err := opt.CheckClasses(2); err == nil {
		t.Errorf("CheckClasses(2) took a rule of class weights for two classes")
	}
	ytrain := []int{0, 0, 0, 0, 1, 1, 1, 2}
	l, err := decision.FitWeights(opt, 3, ytrain, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Rule != "minority-first" || !slices.Equal(l.Weights, []float64{1, 1, 4}) {
		t.Fatalf("layer %+v, want rule minority-first, weights 1 1 4", l)
	}
	// A row at 0.5, 0.3, 0.2: argmax says class 0, the rule's weights
	// class 2 (4 x 0.2 = 0.8 > 0.5).
	pred := make([]int, 1)
	l.Predict([]float64{0.5, 0.3, 0.2}, pred)
	if pred[0] != 2 {
		t.Errorf("predicted class %d, want 2", pred[0])
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back decision.Layer
	if err := json.Unmarshal(b, &back); err != nil || back.Check() != nil || !slices.Equal(back.Weights, l.Weights) {
		t.Fatalf("%s read back as %+v (%v, %v)", b, back, err, back.Check())
	}
	if err := (&decision.Layer{Rule: "nosuch-rule", Weights: []float64{1, 1, 1}}).Check(); err == nil || !strings.Contains(err.Error(), "minority-first") {
		t.Errorf("an unregistered rule: %v, want an error listing the rules", err)
	}
}

// TestLayerJSON: a layer writes the JSON of its number of classes, as
// model files always had it, and refuses a mix of the two on reading.
func TestLayerJSON(t *testing.T) {
	two := &decision.Layer{Threshold: 0.25, Objective: "precision at recall >= 0.8", Value: 0.5, Rule: decision.RuleTuned}
	b, _ := json.Marshal(two)
	if want := `{"threshold":0.25,"objective":"precision at recall \u003e= 0.8","valid_value":0.5,"rule":"tuned"}`; string(b) != want {
		t.Errorf("two classes: %s, want %s", b, want)
	}
	k := &decision.Layer{Rule: decision.RuleCost, Weights: []float64{1, 1, 1}, Cost: [][]float64{{0, 1, 1}, {2, 0, 2}, {3, 3, 0}}}
	b, _ = json.Marshal(k)
	if want := `{"rule":"cost","weights":[1,1,1],"cost":[[0,1,1],[2,0,2],[3,3,0]]}`; string(b) != want {
		t.Errorf("three classes: %s, want %s", b, want)
	}
	var l decision.Layer
	for _, bad := range []string{
		`{"threshold":0.5,"weights":[1,1,1],"rule":"bayes"}`,
		`{"metric":"gmean","threshold":0.5,"objective":"x","valid_value":0}`,
		`{"rule":"bayes","weights":[1,1,1],"extra":1}`,
	} {
		if err := json.Unmarshal([]byte(bad), &l); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
	// The two-class case of class weights: a threshold predicts class 1
	// where its probability reaches it.
	pred := make([]int, 3)
	(&decision.Layer{Threshold: 0.3}).Predict([]float64{0.8, 0.2, 0.7, 0.3, 0.1, 0.9}, pred)
	if !slices.Equal(pred, []int{0, 1, 1}) {
		t.Errorf("threshold 0.3 predicted %v, want 0 1 1", pred)
	}
}
