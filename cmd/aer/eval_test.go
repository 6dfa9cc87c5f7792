package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer/predfile"
)

// evalGolden compares got with testdata/eval/name (rewritten under -update).
func evalGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden(t, filepath.Join("eval", name), string(got))
}

func TestEvalGolden(t *testing.T) {
	const (
		preds   = "testdata/eval/preds.csv"      // label,score: stats.json "metrics"
		predcol = "testdata/eval/preds_pred.csv" // same with pred = score >= 0.4
		onlypos = "testdata/eval/onlypos.csv"    // no negative label
		weights = "testdata/eval/weighted.csv"   // label,score,weight
	)
	tmp := t.TempDir()
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"default.txt", []string{"--data", preds}},
		{"default.json", []string{"--data", preds, "--json"}},
		{"pred_column.txt", []string{"--data", predcol}},
		{"pred_column.json", []string{"--data", predcol, "--json"}},
		{"threshold.txt", []string{"--data", predcol, "--threshold", "0.3"}},
		{"threshold.json", []string{"--data", preds, "--threshold=0.7", "--json"}},
		{"onlypos.txt", []string{"--data", onlypos}},
		{"onlypos.json", []string{"--data", onlypos, "--json"}},
		{"sweep.txt", []string{"--data", preds, "--sweep", "--sweep-grid", "11"}},
		{"sweep.json", []string{"--data", preds, "--json", "--sweep", "--sweep-grid", "5"}},
		{"sweep_distinct.txt", []string{"--data", onlypos, "--sweep", "--sweep-grid", "0"}},
		{"sweep_out.txt", []string{"--data", preds, "--sweep-out", filepath.Join(tmp, "sweep.csv")}},
		// The sweep goes to the file, not into the JSON document.
		{"sweep_out.json", []string{"--data", preds, "--json", "--sweep-grid", "0", "--sweep-out", filepath.Join(tmp, "distinct.csv")}},
		{"weighted.txt", []string{"--data", weights}},
		{"weighted.json", []string{"--data", weights, "--json"}},
		// The row of weight 0 (score 0.65) makes no point of the sweep.
		{"weighted_sweep.txt", []string{"--data", weights, "--sweep", "--sweep-grid", "0"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(append([]string{"eval"}, tc.args...), &stdout, &stderr); err != nil {
				t.Fatalf("aer eval %v: %v", tc.args, err)
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr: %s", stderr.String())
			}
			if strings.HasSuffix(tc.golden, ".json") && !json.Valid(stdout.Bytes()) {
				t.Fatalf("--json output is not one JSON document:\n%s", stdout.String())
			}
			evalGolden(t, tc.golden, bytes.ReplaceAll(stdout.Bytes(), []byte(tmp), []byte("$TMP")))
		})
	}
	csv, err := os.ReadFile(filepath.Join(tmp, "sweep.csv"))
	if err != nil {
		t.Fatal(err)
	}
	evalGolden(t, "sweep_out.csv", csv)
	if csv, err = os.ReadFile(filepath.Join(tmp, "distinct.csv")); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(csv, []byte("\n")); n != 1+285+1 { // header, 285 distinct scores, +Inf
		t.Errorf("distinct-score sweep has %d lines, want 287", n)
	}
}

// TestEvalNoPositiveLabel: a file whose labels are all 0 has no positive
// row, so recall, ROC-AUC and average precision are undefined and say so.
func TestEvalNoPositiveLabel(t *testing.T) {
	var stdout bytes.Buffer
	if err := run([]string{"eval", "--data", "testdata/eval/onlyneg.csv", "--json"}, &stdout, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Report struct {
			Positives int               `json:"positives"`
			Negatives int               `json:"negatives"`
			ROCAUC    *float64          `json:"roc_auc"`
			AP        *float64          `json:"average_precision"`
			Notes     map[string]string `json:"notes"`
		} `json:"report"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Report
	if r.Positives != 0 || r.Negatives != 4 || r.ROCAUC != nil || r.AP != nil ||
		r.Notes["roc_auc"] != "undefined: no positive labels" || r.Notes["average_precision"] != "undefined: no positive labels" {
		t.Errorf("report %+v\n%s", r, stdout.String())
	}
}

// TestEvalJSONMatchesStats checks the --json report against the
// scikit-learn values from which preds.csv was written.
func TestEvalJSONMatchesStats(t *testing.T) {
	var stdout bytes.Buffer
	if err := run([]string{"eval", "--data", "testdata/eval/preds.csv", "--json"}, &stdout, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Decision struct {
			Rule      string   `json:"rule"`
			Threshold *float64 `json:"threshold"`
		} `json:"decision"`
		Report map[string]any `json:"report"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Decision.Rule != "default-threshold" || doc.Decision.Threshold == nil || *doc.Decision.Threshold != 0.5 {
		t.Errorf("decision %+v", doc.Decision)
	}
	// Values from ../shared/golden/stats.json "metrics" (scikit-learn).
	for k, want := range map[string]float64{
		"tp": 16, "fp": 43, "tn": 235, "fn": 6,
		"balanced_accuracy": 0.7862982341399607, "fowlkes_mallows": 0.44410190532269517,
		"roc_auc": 0.8603662524525834, "average_precision": 0.5412497555439557,
	} {
		got, _ := doc.Report[k].(float64)
		if d := got - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s = %v, want %v", k, got, want)
		}
	}
}

func TestEvalHelp(t *testing.T) {
	var stdout bytes.Buffer
	if err := run([]string{"help", "eval"}, &stdout, &stdout); !errors.Is(err, errHelpShown) {
		t.Fatalf("aer help eval: %v", err)
	}
	evalGolden(t, "help.txt", stdout.Bytes())
	for _, flag := range []string{"-data", "-threshold", "-json", "-sweep", "-sweep-out", "-sweep-grid"} {
		if h := stdout.String(); !strings.Contains(h, "  "+flag+" ") && !strings.Contains(h, "  "+flag+"\n") {
			t.Errorf("help does not document %s", flag)
		}
	}
}

func TestEvalUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--threshold", "0.5"},
		{"--data", "testdata/eval/preds.csv", "--threshold", "abc"},
		{"--data", "testdata/eval/preds.csv", "--threshold", "NaN"},
		{"--data", "testdata/eval/preds.csv", "extra"},
		{"--data", "testdata/eval/preds.csv", "--sweep-grid", "1"},
		{"--data", "testdata/eval/preds.csv", "--no-such-flag"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"eval"}, args...), &stdout, &stderr)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("aer eval %v: %v, want a usage error", args, err)
			continue
		}
		if code := exitCode(err, &bytes.Buffer{}); code != 2 {
			t.Errorf("aer eval %v: exit %d, want 2", args, code)
		}
		if stdout.Len() > 0 {
			t.Errorf("aer eval %v wrote to stdout: %s", args, stdout.String())
		}
	}
	// The golden of one usage error: what the user sees on stderr.
	var stderr bytes.Buffer
	err := run([]string{"eval"}, &bytes.Buffer{}, &stderr)
	exitCode(err, &stderr)
	evalGolden(t, "usage_error.stderr", stderr.Bytes())
}

func TestEvalFailures(t *testing.T) {
	tmp := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string // substrings of the error
	}{
		{[]string{"--data", "testdata/eval/nope.csv"}, []string{"nope.csv"}},
		{[]string{"--data", "testdata/eval/noscore.csv"}, []string{"score"}},
		{[]string{"--data", "testdata/eval/nolabel.csv"}, []string{"label"}},
		{[]string{"--data", "testdata/eval/preds.csv", "--sweep-out", filepath.Join(tmp, "no", "dir", "s.csv")}, []string{"sweep"}},
		{[]string{"--data", "testdata/eval/weight_negative.csv"},
			[]string{`eval: weight_negative.csv: line 4, column "weight": "-1": invalid weight`}},
	} {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"eval"}, tc.args...), &stdout, &stderr)
		var ue *usageError
		if err == nil || errors.As(err, &ue) {
			t.Errorf("aer eval %v: %v, want a failure (exit 1)", tc.args, err)
			continue
		}
		if code := exitCode(err, &bytes.Buffer{}); code != 1 {
			t.Errorf("aer eval %v: exit %d, want 1", tc.args, code)
		}
		for _, s := range tc.want {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("aer eval %v: error %q does not mention %q", tc.args, err, s)
			}
		}
		if stdout.Len() > 0 {
			t.Errorf("aer eval %v: wrote to stdout on failure: %s", tc.args, stdout.String())
		}
	}
}

// TestEvalWeightsAreRepetitions: aer eval on a file with whole weights
// reports what it reports on the file with each row repeated that many
// times (weight 0: the row left out), sweep included.
func TestEvalWeightsAreRepetitions(t *testing.T) {
	p, err := predfile.LoadPredictions("testdata/eval/preds.csv")
	if err != nil {
		t.Fatal(err)
	}
	weighted := &predfile.Predictions{Label: p.Label, Score: p.Score, Weight: make([]float64, len(p.Score))}
	repeated := &predfile.Predictions{}
	for i := range p.Score {
		w := (i * 7) % 4
		weighted.Weight[i] = float64(w)
		for range w {
			repeated.Label = append(repeated.Label, p.Label[i])
			repeated.Score = append(repeated.Score, p.Score[i])
		}
	}
	tmp := t.TempDir()
	eval := func(p *predfile.Predictions, name string) map[string]json.RawMessage {
		path := filepath.Join(tmp, name)
		if err := writeFileAtomic(context.Background(), path, func(w io.Writer) error { return predfile.WritePredictions(w, p) }); err != nil {
			t.Fatal(err)
		}
		var stdout bytes.Buffer
		if err := run([]string{"eval", "--data", path, "--json", "--sweep", "--sweep-grid", "0"}, &stdout, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	w, r := eval(weighted, "weighted.csv"), eval(repeated, "repeated.csv")
	if string(w["weighted"]) != "true" || string(w["rows"]) != "300" || r["weighted"] != nil || r["rows"] != nil {
		t.Errorf("weighted %s rows %s; unweighted %s %s", w["weighted"], w["rows"], r["weighted"], r["rows"])
	}
	for _, key := range []string{"decision", "report", "sweep", "sweep_best"} {
		if string(w[key]) != string(r[key]) {
			t.Errorf("%s differs:\nweighted %s\nrepeated %s", key, w[key], r[key])
		}
	}
}

// TestEvalClassesDigits: the text report of three or more classes gives
// its metrics and per-class figures to 4 decimals, as the two-class one
// does (--json keeps every digit).
func TestEvalClassesDigits(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"eval", "--data", "../../testdata/legacy/multi-gbdt.pred.csv"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	long := regexp.MustCompile(`\d\.\d{5,}`)
	if m := long.FindString(stdout.String()); m != "" {
		t.Errorf("a figure of more than 4 decimals, %s, in\n%s", m, stdout.String())
	}
	if !regexp.MustCompile(`(?m)^balanced accuracy 0\.\d{4}$`).MatchString(stdout.String()) {
		t.Errorf("no balanced accuracy to 4 decimals in\n%s", stdout.String())
	}
	stdout.Reset()
	if err := run([]string{"eval", "--data", "../../testdata/legacy/multi-gbdt.pred.csv", "--json"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !long.MatchString(stdout.String()) {
		t.Errorf("--json lost the digits:\n%s", stdout.String())
	}
}

// TestEvalCost: --cost scores two-class decisions at fn and fp per error
// (fn x FN + fp x FP, its mean per row), --cost-matrix the decisions of
// three or more classes (the confusion matrix weighted by the costs);
// each is refused on the other kind of file, and a matrix of the wrong
// size too.
func TestEvalCost(t *testing.T) {
	bin, multi := "../../testdata/legacy/bin-gbdt.pred.csv", "../../testdata/legacy/multi-gbdt.pred.csv"
	var doc struct {
		Report struct{ TP, FP, TN, FN float64 } `json:"report"`
		Cost   *struct{ Total, Mean float64 }   `json:"cost"`
	}
	out, errOut, code := aer(t, "eval", "--data", bin, "--cost", "fn=5,fp=1", "--json")
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || doc.Cost == nil {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errOut)
	}
	c := doc.Report
	if want := 5*c.FN + c.FP; want == 0 || doc.Cost.Total != want || doc.Cost.Mean != want/(c.TP+c.FP+c.TN+c.FN) {
		t.Errorf("cost %+v, want total %v", doc.Cost, want)
	}
	var mdoc struct {
		Report struct{ Confusion [][]float64 } `json:"report"`
		Cost   *struct{ Total float64 }        `json:"cost"`
	}
	out, errOut, code = aer(t, "eval", "--data", multi, "--cost-matrix", "0,1,1;4,0,4;9,9,0", "--json")
	if err := json.Unmarshal([]byte(out), &mdoc); code != 0 || err != nil || mdoc.Cost == nil {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errOut)
	}
	m, want := [][]float64{{0, 1, 1}, {4, 0, 4}, {9, 9, 0}}, 0.0
	for i, row := range mdoc.Report.Confusion {
		for j, v := range row {
			want += v * m[i][j]
		}
	}
	if mdoc.Cost.Total != want {
		t.Errorf("matrix cost %v, want %v", mdoc.Cost.Total, want)
	}
	if out, _, _ := aer(t, "eval", "--data", bin, "--cost", "fn=5,fp=1"); !strings.Contains(out, "cost       ") {
		t.Errorf("text without the cost line:\n%s", out)
	}
	for _, args := range [][]string{
		{"--data", bin, "--cost-matrix", "0,1,1;4,0,4;9,9,0"},
		{"--data", multi, "--cost", "fn=5,fp=1"},
		{"--data", multi, "--cost-matrix", "0,1,1,1;1,0,1,1;1,1,0,1;1,1,1,0"},
		{"--data", bin, "--cost", "fn=-1,fp=1"},
	} {
		if _, errOut, code := aer(t, append([]string{"eval"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errOut)
		}
	}
}

// TestEvalReadsPredictClassNames: aer eval and aer compare read aer
// predict's own file whatever its class names hold (a line break made eval
// read the header's first line alone, take the file for a binary one and
// refuse it: "more than two classes").
func TestEvalReadsPredictClassNames(t *testing.T) {
	dir := t.TempDir()
	for _, classes := range [][]string{{"a,b", "b\nee", `say "hi"`, "tab\there"}, {"b\nee", "x,y"}} {
		var b strings.Builder
		w := csv.NewWriter(&b)
		w.Write([]string{"a", "b", "label"})
		for c, name := range classes {
			for i := range 12 {
				w.Write([]string{strconv.Itoa(c*10 + i%5), strconv.Itoa(i % 3), name})
			}
		}
		w.Flush()
		data, model, preds := filepath.Join(dir, "data.csv"), filepath.Join(dir, "m.aer"), filepath.Join(dir, "p.csv")
		if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(model)
		os.Remove(preds)
		if _, stderr, code := aer(t, "fit", "--method", "tree", "--train", data, "--out", model); code != 0 {
			t.Fatalf("fit %q: exit %d\n%s", classes, code, stderr)
		}
		if _, stderr, code := aer(t, "predict", "--model", model, "--data", data, "--out", preds); code != 0 {
			t.Fatalf("predict %q: exit %d\n%s", classes, code, stderr)
		}
		stdout, stderr, code := aer(t, "eval", "--data", preds, "--json")
		var o struct {
			Classes []string `json:"classes"`
		}
		if err := json.Unmarshal([]byte(stdout), &o); code != 0 || err != nil {
			t.Fatalf("eval %q: exit %d, %v\n%s", classes, code, err, stderr)
		}
		if !slices.Equal(slices.Sorted(slices.Values(o.Classes)), slices.Sorted(slices.Values(classes))) {
			t.Errorf("eval classes %q, want %q", o.Classes, classes)
		}
		// The text report keeps one row per class.
		if stdout, _, code := aer(t, "eval", "--data", preds); code != 0 || strings.Contains(stdout, "b\nee") || !strings.Contains(stdout, `"b\nee"`) {
			t.Errorf("eval text: exit %d\n%s", code, stdout)
		}
	}
}
