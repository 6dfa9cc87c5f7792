package metrics

import (
	"errors"
	"math"
	"testing"
)

// TestTableTwoClasses: for two classes, the k-class form of balanced
// accuracy, G-mean and accuracy equals the two-class one on the same
// counts, and Value takes the two-class form.
func TestTableTwoClasses(t *testing.T) {
	for _, c := range []Confusion{{TP: 16, FP: 43, TN: 235, FN: 6}, {TP: 3, FP: 0, TN: 7, FN: 1}, {TP: 0, FP: 2, TN: 5, FN: 4}} {
		o := OutcomeOf(c)
		if o.Confusion() != c {
			t.Fatalf("%v: back %v", c, o.Confusion())
		}
		for _, m := range []Metric{BalancedAccuracy, GMean, Accuracy} {
			d, _ := m.Def()
			if k, two := d.Of(o), m.Of(c); math.Abs(k-two) > 1e-15 {
				t.Errorf("%v %s: k-class %v, two-class %v", c, m, k, two)
			}
			if v := m.Value(o); v != m.Of(c) {
				t.Errorf("%v %s: Value %v, Of %v", c, m, v, m.Of(c))
			}
		}
		if v := MacroF1.Of(c); v != classMacroF1(o) {
			t.Errorf("macro F1 of two classes %v", v)
		}
		if v := MAUC.Of(c); !math.IsNaN(v) {
			t.Errorf("a metric of probabilities from counts: %v", v)
		}
	}
}

// TestTableValuesMatchReport: every metric a MultiReport holds is the
// table's value on the same rows, bit for bit, with and without weights.
func TestTableValuesMatchReport(t *testing.T) {
	y := []int{0, 0, 1, 2, 2, 1, 0, 2, 1, 1}
	pred := []int{0, 1, 1, 2, 0, 1, 0, 2, 2, 1}
	prob := make([]float64, 3*len(y))
	for i, p := range pred {
		for c := range 3 {
			prob[3*i+c] = 0.2
		}
		prob[3*i+p] = 0.6
	}
	for _, w := range [][]float64{nil, {1, 0.5, 2, 1, 0.25, 1, 3, 1, 0.1, 1}} {
		r, err := EvaluateMulti(y, pred, prob, 3, w)
		if err != nil {
			t.Fatal(err)
		}
		o, err := NewOutcome(y, pred, prob, 3, w)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range Registered() {
			want, ok := r.Get(m.String())
			if !ok {
				continue
			}
			if got := m.Value(o); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("weights %v: %s: table %v, report %v", w != nil, m, got, want)
			}
		}
	}
}

// TestRegisterErrors: names and definitions the table refuses.
func TestRegisterErrors(t *testing.T) {
	for _, d := range []Def{
		{Name: "", TwoClass: Confusion.F1},
		{Name: "Upper", TwoClass: Confusion.F1},
		{Name: "a b", TwoClass: Confusion.F1},
		{Name: "nothing"},
		{Name: "bad_classes", TwoClass: Confusion.F1, Classes: 3},
		{Name: "proba_without_of", TwoClass: Confusion.F1, Proba: true},
		{Name: "f1", TwoClass: Confusion.F1},
	} {
		if _, err := Register(d); !errors.Is(err, ErrRegister) {
			t.Errorf("%+v: %v", d.Name, err)
		}
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("unknown name found")
	}
	if m, err := Lookup("MAUC"); err != nil || m != MAUC {
		t.Errorf("Lookup(MAUC): %v %v", m, err)
	}
	if _, err := ParseMetric("macro_f1"); err == nil {
		t.Error("a metric without a two-class form taken for a threshold")
	}
	if len(AllMetrics()) != int(numMetrics) {
		t.Errorf("%d metrics of a Confusion", len(AllMetrics()))
	}
}
