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
// the predictions of an AER model (its mixture) and of a gbdt model (the
// density aer fit fits beside it), the other columns as without it, ood 1
// exactly where ood_score is above the threshold --json reports, a row
// far from the training data flagged; without --ood there are no such
// columns; a model fitted with --ood-density=false is refused, leaving
// no file.
func TestPredictOOD(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "test.csv")
	b, err := os.ReadFile("testdata/predict/test.csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, append(b, "90,-80,2,healthy\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, fit := range [][]string{
		{"--method", "aer", "--param", "member.n_estimators=10", "--param", "components=2"},
		{"--method", "gbdt", "--param", "n_estimators=10"},
	} {
		model := filepath.Join(dir, fit[1]+".aer")
		args := append([]string{"fit", "--train", "testdata/fit/train.csv", "--out", model}, fit...)
		if _, stderr, code := aer(t, args...); code != 0 {
			t.Fatalf("fit: exit %d: %s", code, stderr)
		}
		checkOODColumns(t, model, data, filepath.Join(dir, fit[1]+".csv"))
	}

	gbdt := fitModel(t, dir, "--ood-density=false")
	out2 := filepath.Join(dir, "refused.csv")
	_, stderr, code := aer(t, "predict", "--model", gbdt, "--data", "testdata/predict/test.csv", "--ood", "--out", out2)
	if code != 1 || !strings.Contains(stderr, "no out-of-distribution score") {
		t.Fatalf("gbdt --ood-density=false, predict --ood: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Fatal("a refused --ood left a predictions file")
	}
}

// checkOODColumns predicts data's rows with model, with --ood into out
// and without, and checks the columns; data's last row is far from the
// training data and must be flagged.
func checkOODColumns(t *testing.T, model, data, out string) {
	t.Helper()
	plain, stderr, code := aer(t, "predict", "--model", model, "--data", data)
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	if strings.Contains(plain, "ood") {
		t.Fatalf("ood columns without --ood:\n%s", firstLine(plain))
	}
	stdout, stderr, code := aer(t, "predict", "--model", model, "--data", data, "--ood", "--out", out, "--json")
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
		if i == len(lines)-1 && want != "1" {
			t.Fatalf("%s: the far row is not flagged: ood_score %v, threshold %v", model, s, *sum.OODThreshold)
		}
	}
	if flagged != *sum.OODFlagged || flagged > sum.Rows/4 {
		t.Fatalf("%d rows flagged in the file, %d in --json, of %d", flagged, *sum.OODFlagged, sum.Rows)
	}
}
