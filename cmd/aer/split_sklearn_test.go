package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplitSklearnProtocol checks aer split --protocol sklearn against the
// rows scikit-learn 1.2.1 picks for testdata/data/small.csv (y = label ==
// "fraud"), seed 3:
//
//	tr, rest = train_test_split(np.arange(30), test_size=0.4, stratify=y, random_state=3)
//	va, te = train_test_split(rest, test_size=0.5, stratify=y[rest], random_state=3)
//
// The golden files hold the JSON report and the written parts, whose rows
// follow scikit-learn's order.
func TestSplitSklearnProtocol(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := aer(t, "split", "--data", "testdata/data/small.csv", "--protocol", "sklearn", "--seed", "3", "--out-dir", dir, "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	golden(t, "split/small_sklearn.json", strings.ReplaceAll(out, dir, "DIR"))
	for _, part := range []string{"train", "valid", "test"} {
		b, err := os.ReadFile(filepath.Join(dir, "small."+part+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "split/small_sklearn."+part+".csv", string(b))
	}

	// The same ratio written differently, and the column form, are accepted.
	if _, errOut, code := aer(t, "split", "--data", "testdata/data/small.csv", "--protocol", "sklearn", "--ratio", "60:20:20", "--column", "--out-dir", dir); code != 0 {
		t.Errorf("--ratio 60:20:20: code %d: %s", code, errOut)
	}

	empty := t.TempDir()
	for _, args := range [][]string{
		{"--ratio", "2:1:1"},
		{"--ratio", "3:2"},
		{"--folds", "3"},
		{"--seed", "4294967296"},
		{"--protocol", "numpy"},
	} {
		a := append([]string{"split", "--data", "testdata/data/small.csv", "--protocol", "sklearn", "--out-dir", empty}, args...)
		if _, _, code := aer(t, a...); code != 2 {
			t.Errorf("%v: code %d, want usage error 2", args, code)
		}
	}
	if _, _, code := aer(t, "split", "--data", "testdata/data/small.csv", "--protocol", "sklearn", "--seed", "4294967295", "--out-dir", empty); code != 0 {
		t.Errorf("--seed 2^32-1: code %d", code)
	}
	ents, _ := os.ReadDir(empty)
	if len(ents) != 3 {
		t.Errorf("after one good run: %d files, want 3", len(ents))
	}
}
