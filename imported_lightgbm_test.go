package aer_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/interop/lightgbm"
)

const lgbData = "interop/lightgbm/testdata"

// TestImportLightGBM imports LightGBM's dart model with the CSV of its 57
// test rows as the schema: Predict gives LightGBM's predict within 1e-6,
// before and after a save and load, and Explain's attributions sum to the
// margin.
func TestImportLightGBM(t *testing.T) {
	ctx := context.Background()
	table, err := aer.ReadTable(filepath.Join(lgbData, "breast_cancer_test.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := aer.ImportFile(ctx, filepath.Join(lgbData, "lg_dart_breast_cancer.model"), aer.FromLightGBM, table)
	if err != nil {
		t.Fatal(err)
	}
	src := m.ImportedFrom()
	if src == nil || src.From != "lightgbm" || src.Format != "text" || src.Version != "v2" || src.Objective != "binary sigmoid:1" ||
		src.Booster != "dart" || src.Trees != 10 || len(src.SHA256) != 64 {
		t.Errorf("imported from %+v", src)
	}
	if th, from := m.Threshold(); th != 0.5 || from != aer.FromDefault || m.Method() != "gbdt" {
		t.Errorf("threshold %v from %s, method %s", th, from, m.Method())
	}
	b, err := os.ReadFile(filepath.Join(lgbData, "lg_dart_breast_cancer_true_predictions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for _, w := range strings.Fields(string(b)) {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, v)
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	loaded, err := aer.ReadModel(bytes.NewReader(buf.Bytes()), "dart")
	if err != nil {
		t.Fatal(err)
	}
	for _, mm := range []*aer.Model{m, loaded} {
		preds, err := mm.Predict(ctx, table, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(preds.Score) != len(want) {
			t.Fatalf("%d scores, LightGBM gave %d", len(preds.Score), len(want))
		}
		worst := 0.0
		for i, s := range preds.Score {
			worst = max(worst, math.Abs(s-want[i]))
		}
		if worst > 1e-6 {
			t.Errorf("max |score - LightGBM's predict| = %.3g, want <= 1e-6", worst)
		}
		for _, row := range []int{0, 13, 56} {
			e, err := mm.Explain(ctx, table, row)
			if err != nil {
				t.Fatal(err)
			}
			a := e.Attributions
			if a == nil {
				t.Fatalf("row %d: no attributions (%s)", row, e.Unavailable)
			}
			sum := a.Base
			for _, v := range a.Values {
				sum += v.Attribution
			}
			p := want[row]
			if margin := math.Log(p / (1 - p)); math.Abs(sum-margin) > 1e-6 {
				t.Errorf("row %d: base + attributions = %v, LightGBM's margin %v", row, sum, margin)
			}
		}
	}
}

// TestImportLightGBMRefused: a table that does not fit the model, and a
// file LightGBM did not write or aer cannot score, are refused.
func TestImportLightGBMRefused(t *testing.T) {
	ctx := context.Background()
	model := filepath.Join(lgbData, "lg_dart_breast_cancer.model")
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(lgbData, "breast_cancer_test.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := aer.ReadTable(filepath.Join(lgbData, "breast_cancer_test.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Named features must be the table's: LightGBM's default names
	// (Column_j) name none, so the CSV's header is free.
	named := bytes.Replace(raw, []byte("feature_names=Column_0 Column_1"), []byte("feature_names=radius Column_1"), 1)
	if _, err := aer.Import(ctx, bytes.NewReader(named), aer.FromLightGBM, tb); !errors.Is(err, aer.ErrImport) ||
		!strings.Contains(err.Error(), `feature 1 is "radius" in the LightGBM model, "Column_0" in the table`) {
		t.Errorf("names: %v", err)
	}
	renamed := strings.Replace(string(csv), "Column_0,", "radius,", 1)
	tr := csvTable(t, renamed)
	if _, err := aer.Import(ctx, bytes.NewReader(raw), aer.FromLightGBM, tr); err != nil {
		t.Errorf("default names checked against the table: %v", err)
	}
	lines := strings.Split(string(csv), "\n")
	short := make([]string, 0, len(lines))
	for _, l := range lines {
		if i := strings.IndexByte(l, ','); i >= 0 {
			l = l[i+1:]
		}
		short = append(short, l)
	}
	ts := csvTable(t, strings.Join(short, "\n"))
	if _, err := aer.Import(ctx, bytes.NewReader(raw), aer.FromLightGBM, ts); !errors.Is(err, aer.ErrImport) ||
		!strings.Contains(err.Error(), "the LightGBM model reads 30 features, the table has 29") {
		t.Errorf("count: %v", err)
	}
	multi := bytes.Replace(raw, []byte("objective=binary sigmoid:1"), []byte("objective=multiclassova num_class:1 sigmoid:1"), 1)
	if _, err := aer.Import(ctx, bytes.NewReader(multi), aer.FromLightGBM, tb); !errors.Is(err, lightgbm.ErrUnsupported) ||
		!strings.Contains(err.Error(), `objective "multiclassova num_class:1 sigmoid:1"`) {
		t.Errorf("objective: %v", err)
	}
	if _, err := aer.ImportFile(ctx, filepath.Join(xgbData, "plain.json"), aer.FromLightGBM, tb); !errors.Is(err, lightgbm.ErrFormat) ||
		!strings.Contains(err.Error(), "plain.json: not a well-formed LightGBM model") {
		t.Errorf("an XGBoost file: %v", err)
	}
}

// csvTable reads a table from CSV text.
func csvTable(t *testing.T, text string) *aer.Table {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := aer.ReadTable(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
