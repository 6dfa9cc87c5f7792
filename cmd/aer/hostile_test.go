package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hostileFixtures writes the bad (and a few good) input files the hostile
// table refers to as {name} into dir.
func hostileFixtures(t *testing.T, dir string) {
	t.Helper()
	train, err := os.ReadFile(filepath.Join("testdata", "fit", "train.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(train), "\n")
	preds, err := os.ReadFile(filepath.Join("testdata", "compare", "a.csv"))
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, 300)
	for i := range garbage {
		garbage[i] = byte(i*131 + 7)
	}
	files := map[string]string{
		"train.csv":      string(train),
		"empty.csv":      "",
		"header.csv":     lines[0],
		"nonnum.csv":     lines[0] + "abc" + lines[1][strings.IndexByte(lines[1], ','):],
		"nonnumcap.csv":  lines[0] + lines[1] + "abc" + lines[2][strings.IndexByte(lines[2], ','):] + lines[3],
		"wrongcols.csv":  lines[0] + lines[1] + "1,2\n",
		"preds.csv":      string(preds),
		"pheader.csv":    "label,score\n",
		"pnonnum.csv":    "label,score\n1,abc\n0,0.2\n",
		"pwrongcols.csv": "label,score\n1,0.5,3\n",
		"fheader.csv":    "dataset,a,b\n",
		"fnonnum.csv":    "dataset,a,b\nd1,x,2\nd2,1,2\n",
		"garbage.aer":    string(garbage),
		// Two cells near the float64 limit: their variance overflows.
		"huge.csv": lines[0] + "1e308" + lines[1][strings.IndexByte(lines[1], ','):] + "-1e308" + lines[2][strings.IndexByte(lines[2], ','):] + strings.Join(lines[3:], ""),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, errOut, code := aer(t, "fit", "--method", "gbdt", "--train", filepath.Join(dir, "train.csv"), "--method", "tree",
		"--out", filepath.Join(dir, "tree.aer")); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := aer(t, "gen", "--rows", "200", "--ratio", "3", "--features", "4", "--informative", "2", "--redundant", "0",
		"--clusters", "1", "--seed", "1", "--out", filepath.Join(dir, "clean.csv")); code != 0 {
		t.Fatal(errOut)
	}
}

// TestHostileInput runs every command on bad input: each must exit with a
// non-zero status (2 for a usage error, 1 for a failure), print one line
// on stderr naming the problem, create no file, and leave an existing
// --out file byte for byte as it was.
func TestHostileInput(t *testing.T) {
	dir := t.TempDir()
	hostileFixtures(t, dir)
	const sentinel = "sentinel: must survive a failing command\n"
	// {out} is an existing file (the sentinel); {d}/ is the fixtures' directory.
	cases := []struct {
		name string
		args []string
		code int
		want []string // substrings of the one stderr line
	}{
		// fit
		{"fit/missing", []string{"fit", "--method", "gbdt", "--train", "{d}/missing.csv", "--method", "tree", "--out", "{out}"}, 1, []string{"missing.csv", "no such file"}},
		{"fit/empty", []string{"fit", "--method", "gbdt", "--train", "{d}/empty.csv", "--method", "tree", "--out", "{out}"}, 1, []string{"empty.csv", "empty file"}},
		{"fit/header-only", []string{"fit", "--method", "gbdt", "--train", "{d}/header.csv", "--method", "tree", "--out", "{out}"}, 1, []string{"header.csv", "no data rows"}},
		// A text cell makes its column categorical; past the cap it fails.
		{"fit/non-numeric", []string{"fit", "--method", "gbdt", "--train", "{d}/nonnumcap.csv", "--method", "tree", "--max-categories", "1", "--out", "{out}"}, 1, []string{"nonnumcap.csv", "line 4", "too many categories", `numbers but for "abc" at line 3`}},
		{"fit/huge-logreg", []string{"fit", "--method", "gbdt", "--train", "{d}/huge.csv", "--method", "logreg", "--out", "{out}"}, 1, []string{"too large to standardise"}},
		{"fit/huge-aer", []string{"fit", "--method", "gbdt", "--train", "{d}/huge.csv", "--valid", "{d}/train.csv", "--method", "aer", "--out", "{out}"}, 1, []string{"too large to standardise"}},
		{"fit/columns", []string{"fit", "--method", "gbdt", "--train", "{d}/wrongcols.csv", "--method", "tree", "--out", "{out}"}, 1, []string{"wrongcols.csv", "line 3", "wrong number of fields"}},
		{"fit/unknown-flag", []string{"fit", "--method", "gbdt", "--train", "{d}/train.csv", "--bogus", "--out", "{out}"}, 2, []string{"-bogus", "not defined"}},
		{"fit/bad-seed", []string{"fit", "--method", "gbdt", "--train", "{d}/train.csv", "--seed", "-1", "--out", "{out}"}, 2, []string{"-seed", `"-1"`}},
		{"fit/unknown-method", []string{"fit", "--method", "gbdt", "--train", "{d}/train.csv", "--method", "nope", "--out", "{out}"}, 2, []string{`"nope"`, "unknown method"}},
		{"fit/bad-param", []string{"fit", "--method", "gbdt", "--train", "{d}/train.csv", "--method", "tree", "--param", "max_depth=-3", "--out", "{out}"}, 2, []string{"max_depth"}},
		{"fit/positive-majority", []string{"fit", "--method", "gbdt", "--train", "{d}/train.csv", "--method", "tree", "--positive", "healthy", "--out", "{out}"}, 2, []string{"--positive healthy", "majority", `"healthy" has 64 rows`, `"sick" only 16`, "--allow-majority-positive"}},
		// cv
		{"cv/folds-1", []string{"cv", "--data", "{d}/train.csv", "--method", "tree", "--folds", "1", "--oof", "{out}"}, 2, []string{"--folds 1", "at least 2"}},
		{"cv/folds-too-many", []string{"cv", "--data", "{d}/train.csv", "--method", "tree", "--folds", "17", "--oof", "{d}/oof.csv"}, 1, []string{"--folds 17", "only 16 rows", `"sick"`}},
		{"cv/repeats-0", []string{"cv", "--data", "{d}/train.csv", "--method", "tree", "--repeats", "0", "--oof", "{d}/oof.csv"}, 2, []string{"--repeats 0"}},
		{"cv/unknown-method", []string{"cv", "--data", "{d}/train.csv", "--method", "nope", "--oof", "{d}/oof.csv"}, 2, []string{`"nope"`, "unknown method"}},
		{"cv/bad-param", []string{"cv", "--data", "{d}/train.csv", "--method", "tree", "--param", "max_depth=-3", "--oof", "{d}/oof.csv"}, 2, []string{"max_depth"}},
		{"cv/missing", []string{"cv", "--data", "{d}/missing.csv", "--oof", "{d}/oof.csv"}, 1, []string{"missing.csv", "no such file"}},
		{"cv/non-numeric", []string{"cv", "--data", "{d}/nonnumcap.csv", "--max-categories", "1", "--oof", "{d}/oof.csv"}, 1, []string{"nonnumcap.csv", "line 4", "too many categories", `numbers but for "abc" at line 3`}},
		{"cv/positive-majority", []string{"cv", "--data", "{d}/train.csv", "--positive", "healthy", "--oof", "{d}/oof.csv"}, 2, []string{"--positive healthy", "majority"}},
		{"cv/no-data", []string{"cv", "--oof", "{d}/oof.csv"}, 2, []string{"--data"}},
		{"cv/jobs", []string{"cv", "--data", "{d}/train.csv", "--jobs", "-1"}, 2, []string{"--jobs", "-1"}},
		{"cv/holdout", []string{"cv", "--data", "{d}/train.csv", "--method", "tree", "--grid", "max_depth=1,2", "--holdout", "1"}, 2, []string{"--holdout"}},
		{"cv/holdout-given", []string{"cv", "--data", "{d}/train.csv", "--method", "tree", "--tune-metric", "f1", "--holdout", "1"}, 2, []string{"--holdout"}},
		// predict
		{"predict/missing-model", []string{"predict", "--model", "{d}/missing.aer", "--data", "{d}/train.csv", "--out", "{out}"}, 1, []string{"missing.aer", "no such file"}},
		{"predict/garbage-model", []string{"predict", "--model", "{d}/garbage.aer", "--data", "{d}/train.csv", "--out", "{out}"}, 1, []string{"garbage.aer", "not an aer model file"}},
		{"predict/dev-null-model", []string{"predict", "--model", "/dev/null", "--data", "{d}/train.csv", "--out", "{out}"}, 1, []string{"/dev/null", "not an aer model file"}},
		{"predict/data-as-model", []string{"predict", "--model", "{d}/train.csv", "--data", "{d}/train.csv", "--out", "{out}"}, 1, []string{"train.csv", "not an aer model file"}},
		{"predict/missing", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/missing.csv", "--out", "{out}"}, 1, []string{"missing.csv", "no such file"}},
		{"predict/empty", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/empty.csv", "--out", "{out}"}, 1, []string{"empty.csv", "empty file"}},
		{"predict/header-only", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/header.csv", "--out", "{out}"}, 1, []string{"header.csv", "no data rows"}},
		{"predict/non-numeric", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/nonnum.csv", "--out", "{out}"}, 1, []string{"nonnum.csv", "line 2", "not a number"}},
		{"predict/columns", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/wrongcols.csv", "--out", "{out}"}, 1, []string{"wrongcols.csv", "line 3", "wrong number of fields"}},
		{"predict/bad-threshold", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/train.csv", "--threshold", "abc", "--out", "{out}"}, 2, []string{"-threshold", `"abc"`}},
		{"predict/threshold-above-1", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/train.csv", "--threshold", "2", "--out", "{out}"}, 2, []string{"--threshold 2", "outside [0, 1]"}},
		{"predict/nan-threshold", []string{"predict", "--model", "{d}/tree.aer", "--data", "{d}/train.csv", "--threshold", "NaN", "--out", "{out}"}, 2, []string{"--threshold"}},
		// eval
		{"eval/missing", []string{"eval", "--data", "{d}/missing.csv", "--sweep-out", "{out}"}, 1, []string{"missing.csv", "no such file"}},
		{"eval/empty", []string{"eval", "--data", "{d}/empty.csv", "--sweep-out", "{out}"}, 1, []string{"empty.csv", "empty file"}},
		{"eval/header-only", []string{"eval", "--data", "{d}/pheader.csv", "--sweep-out", "{out}"}, 1, []string{"pheader.csv", "no data rows"}},
		{"eval/non-numeric", []string{"eval", "--data", "{d}/pnonnum.csv", "--sweep-out", "{out}"}, 1, []string{"pnonnum.csv", "line 2", `"score"`, "not a number"}},
		{"eval/threshold-above-1", []string{"eval", "--data", "{d}/preds.csv", "--threshold", "2", "--sweep-out", "{out}"}, 2, []string{"--threshold 2", "outside [0, 1]", "predicted negative"}},
		{"eval/columns", []string{"eval", "--data", "{d}/pwrongcols.csv", "--sweep-out", "{out}"}, 1, []string{"pwrongcols.csv", "line 2", "wrong number of fields"}},
		{"eval/model-as-data", []string{"eval", "--data", "{d}/garbage.aer", "--sweep-out", "{out}"}, 1, []string{"garbage.aer"}},
		{"eval/negative-grid", []string{"eval", "--data", "{d}/preds.csv", "--sweep-grid", "-1", "--sweep-out", "{out}"}, 2, []string{"--sweep-grid", "-1"}},
		{"eval/huge-grid", []string{"eval", "--data", "{d}/preds.csv", "--sweep-grid", "2000000000", "--sweep-out", "{out}"}, 2, []string{"--sweep-grid", "2000000000"}},
		{"eval/unknown-flag", []string{"eval", "--data", "{d}/preds.csv", "--bogus"}, 2, []string{"-bogus", "not defined"}},
		// compare
		{"compare/missing", []string{"compare", "{d}/preds.csv", "{d}/missing.csv"}, 1, []string{"missing.csv", "no such file"}},
		{"compare/empty", []string{"compare", "{d}/preds.csv", "{d}/empty.csv"}, 1, []string{"empty.csv", "empty file"}},
		{"compare/header-only", []string{"compare", "{d}/preds.csv", "{d}/pheader.csv"}, 1, []string{"pheader.csv", "no data rows"}},
		{"compare/non-numeric", []string{"compare", "{d}/preds.csv", "{d}/pnonnum.csv"}, 1, []string{"pnonnum.csv", "line 2", "not a number"}},
		{"compare/columns", []string{"compare", "{d}/preds.csv", "{d}/pwrongcols.csv"}, 1, []string{"pwrongcols.csv", "wrong number of fields"}},
		{"compare/one-file", []string{"compare", "{d}/preds.csv"}, 2, []string{"two predictions files"}},
		{"compare/unknown-flag", []string{"compare", "--bogus", "{d}/preds.csv", "{d}/preds.csv"}, 2, []string{"-bogus", "not defined"}},
		{"compare/bad-quantity", []string{"compare", "--quantity", "nope", "{d}/preds.csv", "{d}/preds.csv"}, 2, []string{"--quantity", `"nope"`}},
		{"compare/friedman-missing", []string{"compare", "--friedman", "{d}/missing.csv"}, 1, []string{"missing.csv", "no such file"}},
		{"compare/friedman-empty", []string{"compare", "--friedman", "{d}/empty.csv"}, 1, []string{"empty.csv", "empty file"}},
		{"compare/friedman-header-only", []string{"compare", "--friedman", "{d}/fheader.csv"}, 1, []string{"fheader.csv", "need at least 2 datasets"}},
		{"compare/friedman-non-numeric", []string{"compare", "--friedman", "{d}/fnonnum.csv"}, 1, []string{"fnonnum.csv", "line 2", `"x"`}},
		{"compare/friedman-alpha", []string{"compare", "--friedman", "{d}/fnonnum.csv", "--alpha", "2"}, 2, []string{"--alpha"}},
		// explain
		{"explain/missing-model", []string{"explain", "--model", "{d}/missing.aer", "--data", "{d}/train.csv"}, 1, []string{"missing.aer", "no such file"}},
		{"explain/garbage-model", []string{"explain", "--model", "{d}/garbage.aer", "--data", "{d}/train.csv"}, 1, []string{"garbage.aer", "not an aer model file"}},
		{"explain/dev-null-model", []string{"explain", "--model", "/dev/null", "--data", "{d}/train.csv"}, 1, []string{"/dev/null", "not an aer model file"}},
		{"explain/missing", []string{"explain", "--model", "{d}/tree.aer", "--data", "{d}/missing.csv"}, 1, []string{"missing.csv", "no such file"}},
		{"explain/empty", []string{"explain", "--model", "{d}/tree.aer", "--data", "{d}/empty.csv"}, 1, []string{"empty.csv", "empty file"}},
		{"explain/header-only", []string{"explain", "--model", "{d}/tree.aer", "--data", "{d}/header.csv"}, 1, []string{"header.csv", "no data rows"}},
		{"explain/non-numeric", []string{"explain", "--model", "{d}/tree.aer", "--data", "{d}/nonnum.csv"}, 1, []string{"nonnum.csv", "line 2", "not a number"}},
		{"explain/columns", []string{"explain", "--model", "{d}/tree.aer", "--data", "{d}/wrongcols.csv"}, 1, []string{"wrongcols.csv", "wrong number of fields"}},
		{"explain/rows-reversed", []string{"explain", "--model", "{d}/tree.aer", "--data", "{d}/train.csv", "--rows", "5-1"}, 2, []string{"--rows", `"5-1"`}},
		{"explain/rows-out-of-range", []string{"explain", "--model", "{d}/tree.aer", "--data", "{d}/train.csv", "--rows", "1000"}, 2, []string{"--rows", `"1000"`}},
		// mixture
		{"mixture/missing", []string{"mixture", "--data", "{d}/missing.csv", "--save", "{out}"}, 1, []string{"missing.csv", "no such file"}},
		{"mixture/empty", []string{"mixture", "--data", "{d}/empty.csv", "--save", "{out}"}, 1, []string{"empty.csv", "empty file"}},
		{"mixture/header-only", []string{"mixture", "--data", "{d}/header.csv", "--save", "{out}"}, 1, []string{"header.csv", "no data rows"}},
		{"mixture/non-numeric", []string{"mixture", "--data", "{d}/nonnum.csv", "--save", "{out}"}, 1, []string{"nonnum.csv", "not a number"}},
		{"mixture/columns", []string{"mixture", "--data", "{d}/wrongcols.csv", "--save", "{out}"}, 1, []string{"wrongcols.csv", "wrong number of fields"}},
		{"mixture/overflow", []string{"mixture", "--data", "{d}/overflow.csv", "--class", "all", "--save", "{out}"}, 1, []string{"mixture"}},
		{"mixture/reg-covar-nan", []string{"mixture", "--data", "{d}/clean.csv", "--reg-covar", "NaN", "--save", "{out}"}, 2, []string{"--reg-covar", "NaN"}},
		{"mixture/tol-nan", []string{"mixture", "--data", "{d}/clean.csv", "--tol", "NaN", "--save", "{out}"}, 2, []string{"--tol", "NaN"}},
		{"mixture/workers", []string{"mixture", "--data", "{d}/clean.csv", "--workers", "-1", "--save", "{out}"}, 2, []string{"--workers", "-1"}},
		{"mixture/components-reversed", []string{"mixture", "--data", "{d}/clean.csv", "--components", "5-1", "--save", "{out}"}, 2, []string{"--components", `"5-1"`}},
		{"mixture/components-huge", []string{"mixture", "--data", "{d}/clean.csv", "--components", "1-2000000000", "--save", "{out}"}, 2, []string{"--components"}},
		{"mixture/bad-class", []string{"mixture", "--data", "{d}/clean.csv", "--class", "bogus", "--save", "{out}"}, 2, []string{"--class", `"bogus"`}},
		{"mixture/bad-covariance", []string{"mixture", "--data", "{d}/clean.csv", "--covariance", "bogus", "--save", "{out}"}, 2, []string{"--covariance", `"bogus"`}},
		{"mixture/n-init", []string{"mixture", "--data", "{d}/clean.csv", "--n-init", "0", "--save", "{out}"}, 2, []string{"--n-init"}},
		{"mixture/stray-argument", []string{"mixture", "--data", "{d}/clean.csv", "extra", "--save", "{out}"}, 2, []string{`"extra"`}},
		// gen
		{"gen/rows", []string{"gen", "--rows", "-5", "--out", "{out}"}, 2, []string{"--rows", "-5"}},
		{"gen/samples", []string{"gen", "--samples", "-5", "--out", "{out}"}, 2, []string{"--samples", "-5"}},
		{"gen/ratio", []string{"gen", "--ratio", "-1", "--out", "{out}"}, 2, []string{"ratio", "-1"}},
		{"gen/features", []string{"gen", "--features", "0", "--out", "{out}"}, 2, []string{"--features"}},
		{"gen/huge", []string{"gen", "--rows", "2000000000000", "--out", "{out}"}, 2, []string{"rows (2000000000000)", "exceeds"}},
		{"gen/split", []string{"gen", "--split", "5:x", "--out", "{out}"}, 2, []string{"--split", `"5:x"`}},
		{"gen/no-out", []string{"gen", "--rows", "10"}, 2, []string{"--out"}},
		{"gen/no-dir", []string{"gen", "--out", "{d}/nodir/x.csv"}, 1, []string{"nodir/x.csv"}},
		{"gen/bad-flag", []string{"gen", "--rows", "many", "--out", "{out}"}, 2, []string{"-rows", `"many"`}},
		// split
		{"split/missing", []string{"split", "--data", "{d}/missing.csv", "--out-dir", "{d}"}, 1, []string{"missing.csv", "no such file"}},
		{"split/empty", []string{"split", "--data", "{d}/empty.csv", "--out-dir", "{d}"}, 1, []string{"empty.csv", "empty file"}},
		{"split/header-only", []string{"split", "--data", "{d}/header.csv", "--out-dir", "{d}"}, 1, []string{"header.csv", "no data rows"}},
		{"split/non-numeric", []string{"split", "--data", "{d}/nonnumcap.csv", "--max-categories", "1", "--out-dir", "{d}"}, 1, []string{"nonnumcap.csv", "line 4", "too many categories"}},
		{"split/columns", []string{"split", "--data", "{d}/wrongcols.csv", "--out-dir", "{d}"}, 1, []string{"wrongcols.csv", "wrong number of fields"}},
		{"split/ratio-negative", []string{"split", "--data", "{d}/train.csv", "--ratio", "-1", "--out-dir", "{d}"}, 2, []string{"--ratio", `"-1"`}},
		{"split/ratio-text", []string{"split", "--data", "{d}/train.csv", "--ratio", "1:x", "--out-dir", "{d}"}, 2, []string{"--ratio", `"1:x"`}},
		{"split/ratio-overflow", []string{"split", "--data", "{d}/train.csv", "--ratio", "1e308:1e308:1", "--out-dir", "{d}"}, 2, []string{"--ratio", "too large"}},
		{"split/folds", []string{"split", "--data", "{d}/train.csv", "--folds", "1", "--out-dir", "{d}"}, 2, []string{"--folds", "1"}},
		{"split/folds-negative", []string{"split", "--data", "{d}/train.csv", "--folds", "-3", "--out-dir", "{d}"}, 2, []string{"--folds", "-3"}},
		{"split/folds-too-many", []string{"split", "--data", "{d}/train.csv", "--folds", "1000", "--out-dir", "{d}"}, 1, []string{"train.csv", "1000"}},
		{"split/protocol", []string{"split", "--data", "{d}/train.csv", "--protocol", "bogus", "--out-dir", "{d}"}, 2, []string{"--protocol", `"bogus"`}},
		{"split/stray-argument", []string{"split", "--data", "{d}/train.csv", "extra", "--out-dir", "{d}"}, 2, []string{`"extra"`}},
		// info
		{"info/missing", []string{"info", "--data", "{d}/missing.csv"}, 1, []string{"missing.csv", "no such file"}},
		{"info/empty", []string{"info", "--data", "{d}/empty.csv"}, 1, []string{"empty.csv", "empty file"}},
		{"info/header-only", []string{"info", "--data", "{d}/header.csv"}, 1, []string{"header.csv", "no data rows"}},
		{"info/non-numeric", []string{"info", "--data", "{d}/nonnumcap.csv", "--max-categories", "1"}, 1, []string{"nonnumcap.csv", "too many categories"}},
		{"info/columns", []string{"info", "--data", "{d}/wrongcols.csv"}, 1, []string{"wrongcols.csv", "wrong number of fields"}},
		{"info/no-data", []string{"info"}, 2, []string{"--data"}},
		{"info/label", []string{"info", "--data", "{d}/train.csv", "--label", "nope"}, 1, []string{`"nope"`, "not found"}},
		{"info/model-missing", []string{"info", "--model", "{d}/missing.aer"}, 1, []string{"missing.aer", "no such file"}},
		{"info/model-garbage", []string{"info", "--model", "{d}/garbage.aer", "--json"}, 1, []string{"garbage.aer", "not an aer model file"}},
		{"info/model-data", []string{"info", "--model", "{d}/train.csv"}, 1, []string{"train.csv", "not an aer model file"}},
		{"info/stray-argument", []string{"info", "--data", "{d}/train.csv", "extra", "--json"}, 2, []string{`"extra"`}},
		// resample
		{"resample/missing", []string{"resample", "--sampler", "rus", "--data", "{d}/missing.csv", "--out", "{out}"}, 1, []string{"missing.csv", "no such file"}},
		{"resample/empty", []string{"resample", "--sampler", "rus", "--data", "{d}/empty.csv", "--out", "{out}"}, 1, []string{"empty.csv", "empty file"}},
		{"resample/header-only", []string{"resample", "--sampler", "rus", "--data", "{d}/header.csv", "--out", "{out}"}, 1, []string{"header.csv", "no data rows"}},
		{"resample/non-numeric", []string{"resample", "--sampler", "rus", "--data", "{d}/nonnumcap.csv", "--max-categories", "1", "--out", "{out}"}, 1, []string{"nonnumcap.csv", "line 4", "too many categories"}},
		{"resample/columns", []string{"resample", "--sampler", "rus", "--data", "{d}/wrongcols.csv", "--out", "{out}"}, 1, []string{"wrongcols.csv", "wrong number of fields"}},
		{"resample/sampler", []string{"resample", "--sampler", "nope", "--data", "{d}/train.csv", "--out", "{out}"}, 2, []string{`"nope"`}},
		{"resample/param", []string{"resample", "--sampler", "smote", "--data", "{d}/clean.csv", "--param", "k_neighbors=-1", "--out", "{out}"}, 2, []string{"k_neighbors"}},
		// bench
		{"bench/no-datasets", []string{"bench", "--datasets", "{d}/nodir", "--seeds", "0", "--out", "{d}/benchout"}, 1, []string{"nodir"}},
		{"bench/seeds-reversed", []string{"bench", "--datasets", "{d}", "--seeds", "5-1", "--out", "{d}/benchout"}, 2, []string{"--seeds", `"5-1"`}},
		{"bench/seeds-text", []string{"bench", "--datasets", "{d}", "--seeds", "x", "--out", "{d}/benchout"}, 2, []string{"--seeds", `"x"`}},
		{"bench/jobs", []string{"bench", "--datasets", "{d}", "--seeds", "0", "--jobs", "-1", "--out", "{d}/benchout"}, 2, []string{"--jobs", "-1"}},
		{"bench/unknown-flag", []string{"bench", "--bogus"}, 2, []string{"-bogus", "not defined"}},
		// serve (flag errors and models that do not load; no server starts)
		{"serve/bad-addr", []string{"serve", "--model", "{d}/tree.aer", "--addr", "bogus::"}, 2, []string{"--addr", "bogus::", "too many colons"}},
		{"serve/bad-port", []string{"serve", "--model", "{d}/tree.aer", "--addr", "127.0.0.1:99999"}, 2, []string{"--addr", "99999", "0 to 65535"}},
		// bench --scaling
		{"bench/scaling-sizes", []string{"bench", "--scaling", "10x", "--out", "{d}/sc"}, 2, []string{"--scaling", `"10x"`, "row counts"}},
		{"bench/scaling-tiny", []string{"bench", "--scaling", "50", "--out", "{d}/sc"}, 2, []string{"--scaling", `"50"`}},
		{"bench/scaling-datasets", []string{"bench", "--scaling", "1k", "--datasets", "{d}/train.csv", "--out", "{d}/sc"}, 2, []string{"drop --datasets"}},
		{"bench/scaling-method", []string{"bench", "--scaling", "1k", "--methods", "nosuch", "--out", "{d}/sc"}, 2, []string{"--methods", "nosuch"}},
		{"resample/id", []string{"resample", "--data", "{d}/train.csv", "--sampler", "rus", "--id", "nope", "--out", "{out}"}, 2, []string{"--id nope", "train.csv has no such column"}},
		// loadtest (no request is sent)
		{"loadtest/no-url", []string{"loadtest", "--data", "{d}/train.csv"}, 2, []string{"--url and --data are required"}},
		{"loadtest/bad-url", []string{"loadtest", "--url", "ftp://x/v1/predict", "--data", "{d}/train.csv"}, 2, []string{"--url", "ftp://x", "http://host:port"}},
		{"loadtest/rows", []string{"loadtest", "--url", "http://127.0.0.1:1/v1/predict", "--data", "{d}/train.csv", "--rows", "0"}, 2, []string{"--rows", "not 0"}},
		{"loadtest/rps", []string{"loadtest", "--url", "http://127.0.0.1:1/v1/predict", "--data", "{d}/train.csv", "--rps", "NaN"}, 2, []string{"--rps"}},
		{"loadtest/too-many", []string{"loadtest", "--url", "http://127.0.0.1:1/v1/predict", "--data", "{d}/train.csv", "--rps", "1000000", "--duration", "1000h"}, 2, []string{"more than 100000000 requests"}},
		{"loadtest/missing-data", []string{"loadtest", "--url", "http://127.0.0.1:1/v1/predict", "--data", "{d}/missing.csv"}, 1, []string{"missing.csv", "no such file"}},
		{"loadtest/empty-data", []string{"loadtest", "--url", "http://127.0.0.1:1/v1/predict", "--data", "{d}/header.csv"}, 1, []string{"header.csv", "no data rows"}},
		{"serve/unknown-flag", []string{"serve", "--bogus"}, 2, []string{"-bogus", "not defined"}},
		{"serve/bad-duration", []string{"serve", "--model", "{d}/tree.aer", "--timeout", "abc"}, 2, []string{"-timeout", `"abc"`}},
		{"serve/max-body", []string{"serve", "--model", "{d}/tree.aer", "--max-body", "-1"}, 2, []string{"--max-body", "-1"}},
		{"serve/missing-model", []string{"serve", "--model", "{d}/missing.aer"}, 1, []string{"missing.aer", "no such file"}},
		{"serve/garbage-model", []string{"serve", "--model", "{d}/garbage.aer"}, 1, []string{"garbage.aer", "not an aer model file"}},
	}
	// --out naming an input of the same command (here the sentinel itself).
	for _, c := range [][]string{
		{"fit", "--train", "{out}", "--method", "tree", "--out", "{out}"},
		{"predict", "--model", "{d}/tree.aer", "--data", "{out}", "--out", "{out}"},
		{"resample", "--sampler", "rus", "--data", "{out}", "--out", "{out}"},
		{"eval", "--data", "{out}", "--sweep-out", "{out}"},
		{"mixture", "--data", "{out}", "--save", "{out}"},
		{"cv", "--data", "{out}", "--oof", "{out}"},
	} {
		cases = append(cases, struct {
			name string
			args []string
			code int
			want []string
		}{c[0] + "/out-is-input", c, 2, []string{"out.txt", "refusing to overwrite an input"}})
	}
	out := filepath.Join(dir, "out.txt")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(out, []byte(sentinel), 0o600); err != nil {
				t.Fatal(err)
			}
			before := listDir(t, dir)
			args := make([]string, len(c.args))
			for i, a := range c.args {
				a = strings.ReplaceAll(a, "{out}", out)
				args[i] = strings.ReplaceAll(a, "{d}", dir)
			}
			stdout, stderr, code := aer(t, args...)
			if code != c.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			msg := strings.TrimSpace(stderr)
			if msg == "" || strings.Contains(msg, "\n") {
				t.Errorf("stderr is not one line:\n%s", stderr)
			}
			if prefix := "aer: " + c.args[0] + ": "; !strings.HasPrefix(msg, prefix) {
				t.Errorf("stderr does not start with %q: %s", prefix, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, strings.ReplaceAll(w, "{d}", dir)) {
					t.Errorf("stderr does not mention %q: %s", w, msg)
				}
			}
			if stdout != "" {
				t.Errorf("stdout on failure:\n%s", stdout)
			}
			if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, []byte(sentinel)) {
				t.Errorf("existing output file changed: %q, %v", got, err)
			}
			if after := listDir(t, dir); !slices.Equal(before, after) {
				t.Errorf("files changed in the directory:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// listDir returns the names of the entries of dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
