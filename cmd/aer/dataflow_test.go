package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// idTextTable writes a table of n rows to dir/t.csv: an id column of
// distinct strings (r0001, ...), a numeric feature, a text column
// (clinic: east, west, north) and a label (yes, one row in 5). It
// returns the path and the lines by id.
func idTextTable(t *testing.T, dir string, n int) (string, map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,x,clinic,label\n")
	lines := map[string]string{}
	clinics := []string{"east", "west", "north"}
	for i := range n {
		id := fmt.Sprintf("r%04d", i+1)
		label := "no"
		if i%5 == 0 {
			label = "yes"
		}
		line := fmt.Sprintf("%s,%g,%s,%s", id, float64(i%17)/4+float64(i%5), clinics[i%3], label)
		b.WriteString(line + "\n")
		lines[id] = line
	}
	path := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, lines
}

// aer info on a table with an id and a text column and no flags profiles
// it, the id as text flagged likely id with a hint to pass --id.
func TestInfoIDTextNoFlags(t *testing.T) {
	data, _ := idTextTable(t, t.TempDir(), 100)
	out, errOut, code := aer(t, "info", "--data", data)
	if code != 0 {
		t.Fatalf("info: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"rows            100", "features        4", "likely id", `hint: column "id" looks like a row identifier: pass --id id`} {
		if !strings.Contains(out, want) {
			t.Errorf("info output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = aer(t, "info", "--data", data, "--json")
	if code != 0 {
		t.Fatalf("info --json: exit %d: %s", code, errOut)
	}
	var r infoReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	types := map[string]string{}
	for _, c := range r.Columns {
		types[c.Name] = c.Type
		if c.LikelyID != (c.Name == "id") {
			t.Errorf("column %s: likely_id %v", c.Name, c.LikelyID)
		}
	}
	if types["id"] != "text" || types["clinic"] != "categorical" || types["x"] != "numeric" || strings.Join(r.LikelyIDs, ",") != "id" {
		t.Errorf("types %v, likely ids %v", types, r.LikelyIDs)
	}
	if !strings.Contains(out, `"likely_id": true`) {
		t.Errorf("--json lacks likely_id:\n%s", out)
	}
	// Given as --id, it is the id and no longer flagged.
	out, _, code = aer(t, "info", "--data", data, "--id", "id")
	if code != 0 || strings.Contains(out, "likely id") || !strings.Contains(out, "  id      id ") {
		t.Errorf("--id id: exit %d:\n%s", code, out)
	}
}

// aer split on the same table and no flags writes parts that hold the
// file's columns in its order, the id and text cells unchanged, every row
// once.
func TestSplitIDTextNoFlags(t *testing.T) {
	dir := t.TempDir()
	data, lines := idTextTable(t, dir, 100)
	_, errOut, code := aer(t, "split", "--data", data, "--ratio", "3:1:1", "--out-dir", dir)
	if code != 0 {
		t.Fatalf("split: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, `column "id" has more distinct values than --max-categories allows, read as text: passed through as text (a row identifier? --id id)`) {
		t.Errorf("stderr: %q", errOut)
	}
	seen := map[string]bool{}
	for _, part := range []string{"train", "valid", "test"} {
		body, err := os.ReadFile(filepath.Join(dir, "t."+part+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSpace(string(body)), "\n")
		if rows[0] != "id,x,clinic,label" {
			t.Fatalf("%s: header %q", part, rows[0])
		}
		for _, l := range rows[1:] {
			id, _, _ := strings.Cut(l, ",")
			if l != lines[id] || seen[id] {
				t.Errorf("%s: row %q, want %q once", part, l, lines[id])
			}
			seen[id] = true
		}
	}
	if len(seen) != 100 {
		t.Errorf("%d of 100 rows in the parts", len(seen))
	}
	// --column: one file, a split column before the label; a --drop
	// column passes through too.
	if _, errOut, code := aer(t, "split", "--data", data, "--drop", "x", "--column", "--out-dir", dir); code != 0 {
		t.Fatalf("split --column: exit %d: %s", code, errOut)
	}
	body, err := os.ReadFile(filepath.Join(dir, "t.split.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(body)), "\n")
	if rows[0] != "id,x,clinic,split,label" || len(rows) != 101 {
		t.Fatalf("split.csv header %q, %d rows", rows[0], len(rows)-1)
	}
	for _, l := range rows[1:] {
		f := strings.Split(l, ",")
		if want := strings.Split(lines[f[0]], ","); f[1] != want[1] || f[2] != want[2] || f[4] != want[3] {
			t.Errorf("split.csv row %q, want %q", l, lines[f[0]])
		}
	}
	if _, errOut, code := aer(t, "split", "--data", data, "--drop", "nope", "--out-dir", dir); code != 2 || !strings.Contains(errOut, "--drop nope") {
		t.Errorf("--drop nope: exit %d: %s", code, errOut)
	}
}

// aer resample --id on a table with a text column keeps the ids (and
// whole lines) of the rows it keeps, names SMOTE's rows smote-1, ... and
// writes the text column back as text, in the file's column order.
func TestResampleIDText(t *testing.T) {
	dir := t.TempDir()
	data, lines := idTextTable(t, dir, 100)
	out := filepath.Join(dir, "smote.csv")
	if _, errOut, code := aer(t, "resample", "--sampler", "smote", "--id", "id", "--data", data, "--out", out, "--seed", "1"); code != 0 {
		t.Fatalf("smote: exit %d: %s", code, errOut)
	}
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(body)), "\n")
	if rows[0] != "id,x,clinic,label" || len(rows) != 1+160 {
		t.Fatalf("header %q, %d rows", rows[0], len(rows)-1)
	}
	for i, l := range rows[1:101] {
		if id := fmt.Sprintf("r%04d", i+1); l != lines[id] {
			t.Errorf("kept row %d: %q, want %q", i+1, l, lines[id])
		}
	}
	for k, l := range rows[101:] {
		f := strings.Split(l, ",")
		if f[0] != fmt.Sprintf("smote-%d", k+1) || (f[2] != "east" && f[2] != "west" && f[2] != "north") || f[3] != "yes" {
			t.Errorf("synthetic row %d: %q", k+1, l)
		}
	}
	// Under-sampling keeps whole rows, ids included.
	out = filepath.Join(dir, "rus.csv")
	if _, errOut, code := aer(t, "resample", "--sampler", "rus", "--id", "id", "--data", data, "--out", out, "--json"); code != 0 {
		t.Fatalf("rus: exit %d: %s", code, errOut)
	}
	body, _ = os.ReadFile(out)
	rows = strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(rows) != 1+40 {
		t.Fatalf("rus: %d rows", len(rows)-1)
	}
	for _, l := range rows[1:] {
		id, _, _ := strings.Cut(l, ",")
		if l != lines[id] {
			t.Errorf("rus row %q, want %q", l, lines[id])
		}
	}
	// Without --id the id column has too many values to be a feature.
	_, errOut, code := aer(t, "resample", "--sampler", "rus", "--data", data, "--out", filepath.Join(dir, "x.csv"))
	if code != 1 || !strings.Contains(errOut, "--id id") {
		t.Errorf("no --id: exit %d: %s", code, errOut)
	}
}

// aer cv --id on a table with a text column writes the id as the first
// column of --oof, every row's id once per repeat; the text column is a
// categorical feature as in aer fit, and --drop leaves a column out.
func TestCVOOFID(t *testing.T) {
	dir := t.TempDir()
	data, lines := idTextTable(t, dir, 100)
	oof := filepath.Join(dir, "oof.csv")
	out, errOut, code := aer(t, "cv", "--data", data, "--id", "id", "--method", "tree", "--folds", "3", "--oof", oof, "--json")
	if code != 0 {
		t.Fatalf("cv: exit %d: %s", code, errOut)
	}
	var doc cvOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Features != 4 || doc.Rows != 100 { // x and clinic's three values
		t.Errorf("%d features, %d rows", doc.Features, doc.Rows)
	}
	body, err := os.ReadFile(oof)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(body)), "\n")
	if rows[0] != "id,row,repeat,fold,label,score,pred" || len(rows) != 101 {
		t.Fatalf("oof header %q, %d rows", rows[0], len(rows)-1)
	}
	for i, l := range rows[1:] {
		f := strings.Split(l, ",")
		want := fmt.Sprintf("r%04d", i+1)
		label := "0"
		if strings.HasSuffix(lines[want], ",yes") {
			label = "1"
		}
		if f[0] != want || f[1] != fmt.Sprint(i+1) || f[4] != label {
			t.Errorf("oof line %d: %q (want id %s, label %s)", i+2, l, want, label)
		}
	}
	// aer eval reads it, the id column taken for the id.
	if _, errOut, code := aer(t, "eval", "--data", oof); code != 0 {
		t.Errorf("eval of the oof file: exit %d: %s", code, errOut)
	}
	// --drop and --categorical as in aer fit: x dropped, clinic the one feature.
	out, errOut, code = aer(t, "cv", "--data", data, "--id", "id", "--drop", "x", "--categorical", "clinic", "--method", "tree", "--folds", "3", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Features != 3 {
		t.Errorf("--drop x: exit %d, %d features: %s", code, doc.Features, errOut)
	}
}

// aer bench on a folder holding a table with an id and a text column:
// with --id the text column is one-hot encoded as aer fit does and the
// run succeeds; the columns read are part of the settings hash (another
// --drop runs again); without --id the id column is refused, naming --id.
func TestBenchIDText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	idTextTable(t, dir, 150)
	out := filepath.Join(t.TempDir(), "out")
	bench := func(extra ...string) benchSummary {
		t.Helper()
		args := append([]string{"bench", "--datasets", dir, "--seeds", "0", "--methods", "tree", "--out", out, "--json"}, extra...)
		stdout, errOut, code := aer(t, args...)
		if code != 0 {
			t.Fatalf("bench %v: exit %d: %s", extra, code, errOut)
		}
		var s benchSummary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := bench("--id", "id"); s.Ran != 1 || s.Failed != 0 {
		t.Fatalf("--id id: %+v", s)
	}
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(report), "4 features") {
		t.Errorf("report (x and clinic's 3 values: 4 features): %v", err)
	}
	preds, _ := filepath.Glob(filepath.Join(out, "preds", "*", "*", "*.csv"))
	if len(preds) != 1 {
		t.Fatalf("prediction files %v, want one", preds)
	}
	if b, err := os.ReadFile(preds[0]); err != nil || !strings.HasPrefix(string(b), "id,label,score,pred\nr") {
		t.Errorf("bench predictions (want the id first): %.60q %v", b, err)
	}
	if s := bench("--id", "id"); s.Skipped != 1 {
		t.Errorf("same settings: %+v, want skipped", s)
	}
	if s := bench("--id", "id", "--drop", "x"); s.Ran != 1 || s.Failed != 0 {
		t.Errorf("--drop x: %+v, want run again", s)
	}
	_, errOut, code := aer(t, "bench", "--datasets", dir, "--seeds", "0", "--methods", "tree", "--out", filepath.Join(t.TempDir(), "o"))
	if code != 1 || !strings.Contains(errOut, "too many categories") || !strings.Contains(errOut, "--id id") {
		t.Errorf("no --id: exit %d: %s", code, errOut)
	}
}

type benchSummary struct{ Runs, Ran, Skipped, Failed int }
