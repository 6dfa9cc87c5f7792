package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/predfile"
)

func fitModel(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	model := filepath.Join(dir, "m.aer")
	args := append([]string{"fit", "--method", "gbdt", "--cross-fit", "-1", "--train", "testdata/fit/train.csv", "--param", "n_estimators=10", "--param", "max_depth=3", "--out", model}, extra...)
	if _, stderr, code := aer(t, args...); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	return model
}

func TestPredict(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir)
	out := filepath.Join(dir, "preds.csv")

	stdout, stderr, code := aer(t, "predict", "--model", model, "--data", "testdata/predict/test.csv", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "predict/labelled.json", untimed(stdout, dir))
	got, _ := os.ReadFile(out)
	golden(t, "predict/labelled.csv", string(got))

	// Unlabelled data with the columns in another order; CSV on stdout.
	stdout, stderr, code = aer(t, "predict", "--model", model, "--data", "testdata/predict/unlabelled.csv", "--threshold", "0.3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "predict/unlabelled_preds.csv", stdout)

	// The predictions file feeds aer eval.
	if _, stderr, code := aer(t, "eval", "--data", out, "--json"); code != 0 {
		t.Errorf("eval of the predictions: exit %d: %s", code, stderr)
	}
}

func TestPredictErrors(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir)
	b, _ := os.ReadFile(model)
	truncated := filepath.Join(dir, "truncated.aer")
	os.WriteFile(truncated, b[:len(b)/2], 0o644)
	altered := filepath.Join(dir, "altered.aer")
	c := bytes.Clone(b)
	c[len(c)/2] ^= 1
	os.WriteFile(altered, c, 0o644)
	version := filepath.Join(dir, "version.aer")
	c = bytes.Clone(b)
	c[8] = 9
	os.WriteFile(version, c, 0o644)
	out := filepath.Join(dir, "preds.csv")
	for _, tc := range []struct {
		name string
		code int
		args []string
	}{
		{"wrong_columns", 1, []string{"--model", model, "--data", "testdata/predict/wrongcols.csv", "--out", out}},
		{"truncated", 1, []string{"--model", truncated, "--data", "testdata/predict/test.csv", "--out", out}},
		{"altered", 1, []string{"--model", altered, "--data", "testdata/predict/test.csv", "--out", out}},
		{"version", 1, []string{"--model", version, "--data", "testdata/predict/test.csv", "--out", out}},
		{"not_a_model", 1, []string{"--model", "testdata/fit/train.csv", "--data", "testdata/predict/test.csv", "--out", out}},
		{"json_needs_out", 2, []string{"--model", model, "--data", "testdata/predict/test.csv", "--json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := aer(t, append([]string{"predict"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			golden(t, "predict/"+tc.name+".stderr", untimed(firstLine(stderr), dir))
			if _, err := os.Stat(out); err == nil {
				t.Error("a failed predict left a predictions file")
			}
		})
	}
}

// TestPredictReloadExact: predictions after saving and loading equal the
// fitted model's, bit for bit, and refitting with the same seed gives the
// same file.
func TestPredictReloadExact(t *testing.T) {
	dir := t.TempDir()
	m1 := fitModel(t, dir, "--param", "subsample=0.7", "--seed", "5")
	b1, _ := os.ReadFile(m1)
	m2 := fitModel(t, dir, "--param", "subsample=0.7", "--seed", "5", "--threads", "1")
	b2, _ := os.ReadFile(m2)
	if !bytes.Equal(b1, b2) {
		t.Error("same seed, different thread count: model files differ")
	}
}

// TestPredictMatchesLibrary: aer fit then aer predict give, bit for bit,
// the scores of the same model trained and applied in-process.
func TestPredictMatchesLibrary(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir)
	out := filepath.Join(dir, "p.csv")
	if _, stderr, code := aer(t, "predict", "--model", model, "--data", "testdata/predict/test.csv", "--out", out); code != 0 {
		t.Fatalf("predict: %s", stderr)
	}
	got, err := predfile.LoadPredictions(out)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := dataset.Load("testdata/fit/train.csv", dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	te, err := dataset.Load("testdata/predict/test.csv", dataset.Options{Classes: tr.Classes, AllowOneClass: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := boost.Train(context.Background(), boost.Data{X: tr.X, Y: tr.Y}, nil, &boost.Settings{NEstimators: 10, MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := m.Predict(te.X, nil)
	for i := range want {
		if math.Float64bits(got.Score[i]) != math.Float64bits(want[i]) {
			t.Errorf("row %d: aer predict %v, library %v", i, got.Score[i], want[i])
		}
	}
}

// TestPredictClassNames: aer predict writes label and pred as the class
// names of the training file, and aer eval scores that file as the same
// predictions written 0/1.
func TestPredictClassNames(t *testing.T) {
	dir := t.TempDir()
	relabel := func(src, name, pos, neg string) string {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(strings.ReplaceAll(string(b), ",sick\n", ","+pos+"\n"), ",healthy\n", ","+neg+"\n")
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	preds := map[string]string{}
	for _, c := range []struct{ name, pos, neg, trees string }{{"yesno", "yes", "no", "10"}, {"01", "1", "0", "10"}, {"01b", "1", "0", "3"}} {
		train := relabel("testdata/fit/train.csv", c.name+"-train.csv", c.pos, c.neg)
		test := relabel("testdata/predict/test.csv", c.name+"-test.csv", c.pos, c.neg)
		model := filepath.Join(dir, c.name+".aer")
		if _, stderr, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--param", "n_estimators="+c.trees, "--param", "max_depth=3", "--out", model); code != 0 {
			t.Fatalf("fit: %s", stderr)
		}
		out, stderr, code := aer(t, "predict", "--model", model, "--data", test)
		if code != 0 {
			t.Fatalf("predict: %s", stderr)
		}
		preds[c.name] = filepath.Join(dir, c.name+"-preds.csv")
		if err := os.WriteFile(preds[c.name], []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	yes, _ := os.ReadFile(preds["yesno"])
	zeroOne, _ := os.ReadFile(preds["01"])
	if !strings.HasPrefix(string(yes), "label,score,pred\nno,") || !strings.Contains(string(yes), ",yes\n") {
		t.Errorf("predictions of a yes/no model:\n%s", yes)
	}
	named := strings.NewReplacer("no,", "0,", "yes,", "1,", ",no\n", ",0\n", ",yes\n", ",1\n").Replace(string(yes))
	if named != string(zeroOne) {
		t.Errorf("yes/no predictions, renamed, differ from the 0/1 ones:\n%s\nwant\n%s", named, zeroOne)
	}
	evalJSON := func(args ...string) map[string]any {
		t.Helper()
		out, stderr, code := aer(t, append([]string{"eval", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("eval %v: %s", args, stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	want := evalJSON("--data", preds["01"])
	for _, args := range [][]string{{"--data", preds["yesno"]}, {"--data", preds["yesno"], "--positive", "yes"}} {
		got := evalJSON(args...)
		if !reflect.DeepEqual(got["report"], want["report"]) || !reflect.DeepEqual(got["decision"], want["decision"]) {
			t.Errorf("eval %v: %v\nwant %v", args, got["report"], want["report"])
		}
		if c, _ := got["classes"].([]any); len(c) != 2 || c[0] != "no" || c[1] != "yes" {
			t.Errorf("eval %v: classes %v", args, got["classes"])
		}
	}
	// Naming the other class positive swaps the confusion matrix.
	got := evalJSON("--data", preds["yesno"], "--positive", "no")
	gc, _ := got["report"].(map[string]any)
	wc, _ := want["report"].(map[string]any)
	if gc["tp"] == nil || gc["tp"] != wc["tn"] || gc["fp"] != wc["fn"] || gc["tn"] != wc["tp"] {
		t.Errorf("--positive no: confusion %v, want %v swapped", gc, wc)
	}
	if _, stderr, code := aer(t, "eval", "--data", preds["yesno"], "--positive", "maybe"); code != 1 || !strings.Contains(stderr, `"maybe"`) {
		t.Errorf("--positive maybe: exit %d: %s", code, stderr)
	}

	// aer compare reads them too: yes/no against 0/1 predictions of
	// another model is 0/1 against them.
	compare := func(a, b string) string {
		t.Helper()
		out, stderr, code := aer(t, "compare", a, b, "--json")
		if code != 0 {
			t.Fatalf("compare %s %s: %s", a, b, stderr)
		}
		return strings.ReplaceAll(out, filepath.Base(a), "A")
	}
	if got, want := compare(preds["yesno"], preds["01b"]), compare(preds["01"], preds["01b"]); got != want {
		t.Errorf("compare yes/no with 0/1:\n%s\nwant\n%s", got, want)
	}
	// Files that take different positive classes are refused.
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	os.WriteFile(a, []byte("label,score,pred\nyes,0.9,yes\nno,0.1,no\nno,0.2,no\n"), 0o600)
	os.WriteFile(b, []byte("label,score,pred\nyes,0.1,yes\nno,0.9,no\nno,0.8,no\n"), 0o600)
	if _, stderr, code := aer(t, "compare", a, b); code != 1 || !strings.Contains(stderr, `takes "yes" as the positive class, b.csv takes "no"`) {
		t.Errorf("different positive classes: exit %d: %s", code, stderr)
	}
}
