package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/metrics"
)

// TestCVClasses cross-validates a multi-class table from the command
// line: every round is scored by the multi-class metrics, the summary is
// their mean, the out-of-fold file is the multi-class predictions format
// whose rows of each fold aer eval scores as the round did, and a class
// with fewer rows than folds is refused by name.
func TestCVClasses(t *testing.T) {
	src := filepath.Join(sharedtest.Path(t), "datasets-multiclass", "glass.csv")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%v (the multi-class datasets are in ../shared/datasets-multiclass)", err)
	}
	dir := t.TempDir()
	oof := filepath.Join(dir, "oof.csv")
	stdout, stderr, code := aer(t, "cv", "--method", "gbdt", "--param", "n_estimators=20", "--data", src, "--folds", "4", "--oof", oof, "--json")
	if code != 0 {
		t.Fatalf("cv: exit %d\n%s", code, stderr)
	}
	// The document as cvClassesOutput writes it, its rounds' reports
	// the multi-class ones.
	var o struct {
		Labels []string `json:"labels"`
		Rows   int      `json:"rows"`
		Rounds []struct {
			Fold   int                 `json:"fold"`
			Report metrics.MultiReport `json:"metrics"`
		} `json:"rounds"`
		Summary []cv.Summary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Labels) != 6 || len(o.Rounds) != 4 || o.Rows != 214 {
		t.Fatalf("labels %q, %d rounds, %d rows", o.Labels, len(o.Rounds), o.Rows)
	}
	mean := 0.0
	for _, r := range o.Rounds {
		if len(r.Report.Support) != 6 || r.Report.Support[4] < 2 {
			t.Errorf("fold %d: class support %v: every class in every fold", r.Fold, r.Report.Support)
		}
		mean += r.Report.BalancedAccuracy / 4
	}
	if o.Summary[0].Metric != "balanced_accuracy" || math.Abs(o.Summary[0].Mean-mean) > 1e-12 || !(mean > 0.5) {
		t.Errorf("summary %+v, rounds' mean BA %v", o.Summary[0], mean)
	}
	// The first fold's rows of the out-of-fold file, scored by aer eval.
	b, err := os.ReadFile(oof)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.HasPrefix(lines[0], "row,repeat,fold,label,pred,score_1,score_2,score_3,score_5,score_6,score_7") || len(lines) != 215 {
		t.Fatalf("oof header %q, %d lines", lines[0], len(lines))
	}
	fold1 := []string{lines[0]}
	for _, l := range lines[1:] {
		if strings.Split(l, ",")[2] == "1" {
			fold1 = append(fold1, l)
		}
	}
	part := filepath.Join(dir, "fold1.csv")
	if err := os.WriteFile(part, []byte(strings.Join(fold1, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = aer(t, "eval", "--data", part, "--json")
	var ev evalClassesOutput
	if err := json.Unmarshal([]byte(stdout), &ev); code != 0 || err != nil {
		t.Fatalf("eval: exit %d, %v\n%s", code, err, stderr)
	}
	if ev.Report.BalancedAccuracy != o.Rounds[0].Report.BalancedAccuracy || ev.Report.MAUC != o.Rounds[0].Report.MAUC {
		t.Errorf("fold 1: aer eval BA %v MAUC %v, cv %v %v", ev.Report.BalancedAccuracy, ev.Report.MAUC, o.Rounds[0].Report.BalancedAccuracy, o.Rounds[0].Report.MAUC)
	}
	// Text output names the multi-class metrics.
	stdout, _, code = aer(t, "cv", "--method", "logreg", "--data", src, "--folds", "3")
	if code != 0 || !strings.Contains(stdout, "MAUC") || !strings.Contains(stdout, "6 classes") {
		t.Errorf("cv text: exit %d\n%s", code, stdout)
	}
	// glass's class 6 has 9 rows.
	if _, stderr, code := aer(t, "cv", "--method", "gbdt", "--data", src, "--folds", "10"); code == 0 || !strings.Contains(stderr, `class "6"`) {
		t.Errorf("cv --folds 10: exit %d\n%s", code, stderr)
	}
	// A grid: each round searches it on its hold-out.
	if _, stderr, code := aer(t, "cv", "--method", "gbdt", "--param", "n_estimators=10", "--data", src, "--folds", "3", "--grid", "max_depth=2,3"); code != 0 {
		t.Errorf("cv --grid on multi-class: exit %d\n%s", code, stderr)
	}
}
