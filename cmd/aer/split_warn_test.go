package main

import (
	"encoding/json"
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

// TestSplitWarnsMissingClass: a multi-class split names, on stderr and in
// --json's warnings, each part that has no row of a class, and the
// classes; a binary split's warning reaches --json too.
func TestSplitWarnsMissingClass(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,label\n")
	classes := []string{"ant", "bee", "cow", "doe"}
	for c, n := range []int{30, 25, 2, 1} {
		for i := range n {
			fmt.Fprintf(&b, "%d,%s\n", i, classes[c])
		}
	}
	data := filepath.Join(dir, "four.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// 3:1:1: doe's one row and cow's two cannot reach every part.
	out, errOut, code := aer(t, "split", "--data", data, "--out-dir", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Parts []struct {
			Part      string `json:"part"`
			ClassRows []int  `json:"class_rows"`
		} `json:"parts"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range doc.Parts {
		var missing []string
		for c, n := range p.ClassRows {
			if n == 0 {
				missing = append(missing, fmt.Sprintf("%q", classes[c]))
			}
		}
		if missing == nil {
			continue
		}
		w := "part " + p.Part + " has no row of the class"
		if len(missing) > 1 {
			w += "es"
		}
		want = append(want, w+" "+strings.Join(missing, ", "))
	}
	if len(want) < 2 || len(doc.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d (one per part missing a class: %q)", doc.Warnings, len(want), want)
	}
	for k, w := range want {
		if !strings.HasPrefix(doc.Warnings[k], w) {
			t.Errorf("warning %q, want it to start %q", doc.Warnings[k], w)
		}
		if !strings.Contains(errOut, "split: warning: "+doc.Warnings[k]+"\n") {
			t.Errorf("stderr lacks %q:\n%s", doc.Warnings[k], errOut)
		}
	}
	// Every class in every part: no warning, no warnings key.
	b.Reset()
	b.WriteString("x,label\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%s\n", i, classes[i%3])
	}
	even := filepath.Join(dir, "even.csv")
	if err := os.WriteFile(even, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = aer(t, "split", "--data", even, "--out-dir", dir, "--json")
	if code != 0 || errOut != "" || strings.Contains(out, "warnings") {
		t.Errorf("every class in every part: exit %d, stderr %q\n%s", code, errOut, out)
	}
	// The binary warning is in --json too.
	b.Reset()
	b.WriteString("x,label\n")
	for i := range 20 {
		y := "no"
		if i == 3 || i == 11 {
			y = "yes"
		}
		fmt.Fprintf(&b, "%d,%s\n", i, y)
	}
	two := filepath.Join(dir, "two.csv")
	if err := os.WriteFile(two, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = aer(t, "split", "--data", two, "--out-dir", dir, "--json")
	doc.Warnings = nil
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || len(doc.Warnings) != 1 || !strings.HasPrefix(doc.Warnings[0], `part valid has no row of the positive (minority) class "yes"`) {
		t.Errorf("binary --json: exit %d, %v, warnings %q", code, err, doc.Warnings)
	}
}
