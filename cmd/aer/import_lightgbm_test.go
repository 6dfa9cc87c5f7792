package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lgbFixtures is the folder of the LightGBM fixtures (interop/lightgbm).
const lgbFixtures = "../../interop/lightgbm/testdata"

// TestImportLightGBM imports LightGBM's dart model with aer import and
// the CSV of the rows LightGBM scored, scores them with aer predict and
// compares with LightGBM's predictions; aer explain's attributions sum
// to the margin, and aer eval and aer info read the files.
func TestImportLightGBM(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "dart.aer")
	data := filepath.Join(lgbFixtures, "breast_cancer_test.csv")
	out, errOut, code := aer(t, "import", "--from", "lightgbm", "--model", filepath.Join(lgbFixtures, "lg_dart_breast_cancer.model"),
		"--data", data, "--out", model)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	golden(t, "import/lightgbm.txt", strings.ReplaceAll(out, dir, "DIR"))

	var want []float64
	for _, w := range strings.Fields(mustRead(t, filepath.Join(lgbFixtures, "lg_dart_breast_cancer_true_predictions.txt"))) {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, v)
	}
	preds := filepath.Join(dir, "preds.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", data, "--out", preds); code != 0 {
		t.Fatalf("predict: exit %d\n%s", code, errOut)
	}
	f, err := os.Open(preds)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs)-1 != len(want) || strings.Join(recs[0], ",") != "label,score,pred" {
		t.Fatalf("predict wrote %d rows (%v), LightGBM scored %d", len(recs)-1, recs[0], len(want))
	}
	worst := 0.0
	for i, r := range recs[1:] {
		s, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		worst = max(worst, math.Abs(s-want[i]))
	}
	t.Logf("max |aer predict - LightGBM's predict| = %.3g over %d rows", worst, len(want))
	if worst > 1e-6 {
		t.Errorf("max |aer predict - LightGBM's predict| = %.3g, want <= 1e-6", worst)
	}

	out, errOut, code = aer(t, "explain", "--model", model, "--data", data, "--rows", "1-3", "--top", "30", "--json")
	if code != 0 {
		t.Fatalf("explain: exit %d\n%s", code, errOut)
	}
	var ex struct {
		Rows []struct {
			Row      int `json:"row"`
			Features struct {
				Base   float64 `json:"base"`
				Values []struct {
					Attribution float64 `json:"attribution"`
				} `json:"values"`
			} `json:"features"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatal(err)
	}
	if len(ex.Rows) != 3 {
		t.Fatalf("explain gave %d rows", len(ex.Rows))
	}
	for _, r := range ex.Rows {
		sum := r.Features.Base
		for _, v := range r.Features.Values {
			sum += v.Attribution
		}
		p := want[r.Row-1] // --rows count from 1
		if margin := math.Log(p / (1 - p)); math.Abs(sum-margin) > 1e-6 {
			t.Errorf("explain row %d: base + attributions = %v, LightGBM's margin %v", r.Row, sum, margin)
		}
	}

	out, errOut, code = aer(t, "eval", "--data", preds, "--json")
	if code != 0 || !strings.Contains(out, `"roc_auc"`) {
		t.Errorf("eval: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = aer(t, "info", "--model", model)
	if code != 0 || !strings.Contains(out, "imported        from lightgbm v2 (text") {
		t.Errorf("info: exit %d\n%s%s", code, out, errOut)
	}

	// A multiclass model is refused, saying why, and nothing is written.
	multi := filepath.Join(dir, "multi.txt")
	if err := os.WriteFile(multi, []byte(strings.Replace(mustRead(t, filepath.Join(lgbFixtures, "lg_dart_breast_cancer.model")),
		"objective=binary sigmoid:1", "objective=multiclass num_class:3", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.aer")
	_, errOut, code = aer(t, "import", "--from", "lightgbm", "--model", multi, "--data", data, "--out", bad)
	if code != 1 || !strings.Contains(errOut, "not a well-formed LightGBM model: line 3: num_class=1 for the multiclass objective") {
		t.Errorf("multiclass: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a refused import wrote its output")
	}
}
