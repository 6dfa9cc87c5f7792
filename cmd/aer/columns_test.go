package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withID writes the CSV at path to out with a first column name holding
// ids "<prefix><row>", and extra columns (name=value for every row)
// before the label.
func withID(t *testing.T, path, out, name, prefix string, extra ...string) {
	t.Helper()
	rewriteCSV(t, path, out, func(i int, f []string, label string) []string {
		id := name
		if i > 0 {
			id = fmt.Sprintf("%s%d", prefix, i)
		}
		for _, e := range extra {
			k, v, _ := strings.Cut(e, "=")
			if i == 0 {
				v = k
			}
			f = append(f, v)
		}
		return append(append([]string{id}, f...), label)
	})
}

// rewriteCSV writes out as the CSV file at path with each line i (0: the
// header) replaced by row(i, its fields but the last, the last field).
func rewriteCSV(t *testing.T, path, out string, row func(i int, f []string, label string) []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, ",")
		sb.WriteString(strings.Join(row(i, f[:len(f)-1], f[len(f)-1]), ",") + "\n")
	}
	if err := os.WriteFile(out, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIDColumnEndToEnd(t *testing.T) {
	dir := t.TempDir()
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	withID(t, "testdata/fit/train.csv", train, "cust", "c")
	withID(t, "testdata/predict/test.csv", test, "cust", "t")
	model := filepath.Join(dir, "m.aer")
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--cross-fit", "-1", "--train", train, "--id", "cust", "--param", "n_estimators=10", "--param", "max_depth=3", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	// The same model as without the id column: it is never a feature.
	plain := fitModel(t, t.TempDir())
	out := filepath.Join(dir, "p.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", test, "--out", out); code != 0 {
		t.Fatal(errOut)
	}
	got, _ := os.ReadFile(out)
	ref, _, _ := aer(t, "predict", "--model", plain, "--data", "testdata/predict/test.csv")
	var want strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(ref), "\n") {
		id := "cust"
		if i > 0 {
			id = fmt.Sprintf("t%d", i)
		}
		want.WriteString(id + "," + line + "\n")
	}
	if string(got) != want.String() {
		t.Errorf("predictions with ids:\n%s\nwant\n%s", got, want.String())
	}
	// aer eval reads the file with its id column.
	if _, errOut, code := aer(t, "eval", "--data", out, "--json"); code != 0 {
		t.Errorf("eval of predictions with ids: %s", errOut)
	}
	// Data without the id column scores too; explain shows the id.
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", "testdata/predict/test.csv"); code != 0 {
		t.Errorf("data without the id column: %s", errOut)
	}
	treeModel := filepath.Join(dir, "tree.aer")
	if _, errOut, code := aer(t, "fit", "--method", "tree", "--train", train, "--id", "cust", "--out", treeModel); code != 0 {
		t.Fatal(errOut)
	}
	if out, errOut, code := aer(t, "explain", "--model", treeModel, "--data", test, "--rows", "2", "--json"); code != 0 || !strings.Contains(out, `"id": "t2"`) {
		t.Errorf("explain: exit %d: %s%s", code, errOut, out)
	}
	// --id names a column the file lacks: refused.
	_, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", "testdata/fit/train.csv", "--id", "cust", "--out", filepath.Join(dir, "x.aer"))
	if code != 2 || !strings.Contains(errOut, "--id cust: testdata/fit/train.csv has no such column") {
		t.Errorf("absent id: exit %d: %s", code, errOut)
	}
	_, errOut, code = aer(t, "predict", "--model", model, "--data", test, "--id", "nope")
	if code != 1 || !strings.Contains(errOut, "--id nope:") {
		t.Errorf("predict --id absent: exit %d: %s", code, errOut)
	}
}

// TestLabelLikeColumnRefused: a second outcome column is refused at fit
// time unless dropped or made the id.
func TestLabelLikeColumnRefused(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	withID(t, "testdata/fit/train.csv", train, "row", "r", "Status=1")
	model := filepath.Join(dir, "m.aer")
	_, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--id", "row", "--out", model)
	want := `aer: fit: train.csv: line 1, column "Status": a feature column is named like a label (the label is "status": a second outcome leaks into training; leave it out with --drop Status, or choose it as the label with --label Status)`
	if code != 1 || strings.TrimSpace(errOut) != want {
		t.Errorf("exit %d:\n%s\nwant\n%s", code, errOut, want)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a refused fit wrote a model")
	}
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--id", "row", "--drop", "Status", "--out", model); code != 0 {
		t.Errorf("with --drop: %s", errOut)
	}
}
