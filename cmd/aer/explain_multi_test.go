package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainMultiClass runs aer explain on multi-class models of the
// 4-class table of boost's golden (boost/testdata/xgb_multishap.json,
// made by XGBoost 1.7.4): aer fit's gbdt with XGBoost's parameters
// gives, through the model file and aer explain --json, each class's
// attributions and base within 1e-5 of XGBoost's pred_contribs, base +
// sum = output within 1e-9, and the outputs' softmax is the row's
// probabilities; the text is the golden testdata/explain/multiclass.txt.
// --global gives the permutation importance of the macro balanced
// accuracy; a one-vs-one model is an error that says why.
func TestExplainMultiClass(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "boost", "testdata", "xgb_multishap.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		CSV      string        `json:"csv"`
		Contribs [][][]float64 `json:"contribs"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, model := filepath.Join(dir, "t.csv"), filepath.Join(dir, "m.aer")
	if err := os.WriteFile(data, []byte(g.CSV), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := aer(t, "fit", "--method", "gbdt", "--param", "max_depth=3", "--param", "eta=0.5", "--param", "lambda=1",
		"--param", "n_estimators=6", "--train", data, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := aer(t, "explain", "--model", model, "--data", data, "--top", "0", "--json")
	if code != 0 {
		t.Fatalf("explain --json: exit %d\n%s", code, stderr)
	}
	var doc struct {
		Classes  []string `json:"classes"`
		Decision string   `json:"decision"`
		Rows     []struct {
			Prediction    string    `json:"prediction"`
			Score         float64   `json:"score"`
			Probabilities []float64 `json:"probabilities"`
			ClassFeatures []struct {
				Class  string  `json:"class"`
				Base   float64 `json:"base"`
				Output float64 `json:"output"`
				Values []struct {
					Feature     string  `json:"feature"`
					Attribution float64 `json:"attribution"`
				} `json:"values"`
			} `json:"class_features"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Join(doc.Classes, ",") != "c0,c1,c2,c3" || doc.Decision != "bayes" || len(doc.Rows) != len(g.Contribs) {
		t.Fatalf("classes %q, decision %q, %d rows", doc.Classes, doc.Decision, len(doc.Rows))
	}
	worst := 0.0
	for i, r := range doc.Rows {
		out := make([]float64, len(r.ClassFeatures))
		for c, cf := range r.ClassFeatures {
			want := g.Contribs[i][c]
			worst = math.Max(worst, math.Abs(cf.Base-want[3]))
			sum := cf.Base
			for _, v := range cf.Values {
				f := int(v.Feature[1] - '0') // f0, f1, f2
				worst = math.Max(worst, math.Abs(v.Attribution-want[f]))
				sum += v.Attribution
			}
			if cf.Class != doc.Classes[c] || len(cf.Values) != 3 || math.Abs(sum-cf.Output) > 1e-9 {
				t.Fatalf("row %d class %s: %d values, base + sum %v, output %v", i+1, cf.Class, len(cf.Values), sum, cf.Output)
			}
			out[c] = cf.Output
		}
		hi, total := math.Inf(-1), 0.0
		for _, v := range out {
			hi = math.Max(hi, v)
		}
		for _, v := range out {
			total += math.Exp(v - hi)
		}
		for c, v := range out {
			if p := math.Exp(v-hi) / total; math.Abs(p-r.Probabilities[c]) > 1e-9 {
				t.Fatalf("row %d: softmax of the outputs %v, probabilities %v", i+1, out, r.Probabilities)
			}
		}
	}
	if worst > 1e-5 {
		t.Errorf("max |attribution - XGBoost pred_contribs| = %.3g, want <= 1e-5", worst)
	}
	stdout, stderr, code = aer(t, "explain", "--model", model, "--data", data, "--rows", "1-2", "--top", "2")
	if code != 0 {
		t.Fatalf("explain: exit %d\n%s", code, stderr)
	}
	golden(t, "explain/multiclass.txt", stdout)
	explainMultiGlobal(t, model, data)
	ovo := filepath.Join(dir, "ovo.aer")
	if _, stderr, code := aer(t, "fit", "--method", "logreg", "--multiclass", "ovo", "--train", data, "--out", ovo); code != 0 {
		t.Fatalf("fit ovo: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := aer(t, "explain", "--model", ovo, "--data", data, "--rows", "1"); code != 1 || !strings.Contains(stderr, "one-vs-one") {
		t.Errorf("explain of a one-vs-one model: exit %d\n%s", code, stderr)
	}
}

// explainMultiGlobal checks aer explain --global on a multi-class model:
// one CSV row per feature with the permutation importance of the macro
// balanced accuracy; another metric is a usage error.
func explainMultiGlobal(t *testing.T, model, data string) {
	t.Helper()
	stdout, stderr, code := aer(t, "explain", "--model", model, "--data", data, "--global", "--repeats", "2")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != 4 || lines[0] != "feature,permutation_macro_balanced_accuracy_mean,permutation_macro_balanced_accuracy_std" {
		t.Errorf("explain --global: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, stderr, code := aer(t, "explain", "--model", model, "--data", data, "--global", "--metric", "f1"); code != 2 || !strings.Contains(stderr, "macro balanced accuracy") {
		t.Errorf("explain --global --metric f1: exit %d\n%s", code, stderr)
	}
}
