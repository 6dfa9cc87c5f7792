package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/decision"
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
		args := append([]string{"fit", "--train", train, "--valid", valid, "--param", "n_estimators=20", "--out", model, "--json"}, extra...)
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
		{"--calibrate", "sigmoid"}, // no validation data
	} {
		_, errOut, code := aer(t, append([]string{"fit", "--train", train, "--out", model}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestGridSearch: --grid fits every combination and keeps the best on
// validation; --grid paper takes the method's paper grid; mistakes are
// usage errors.
func TestGridSearch(t *testing.T) {
	dir := t.TempDir()
	train, valid, _ := aerTask(t, dir)
	model := filepath.Join(dir, "g.aer")
	out, errOut, code := aer(t, "fit", "--train", train, "--valid", valid, "--grid", "max_depth=1,3", "--grid", "n_estimators=5,20",
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
	out, errOut, code = aer(t, "fit", "--train", train, "--valid", valid, "--grid", "paper", "--out", model, "--json")
	if code != 0 || !strings.Contains(out, `"eta=0.7"`) {
		t.Errorf("--grid paper: %d %s", code, errOut)
	}
	for _, args := range [][]string{
		{"--grid", "max_depth=1,3"},                              // no validation data
		{"--valid", valid, "--grid", "depth=1,3"},                // unknown parameter
		{"--valid", valid, "--grid", "max_depth"},                // no values
		{"--method", "aer", "--valid", valid, "--grid", "paper"}, // no paper grid
	} {
		if _, errOut, code := aer(t, append([]string{"fit", "--train", train, "--out", model}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
