package boost

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/softmax"
	"github.com/aer-go/aer/learn"
)

// multiSHAPGolden is testdata/xgb_multishap.json, made by
// testdata/xgb_multishap.py with XGBoost 1.7.4.
type multiSHAPGolden struct {
	Params   map[string]any `json:"params"`
	Rounds   int            `json:"rounds"`
	Classes  int            `json:"classes"`
	CSV      string         `json:"csv"`
	Contribs [][][]float64  `json:"contribs"`
	Margins  [][]float64    `json:"margins"`
}

// loadMultiSHAPGolden reads the golden and its table: features (NaN =
// missing) and classes c0, c1, ... as 0, 1, ...
func loadMultiSHAPGolden(t *testing.T) (*multiSHAPGolden, *mat.Dense, []int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "xgb_multishap.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g multiSHAPGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(g.CSV)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	nf := len(recs[0]) - 1
	x := mat.NewDense(len(recs)-1, nf, nil)
	y := make([]int, len(recs)-1)
	for i, r := range recs[1:] {
		for j, cell := range r[:nf] {
			v := math.NaN()
			if cell != "" {
				if v, err = strconv.ParseFloat(cell, 64); err != nil {
					t.Fatal(err)
				}
			}
			x.Set(i, j, v)
		}
		if y[i], err = strconv.Atoi(strings.TrimPrefix(r[nf], "c")); err != nil {
			t.Fatal(err)
		}
	}
	return &g, x, y
}

// TestAttributeClassesXGBoost fits the golden's 4-class table (missing
// values in two features) through Method.FitClasses, as aer fit does, and
// checks learn.AttributeClasses against XGBoost 1.7's pred_contribs of
// every row, class by class, bias included, within 1e-5 (XGBoost's
// float32), and local accuracy: each class's base plus the sum of its
// attributions is the class's margin within 1e-9.
func TestAttributeClassesXGBoost(t *testing.T) {
	g, x, y := loadMultiSHAPGolden(t)
	meth := NewMethod()
	for k, v := range g.Params {
		switch k {
		case "max_depth", "eta", "lambda":
			if err := meth.Set(k, strconv.FormatFloat(v.(float64), 'g', -1, 64)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := meth.Set("n_estimators", strconv.Itoa(g.Rounds)); err != nil {
		t.Fatal(err)
	}
	mm, err := meth.(learn.ClassFitter).FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, g.Classes, learn.Env{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	margins, err := mm.(*MultiModel).Margins(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	if worst := maxDiff(margins, g.Margins); worst > 1e-5 {
		t.Fatalf("max |margin - XGBoost| = %.3g, want <= 1e-5: not the golden's trees", worst)
	}
	attr, err := learn.AttributeClasses(context.Background(), mm, x, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(attr) != g.Classes {
		t.Fatalf("%d attributions for %d classes", len(attr), g.Classes)
	}
	n, nf := x.Dims()
	worst, local := 0.0, 0.0
	for c, a := range attr {
		if a.Space != learn.Logit {
			t.Errorf("class %d: space %s", c, a.Space)
		}
		for i := range n {
			want := g.Contribs[i][c]
			for j := range nf {
				worst = math.Max(worst, math.Abs(a.Phi.At(i, j)-want[j]))
			}
			worst = math.Max(worst, math.Abs(a.Base[i]-want[nf]))
			local = math.Max(local, math.Abs(a.Output(i)-margins[i*g.Classes+c]))
		}
	}
	if worst > 1e-5 {
		t.Errorf("max |attribution - XGBoost pred_contribs| = %.3g, want <= 1e-5", worst)
	} else {
		t.Logf("max |attribution - XGBoost pred_contribs| = %.3g over %d rows x %d classes", worst, n, g.Classes)
	}
	if local > 1e-9 {
		t.Errorf("max |base + sum - margin| = %.3g, want <= 1e-9", local)
	}
}

// TestAttributeClassesBlocks: the per-class attributions of 300 rows (two
// of learn.AttributeClasses' blocks) are the same on 1 and 2 workers,
// each class's are Class(c)'s SHAP values, and each row's outputs are its
// margins (within 1e-9), whose softmax is PredictProba.
func TestAttributeClassesBlocks(t *testing.T) {
	g := loadMultiGolden(t)
	for _, c := range g.Cases {
		if c.Name != "k5_missing_weighted" {
			continue
		}
		x := denseOf(g.Data[c.Data].X)
		s := goldenSettings(t, c.Params, c.Rounds)
		m, err := TrainMulti(context.Background(), Data{X: x, Y: g.Data[c.Data].Y, Weight: c.Weight}, nil, c.Classes, &s)
		if err != nil {
			t.Fatal(err)
		}
		one, err := learn.AttributeClasses(context.Background(), m, x, 1)
		if err != nil {
			t.Fatal(err)
		}
		two, err := learn.AttributeClasses(context.Background(), m, x, 2)
		if err != nil {
			t.Fatal(err)
		}
		margins, _ := m.Margins(x, nil)
		proba, _ := m.PredictProba(x, nil)
		n, _ := x.Dims()
		for k := range c.Classes {
			phi, _ := m.Class(k).SHAP(x, nil)
			if !mat.Equal(one[k].Phi, two[k].Phi) || !mat.Equal(one[k].Phi, phi) {
				t.Errorf("class %d: attributions differ by workers or from Class(%d).SHAP", k, k)
			}
		}
		out := make([]float64, c.Classes)
		for i := range n {
			for k := range c.Classes {
				out[k] = one[k].Output(i)
				if d := math.Abs(out[k] - margins[i*c.Classes+k]); d > 1e-9 {
					t.Fatalf("row %d class %d: base + sum %v, margin %v", i, k, out[k], margins[i*c.Classes+k])
				}
			}
			softmax.Apply(out)
			for k, p := range out {
				if math.Abs(p-proba[i*c.Classes+k]) > 1e-12 {
					t.Fatalf("row %d class %d: softmax of the outputs %v, probability %v", i, k, p, proba[i*c.Classes+k])
				}
			}
		}
		return
	}
	t.Fatal("no case k5_missing_weighted in the golden")
}
