package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplitWarnsNoMinority: a part that gets no minority row is named on
// stderr, one line per part; parts that have one are not.
func TestSplitWarnsNoMinority(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,label\n")
	for i := range 20 {
		y := "no"
		if i == 3 || i == 11 {
			y = "yes"
		}
		fmt.Fprintf(&b, "%d,%s\n", i, y)
	}
	data := filepath.Join(dir, "two.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// 2 positives over 3:1:1: train and test get one, valid none.
	out, errOut, code := aer(t, "split", "--data", data, "--out-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := `split: warning: part valid has no row of the positive (minority) class "yes" (3 rows): it cannot tune or evaluate a classifier` + "\n"
	if errOut != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, want)
	}
	if !strings.Contains(out, "valid") {
		t.Errorf("stdout: %s", out)
	}
	// 2 folds of 2 positives: every part has one, no warning.
	if _, errOut, code := aer(t, "split", "--data", data, "--folds", "2", "--out-dir", dir); code != 0 || errOut != "" {
		t.Errorf("folds: exit %d, stderr %q", code, errOut)
	}
}

// TestAllowMajorityPositive: the refusal of a majority --positive is lifted
// by --allow-majority-positive, and the model then keeps the class asked for.
func TestAllowMajorityPositive(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.aer")
	args := []string{"fit", "--method", "gbdt", "--train", filepath.Join("testdata", "fit", "train.csv"), "--method", "tree", "--positive", "healthy", "--out", model, "--json"}
	if _, errOut, code := aer(t, args...); code != 2 || !strings.Contains(errOut, `"healthy" has 64 rows, "sick" only 16`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out, errOut, code := aer(t, append(args, "--allow-majority-positive")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"positives": 64`) {
		t.Errorf("fit output:\n%s", out)
	}
}
