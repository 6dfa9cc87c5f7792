package metrics

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

type multiGolden struct {
	Name       string      `json:"name"`
	Classes    int         `json:"classes"`
	Y          []int       `json:"y"`
	Pred       []int       `json:"pred"`
	Weight     []float64   `json:"weight"`
	Prob       []float64   `json:"prob"`
	Confusion  [][]float64 `json:"confusion"`
	Recall     []float64   `json:"recall"`
	Precision  []float64   `json:"precision"`
	F1         []float64   `json:"f1"`
	Accuracy   float64     `json:"accuracy"`
	BA         float64     `json:"balanced_accuracy"`
	MacroF1    float64     `json:"macro_f1"`
	WeightedF1 float64     `json:"weighted_f1"`
	GMean      float64     `json:"gmean"`
	LogLoss    *float64    `json:"log_loss"`
	Brier      *float64    `json:"brier"`
	OvRAUC     *float64    `json:"ovr_roc_auc"`
	MAUC       *float64    `json:"mauc"`
}

// TestMultiGolden checks every multi-class metric against scikit-learn
// and imbalanced-learn (testdata/multiclass_golden.py): a hand-made case,
// weighted and not, a class only predicted, a zero recall, and a real
// case (glass, 6 classes, multinomial logistic regression).
func TestMultiGolden(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "multiclass_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []multiGolden }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 5 {
		t.Fatalf("%d golden cases", len(doc.Cases))
	}
	const tol = 1e-12
	near := func(c, what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: %s = %.15g, want %.15g", c, what, got, want)
		}
	}
	for _, g := range doc.Cases {
		r, err := EvaluateMulti(g.Y, g.Pred, g.Prob, g.Classes, g.Weight)
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		for i := range g.Confusion {
			for j := range g.Confusion[i] {
				near(g.Name, "confusion", r.Confusion[i][j], g.Confusion[i][j])
			}
			near(g.Name, "recall", r.Recall[i], g.Recall[i])
			near(g.Name, "precision", r.Precision[i], g.Precision[i])
			near(g.Name, "f1", r.F1[i], g.F1[i])
		}
		near(g.Name, "accuracy", r.Accuracy, g.Accuracy)
		near(g.Name, "balanced accuracy", r.BalancedAccuracy, g.BA)
		near(g.Name, "macro F1", r.MacroF1, g.MacroF1)
		near(g.Name, "weighted F1", r.WeightedF1, g.WeightedF1)
		near(g.Name, "G-mean", r.GMean, g.GMean)
		for _, m := range []struct {
			what string
			got  float64
			want *float64
		}{{"log-loss", r.LogLoss, g.LogLoss}, {"Brier", r.Brier, g.Brier}, {"OvR ROC-AUC", r.OvRAUC, g.OvRAUC}, {"MAUC", r.MAUC, g.MAUC}} {
			if m.want == nil {
				if g.Prob == nil && !math.IsNaN(m.got) {
					t.Errorf("%s: %s = %v without probabilities, want NaN", g.Name, m.what, m.got)
				}
				continue
			}
			near(g.Name, m.what, m.got, *m.want)
		}
	}
}

// TestMultiErrors checks the refusals.
func TestMultiErrors(t *testing.T) {
	for _, c := range []struct {
		y, pred []int
		prob    []float64
		k       int
		w       []float64
	}{
		{[]int{0, 1}, []int{0, 1}, nil, 1, nil},
		{[]int{0, 1}, []int{0}, nil, 2, nil},
		{[]int{0, 3}, []int{0, 1}, nil, 3, nil},
		{[]int{0, 1}, []int{0, 1}, []float64{0.5, 0.5, 2, -1}, 2, nil},
		{[]int{0, 1}, []int{0, 1}, nil, 2, []float64{1, math.NaN()}},
		{nil, nil, nil, 2, nil},
	} {
		if _, err := EvaluateMulti(c.y, c.pred, c.prob, c.k, c.w); !errors.Is(err, ErrMultiInput) {
			t.Errorf("%+v: err %v, want ErrMultiInput", c, err)
		}
	}
	// A class absent from the true rows leaves the AUCs undefined.
	r, err := EvaluateMulti([]int{0, 0, 1, 1}, []int{0, 1, 1, 1}, []float64{.8, .1, .1, .4, .5, .1, .2, .7, .1, .3, .6, .1}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(r.MAUC) || !math.IsNaN(r.OvRAUC) || math.IsNaN(r.LogLoss) {
		t.Errorf("missing class: MAUC %v, OvR %v, log-loss %v", r.MAUC, r.OvRAUC, r.LogLoss)
	}
}
