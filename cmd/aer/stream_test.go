package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	aerlib "github.com/aer-go/aer"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/predfile"
)

// wholeFilePredictions is what aer predict wrote before it streamed: the
// whole file read, scored and written at once.
func wholeFilePredictions(t *testing.T, modelPath, dataPath string) []byte {
	t.Helper()
	m, err := aerlib.Load(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadFor(context.Background(), dataPath, m.Header(), modelPath, "")
	if err != nil {
		t.Fatal(err)
	}
	score, err := learn.Predict(context.Background(), m.Learned().(learn.Scorer), d.X, 1)
	if err != nil {
		t.Fatal(err)
	}
	th, _ := m.Threshold()
	p := &predfile.Predictions{Label: d.Y, Score: score, Pred: make([]int, len(score)), ID: d.IDs, IDColumn: d.IDColumn}
	for i, s := range score {
		if s >= th {
			p.Pred[i] = 1
		}
	}
	var buf bytes.Buffer
	if err := predfile.WritePredictions(&buf, p); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withColumns rewrites the CSV at path with a weight column w and a text
// column note after the features; without the label column when
// unlabelled.
func withColumns(t *testing.T, path, out string, unlabelled bool) {
	t.Helper()
	rewriteCSV(t, path, out, func(i int, f []string, label string) []string {
		if i == 0 {
			f = append(f, "w", "note")
		} else {
			f = append(f, fmt.Sprint(1+i%3), fmt.Sprintf("r%d", i))
		}
		if !unlabelled {
			f = append(f, label)
		}
		return f
	})
}

// TestPredictStreamsExactly: aer predict, reading, scoring and writing 7
// rows at a time, writes byte for byte what scoring the whole file at once
// gives, for several methods, with and without labels, weights and
// dropped columns.
func TestPredictStreamsExactly(t *testing.T) {
	defer func(n int) { predictBatch = n }(predictBatch)
	predictBatch = 7
	dir := t.TempDir()
	train, valid, test := aerTask(t, dir)
	wtrain, wvalid := filepath.Join(dir, "wtrain.csv"), filepath.Join(dir, "wvalid.csv")
	withColumns(t, train, wtrain, false)
	withColumns(t, valid, wvalid, false)
	labelled, unlabelled := filepath.Join(dir, "wtest.csv"), filepath.Join(dir, "utest.csv")
	withColumns(t, test, labelled, false)
	withColumns(t, test, unlabelled, true)
	for _, fit := range []struct {
		name string
		args []string
	}{
		{"gbdt", []string{"--method", "gbdt", "--param", "n_estimators=15", "--train", train, "--valid", valid}},
		{"gbdt-weighted", []string{"--method", "gbdt", "--param", "n_estimators=15", "--train", wtrain, "--valid", wvalid, "--weight", "w", "--drop", "note"}},
		{"aer", append([]string{"--method", "aer", "--train", wtrain, "--valid", wvalid, "--drop", "note,w"}, smallAER...)},
		{"logreg", []string{"--method", "logreg", "--train", train}},
	} {
		t.Run(fit.name, func(t *testing.T) {
			model := filepath.Join(dir, fit.name+".aer")
			if _, errOut, code := aer(t, append([]string{"fit", "--method", "gbdt", "--cross-fit", "-1", "--out", model}, fit.args...)...); code != 0 {
				t.Fatalf("fit: %s", errOut)
			}
			data := []string{test}
			if fit.name != "gbdt" && fit.name != "logreg" {
				data = []string{labelled, unlabelled}
			}
			for _, path := range data {
				out := filepath.Join(dir, fit.name+"-"+filepath.Base(path))
				if _, errOut, code := aer(t, "predict", "--model", model, "--data", path, "--out", out, "--threads", "2"); code != 0 {
					t.Fatalf("predict %s: %s", path, errOut)
				}
				got, _ := os.ReadFile(out)
				want := wholeFilePredictions(t, model, path)
				if !bytes.Equal(got, want) {
					t.Errorf("%s: streamed predictions differ from the whole file's", filepath.Base(path))
				}
				if n := bytes.Count(got, []byte("\n")); n != 301 {
					t.Errorf("%s: %d lines, want a header and 300 rows", filepath.Base(path), n)
				}
			}
		})
	}
}

// TestPredictStreamErrorMidFile: a bad cell after several batches were
// written fails with its line and leaves no file (nor replaces one).
func TestPredictStreamErrorMidFile(t *testing.T) {
	defer func(n int) { predictBatch = n }(predictBatch)
	predictBatch = 7
	dir := t.TempDir()
	model := fitModel(t, dir)
	b, _ := os.ReadFile("testdata/predict/test.csv")
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var sb strings.Builder
	sb.WriteString(lines[0] + "\n")
	for k := range 40 {
		sb.WriteString(lines[1+k%(len(lines)-1)] + "\n")
	}
	cols := strings.Split(lines[0], ",")
	bad := make([]string, len(cols))
	for j := range bad {
		bad[j] = "1"
	}
	bad[0] = "oops"
	sb.WriteString(strings.Join(bad, ",") + "\n")
	data := filepath.Join(dir, "bad.csv")
	os.WriteFile(data, []byte(sb.String()), 0o644)
	out := filepath.Join(dir, "preds.csv")
	for _, existing := range []bool{false, true} {
		if existing {
			os.WriteFile(out, []byte("keep me\n"), 0o644)
		}
		_, errOut, code := aer(t, "predict", "--model", model, "--data", data, "--out", out)
		if code != 1 || !strings.Contains(errOut, "line 42") || !strings.Contains(errOut, `"oops": not a number`) {
			t.Errorf("exit %d: %s", code, errOut)
		}
		got, err := os.ReadFile(out)
		switch {
		case !existing && err == nil:
			t.Error("a failed predict left a predictions file")
		case existing && string(got) != "keep me\n":
			t.Errorf("a failed predict replaced the existing file: %q", got)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// aerStdin runs aer with stdin as its standard input.
func aerStdin(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errw bytes.Buffer
	err := runContext(withStdin(context.Background(), stdin), args, &out, &errw)
	code = exitCode(err, &errw)
	return out.String(), errw.String(), code
}

// TestStdinStdout: - reads the data from standard input (plain or
// gzip-compressed) and writes predictions to standard output, with the
// same bytes as files give.
func TestStdinStdout(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir)
	test, _ := os.ReadFile("testdata/predict/test.csv")
	want, _ := os.ReadFile("testdata/predict/labelled.csv")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(test)
	zw.Close()
	for name, in := range map[string][]byte{"plain": test, "gzip": gz.Bytes()} {
		out, errOut, code := aerStdin(t, bytes.NewReader(in), "predict", "--model", model, "--data", "-", "--out", "-")
		if code != 0 || out != string(want) {
			t.Errorf("%s: exit %d: %s\n%s", name, code, errOut, out)
		}
	}
	// fit reads its training data from stdin; the model is the one the
	// file gives.
	train, _ := os.ReadFile("testdata/fit/train.csv")
	m2 := filepath.Join(dir, "stdin.aer")
	if _, errOut, code := aerStdin(t, bytes.NewReader(train), "fit", "--method", "gbdt", "--cross-fit", "-1", "--train", "-", "--param", "n_estimators=10", "--param", "max_depth=3", "--out", m2); code != 0 {
		t.Fatal(errOut)
	}
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(m2)
	if !bytes.Equal(a, b) {
		t.Error("a model fitted on stdin differs from the model of the same file")
	}
	// info and explain read stdin too; a bad cell names stdin and its line.
	if out, errOut, code := aerStdin(t, bytes.NewReader(train), "info", "--data", "-", "--json"); code != 0 || !strings.Contains(out, `"file": "-"`) {
		t.Errorf("info: exit %d: %s%s", code, errOut, out)
	}
	_, errOut, code := aerStdin(t, strings.NewReader("a,b,c,status\n1,2,x,sick\n"), "predict", "--model", model, "--data", "-")
	if code != 1 || !strings.Contains(errOut, `stdin: line 2, column "c": "x": not a number`) {
		t.Errorf("bad cell on stdin: exit %d: %s", code, errOut)
	}
	// Usage errors: two inputs from stdin, --json with predictions on stdout.
	if _, errOut, code := aerStdin(t, strings.NewReader(""), "fit", "--method", "gbdt", "--train", "-", "--valid", "-", "--out", m2); code != 2 || !strings.Contains(errOut, "only one input") {
		t.Errorf("two stdin inputs: exit %d: %s", code, errOut)
	}
	if _, errOut, code := aerStdin(t, strings.NewReader(""), "predict", "--model", model, "--data", "-", "--out", "-", "--json"); code != 2 || !strings.Contains(errOut, "--json needs --out") {
		t.Errorf("--json with --out -: exit %d: %s", code, errOut)
	}
}
