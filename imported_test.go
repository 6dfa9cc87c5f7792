package aer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/interop/xgboost"
)

const xgbData = "interop/xgboost/testdata"

// xgbGolden is XGBoost's predictions of a fixture's rows.
type xgbGolden struct {
	Rows struct {
		Predict  []float64   `json:"predict"`
		Contribs [][]float64 `json:"contribs"`
	} `json:"rows"`
}

// TestImportXGBoost imports each XGBoost fixture with its CSV as the
// schema, and checks that Predict gives Booster.predict's scores and
// Explain pred_contribs, before and after a save and load.
func TestImportXGBoost(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, file string
		logitraw   bool
	}{
		{"plain", "plain.json", false},
		{"missing", "missing.ubj", true},
		{"many", "many.json", false},
		{"categorical", "categorical.json", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			table, err := aer.ReadTable(filepath.Join(xgbData, c.name+".csv"), nil)
			if err != nil {
				t.Fatal(err)
			}
			m, err := aer.ImportFile(ctx, filepath.Join(xgbData, c.file), aer.FromXGBoost, table)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Schema().Classes, []string{"0", "1"}) || m.Method() != "gbdt" {
				t.Errorf("classes %q, method %s", m.Schema().Classes, m.Method())
			}
			if th, from := m.Threshold(); th != 0.5 || from != aer.FromDefault {
				t.Errorf("threshold %v from %s, want 0.5 by default", th, from)
			}
			src := m.ImportedFrom()
			if src == nil || src.From != "xgboost" || src.Version != "1.7.4" || src.SHA256 == "" {
				t.Errorf("imported from %+v", src)
			}
			var g xgbGolden
			b, err := os.ReadFile(filepath.Join(xgbData, c.name+".golden.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &g); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := m.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			loaded, err := aer.ReadModel(bytes.NewReader(buf.Bytes()), c.name)
			if err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if _, err := loaded.WriteTo(&again); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
				t.Errorf("a loaded imported model saves to other bytes (%v)", err)
			}
			for _, mm := range []*aer.Model{m, loaded} {
				preds, err := mm.Predict(ctx, table, nil)
				if err != nil {
					t.Fatal(err)
				}
				worst := 0.0
				for i, s := range preds.Score {
					want := g.Rows.Predict[i]
					if c.logitraw {
						want = 1 / (1 + math.Exp(-want))
					}
					worst = max(worst, math.Abs(s-want))
				}
				if worst > 1e-6 {
					t.Errorf("max |score - Booster.predict| = %.3g, want <= 1e-6", worst)
				}
				nf := len(mm.Schema().Features)
				worstShap := 0.0
				for _, row := range []int{0, 1, 7, 100} {
					e, err := mm.Explain(ctx, table, row)
					if err != nil {
						t.Fatal(err)
					}
					a := e.Attributions
					if a == nil {
						t.Fatalf("row %d: no attributions (%s)", row, e.Unavailable)
					}
					worstShap = max(worstShap, math.Abs(a.Base-g.Rows.Contribs[row][nf]))
					for _, v := range a.Values {
						j := indexOf(mm.Schema().Features, v.Feature)
						worstShap = max(worstShap, math.Abs(v.Attribution-g.Rows.Contribs[row][j]))
					}
				}
				if worstShap > 1e-5 {
					t.Errorf("max |attribution - pred_contribs| = %.3g, want <= 1e-5", worstShap)
				}
			}
		})
	}
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// TestImportRefused: a table that does not fit the model, and a file that
// is not one, are refused with the reason.
func TestImportRefused(t *testing.T) {
	ctx := context.Background()
	model := filepath.Join(xgbData, "plain.json")
	table := func(t *testing.T, csv string, opt *aer.ReadOptions) *aer.Table {
		t.Helper()
		tb, err := aer.DecodeTable(strings.NewReader(csv), "t.csv", opt)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	for _, c := range []struct {
		name, csv, model string
		is               error
		want             string
	}{
		{"count", "age,dose,score,label\n1,2,3,0\n1,2,3,1\n1,2,3,0\n1,2,3,1\n", model, aer.ErrImport, "reads 4 features, the table has 3"},
		{"names", "age,dose,ratio,score,label\n1,2,3,4,0\n1,2,3,4,1\n1,2,3,4,0\n1,2,3,4,1\n", model, aer.ErrImport, `feature 3 is "score" in the XGBoost model, "ratio" in the table`},
		{"text", "x,colour,label\n1,red,0\n2,blue,1\n1,red,0\n2,blue,1\n", filepath.Join(xgbData, "categorical.json"), aer.ErrImport, `column "colour" holds text`},
		{"truncated", "age,dose,score,ratio,label\n1,2,3,4,0\n1,2,3,4,1\n1,2,3,4,0\n1,2,3,4,1\n", "", xgboost.ErrFormat, "truncated"},
	} {
		tb := table(t, c.csv, nil)
		var err error
		if c.model == "" {
			data, rerr := os.ReadFile(model)
			if rerr != nil {
				t.Fatal(rerr)
			}
			_, err = aer.Import(ctx, bytes.NewReader(data[:len(data)/2]), aer.FromXGBoost, tb)
		} else {
			_, err = aer.ImportFile(ctx, c.model, aer.FromXGBoost, tb)
		}
		if err == nil || !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %v saying %q", c.name, err, c.is, c.want)
		}
	}
	if _, err := aer.ImportFile(ctx, model, "catboost", nil); err == nil || !strings.Contains(err.Error(), `unknown format "catboost"`) {
		t.Errorf("catboost: error %v", err)
	}
	// Label 1 is positive even when it is the majority (XGBoost scores it).
	tb := table(t, "age,dose,score,ratio,label\n1,2,3,4,1\n1,2,3,4,1\n1,2,3,4,0\n1,2,3,4,1\n1,2,3,4,0\n", nil)
	if !slices.Equal(tb.Classes(), []string{"1", "0"}) {
		t.Fatalf("the table's classes are %q: the test needs 0 as the rarer", tb.Classes())
	}
	m, err := aer.ImportFile(ctx, model, aer.FromXGBoost, tb)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Schema().Classes, []string{"0", "1"}) {
		t.Errorf("classes %q, want 1 positive", m.Schema().Classes)
	}
}
