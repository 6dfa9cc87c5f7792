package main

import (
	"os"
	"path/filepath"
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

	_, errOut, code = aer(t, "info", "--data", "testdata/data/bad.csv")
	if code != 1 || !strings.Contains(errOut, `bad.csv: line 3, column "x2": "oops": not a number`) {
		t.Errorf("bad file: code %d, %q", code, errOut)
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
		_, p := d.ClassCounts()
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
