package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/internal/sharedtest"
)

// TestMultiClassCommands runs a multi-class table through the command
// line: split stratifies every class, fit (one-vs-rest, one-vs-one,
// native) writes a multi-class model, predict writes label, pred and
// score_<class>, eval --json gives the multi-class metrics; binary-only
// flags are refused.
func TestMultiClassCommands(t *testing.T) {
	src := filepath.Join(sharedtest.Path(t), "datasets-multiclass", "glass.csv")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%v (the multi-class datasets are in ../shared/datasets-multiclass)", err)
	}
	dir := t.TempDir()
	if _, stderr, code := aer(t, "split", "--data", src, "--ratio", "3:1:1", "--seed", "0", "--out-dir", dir); code != 0 {
		t.Fatalf("split: exit %d\n%s", code, stderr)
	}
	train, valid, test := filepath.Join(dir, "glass.train.csv"), filepath.Join(dir, "glass.valid.csv"), filepath.Join(dir, "glass.test.csv")
	stdout, _, code := aer(t, "split", "--data", src, "--ratio", "3:1:1", "--seed", "0", "--out-dir", filepath.Join(dir, "again"), "--json")
	var sp struct{ Parts []splitPart }
	if err := json.Unmarshal([]byte(stdout), &sp); code != 0 || err != nil || len(sp.Parts) != 3 {
		t.Fatalf("split --json: exit %d, %v", code, err)
	}
	// glass has 70, 76, 17, 13, 9 and 29 rows of its six classes: 3:1:1 of each.
	if got := sp.Parts[0].ClassRows; len(got) != 6 || got[0] != 42 || got[2] != 10 || got[4] != 5 {
		t.Errorf("train class rows %v, want [42 46 10 8 5 17]", got)
	}
	stdout, _, code = aer(t, "info", "--data", train, "--json")
	var info infoReport
	if err := json.Unmarshal([]byte(stdout), &info); code != 0 || err != nil || len(info.Labels) != 6 || info.LabelRows[1] != 46 {
		t.Errorf("info --json: exit %d, %v, labels %q rows %v", code, err, info.Labels, info.LabelRows)
	}
	// The samplers take imbalanced-learn's multi-class strategies.
	stdout, stderr, code := aer(t, "resample", "--sampler", "rus", "--param", "sampling_strategy=auto", "--data", train, "--out", filepath.Join(dir, "rus.csv"), "--json")
	var ro resampleOutput
	if err := json.Unmarshal([]byte(stdout), &ro); code != 0 || err != nil || len(ro.ClassRowsAfter) != 6 || ro.ClassRowsAfter[0] != 5 || ro.ClassRowsAfter[1] != 5 || ro.After.Rows != 30 {
		t.Errorf("resample rus auto: exit %d, %v, %+v\n%s", code, err, ro, stderr)
	}
	// Classes by label: glass's labels are 1, 2, 3, 5, 6 and 7, so "5" is
	// label 5 (index 3), not index 5; a name that is not a class is
	// refused with the classes listed.
	stdout, stderr, code = aer(t, "resample", "--sampler", "rus", "--param", "sampling_strategy=1:20,5:5", "--data", train, "--out", filepath.Join(dir, "rus3.csv"), "--json")
	if err := json.Unmarshal([]byte(stdout), &ro); code != 0 || err != nil || ro.ClassRowsAfter[0] != 20 || ro.ClassRowsAfter[3] != 5 || ro.ClassRowsAfter[5] != 17 || ro.ClassRowsAfter[1] != 46 {
		t.Errorf("resample rus 1:20,5:5: exit %d, %v, %+v\n%s", code, err, ro.ClassRowsAfter, stderr)
	}
	if _, stderr, code := aer(t, "resample", "--sampler", "rus", "--param", "sampling_strategy=window:20", "--data", train, "--out", filepath.Join(dir, "rus4.csv")); code != 2 || !strings.Contains(stderr, `"window" is not one of the classes`) {
		t.Errorf("resample by an unknown class name: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := aer(t, "resample", "--sampler", "rus", "--data", train, "--out", filepath.Join(dir, "rus2.csv")); code == 0 || !strings.Contains(stderr, "two classes") {
		t.Errorf("resample rus with a ratio on 6 classes: exit %d\n%s", code, stderr)
	}
	for _, mc := range []string{"ovr", "ovo", "native"} {
		model, preds := filepath.Join(dir, mc+".aer"), filepath.Join(dir, mc+".csv")
		stdout, stderr, code := aer(t, "fit", "--method", "gbdt", "--multiclass", mc, "--param", "n_estimators=20", "--train", train, "--valid", valid, "--out", model, "--json")
		if code != 0 {
			t.Fatalf("fit --multiclass %s: exit %d\n%s", mc, code, stderr)
		}
		var fo fitOutput
		if err := json.Unmarshal([]byte(stdout), &fo); err != nil || fo.Multiclass != mc || len(fo.Labels) != 6 || len(fo.ClassCounts) != 6 {
			t.Fatalf("fit --json: %v %+v", err, fo)
		}
		if _, stderr, code := aer(t, "predict", "--model", model, "--data", test, "--out", preds); code != 0 {
			t.Fatalf("predict: exit %d\n%s", code, stderr)
		}
		b, err := os.ReadFile(preds)
		if err != nil {
			t.Fatal(err)
		}
		if head := strings.SplitN(string(b), "\n", 2)[0]; head != "label,pred,score_1,score_2,score_3,score_5,score_6,score_7" {
			t.Errorf("predictions header %q", head)
		}
		stdout, stderr, code = aer(t, "eval", "--data", preds, "--json")
		if code != 0 {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
		var eo evalClassesOutput
		if err := json.Unmarshal([]byte(stdout), &eo); err != nil || eo.Report.Classes != 6 || eo.Report.MAUC < 0.8 {
			t.Errorf("eval --json: %v, %d classes, MAUC %v", err, eo.Report.Classes, eo.Report.MAUC)
		}
		stdout, _, code = aer(t, "info", "--model", model, "--json")
		var im infoModelReport
		if err := json.Unmarshal([]byte(stdout), &im); code != 0 || err != nil || im.Multiclass != mc || im.MultiDecision == nil || len(im.MultiDecision.Weights) != 6 {
			t.Errorf("info --model --json: exit %d, %v, %+v", code, err, im)
		}
		// Per-class attributions, but for one-vs-one (none: an error).
		if stdout, stderr, code := aer(t, "explain", "--model", model, "--data", test, "--rows", "1"); (code != 0 || !strings.Contains(stdout, "class 7, probability")) != (mc == "ovo") {
			t.Errorf("explain of a multi-class model (%s): exit %d\n%s%s", mc, code, stdout, stderr)
		}
		if _, stderr, code := aer(t, "eval", "--data", preds, "--threshold", "0.3"); code != 2 || !strings.Contains(stderr, "multi-class") {
			t.Errorf("eval --threshold on multi-class predictions: exit %d\n%s", code, stderr)
		}
	}
	if _, stderr, code := aer(t, "fit", "--method", "svm", "--multiclass", "native", "--train", train, "--out", filepath.Join(dir, "t.aer")); code == 0 || !strings.Contains(stderr, "multi-class model of its own") {
		t.Errorf("svm --multiclass native: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := aer(t, "fit", "--multiclass", "all", "--train", train, "--out", filepath.Join(dir, "t.aer")); code != 2 {
		t.Errorf("--multiclass all: exit %d\n%s", code, stderr)
	}
}
