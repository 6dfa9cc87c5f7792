package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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
