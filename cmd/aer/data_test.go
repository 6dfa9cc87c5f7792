package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
)

func TestInfo(t *testing.T) {
	out, errOut, code := aer(t, "info", "--data", "testdata/data/small.csv")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	golden(t, "info/small.txt", out)
	out, _, code = aer(t, "info", "--data", "testdata/data/small.csv", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	golden(t, "info/small.json", out)

	// A text cell among numbers makes a categorical column, with a note.
	mixed := filepath.Join(t.TempDir(), "mixed.csv")
	os.WriteFile(mixed, []byte("x1,x2,label\n1,2,0\n3,oops,1\n4,5,1\n6,7,0\n"), 0o644)
	out, errOut, code = aer(t, "info", "--data", mixed)
	if code != 0 || !strings.Contains(errOut, `mixed.csv: column "x2" read as categorical: 3 cells are numbers, but line 3 has "oops"`) ||
		!strings.Contains(out, "  x2     categorical  4 ") {
		t.Errorf("bad file: code %d, %q\n%s", code, errOut, out)
	}
	if _, _, code = aer(t, "info"); code != 2 {
		t.Errorf("missing --data: code %d", code)
	}
	if _, _, code = aer(t, "info", "--bogus"); code != 2 {
		t.Errorf("unknown flag: code %d", code)
	}
}

func TestSplit(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := aer(t, "split", "--data", "testdata/data/small.csv", "--seed", "3", "--out-dir", dir)
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	golden(t, "split/small.txt", strings.ReplaceAll(out, dir, "DIR"))
	total, pos := 0, 0
	for _, part := range []string{"train", "valid", "test"} {
		d, err := dataset.Load(filepath.Join(dir, "small."+part+".csv"), dataset.Options{AllowOneClass: true, Positive: "fraud"})
		if err != nil {
			t.Fatal(err)
		}
		counts := d.ClassCounts()
		_, p := counts[0], counts[1]
		total += d.Rows()
		pos += p
		if d.Classes[1] != "fraud" {
			t.Errorf("%s: classes %q", part, d.Classes)
		}
	}
	if total != 30 || pos != 5 {
		t.Errorf("parts hold %d rows, %d positive; want 30, 5", total, pos)
	}

	// One file with a split column reads back with the same parts.
	if _, errOut, code := aer(t, "split", "--data", "testdata/data/small.csv", "--seed", "3", "--out-dir", dir, "--column"); code != 0 {
		t.Fatal(errOut)
	}
	d, err := dataset.Load(filepath.Join(dir, "small.split.csv"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, va, te, err := d.SplitIndices()
	if err != nil || len(tr) != 18 || len(va) != 6 || len(te) != 6 {
		t.Errorf("split column: %d/%d/%d %v", len(tr), len(va), len(te), err)
	}

	// Folds: each row is in exactly one test fold.
	if _, errOut, code := aer(t, "split", "--data", "testdata/data/small.csv", "--folds", "5", "--out-dir", dir); code != 0 {
		t.Fatal(errOut)
	}
	rows := 0
	for k := 1; k <= 5; k++ {
		d, err := dataset.Load(filepath.Join(dir, "small.fold"+string(rune('0'+k))+".test.csv"), dataset.Options{Positive: "fraud", AllowOneClass: true})
		if err != nil {
			t.Fatal(err)
		}
		rows += d.Rows()
	}
	if rows != 30 {
		t.Errorf("test folds hold %d rows", rows)
	}

	// Failures write nothing.
	empty := t.TempDir()
	if _, _, code := aer(t, "split", "--data", "testdata/data/bad.csv", "--out-dir", empty); code != 1 {
		t.Errorf("bad data: code %d", code)
	}
	if _, _, code := aer(t, "split", "--data", "testdata/data/small.csv", "--ratio", "3:x", "--out-dir", empty); code != 2 {
		t.Errorf("bad ratio: code %d", code)
	}
	if _, _, code := aer(t, "split", "--data", "testdata/data/small.csv", "--folds", "6", "--out-dir", empty); code != 1 {
		t.Errorf("too many folds: code %d", code)
	}
	if ents, _ := os.ReadDir(empty); len(ents) != 0 {
		t.Errorf("failed runs left files: %v", ents)
	}
}

// fit --drop leaves columns out; the model remembers them, so predict
// reads files that still have them.
func TestFitDrop(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "t.csv")
	var b strings.Builder
	b.WriteString("id,a,b,outcome,label\n")
	for i := range 40 {
		y := 0
		if i%4 == 0 {
			y = 1
		}
		fmt.Fprintf(&b, "row%d,%d,%d,%d,%d\n", i, i%7+3*y, i%5, y, y)
	}
	if err := os.WriteFile(train, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.aer")
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--method", "logreg", "--drop", "id,outcome", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	h, _, err := loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.Schema.Drop, ",") != "id,outcome" || slices.Contains(h.Schema.Features, "outcome") {
		t.Errorf("schema: features %v, drop %v", h.Schema.Features, h.Schema.Drop)
	}
	preds := filepath.Join(dir, "p.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", train, "--out", preds); code != 0 {
		t.Fatalf("predict on a file with the dropped columns: %s", errOut)
	}
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", train, "--method", "logreg", "--drop", "id,outcome,nope", "--out", filepath.Join(dir, "x.aer")); code != 2 || !strings.Contains(errOut, "--drop nope") {
		t.Errorf("--drop of an absent column: exit %d, %s", code, errOut)
	}
}
