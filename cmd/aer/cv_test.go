package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCV: the --json document's shape, the out-of-fold file that aer eval
// reads, and bit-identical results for --jobs 1 and 2.
func TestCV(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join("testdata", "fit", "train.csv")
	run := func(jobs, oof string) map[string]any {
		t.Helper()
		stdout, stderr, code := aer(t, "cv", "--data", train, "--method", "gbdt", "--param", "n_estimators=10",
			"--folds", "4", "--repeats", "2", "--seed", "9", "--jobs", jobs, "--oof", oof, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if n := strings.Count(stderr, "cv: repeat "); n != 8 {
			t.Errorf("%d progress lines, want one per round:\n%s", n, stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		return doc
	}
	oof1, oof2 := filepath.Join(dir, "oof1.csv"), filepath.Join(dir, "oof2.csv")
	a, b := run("1", oof1), run("2", oof2)
	for _, k := range []string{"method", "data", "rows", "features", "positives", "classes", "folds", "repeats", "seed", "params", "seconds", "oof", "rounds", "summary"} {
		if _, ok := a[k]; !ok {
			t.Errorf("no %q in the JSON document", k)
		}
	}
	if a["method"] != "gbdt" || a["folds"] != 4.0 || a["repeats"] != 2.0 || a["rows"] != 80.0 || a["positives"] != 16.0 {
		t.Errorf("header fields: %v %v %v %v %v", a["method"], a["folds"], a["repeats"], a["rows"], a["positives"])
	}
	rounds := a["rounds"].([]any)
	if len(rounds) != 8 {
		t.Fatalf("%d rounds, want 8", len(rounds))
	}
	test := 0.0
	for i, r := range rounds {
		m := r.(map[string]any)
		if m["repeat"] != float64(i/4+1) || m["fold"] != float64(i%4+1) {
			t.Errorf("round %d: repeat %v fold %v", i, m["repeat"], m["fold"])
		}
		rep := m["metrics"].(map[string]any)
		for _, k := range []string{"balanced_accuracy", "roc_auc", "average_precision", "f1", "gmean"} {
			if _, ok := rep[k]; !ok {
				t.Errorf("round %d: no metric %q", i, k)
			}
		}
		if i < 4 {
			test += m["test_rows"].(float64)
		}
	}
	if test != 80 {
		t.Errorf("the folds of repeat 1 test %v rows, want 80", test)
	}
	var names []string
	for _, s := range a["summary"].([]any) {
		m := s.(map[string]any)
		names = append(names, m["metric"].(string))
		if m["rounds"] != 8.0 {
			t.Errorf("summary %v", m)
		}
	}
	if got := strings.Join(names, ","); got != "balanced_accuracy,roc_auc,average_precision,f1,gmean,fowlkes_mallows,mcc" {
		t.Errorf("summary metrics %s", got)
	}
	// --jobs 1 and 2: the same numbers, the same file.
	for i := range rounds {
		ra, rb := rounds[i].(map[string]any), b["rounds"].([]any)[i].(map[string]any)
		ja, _ := json.Marshal(ra["metrics"])
		jb, _ := json.Marshal(rb["metrics"])
		if !bytes.Equal(ja, jb) || ra["threshold"] != rb["threshold"] {
			t.Errorf("round %d differs between --jobs 1 and 2:\n%s\n%s", i, ja, jb)
		}
	}
	f1, err1 := os.ReadFile(oof1)
	f2, err2 := os.ReadFile(oof2)
	if err1 != nil || err2 != nil || !bytes.Equal(f1, f2) {
		t.Errorf("out-of-fold files differ between --jobs 1 and 2 (%v, %v)", err1, err2)
	}
	if lines := strings.Count(string(f1), "\n"); lines != 1+2*80 {
		t.Errorf("%d lines in the out-of-fold file, want 161", lines)
	}
	// aer eval reads it, the pred column deciding.
	stdout, stderr, code := aer(t, "eval", "--data", oof1, "--json")
	if code != 0 {
		t.Fatalf("eval of the out-of-fold file: %s", stderr)
	}
	var ev struct {
		Decision struct{ Rule string }
		Report   struct{ N, Positives float64 }
	}
	if err := json.Unmarshal([]byte(stdout), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Decision.Rule != "pred-column" || ev.Report.N != 160 || ev.Report.Positives != 32 {
		t.Errorf("eval: %+v", ev)
	}
}

// TestCVText: the table has a row per round and the mean and sd rows;
// --grid holds out validation rows in every round.
func TestCVText(t *testing.T) {
	stdout, stderr, code := aer(t, "cv", "--data", filepath.Join("testdata", "fit", "train.csv"), "--method", "tree",
		"--grid", "max_depth=2,3", "--folds", "3", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"method     tree", "3 folds x 1 repeats", "0.25 of each round's training rows held out", "ROC-AUC", "\n  mean  ", "\n    sd  "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "\n     1  "); n != 3 {
		t.Errorf("%d round rows, want 3:\n%s", n, stdout)
	}
}

// TestCVFoldAdvice: the advice on a fold count is one aer cv accepts: the
// smallest class's rows, and with a class of one row, that no count works
// (it advised "--folds 1 or fewer", which cv refuses). Nothing is written.
func TestCVFoldAdvice(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,label\n")
	for i := range 40 {
		label := []string{"cat", "dog"}[i%2]
		switch i {
		case 7, 8, 9:
			label = "owl" // 3 rows
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", i%7, i%5, label)
	}
	three := filepath.Join(dir, "three.csv")
	one := filepath.Join(dir, "one.csv")
	if err := os.WriteFile(three, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(one, []byte(b.String()+"1,1,emu\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oof := filepath.Join(dir, "oof.csv")
	_, stderr, code := aer(t, "cv", "--method", "tree", "--data", three, "--folds", "5", "--oof", oof)
	if code == 0 || !strings.Contains(stderr, `class "owl" has only 3 rows`) || !strings.Contains(stderr, "use 3 folds or fewer") {
		t.Errorf("5 folds with 3 owls: exit %d\n%s", code, stderr)
	}
	_, stderr, code = aer(t, "cv", "--method", "tree", "--data", one, "--folds", "5", "--oof", oof)
	if code == 0 || !strings.Contains(stderr, `class "emu" has 1 row`) || !strings.Contains(stderr, "no number of folds works") || strings.Contains(stderr, "or fewer") {
		t.Errorf("one emu: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(oof); err == nil {
		t.Error("a refused cv wrote its out-of-fold file")
	}
	// The advised count is accepted.
	if _, stderr, code := aer(t, "cv", "--method", "tree", "--data", three, "--folds", "3"); code != 0 {
		t.Errorf("3 folds with 3 owls: exit %d\n%s", code, stderr)
	}
}
