package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainFeatures: a gbdt model's rows get their feature attributions
// first (the goldens), the JSON has every feature with null for a missing
// value, and base + sum of attributions is the score's logit.
func TestExplainFeatures(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "g.aer")
	const train, valid = "testdata/fit/train.csv", "testdata/fit/valid.csv"
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--valid", valid, "--out", model, "--param", "n_estimators=10", "--param", "max_depth=3"); code != 0 {
		t.Fatal(errOut)
	}
	out, errOut, code := aer(t, "explain", "--model", model, "--data", train, "--rows", "1-2", "--top", "2")
	if code != 0 {
		t.Fatal(errOut)
	}
	golden(t, "explain/gbdt.txt", out)

	out, errOut, code = aer(t, "explain", "--model", model, "--data", train, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var doc struct {
		Method    string  `json:"method"`
		Threshold float64 `json:"threshold"`
		About     string  `json:"attribution_method"`
		Rows      []struct {
			Row         int             `json:"row"`
			Score       float64         `json:"score"`
			Label       string          `json:"label"`
			Prediction  string          `json:"prediction"`
			Explanation json.RawMessage `json:"explanation"`
			Features    struct {
				Space  string  `json:"space"`
				Base   float64 `json:"base"`
				Output float64 `json:"output"`
				Shown  int     `json:"shown"`
				Total  int     `json:"total"`
				Values []struct {
					Feature     string   `json:"feature"`
					Value       *float64 `json:"value"`
					Attribution float64  `json:"attribution"`
				} `json:"values"`
			} `json:"features"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Method != "gbdt" || len(doc.Rows) != 80 || !strings.Contains(doc.About, "TreeSHAP") {
		t.Fatalf("method %s, %d rows", doc.Method, len(doc.Rows))
	}
	for _, r := range doc.Rows {
		f := r.Features
		if f.Space != "logit" || f.Shown != 3 || f.Total != 3 || len(f.Values) != 3 || r.Explanation != nil {
			t.Fatalf("row %d: %+v", r.Row, r)
		}
		sum := f.Base
		for k, v := range f.Values {
			sum += v.Attribution
			if k > 0 && math.Abs(v.Attribution) > math.Abs(f.Values[k-1].Attribution) {
				t.Errorf("row %d: features not sorted by |attribution|", r.Row)
			}
		}
		if math.Abs(sum-f.Output) > 1e-12 || math.Abs(1/(1+math.Exp(-sum))-r.Score) > 1e-12 || (r.Score >= doc.Threshold) != (r.Prediction == "sick") ||
			r.Prediction != "sick" && r.Prediction != "healthy" || r.Label != "sick" && r.Label != "healthy" {
			t.Errorf("row %d: base + sum %v, output %v, score %v, prediction %s", r.Row, sum, f.Output, r.Score, r.Prediction)
		}
	}
	// Row 1 misses feature a: null.
	for _, v := range doc.Rows[0].Features.Values {
		if (v.Feature == "a") != (v.Value == nil) {
			t.Errorf("row 1, feature %s: value %v", v.Feature, v.Value)
		}
	}

	// Global importance: CSV, deterministic for a seed whatever the
	// threads.
	out, errOut, code = aer(t, "explain", "--model", model, "--data", valid, "--global", "--repeats", "3", "--seed", "4", "--threads", "1")
	if code != 0 {
		t.Fatal(errOut)
	}
	golden(t, "explain/global.csv", out)
	if again, _, _ := aer(t, "explain", "--model", model, "--data", valid, "--global", "--repeats", "3", "--seed", "4", "--threads", "2"); again != out {
		t.Errorf("--threads 2 gives\n%s\nnot\n%s", again, out)
	}
	out, _, code = aer(t, "explain", "--model", model, "--data", valid, "--global", "--metric", "balanced_accuracy", "--top", "1", "--json")
	var g struct {
		Space       string `json:"attribution_space"`
		Kinds       []string
		Permutation struct {
			Metric    string  `json:"metric"`
			Threshold float64 `json:"threshold"`
		} `json:"permutation"`
		Features []struct {
			Feature string             `json:"feature"`
			MeanAbs *float64           `json:"mean_abs_attribution"`
			BuiltIn map[string]float64 `json:"builtin"`
			Mean    *float64           `json:"permutation_mean"`
		} `json:"features"`
	}
	if err := json.Unmarshal([]byte(out), &g); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if g.Space != "logit" || g.Permutation.Metric != "balanced_accuracy" || g.Permutation.Threshold <= 0 || len(g.Features) != 1 ||
		g.Features[0].MeanAbs == nil || g.Features[0].Mean == nil || len(g.Features[0].BuiltIn) != 4 {
		t.Errorf("--global --json: %s", out)
	}
	for _, bad := range [][]string{{"--global", "--metric", "nope"}, {"--top", "-1"}, {"--global", "--repeats", "0"}, {"--threads", "-2"}} {
		args := append([]string{"explain", "--model", model, "--data", valid}, bad...)
		if _, errOut, code := aer(t, args...); code != 2 || !strings.Contains(errOut, bad[len(bad)-2]) {
			t.Errorf("%v: exit %d %s", bad, code, errOut)
		}
	}

	// An RBF svm attributes exactly (baseline Shapley values).
	rbf := filepath.Join(dir, "r.aer")
	if _, errOut, code := aer(t, "fit", "--method", "svm", "--train", train, "--out", rbf); code != 0 {
		t.Fatal(errOut)
	}
	if out, errOut, code := aer(t, "explain", "--model", rbf, "--data", valid, "--rows", "1"); code != 0 || !strings.Contains(out, "exact baseline Shapley values") {
		t.Errorf("explain of an RBF svm model: exit %d %s\n%s", code, errOut, out)
	}
	// A method with neither attributions nor a breakdown: the polynomial
	// kernel's svm.
	svm := filepath.Join(dir, "s.aer")
	if _, errOut, code := aer(t, "fit", "--method", "svm", "--param", "kernel=poly", "--train", train, "--out", svm); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := aer(t, "explain", "--model", svm, "--data", valid); code != 1 || !strings.Contains(errOut, "svm model, which offers no per-row explanation and no feature attributions") {
		t.Errorf("explain of an svm model: exit %d %s", code, errOut)
	}
	out, errOut, code = aer(t, "explain", "--model", svm, "--data", valid, "--global", "--repeats", "2")
	if code != 0 || !strings.HasPrefix(out, "feature,permutation_roc_auc_mean,permutation_roc_auc_std\n") || !strings.Contains(errOut, "no feature attributions") {
		t.Errorf("explain --global of an svm model: exit %d %s\n%s", code, errOut, out)
	}

	help, _, _ := aer(t, "help", "explain")
	for _, flag := range []string{"-global", "-top", "-repeats", "-seed", "-metric", "-threads", "not the Shapley value"} {
		if !strings.Contains(help, flag) {
			t.Errorf("aer help explain does not mention %s", flag)
		}
	}
}

// TestClassNameJSON: class names that are numbers stay JSON numbers (the
// explanations of a 0/1 model are as before class names), others are
// strings.
func TestClassNameJSON(t *testing.T) {
	for name, want := range map[className]string{"1": `1`, "0": `0`, "-2.5": `-2.5`, "sick": `"sick"`, "1.0": `"1.0"`, "NaN": `"NaN"`, `a"b`: `"a\"b"`} {
		b, err := json.Marshal(explainRow{Label: name, Prediction: name})
		if err != nil || string(b) != `{"row":0,"label":`+want+`,"score":0,"prediction":`+want+`}` {
			t.Errorf("%q: %s, %v; want %s", name, b, err, want)
		}
	}
}

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

// TestExplainDefaultRows: as text, aer explain shows the first 10 rows
// and says so on stderr; --rows all and --json give every row.
func TestExplainDefaultRows(t *testing.T) {
	model, data := "../../testdata/legacy/bin-gbdt.aer", "../../testdata/clinic.test.csv"
	out, errOut, code := aer(t, "explain", "--model", model, "--data", data)
	if n := strings.Count(out, "\nrow ") + strings.Count(out[:min(4, len(out))], "row "); code != 0 || n != 10 || !strings.Contains(errOut, "the first 10 of 400 rows") {
		t.Fatalf("default: exit %d, %d rows, stderr %q", code, n, errOut)
	}
	out, errOut, code = aer(t, "explain", "--model", model, "--data", data, "--rows", "all")
	if n := strings.Count(out, "\nrow ") + strings.Count(out[:min(4, len(out))], "row "); code != 0 || n != 400 || errOut != "" {
		t.Fatalf("--rows all: exit %d, %d rows, stderr %q", code, n, errOut)
	}
	out, _, code = aer(t, "explain", "--model", model, "--data", data, "--json")
	if code != 0 || strings.Count(out, `"row":`) != 400 {
		t.Fatalf("--json: exit %d, %d rows", code, strings.Count(out, `"row":`))
	}
}
