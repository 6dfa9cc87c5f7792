package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer/predfile"
)

// weightedFiles writes the training file with a weight column w (1, 2 or
// 3 by row) and the same rows each repeated w times.
func weightedFiles(t *testing.T, dir string) (weighted, repeated string) {
	t.Helper()
	f, err := os.Open("testdata/fit/train.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wb, rb strings.Builder
	sc := bufio.NewScanner(f)
	for i := -1; sc.Scan(); i++ {
		line := sc.Text()
		if i < 0 {
			wb.WriteString(line + ",w\n")
			rb.WriteString(line + "\n")
			continue
		}
		w := 1 + i%3
		fmt.Fprintf(&wb, "%s,%d\n", line, w)
		for range w {
			rb.WriteString(line + "\n")
		}
	}
	weighted, repeated = filepath.Join(dir, "weighted.csv"), filepath.Join(dir, "repeated.csv")
	os.WriteFile(weighted, []byte(wb.String()), 0o644)
	os.WriteFile(repeated, []byte(rb.String()), 0o644)
	return weighted, repeated
}

// TestFitWeights: --weight reads row weights; for boosted trees a row of
// integer weight k counts as k copies of the row, and the model file
// remembers the weight column so data to score may carry it.
func TestFitWeights(t *testing.T) {
	dir := t.TempDir()
	weighted, repeated := weightedFiles(t, dir)
	scores := func(train, data string, extra ...string) []float64 {
		model := filepath.Join(dir, "m.aer")
		args := append([]string{"fit", "--method", "gbdt", "--cross-fit", "-1", "--train", train, "--param", "n_estimators=10", "--param", "max_depth=3", "--out", model}, extra...)
		if _, errOut, code := aer(t, args...); code != 0 {
			t.Fatalf("fit %v: %s", extra, errOut)
		}
		preds := filepath.Join(dir, "p.csv")
		if _, errOut, code := aer(t, "predict", "--model", model, "--data", data, "--out", preds); code != 0 {
			t.Fatalf("predict: %s", errOut)
		}
		p, err := predfile.LoadPredictions(preds)
		if err != nil {
			t.Fatal(err)
		}
		return p.Score
	}
	w := scores(weighted, "testdata/fit/train.csv", "--weight", "w")
	r := scores(repeated, "testdata/fit/train.csv")
	// Data to score may carry the weight column: it is not a feature.
	if w2 := scores(weighted, weighted, "--weight", "w"); len(w2) != len(w) || w2[5] != w[5] {
		t.Errorf("scoring the weighted file: %v", w2)
	}
	for i := range w {
		// Weights multiply gradients in double precision, so k copies and
		// one row of weight k add the same sums, up to their order.
		if math.Abs(w[i]-r[i]) > 1e-12 {
			t.Fatalf("row %d: weighted %v, repeated rows %v", i+1, w[i], r[i])
		}
	}
	// A missing weight column and a negative weight are errors that name
	// the column and the line.
	model := filepath.Join(dir, "m2.aer")
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", "testdata/fit/train.csv", "--weight", "w", "--out", model); code != 1 || !strings.Contains(errOut, `"w"`) || !strings.Contains(errOut, "weight column not found") {
		t.Errorf("missing weight column: exit %d, %s", code, errOut)
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,b,w,label\n1,2,1,0\n2,3,-1,1\n3,1,1,1\n4,4,1,0\n"), 0o644)
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", bad, "--weight", "w", "--out", model); code != 1 || !strings.Contains(errOut, "line 3") || !strings.Contains(errOut, `"-1"`) {
		t.Errorf("negative weight: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a failed fit wrote a model")
	}
}
