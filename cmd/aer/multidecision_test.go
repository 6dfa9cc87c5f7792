package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/internal/sharedtest"
)

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
