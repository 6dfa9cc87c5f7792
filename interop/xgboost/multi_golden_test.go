package xgboost

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// multiGolden is XGBoost's predictions of a multi-class fixture's rows
// (testdata/make_multi.py).
type multiGolden struct {
	Proba  [][]float64 `json:"proba"`
	Margin [][]float64 `json:"margin"`
	Label  []int       `json:"label"`
}

// The multi-class models of testdata/make_multi.py (multi:softprob and
// multi:softmax; missing values, a categorical feature split by
// partitions, dart with two trees per class per round; JSON and UBJSON):
// the converted model's class probabilities are within 1e-6 of XGBoost's
// (it sums its leaves in float32), its margins within 1e-5, and the most
// probable class is XGBoost's on every row.
func TestMultiGolden(t *testing.T) {
	cases := []struct {
		name, model string
		classes     int
		objective   string
	}{
		{"multi", "multi.json", 4, SoftProb},
		{"multi", "multi.ubj", 4, SoftProb},
		{"softmax", "softmax.ubj", 3, SoftMax},
		{"multicat", "multicat.json", 3, SoftProb},
		{"forest", "forest.json", 3, SoftProb},
	}
	for _, tc := range cases {
		t.Run(tc.model, func(t *testing.T) {
			m := readModel(t, tc.model)
			if m.Objective != tc.objective || m.NumClass != tc.classes || !m.Multi() {
				t.Fatalf("objective %q, %d classes; want %q, %d", m.Objective, m.NumClass, tc.objective, tc.classes)
			}
			if _, err := m.Boost(); err == nil {
				t.Error("Boost of a multi-class model: no error")
			}
			mm, err := m.BoostMulti()
			if err != nil {
				t.Fatal(err)
			}
			var g multiGolden
			b, err := os.ReadFile(filepath.Join("testdata", tc.name+".golden.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &g); err != nil {
				t.Fatal(err)
			}
			x := readCSV(t, filepath.Join("testdata", tc.name+".csv"))
			proba, err := mm.PredictProba(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			margin, err := mm.Margins(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			k := tc.classes
			worstP, worstM, wrong := 0.0, 0.0, 0
			for i := range g.Proba {
				best := 0
				for c := range k {
					worstP = max(worstP, math.Abs(proba[i*k+c]-g.Proba[i][c]))
					worstM = max(worstM, math.Abs(margin[i*k+c]-g.Margin[i][c]))
					if proba[i*k+c] > proba[i*k+best] {
						best = c
					}
				}
				if best != g.Label[i] {
					wrong++
				}
			}
			t.Logf("%s: %d rows, %d classes, %d rounds: max |p - XGBoost's| = %.3g, max |margin - XGBoost's| = %.3g, %d labels differ",
				tc.model, len(g.Proba), k, len(mm.Trees), worstP, worstM, wrong)
			if !(worstP <= 1e-6) || !(worstM <= 1e-5) || wrong > 0 {
				t.Errorf("max |p - XGBoost's| = %.3g (want <= 1e-6), max |margin| = %.3g (want <= 1e-5), %d labels differ (want 0)", worstP, worstM, wrong)
			}
		})
	}
}

// XGBoost 3.1's vector base_score: one margin per class, each class's
// margin starting from its own; a vector of the wrong length is refused.
func TestMultiClassBaseScores(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "multi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	param := doc["learner"].(map[string]any)["learner_model_param"].(map[string]any)
	param["base_score"] = "[-2.5E-1,5E-1,1.25E0,5E-1]"
	v, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(v)
	if err != nil {
		t.Fatal(err)
	}
	orig := readModel(t, "multi.json")
	mm, err := m.BoostMulti()
	if err != nil {
		t.Fatal(err)
	}
	om, err := orig.BoostMulti()
	if err != nil {
		t.Fatal(err)
	}
	x := readCSV(t, filepath.Join("testdata", "multi.csv"))
	got, _ := mm.Margins(x, nil)
	want, _ := om.Margins(x, nil)
	shift := []float64{-0.75, 0, 0.75, 0}
	for i := range got {
		if d := got[i] - want[i] - shift[i%4]; math.Abs(d) > 1e-12 {
			t.Fatalf("margin %d: %v, want %v + %v", i, got[i], want[i], shift[i%4])
		}
	}
	param["base_score"] = "[1E-1,2E-1]"
	v, _ = json.Marshal(doc)
	if _, err := Decode(v); err == nil {
		t.Error("two base scores for four classes: no error")
	}
}
