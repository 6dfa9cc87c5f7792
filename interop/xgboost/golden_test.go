package xgboost

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// goldenCase is XGBoost's predictions of a fixture's rows (testdata/make.py).
type goldenCase struct {
	Predict  []float64   `json:"predict"`
	Margin   []float64   `json:"margin"`
	Contribs [][]float64 `json:"contribs"`
	Leaves   [][]int32   `json:"leaves"`
}

// fixtures are the models of testdata/make.py: file, CSV, whether
// Booster.predict gives probabilities (binary:logistic) or margins.
var fixtures = []struct {
	name, model string
	proba       bool
}{
	{"plain", "plain.json", true},
	{"plain", "plain.ubj", true},
	{"missing", "missing.ubj", false},
	{"many", "many.json", true},
	{"categorical", "categorical.json", true},
	{"dart", "dart.ubj", true},
}

// readCSV reads a fixture's CSV: the features (empty cells NaN), without
// the label (the last column).
func readCSV(t *testing.T, path string) *mat.Dense {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	nf := len(recs[0]) - 1
	x := mat.NewDense(len(recs)-1, nf, nil)
	for i, r := range recs[1:] {
		for j := range nf {
			v := math.NaN()
			if r[j] != "" {
				if v, err = strconv.ParseFloat(r[j], 64); err != nil {
					t.Fatalf("%s line %d: %v", path, i+2, err)
				}
			}
			x.Set(i, j, v)
		}
	}
	return x
}

func readModel(t *testing.T, name string) *Model {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// checkGolden compares the converted model with XGBoost's predictions of
// the rows of x: the leaf every tree reaches (exactly), the scores
// within 1e-6, the margins and the TreeSHAP values with the bias within
// 1e-5 (XGBoost sums in float32), and returns the largest differences.
func checkGolden(t *testing.T, label string, m *Model, x *mat.Dense, g *goldenCase, proba bool) (score, margin, shap float64) {
	t.Helper()
	bm, err := m.Boost()
	if err != nil {
		t.Fatal(err)
	}
	n, nf := x.Dims()
	if len(g.Margin) != n || len(g.Predict) != n || len(g.Contribs) != n {
		t.Fatalf("%s: golden file has %d margins for %d rows", label, len(g.Margin), n)
	}
	if g.Leaves != nil {
		orders := make([][]int32, len(m.Trees))
		for ti := range m.Trees {
			_, orders[ti] = m.Trees[ti].boost()
		}
		bad := 0
		for i := range n {
			row := x.RawRowView(i)
			for ti := range bm.Trees {
				if got, want := orders[ti][bm.Trees[ti].Leaf(row)], g.Leaves[i][ti]; got != want && bad < 5 {
					t.Errorf("%s: row %d tree %d: leaf %d, XGBoost's %d", label, i, ti, got, want)
					bad++
				}
			}
		}
	}
	// Summed in float32 as XGBoost sums, the leaves aer's trees reach give
	// XGBoost's margins: the differences left are float32 rounding.
	worst32 := 0.0
	for i := range n {
		row := x.RawRowView(i)
		m32 := float32(m.BaseMargin())
		for ti := range bm.Trees {
			m32 += float32(bm.Trees[ti].Value[bm.Trees[ti].Leaf(row)])
		}
		worst32 = max(worst32, math.Abs(float64(m32)-g.Margin[i]))
	}
	if worst32 > 0 {
		t.Errorf("%s: leaves summed in float32 differ from XGBoost's margins by up to %.3g", label, worst32)
	}
	margins := bm.PredictMargin(x, nil)
	for i := range n {
		margin = max(margin, math.Abs(margins[i]-g.Margin[i]))
		if one := bm.PredictRowMargin(x.RawRowView(i)); one != margins[i] {
			t.Errorf("%s: row %d: PredictRowMargin %v, PredictMargin %v", label, i, one, margins[i])
		}
		s := margins[i]
		if proba {
			s = 1 / (1 + math.Exp(-s))
		}
		score = max(score, math.Abs(s-g.Predict[i]))
	}
	phi, err := bm.SHAP(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := bm.SHAPBase()
	for i := range n {
		if len(g.Contribs[i]) != nf+1 {
			t.Fatalf("%s: row %d: %d contribs for %d features", label, i, len(g.Contribs[i]), nf)
		}
		for j := range nf {
			shap = max(shap, math.Abs(phi.At(i, j)-g.Contribs[i][j]))
		}
		shap = max(shap, math.Abs(base-g.Contribs[i][nf]))
	}
	if score > 1e-6 {
		t.Errorf("%s: max |score - Booster.predict| = %.3g, want <= 1e-6", label, score)
	}
	if margin > 1e-5 {
		t.Errorf("%s: max |margin - Booster.predict(output_margin)| = %.3g, want <= 1e-5", label, margin)
	}
	if shap > 1e-5 {
		t.Errorf("%s: max |TreeSHAP - pred_contribs| = %.3g, want <= 1e-5", label, shap)
	}
	return score, margin, shap
}

// TestGolden imports each fixture and compares its predictions and
// TreeSHAP values with XGBoost's own (testdata/*.golden.json).
func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.model, func(t *testing.T) {
			m := readModel(t, fx.model)
			b, err := os.ReadFile(filepath.Join("testdata", fx.name+".golden.json"))
			if err != nil {
				t.Fatal(err)
			}
			var g struct {
				Rows  goldenCase  `json:"rows"`
				Probe *goldenCase `json:"probe"`
			}
			if err := json.Unmarshal(b, &g); err != nil {
				t.Fatal(err)
			}
			x := readCSV(t, filepath.Join("testdata", fx.name+".csv"))
			s, mg, sh := checkGolden(t, "rows", m, x, &g.Rows, fx.proba)
			t.Logf("%s: %d trees; max |score - XGBoost| %.3g, |margin - XGBoost| %.3g, |SHAP - pred_contribs| %.3g", fx.model, len(m.Trees), s, mg, sh)
			if g.Probe != nil {
				x := readCSV(t, filepath.Join("testdata", fx.name+".probe.csv"))
				s, mg, sh := checkGolden(t, "probe", m, x, g.Probe, fx.proba)
				t.Logf("%s probe rows: max |score - XGBoost| %.3g, |margin - XGBoost| %.3g, |SHAP - pred_contribs| %.3g", fx.model, s, mg, sh)
			}
		})
	}
}
