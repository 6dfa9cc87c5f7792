package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPredictOOD: aer predict --ood adds the columns ood_score and ood to
// an AER model's predictions, the other columns as without it, ood 1
// exactly where ood_score is above the threshold --json reports; without
// --ood there are no such columns; a model without the score (gbdt) is
// refused, leaving no file.
func TestPredictOOD(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "aer.aer")
	if _, stderr, code := aer(t, "fit", "--method", "aer", "--train", "testdata/fit/train.csv", "--param", "member.n_estimators=10", "--param", "components=2", "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	plain, stderr, code := aer(t, "predict", "--model", model, "--data", "testdata/predict/test.csv")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	if strings.Contains(plain, "ood") {
		t.Fatalf("ood columns without --ood:\n%s", firstLine(plain))
	}
	out := filepath.Join(dir, "ood.csv")
	stdout, stderr, code := aer(t, "predict", "--model", model, "--data", "testdata/predict/test.csv", "--ood", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("predict --ood: exit %d: %s", code, stderr)
	}
	var sum struct {
		Rows         int      `json:"rows"`
		OODFlagged   *int     `json:"ood_flagged"`
		OODThreshold *float64 `json:"ood_threshold"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.OODFlagged == nil || sum.OODThreshold == nil {
		t.Fatalf("--json: %v: %s", err, stdout)
	}
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	plainLines := strings.Split(strings.TrimSpace(plain), "\n")
	if !strings.HasSuffix(lines[0], ",ood_score,ood") || len(lines) != len(plainLines) || len(lines)-1 != sum.Rows {
		t.Fatalf("header %q, %d lines, %d without --ood, %d rows", lines[0], len(lines), len(plainLines), sum.Rows)
	}
	flagged := 0
	for i := 1; i < len(lines); i++ {
		cells := strings.Split(lines[i], ",")
		n := len(cells)
		if strings.Join(cells[:n-2], ",") != plainLines[i] {
			t.Fatalf("line %d: %q, without --ood %q", i+1, lines[i], plainLines[i])
		}
		s, err := strconv.ParseFloat(cells[n-2], 64)
		if err != nil {
			t.Fatalf("line %d: ood_score %q: %v", i+1, cells[n-2], err)
		}
		want := "0"
		if s > *sum.OODThreshold {
			want = "1"
			flagged++
		}
		if cells[n-1] != want {
			t.Fatalf("line %d: ood_score %v, threshold %v, ood %s", i+1, s, *sum.OODThreshold, cells[n-1])
		}
	}
	if flagged != *sum.OODFlagged {
		t.Fatalf("%d rows flagged in the file, %d in --json", flagged, *sum.OODFlagged)
	}

	gbdt := fitModel(t, dir)
	out2 := filepath.Join(dir, "gbdt.csv")
	_, stderr, code = aer(t, "predict", "--model", gbdt, "--data", "testdata/predict/test.csv", "--ood", "--out", out2)
	if code != 1 || !strings.Contains(stderr, "no out-of-distribution score") {
		t.Fatalf("gbdt --ood: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Fatal("a refused --ood left a predictions file")
	}
}
