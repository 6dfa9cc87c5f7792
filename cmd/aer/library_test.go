package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	aerlib "github.com/aer-go/aer"
)

// clinic returns the path of a clinic table of the root package's
// testdata: an id, five measurements, a text column and a yes/no outcome;
// the test part has its columns in another order, a free-text column the
// model never saw and a clinic absent from training.
func clinic(part string) string {
	return filepath.Join("..", "..", "testdata", "clinic."+part+".csv")
}

// TestLibraryFitMatchesCLI: the same seed and data give byte-identical
// model files from aer fit and from the library's Fit and Save.
func TestLibraryFitMatchesCLI(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	read := &aerlib.ReadOptions{ID: "id"}
	train, err := aerlib.ReadTable(clinic("train"), read)
	if err != nil {
		t.Fatal(err)
	}
	valid, err := aerlib.ReadTable(clinic("valid"), read)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method string
		params []string
	}{
		{"aer", nil},
		{"gbdt", []string{"n_estimators=25", "max_depth=4"}},
		{"logreg", nil},
	} {
		t.Run(tc.method, func(t *testing.T) {
			cliPath := filepath.Join(dir, tc.method+".cli.aer")
			args := []string{"fit", "--method", tc.method, "--train", clinic("train"), "--valid", clinic("valid"), "--id", "id", "--seed", "3", "--out", cliPath}
			for _, p := range tc.params {
				args = append(args, "--param", p)
			}
			if _, errOut, code := aer(t, args...); code != 0 {
				t.Fatalf("aer fit: %s", errOut)
			}
			m, _ := aerlib.Method(tc.method)
			model, err := aerlib.Fit(ctx, train, valid, &aerlib.Settings{Spec: aerlib.Spec{Params: tc.params}, Env: aerlib.Env{Seed: 3}}, m)
			if err != nil {
				t.Fatal(err)
			}
			libPath := filepath.Join(dir, tc.method+".lib.aer")
			if err := model.Save(ctx, libPath); err != nil {
				t.Fatal(err)
			}
			cli, _ := os.ReadFile(cliPath)
			lib, _ := os.ReadFile(libPath)
			if len(cli) == 0 || !bytes.Equal(cli, lib) {
				t.Fatalf("aer fit wrote %d bytes, the library %d, and they differ", len(cli), len(lib))
			}
		})
	}
}

// TestLibraryPredictMatchesCLI: aer predict on a model file the library
// saved writes byte-identical predictions to the library's, on a table
// whose columns come in another order, with a column the model does not
// use and a category value it did not see; and a missing feature column
// is an error naming it, from both.
func TestLibraryPredictMatchesCLI(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	train, err := aerlib.ReadTable(clinic("train"), &aerlib.ReadOptions{ID: "id"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := aerlib.Method("gbdt")
	model, err := aerlib.Fit(ctx, train, nil, &aerlib.Settings{Spec: aerlib.Spec{Params: []string{"n_estimators=20"}}}, m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.aer")
	if err := model.Save(ctx, path); err != nil {
		t.Fatal(err)
	}
	// The test table read on its own, not with the model's schema.
	test, err := aerlib.ReadTable(clinic("test"), &aerlib.ReadOptions{ID: "id", Label: "outcome"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.Predict(ctx, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Unseen["clinic"] != 1 || len(p.Ignored) != 1 || p.Ignored[0] != "note" {
		t.Errorf("unseen %v, ignored %v: want clinic 1, [note]", p.Unseen, p.Ignored)
	}
	var lib bytes.Buffer
	if err := p.WriteCSV(&lib); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "p.csv")
	_, errOut, code := aer(t, "predict", "--model", path, "--data", clinic("test"), "--out", out)
	if code != 0 {
		t.Fatalf("aer predict: %s", errOut)
	}
	if !strings.Contains(errOut, "1 cells of categorical columns hold values unseen in training") {
		t.Errorf("aer predict did not count the unseen clinic: %s", errOut)
	}
	cli, _ := os.ReadFile(out)
	if !bytes.Equal(cli, lib.Bytes()) {
		t.Fatalf("aer predict and the library differ:\n%.300s\n---\n%.300s", cli, lib.Bytes())
	}

	// A missing feature column.
	b, _ := os.ReadFile(clinic("test"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var cut []string
	for _, l := range lines {
		f := strings.Split(l, ",")
		cut = append(cut, strings.Join(append(f[:5:5], f[6:]...), ",")) // without heart_rate
	}
	missing := filepath.Join(dir, "missing.csv")
	os.WriteFile(missing, []byte(strings.Join(cut, "\n")+"\n"), 0o644)
	mt, err := aerlib.ReadTable(missing, &aerlib.ReadOptions{ID: "id", Label: "outcome"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Predict(ctx, mt, nil); err == nil || !strings.Contains(err.Error(), `"heart_rate"`) {
		t.Errorf("library: %v, want an error naming heart_rate", err)
	}
	_, errOut, code = aer(t, "predict", "--model", path, "--data", missing, "--out", filepath.Join(dir, "q.csv"))
	if code == 0 || !strings.Contains(errOut, `"heart_rate"`) {
		t.Errorf("aer predict: exit %d, %s; want an error naming heart_rate", code, errOut)
	}
}

// TestExplainByName: aer explain reads a table whose columns come in
// another order, with a text column the model does not use, and names
// the classes.
func TestExplainByName(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.aer")
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--param", "n_estimators=10", "--train", clinic("train"), "--id", "id", "--out", model); code != 0 {
		t.Fatalf("fit: %s", errOut)
	}
	out, errOut, code := aer(t, "explain", "--model", model, "--data", clinic("test"), "--rows", "1", "--json")
	if code != 0 {
		t.Fatalf("explain: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"label": "no"`) || !strings.Contains(out, `"p1169"`) {
		t.Errorf("explain of row 1 (p1169, label no): %.400s", out)
	}
}
