package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExplainCalibrated: behind --calibrate sigmoid a gbdt model's
// attributions sum to the logit of the calibrated score aer explain
// prints; behind --calibrate isotonic a tree model offers neither
// attributions nor its explanation, and says why.
func TestExplainCalibrated(t *testing.T) {
	dir := t.TempDir()
	const train, valid = "testdata/fit/train.csv", "testdata/fit/valid.csv"
	sig := filepath.Join(dir, "sig.aer")
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--valid", valid, "--out", sig, "--calibrate", "sigmoid", "--param", "n_estimators=10", "--param", "max_depth=3"); code != 0 {
		t.Fatal(errOut)
	}
	out, errOut, code := aer(t, "explain", "--model", sig, "--data", train, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var doc struct {
		About string `json:"attribution_method"`
		Rows  []struct {
			Row      int     `json:"row"`
			Score    float64 `json:"score"`
			Features struct {
				Space  string  `json:"space"`
				Output float64 `json:"output"`
			} `json:"features"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Rows) != 80 || !strings.Contains(doc.About, "sigmoid calibration") {
		t.Fatalf("%d rows, attribution method %q", len(doc.Rows), doc.About)
	}
	pred, errOut, code := aer(t, "predict", "--model", sig, "--data", train)
	if code != 0 {
		t.Fatal(errOut)
	}
	lines := strings.Split(strings.TrimSpace(pred), "\n")
	for k, r := range doc.Rows {
		if p := 1 / (1 + math.Exp(-r.Features.Output)); r.Features.Space != "logit" || math.Abs(p-r.Score) > 1e-9 {
			t.Errorf("row %d: the attributions give %v, the calibrated score is %v", r.Row, p, r.Score)
		}
		if f := strings.Split(lines[k+1], ","); len(f) != 3 || f[1] != strconv.FormatFloat(r.Score, 'g', -1, 64) {
			t.Errorf("row %d: aer predict wrote %q, aer explain the score %v", r.Row, lines[k+1], r.Score)
		}
	}

	iso := filepath.Join(dir, "iso.aer")
	if _, errOut, code := aer(t, "fit", "--method", "tree", "--train", train, "--valid", valid, "--out", iso, "--calibrate", "isotonic"); code != 0 {
		t.Fatal(errOut)
	}
	// No attributions through an isotonic map, but the tree's own
	// explanation, beside the calibrated score.
	out, errOut, code = aer(t, "explain", "--model", iso, "--data", train, "--rows", "1")
	if code != 0 || !strings.Contains(errOut, "no feature attributions") || !strings.Contains(errOut, "isotonic calibration") || !strings.Contains(out, "isotonic calibration of the model's score") || !strings.Contains(out, "leaf") {
		t.Errorf("explain of an isotonic-calibrated tree: code %d, %s\n%s", code, errOut, out)
	}
}
