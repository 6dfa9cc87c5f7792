package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/predfile"
)

// TestDecisionLayer: with validation data aer fit chooses a threshold for
// every method, calibrates when asked, saves both in the model file, and
// aer predict applies them.
func TestDecisionLayer(t *testing.T) {
	dir := t.TempDir()
	train, valid, test := aerTask(t, dir)
	fit := func(name string, extra ...string) (out string, model string) {
		model = filepath.Join(dir, name+".aer")
		args := append([]string{"fit", "--method", "gbdt", "--train", train, "--valid", valid, "--param", "n_estimators=20", "--out", model, "--json"}, extra...)
		out, errOut, code := aer(t, args...)
		if code != 0 {
			t.Fatalf("fit %v: %s", extra, errOut)
		}
		return out, model
	}
	predict := func(model string) (*predfile.Predictions, map[string]any) {
		preds := filepath.Join(dir, "p.csv")
		out, errOut, code := aer(t, "predict", "--model", model, "--data", test, "--out", preds, "--json")
		if code != 0 {
			t.Fatalf("predict: %s", errOut)
		}
		var js map[string]any
		json.Unmarshal([]byte(out), &js)
		p, err := predfile.LoadPredictions(preds)
		if err != nil {
			t.Fatal(err)
		}
		return p, js
	}
	type fitJSON struct {
		Threshold float64         `json:"threshold"`
		Decision  *decision.Layer `json:"decision"`
	}

	// --threshold-rule tuned: the anchors' rule, no calibration.
	out, plain := fit("plain", "--threshold-rule", "tuned")
	var f fitJSON
	json.Unmarshal([]byte(out), &f)
	if f.Decision == nil || f.Decision.Objective != "balanced_accuracy" || f.Decision.Calibration != nil || f.Decision.Rule != decision.RuleTuned || f.Threshold != f.Decision.Threshold {
		t.Fatalf("tuned layer: %s", out)
	}
	raw, js := predict(plain)
	if js["threshold"] != f.Threshold || js["threshold_from"] != "decision-layer" || js["calibrated"] != false {
		t.Errorf("predict: %v", js)
	}
	for i, s := range raw.Score {
		if (s >= f.Threshold) != (raw.Pred[i] == 1) {
			t.Fatalf("row %d: score %v, pred %d at threshold %v", i+1, s, raw.Pred[i], f.Threshold)
		}
	}

	// The default: a sigmoid calibration, kept, and the Bayes threshold
	// for balanced accuracy, the training rows' positive share.
	out, def := fit("default")
	var d fitJSON
	json.Unmarshal([]byte(out), &d)
	var sizes struct {
		Rows      float64 `json:"rows"`
		Positives float64 `json:"positives"`
	}
	json.Unmarshal([]byte(out), &sizes)
	if c := d.Decision; c == nil || c.Rule != decision.RuleBayes || c.Calibration == nil || c.Calibration.Method != decision.Sigmoid || c.Threshold != sizes.Positives/sizes.Rows || d.Threshold != c.Threshold {
		t.Fatalf("default layer: %s", out)
	}
	p, js := predict(def)
	if js["calibrated"] != true || js["scores"] != "probability" {
		t.Errorf("predict does not say the scores are calibrated probabilities: %v", js)
	}
	for i := range p.Score {
		if want := d.Decision.Calibration.Apply(raw.Score[i]); math.Abs(p.Score[i]-want) > 1e-15 || (p.Pred[i] == 1) != (want >= d.Threshold) {
			t.Fatalf("row %d: calibrated %v (pred %d), want %v", i+1, p.Score[i], p.Pred[i], want)
		}
	}
	if out, errOut, code := aer(t, "info", "--model", def, "--json"); code != 0 || !strings.Contains(out, `"scores": "probability"`) {
		t.Errorf("info --json of a calibrated model: %s %s", out, errOut)
	}
	if out, _, _ := aer(t, "info", "--model", plain); !strings.Contains(out, "rule tuned") || strings.Contains(out, "probabilities") {
		t.Errorf("info of a tuned model:\n%s", out)
	}
	if out, _, _ := aer(t, "info", "--model", def); !strings.Contains(out, "scores are probabilities (sigmoid calibration)") || !strings.Contains(out, "rule bayes") {
		t.Errorf("info of a calibrated model:\n%s", out)
	}

	// --calibrate none: the same decisions on the raw scores.
	out, none := fit("none", "--calibrate", "none")
	json.Unmarshal([]byte(out), &f)
	if f.Decision == nil || f.Decision.Calibration != nil || f.Decision.Rule != decision.RuleBayes {
		t.Fatalf("bayes without calibration: %s", out)
	}
	q, _ := predict(none)
	for i := range q.Score {
		if q.Score[i] != raw.Score[i] || q.Pred[i] != p.Pred[i] && math.Abs(p.Score[i]-d.Threshold) > 1e-9 {
			t.Fatalf("row %d: --calibrate none gives score %v pred %d; raw %v, calibrated pred %d", i+1, q.Score[i], q.Pred[i], raw.Score[i], p.Pred[i])
		}
	}

	// Isotonic calibration: predict's scores are the calibration of the
	// raw scores, and the threshold is chosen on them.
	out, cal := fit("iso", "--calibrate", "isotonic", "--tune-metric", "f1")
	var g fitJSON
	json.Unmarshal([]byte(out), &g)
	if g.Decision == nil || g.Decision.Calibration == nil || g.Decision.Calibration.Method != "isotonic" || g.Decision.Objective != "f1" {
		t.Fatalf("isotonic layer: %s", out)
	}
	p, js = predict(cal)
	if js["calibrated"] != true {
		t.Errorf("predict does not say the scores are calibrated: %v", js)
	}
	for i := range p.Score {
		if want := g.Decision.Calibration.Apply(raw.Score[i]); math.Abs(p.Score[i]-want) > 1e-15 {
			t.Fatalf("row %d: calibrated %v, want %v", i+1, p.Score[i], want)
		}
	}

	// A cost and a recall floor.
	out, _ = fit("cost", "--cost", "fn=20,fp=1")
	if !strings.Contains(out, `"objective": "cost fn=20,fp=1"`) {
		t.Errorf("cost: %s", out)
	}
	out, _ = fit("recall", "--min-recall", "0.8", "--calibrate", "sigmoid")
	if !strings.Contains(out, `"objective": "precision at recall >= 0.8"`) {
		t.Errorf("min recall: %s", out)
	}

	// AER's paper preset keeps its own delta unless a flag asks
	// otherwise; the default preset's Bayes delta gives way to the layer.
	out, _ = fit("aer", "--method", "aer", "--param", "preset=paper", "--param", "components=2-3", "--param", "n_init=2")
	if strings.Contains(out, `"decision"`) {
		t.Errorf("aer preset=paper got a decision layer without asking: %s", out)
	}
	out, _ = fit("aer2", "--method", "aer", "--param", "components=2-3", "--param", "n_init=2", "--tune-metric", "mcc")
	if !strings.Contains(out, `"objective": "mcc"`) {
		t.Errorf("aer --tune-metric mcc: %s", out)
	}
	out, _ = fit("aer3", "--method", "aer", "--param", "components=2-3", "--param", "n_init=2")
	if !strings.Contains(out, `"rule": "bayes"`) || !strings.Contains(out, `"method": "sigmoid"`) {
		t.Errorf("the default aer got no calibrated layer: %s", out)
	}

	// Mistakes are usage errors and write nothing.
	model := filepath.Join(dir, "bad.aer")
	for _, args := range [][]string{
		{"--valid", valid, "--tune-metric", "f1", "--cost", "fn=1,fp=1"},
		{"--valid", valid, "--calibrate", "beta"},
		{"--valid", valid, "--threshold-rule", "bayes", "--tune-metric", "f1"},
		{"--valid", valid, "--min-recall", "1.5"},
	} {
		_, errOut, code := aer(t, append([]string{"fit", "--method", "gbdt", "--train", train, "--out", model}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a refused fit wrote its model")
	}

	// Without validation rows the layer is fitted all the same: on aer's
	// members' out-of-fold scores (or, with cross_tune=-1, the rows it
	// holds out), cross-fitted on the training rows for the others; -1
	// folds keeps a model without one, and says so.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "gbdt", "--calibrate", "sigmoid"}, "sigmoid calibration on 5-fold out-of-fold scores of the training rows (no validation rows)"},
		{[]string{"--param", "components=2-3"}, "sigmoid calibration on 4-fold out-of-fold scores of the training rows (no validation rows)"},
		{[]string{"--param", "components=2-3", "--param", "cross_tune=-1"}, "sigmoid calibration on the training rows the method held out (no validation rows)"},
		{[]string{"--method", "gbdt", "--cross-fit", "-1"}, "decision   none: the model predicts positive at a score of 0.5"},
	} {
		out, errOut, code := aer(t, append([]string{"fit", "--train", train, "--out", model}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, %s%s", c.args, code, out, errOut)
		}
		if !strings.Contains(out, "method     ") {
			t.Errorf("%v: no method line: %s", c.args, out)
		}
	}
	if out, _, _ := aer(t, "fit", "--train", train, "--out", model); !strings.HasPrefix(out, "method     aer\n") {
		t.Errorf("the default method is not aer: %s", out)
	}
}

// TestGridSearch: --grid fits every combination and keeps the best on
// validation; --grid paper takes the method's paper grid; mistakes are
// usage errors.
func TestGridSearch(t *testing.T) {
	dir := t.TempDir()
	train, valid, _ := aerTask(t, dir)
	model := filepath.Join(dir, "g.aer")
	out, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--valid", valid, "--grid", "max_depth=1,3", "--grid", "n_estimators=5,20",
		"--tune-metric", "f1", "--out", model, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var f struct {
		Params map[string]string `json:"params"`
		Grid   struct {
			Objective string `json:"objective"`
			Points    []struct {
				Params []string `json:"params"`
				Value  float64  `json:"valid_value"`
			} `json:"points"`
			Chosen int `json:"chosen"`
		} `json:"grid"`
		Decision *decision.Layer `json:"decision"`
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	g := f.Grid
	if len(g.Points) != 4 || g.Objective != "f1" || g.Chosen < 0 {
		t.Fatalf("grid: %s", out)
	}
	best := g.Points[g.Chosen]
	for _, p := range g.Points {
		if p.Value > best.Value {
			t.Errorf("%v beats the chosen %v", p, best)
		}
	}
	for _, kv := range best.Params {
		k, v, _ := strings.Cut(kv, "=")
		if f.Params[k] != v {
			t.Errorf("saved parameters %v are not the chosen point %v", f.Params, best.Params)
		}
	}
	if f.Decision == nil || f.Decision.Value != best.Value {
		t.Errorf("the decision layer's validation value %v is not the chosen point's %v", f.Decision, best.Value)
	}
	out, errOut, code = aer(t, "fit", "--method", "gbdt", "--train", train, "--valid", valid, "--grid", "paper", "--out", model, "--json")
	if code != 0 || !strings.Contains(out, `"eta=0.7"`) {
		t.Errorf("--grid paper: %d %s", code, errOut)
	}
	for _, args := range [][]string{
		{"--grid", "max_depth=1,3"},                              // no validation data
		{"--valid", valid, "--grid", "depth=1,3"},                // unknown parameter
		{"--valid", valid, "--grid", "max_depth"},                // no values
		{"--method", "aer", "--valid", valid, "--grid", "paper"}, // no paper grid
	} {
		if _, errOut, code := aer(t, append([]string{"fit", "--method", "gbdt", "--train", train, "--out", model}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestMultiClassDecisionFlags fits vehicle's four classes with a cost
// matrix (missing a van costs 20 times more: its recall rises to at least
// the Bayes rule's) and tuned for macro F1; the model records the rule,
// aer predict applies it, and binary-only flags are refused.
func TestMultiClassDecisionFlags(t *testing.T) {
	src := filepath.Join(sharedtest.Path(t), "datasets-multiclass", "vehicle.csv")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%v (the multi-class datasets are in ../shared/datasets-multiclass)", err)
	}
	dir := t.TempDir()
	if _, stderr, code := aer(t, "split", "--data", src, "--ratio", "3:1:1", "--seed", "0", "--out-dir", dir); code != 0 {
		t.Fatalf("split: exit %d\n%s", code, stderr)
	}
	train, valid, test := filepath.Join(dir, "vehicle.train.csv"), filepath.Join(dir, "vehicle.valid.csv"), filepath.Join(dir, "vehicle.test.csv")
	recallVan := func(args ...string) (float64, fitOutput) {
		t.Helper()
		model, preds := filepath.Join(dir, "m.aer"), filepath.Join(dir, "m.csv")
		os.Remove(model)
		os.Remove(preds)
		stdout, stderr, code := aer(t, append([]string{"fit", "--method", "logreg", "--train", train, "--valid", valid, "--out", model, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("fit %q: exit %d\n%s", args, code, stderr)
		}
		var fo fitOutput
		if err := json.Unmarshal([]byte(stdout), &fo); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := aer(t, "predict", "--model", model, "--data", test, "--out", preds); code != 0 {
			t.Fatalf("predict: exit %d\n%s", code, stderr)
		}
		stdout, _, _ = aer(t, "eval", "--data", preds, "--json")
		var ev evalClassesOutput
		if err := json.Unmarshal([]byte(stdout), &ev); err != nil {
			t.Fatal(err)
		}
		return ev.Report.Recall[3], fo
	}
	base, fo := recallVan()
	if fo.MultiDecision == nil || fo.MultiDecision.Rule != "bayes" {
		t.Fatalf("default decision %+v", fo.MultiDecision)
	}
	costly, fo := recallVan("--cost-matrix", "0,1,1,1;1,0,1,1;1,1,0,1;20,20,20,0")
	if d := fo.MultiDecision; d == nil || d.Rule != "cost" || d.Cost[3][0] != 20 {
		t.Fatalf("cost decision %+v", d)
	}
	if costly < base {
		t.Errorf("van recall %v with missed vans costing 20, %v without", costly, base)
	}
	if _, fo = recallVan("--tune-metric", "f1"); fo.MultiDecision.Rule != "tuned" || fo.MultiDecision.Metric != "macro_f1" {
		t.Errorf("--tune-metric f1: decision %+v", fo.MultiDecision)
	}
	for _, bad := range [][]string{{"--cost", "fn=2,fp=1"}, {"--cost-matrix", "0,1,1;1,0,1;1,1,0"}, {"--cost-matrix", "0,1;1,0"}, {"--tune-metric", "mcc"}} {
		_, stderr, code := aer(t, append([]string{"fit", "--method", "logreg", "--train", train, "--valid", valid, "--out", filepath.Join(dir, "bad.aer")}, bad...)...)
		if code != 2 || strings.Contains(stderr, "panic") {
			t.Errorf("fit %q: exit %d\n%s", bad, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.aer")); err == nil {
		t.Error("a refused fit wrote its model")
	}
}

// TestResampleClassNames: a multi-class sampling_strategy names classes
// by label as imbalanced-learn's does, the same rows as by index.
func TestResampleClassNames(t *testing.T) {
	src := filepath.Join(sharedtest.Path(t), "datasets-multiclass", "vehicle.csv")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%v (the multi-class datasets are in ../shared/datasets-multiclass)", err)
	}
	dir := t.TempDir()
	byName, byIndex := filepath.Join(dir, "name.csv"), filepath.Join(dir, "index.csv")
	for _, c := range []struct{ strategy, out string }{{"opel:60, van:50", byName}, {"1:60,3:50", byIndex}} {
		if _, stderr, code := aer(t, "resample", "--sampler", "rus", "--seed", "3", "--param", "sampling_strategy="+c.strategy, "--data", src, "--out", c.out); code != 0 {
			t.Fatalf("resample %s: exit %d\n%s", c.strategy, code, stderr)
		}
	}
	a, _ := os.ReadFile(byName)
	b, _ := os.ReadFile(byIndex)
	if len(a) == 0 || string(a) != string(b) {
		t.Error("sampling_strategy by class name and by index differ")
	}
	if n := strings.Count(string(a), ",van\n"); n != 50 {
		t.Errorf("%d van rows, want 50", n)
	}
}

// TestMultiClassGrid: aer fit --grid on a multi-class table fits every
// point with its decision, reports each point's validation balanced
// accuracy, keeps the best, and the model file holds its parameters.
func TestMultiClassGrid(t *testing.T) {
	src := filepath.Join(sharedtest.Path(t), "datasets-multiclass", "vehicle.csv")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%v (the multi-class datasets are in ../shared/datasets-multiclass)", err)
	}
	dir := t.TempDir()
	if _, stderr, code := aer(t, "split", "--data", src, "--ratio", "3:1:1", "--seed", "0", "--out-dir", dir); code != 0 {
		t.Fatalf("split: exit %d\n%s", code, stderr)
	}
	train, valid := filepath.Join(dir, "vehicle.train.csv"), filepath.Join(dir, "vehicle.valid.csv")
	model := filepath.Join(dir, "g.aer")
	stdout, stderr, code := aer(t, "fit", "--method", "logreg", "--grid", "C=0.01,1", "--train", train, "--valid", valid, "--out", model, "--json")
	if code != 0 {
		t.Fatalf("fit --grid: exit %d\n%s", code, stderr)
	}
	var fo fitOutput
	if err := json.Unmarshal([]byte(stdout), &fo); err != nil {
		t.Fatal(err)
	}
	s := fo.Search
	if s == nil || len(s.Points) != 2 || s.Objective != "balanced_accuracy" {
		t.Fatalf("grid outcome %+v", s)
	}
	best := s.Points[s.Chosen]
	for _, p := range s.Points {
		if p.Value > best.Value {
			t.Errorf("chose %v (%v), but %v scored %v", best.Params, best.Value, p.Params, p.Value)
		}
	}
	want := strings.TrimPrefix(best.Params[0], "C=")
	if fo.Params["C"] != want {
		t.Errorf("the model's C is %q, the chosen point's %q", fo.Params["C"], want)
	}
	if _, stderr, code := aer(t, "fit", "--method", "logreg", "--grid", "C=0.01,1", "--train", train, "--out", filepath.Join(dir, "h.aer")); code != 2 {
		t.Errorf("fit --grid without validation rows: exit %d\n%s", code, stderr)
	}
}
