package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutNeverOverwritesInput: each command refuses an output file that
// is one of its inputs (also by another name), exits 2 and leaves the
// input as it was.
func TestOutNeverOverwritesInput(t *testing.T) {
	dir := t.TempDir()
	copyTo := func(src, name string) string {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	train := copyTo("testdata/fit/train.csv", "train.csv")
	test := copyTo("testdata/predict/test.csv", "test.csv")
	model := fitModel(t, dir)
	preds := filepath.Join(dir, "preds.csv")
	if _, stderr, code := aer(t, "predict", "--model", model, "--data", test, "--out", preds); code != 0 {
		t.Fatal(stderr)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(train, link); err != nil {
		t.Fatal(err)
	}
	// The same file under another name: a path through "..".
	other := filepath.Join(dir, "sub", "..", "train.csv")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)

	for _, tc := range []struct {
		name string
		args []string
		want string
		file string // must be unchanged
	}{
		{"fit train", []string{"fit", "--method", "gbdt", "--train", train, "--out", train}, "fit: --out " + train + " is the --train file", train},
		{"fit train symlink", []string{"fit", "--method", "gbdt", "--train", train, "--out", link}, "is the --train file", train},
		{"fit train other path", []string{"fit", "--method", "gbdt", "--train", train, "--out", other}, "is the --train file", train},
		{"fit valid", []string{"fit", "--method", "gbdt", "--train", train, "--valid", test, "--out", test}, "is the --valid file", test},
		{"predict data", []string{"predict", "--model", model, "--data", test, "--out", test}, "predict: --out " + test + " is the --data file", test},
		{"predict model", []string{"predict", "--model", model, "--data", test, "--out", model}, "is the --model file", model},
		{"resample data", []string{"resample", "--sampler", "rus", "--data", train, "--out", train}, "resample: --out " + train + " is the --data file", train},
		{"eval sweep-out", []string{"eval", "--data", preds, "--sweep-out", preds}, "eval: --sweep-out " + preds + " is the --data file", preds},
		{"mixture save", []string{"mixture", "--data", train, "--save", train}, "mixture: --save " + train + " is the --data file", train},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.ReadFile(tc.file)
			_, stderr, code := aer(t, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "refusing to overwrite an input") {
				t.Errorf("exit %d, %q; want exit 2 and %q", code, stderr, tc.want)
			}
			if after, _ := os.ReadFile(tc.file); string(after) != string(before) {
				t.Errorf("%s changed", tc.file)
			}
		})
	}
	// A new output file, or one that is not an input, is fine.
	if _, stderr, code := aer(t, "predict", "--model", model, "--data", test, "--out", preds); code != 0 {
		t.Errorf("overwriting an earlier output: %s", stderr)
	}
}
