package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExport exports a gbdt model file with aer export (text and --json
// outputs against golden files), checks the file is an ONNX ModelProto
// with aer as its producer, and refuses what it cannot do: another
// format, a method without an ONNX graph (naming it), an output that is
// the model file, missing flags.
func TestExport(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir)
	out := filepath.Join(dir, "m.onnx")
	stdout, stderr, code := aer(t, "export", "--format", "onnx", "--model", model, "--out", out)
	if code != 0 {
		t.Fatalf("export: exit %d\n%s", code, stderr)
	}
	golden(t, "export/gbdt.txt", strings.ReplaceAll(stdout, dir, "DIR"))
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// ModelProto field 1 (ir_version, varint 8), then field 2
	// (producer_name, "aer").
	if len(b) < 7 || string(b[:2]) != "\x08\x08" || string(b[2:7]) != "\x12\x03aer" {
		t.Errorf("the file does not start as an ONNX ModelProto of IR 8 by aer: % x", b[:min(len(b), 8)])
	}

	stdout, stderr, code = aer(t, "export", "--model", model, "--out", out, "--json")
	if code != 0 {
		t.Fatalf("export --json: exit %d\n%s", code, stderr)
	}
	golden(t, "export/gbdt.json", strings.ReplaceAll(stdout, dir, "DIR"))
	var o exportOutput
	if err := json.Unmarshal([]byte(stdout), &o); err != nil || o.Bytes != len(b) || o.Method != "gbdt" {
		t.Errorf("--json: %+v (%v), file of %d bytes", o, err, len(b))
	}

	// To standard output: the same bytes.
	stdout, _, code = aer(t, "export", "--model", model, "--out", "-")
	if code != 0 || stdout != string(b) {
		t.Errorf("--out -: exit %d, %d bytes, want the file's %d", code, len(stdout), len(b))
	}

	mlp := filepath.Join(dir, "mlp.aer")
	if _, stderr, code := aer(t, "fit", "--method", "mlp-focal", "--train", "testdata/fit/train.csv", "--param", "max_epochs=2", "--out", mlp); code != 0 {
		t.Fatalf("fit mlp-focal: exit %d\n%s", code, stderr)
	}
	refused := filepath.Join(dir, "mlp.onnx")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unsupported", []string{"--model", mlp, "--out", refused}, 1, "mlp-focal"},
		{"format", []string{"--format", "pmml", "--model", model, "--out", refused}, 2, `--format "pmml"`},
		{"no model", []string{"--out", refused}, 2, "--model is required"},
		{"no out", []string{"--model", model}, 2, "--out is required"},
		{"overwrite", []string{"--model", model, "--out", model}, 2, "refusing to overwrite"},
		{"json to stdout", []string{"--model", model, "--out", "-", "--json"}, 2, "--json needs --out"},
	} {
		_, stderr, code := aer(t, append([]string{"export"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, want %d; stderr %q lacks %q", tc.name, code, tc.code, stderr, tc.want)
		}
		if _, err := os.Stat(refused); err == nil {
			t.Errorf("%s: %s was written", tc.name, refused)
		}
	}
	_, stderr, _ = aer(t, "export", "--model", mlp, "--out", refused)
	golden(t, "export/unsupported.stderr", strings.ReplaceAll(stderr, dir, "DIR"))
}

// TestExportCategorical exports a model of a table with a text column:
// the input's columns are the raw ones, the text column named with its
// values, one-hot encoded inside the graph.
func TestExportCategorical(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,city,label\n")
	for i := range 200 {
		city := []string{"lima", "oslo", "rome"}[i%3]
		label := 0
		if i%7 == 0 || (city == "oslo" && i%5 == 0) {
			label = 1
		}
		fmt.Fprintf(&b, "%d,%s,%d\n", i%17, city, label)
	}
	train := filepath.Join(dir, "train.csv")
	if err := os.WriteFile(train, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.aer")
	if _, stderr, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--param", "n_estimators=5", "--out", model); code != 0 {
		t.Fatalf("fit: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := aer(t, "export", "--model", model, "--out", filepath.Join(dir, "m.onnx"), "--json")
	if code != 0 {
		t.Fatalf("export: exit %d\n%s", code, stderr)
	}
	var o exportOutput
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		t.Fatal(err)
	}
	if strings.Join(o.Columns, ",") != "x,city" || len(o.Features) != 4 || len(o.Categories) != 1 || strings.Join(o.Categories[0].Values, ",") != "lima,oslo,rome" {
		t.Errorf("columns %q, features %q, categories %+v", o.Columns, o.Features, o.Categories)
	}
}

// aer export of a multi-class model (XGBoost's 4-class multi:softprob,
// imported): the graph's outputs are probabilities and label, and --json
// and the text name the classes, the decision rule and its weights.
func TestExportMulti(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "multi.aer")
	if _, errOut, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "multi.json"),
		"--data", filepath.Join(xgbFixtures, "multi.csv"), "--out", model); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	onnxFile := filepath.Join(dir, "multi.onnx")
	out, errOut, code := aer(t, "export", "--format", "onnx", "--model", model, "--out", onnxFile, "--json")
	if code != 0 {
		t.Fatalf("export: exit %d\n%s", code, errOut)
	}
	var o exportOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Outputs, []string{"probabilities", "label"}) || strings.Join(o.Classes, ",") != "0,1,2,3" ||
		o.Decision != "argmax" || !slices.Equal(o.ClassWeights, []float64{1, 1, 1, 1}) {
		t.Errorf("export --json: %s", out)
	}
	if st, err := os.Stat(onnxFile); err != nil || st.Size() != int64(o.Bytes) {
		t.Errorf("the ONNX file: %v", err)
	}
	out, errOut, code = aer(t, "export", "--format", "onnx", "--model", model, "--out", filepath.Join(dir, "again.onnx"))
	if code != 0 || !strings.Contains(out, "outputs    probabilities: float32 [N, 4] (classes 0, 1, 2, 3); label: int64 [N] (the index of the class of largest w_c p_c, argmax decision, w = 1, 1, 1, 1)") {
		t.Errorf("export: exit %d\n%s%s", code, out, errOut)
	}
}

// TestExportCancelled: a cancelled export stops with the context's error
// and writes nothing.
func TestExportCancelled(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir)
	out := filepath.Join(dir, "m.onnx")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := runContext(ctx, []string{"export", "--model", model, "--out", out}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "export: interrupted") || stdout.Len() > 0 {
		t.Fatalf("export, cancelled: %v, %d bytes out", err, stdout.Len())
	}
	// The loading itself, cancelled, returns at once.
	if _, _, err := exportONNX(ctx, model); !errors.Is(err, context.Canceled) {
		t.Errorf("exportONNX, cancelled: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a cancelled export wrote %s (%v)", out, err)
	}
}
