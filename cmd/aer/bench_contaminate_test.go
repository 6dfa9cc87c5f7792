package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchContaminate runs aer bench --contaminate end to end: the
// summary printed and in --json, runs.csv's contamination column, each
// condition's report, and a progress line naming the condition; a bench
// without the flag has no such column.
func TestBenchContaminate(t *testing.T) {
	data, out := benchData(t), t.TempDir()
	stdout, errOut, code := aer(t, "bench", "--datasets", data, "--seeds", "0-1", "--methods", "logreg,tree:max_depth=4",
		"--contaminate", "flip-minority:0.1:0.2,outliers:0.1", "--out", out)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{"Contamination (reference logreg;", "Balanced accuracy, mean over 2 datasets and 2 seeds:",
		"ROC-AUC, paired difference", "logreg − tree:max_depth=4", "flip-minority:0.2", "32 runs: 32 ran (0 failed)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(errOut, "one [outliers:0.1] logreg seed 1:") {
		t.Errorf("no progress line names the condition:\n%s", errOut)
	}
	f, err := os.Open(filepath.Join(out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 33 || recs[0][len(recs[0])-1] != "contamination" {
		t.Fatalf("runs.csv: %d lines, %v", len(recs), err)
	}
	for _, f := range []string{"contamination.md", "contamination.csv", "contaminated/flip-minority-0.1/report.html", "contaminated/outliers-0.1/tests.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	js, errOut, code := aer(t, "bench", "--datasets", data, "--seeds", "0-1", "--methods", "logreg,tree:max_depth=4",
		"--contaminate", "flip-minority:0.1:0.2,outliers:0.1", "--out", out, "--json")
	var sum struct {
		Skipped       int
		Contamination struct {
			Reference  string
			Conditions []struct{ Condition string }
		}
	}
	if code != 0 || json.Unmarshal([]byte(js), &sum) != nil || sum.Skipped != 32 || len(sum.Contamination.Conditions) != 4 || sum.Contamination.Conditions[0].Condition != "none" {
		t.Errorf("resumed --json: code %d %s\n%s", code, errOut, js)
	}

	plain := t.TempDir()
	if _, errOut, code := aer(t, "bench", "--datasets", data, "--seeds", "0", "--methods", "logreg", "--out", plain); code != 0 {
		t.Fatal(errOut)
	}
	b, _ := os.ReadFile(filepath.Join(plain, "runs.csv"))
	if strings.Contains(string(b), "contamination") {
		t.Error("a bench without --contaminate has the contamination column")
	}
}
