package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer"
)

// treeModel fits a tree on cmd/aer's training file and saves it in dir:
// the file's path and the model's.
func treeModel(t *testing.T, dir string) (trainPath, modelFile string) {
	t.Helper()
	trainPath = filepath.Join("..", "..", "..", "cmd", "aer", "testdata", "fit", "train.csv")
	tbl, err := aer.ReadTable(trainPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := aer.Method("tree")
	if err != nil {
		t.Fatal(err)
	}
	m, err := aer.Fit(context.Background(), tbl, nil, nil, tree)
	if err != nil {
		t.Fatal(err)
	}
	modelFile = filepath.Join(dir, "m.aer")
	if err := m.Save(context.Background(), modelFile); err != nil {
		t.Fatal(err)
	}
	return trainPath, modelFile
}

// TestPredictCommand runs aer-beam predict on two files (Prism,
// in-process): a shard each, the counts printed; and the usage errors.
func TestPredictCommand(t *testing.T) {
	dir := t.TempDir()
	trainPath, modelFile := treeModel(t, dir)
	train, err := os.ReadFile(trainPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(train), "\n")
	for k, part := range [][]string{lines[1:20], lines[20 : len(lines)-1]} {
		body := lines[0] + strings.Join(part, "")
		if err := os.WriteFile(filepath.Join(dir, "in"+string(rune('a'+k))+".csv"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "scores")
	var stdout, stderr bytes.Buffer
	code := run([]string{"aer-beam", "predict", "--model", modelFile, "--data", filepath.Join(dir, "in*.csv"), "--out", out, "--runner", "prism"}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "2 files scored") || !strings.Contains(stdout.String(), filepath.Join(out, "manifest.json")) {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "ina.pred.csv")); err != nil {
		t.Error(err)
	}
	stdout.Reset()
	code = run([]string{"aer-beam", "predict", "--model", modelFile, "--data", filepath.Join(dir, "in*.csv"), "--out", out, "--json"}, &stdout, &stderr)
	var doc struct{ Files, Rows, Positive int64 }
	if err := json.Unmarshal(stdout.Bytes(), &doc); code != 0 || err != nil || doc.Files != 2 || doc.Rows != int64(len(lines)-2) {
		t.Errorf("--json: exit %d, %v: %s", code, err, stdout.String())
	}
	stderr.Reset()
	if code := run([]string{"aer-beam", "predict", "--model", modelFile}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "required") {
		t.Errorf("missing flags: exit %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"aer-beam", "nosuch"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "unknown command") {
		t.Errorf("unknown command: exit %d: %s", code, stderr.String())
	}
}

// TestPredictShardMap runs aer-beam predict on three files in two
// folders, two of the same name (Prism, in-process): each input is
// scored into the shard named after it (the folder taken into the name
// where two share it) with its rows, listed input by input in
// manifest.json and under --json; stderr has one line as each stage
// starts and one as it ends, whatever the rows.
func TestPredictShardMap(t *testing.T) {
	dir := t.TempDir()
	trainPath, modelFile := treeModel(t, dir)
	src, err := os.ReadFile(trainPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	head, rows := lines[0], lines[1:len(lines)-1]
	inputs := map[string]int{ // input -> rows
		filepath.Join(dir, "in", "east", "part-001.csv"): 7,
		filepath.Join(dir, "in", "east", "part-002.csv"): 12,
		filepath.Join(dir, "in", "west", "part-001.csv"): 5,
	}
	wantShard := map[string]string{
		filepath.Join(dir, "in", "east", "part-001.csv"): "east_part-001.pred.csv",
		filepath.Join(dir, "in", "east", "part-002.csv"): "part-002.pred.csv",
		filepath.Join(dir, "in", "west", "part-001.csv"): "west_part-001.pred.csv",
	}
	next := 0
	for _, in := range slices.Sorted(maps.Keys(inputs)) {
		n := inputs[in]
		os.MkdirAll(filepath.Dir(in), 0o755)
		if err := os.WriteFile(in, []byte(head+strings.Join(rows[next:next+n], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		next += n
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := run([]string{"aer-beam", "predict", "--model", modelFile, "--data", filepath.Join(dir, "in", "*", "part-*.csv"), "--out", out, "--json"}, &stdout, &stderr)
	var doc struct {
		Manifest string
		Files    int
		Rows     int64
		Shards   []struct {
			Input, Output string
			Rows          int64
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s%s", code, err, stdout.String(), stderr.String())
	}
	if doc.Files != 3 || doc.Rows != 24 || len(doc.Shards) != 3 || doc.Manifest != filepath.Join(out, "manifest.json") {
		t.Errorf("--json: %s", stdout.String())
	}
	for _, sh := range doc.Shards {
		want := filepath.Join(out, wantShard[sh.Input])
		if wantShard[sh.Input] == "" || sh.Output != want || sh.Rows != int64(inputs[sh.Input]) {
			t.Errorf("--json maps %s to %s with %d rows, want %s with %d", sh.Input, sh.Output, sh.Rows, want, inputs[sh.Input])
			continue
		}
		b, err := os.ReadFile(sh.Output)
		if err != nil {
			t.Error(err)
			continue
		}
		if got := strings.Count(string(b), "\n") - 1; got != inputs[sh.Input] {
			t.Errorf("%s: %d rows, want %d", sh.Output, got, inputs[sh.Input])
		}
	}
	// manifest.json holds the same map.
	var onDisk struct {
		Shards []struct{ Input, Output string }
	}
	if b, err := os.ReadFile(filepath.Join(out, "manifest.json")); err != nil || json.Unmarshal(b, &onDisk) != nil || len(onDisk.Shards) != 3 {
		t.Errorf("manifest.json: %v: %+v", err, onDisk)
	}
	for _, sh := range onDisk.Shards {
		if sh.Output != filepath.Join(out, wantShard[sh.Input]) {
			t.Errorf("manifest.json maps %s to %s", sh.Input, sh.Output)
		}
	}
	// Progress: a line as each stage starts and one as it ends.
	var starts, ends int
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		switch {
		case strings.HasPrefix(l, "aer-beam: predict: ") && strings.HasSuffix(l, " ..."):
			starts++
		case strings.HasPrefix(l, "aer-beam: predict: ") && strings.Contains(l, ": done in "):
			ends++
		default:
			t.Errorf("stderr line %q", l)
		}
	}
	if starts != 3 || ends != 3 || !strings.Contains(stderr.String(), "reading, scoring and writing 3 files: done in ") {
		t.Errorf("progress: %d starts, %d ends:\n%s", starts, ends, stderr.String())
	}
}

// TestFitCommand runs aer-beam fit on two training files with a held-out
// validation share (Prism, in-process), then scores with the model it
// wrote; and its usage errors.
func TestFitCommand(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "cmd", "aer", "testdata", "fit", "train.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	half := len(lines) / 2
	for k, part := range [][]string{lines[1:half], lines[half : len(lines)-1]} {
		if err := os.WriteFile(filepath.Join(dir, "part-"+string(rune('a'+k))+".csv"), []byte(lines[0]+strings.Join(part, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	model := filepath.Join(dir, "m.aer")
	var stdout, stderr bytes.Buffer
	code := run([]string{"aer-beam", "fit", "--train", filepath.Join(dir, "part-*.csv"), "--out", model, "--seed", "2",
		"--param", "components=2", "--param", "n_estimators=10", "--json"}, &stdout, &stderr)
	var doc struct {
		Out       string
		TrainRows int64 `json:"train_rows"`
		ValidRows int64 `json:"valid_rows"`
		Members   int64
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s%s", code, err, stdout.String(), stderr.String())
	}
	// The runner's log lines stay behind --verbose; each of the five
	// stages says when it starts and when it ends, once.
	if strings.Contains(stderr.String(), "level=INFO") {
		t.Errorf("a quiet fit logged the runner's steps:\n%s", stderr.String())
	}
	if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 10 ||
		strings.Count(stderr.String(), ": done in ") != 5 || !strings.HasPrefix(lines[0], "aer-beam: fit: reading the rows") ||
		!strings.HasPrefix(lines[9], "aer-beam: fit: weighing and tuning the members, writing the model: done in ") {
		t.Errorf("fit's progress, want a line as each of 5 stages starts and ends:\n%s", stderr.String())
	}
	m, err := aer.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Method() != "aer" || doc.TrainRows+doc.ValidRows != int64(len(lines)-2) || doc.ValidRows == 0 || doc.Members < 6 {
		t.Errorf("method %s, %+v", m.Method(), doc)
	}
	// Usage errors write nothing.
	for _, args := range [][]string{
		{"--train", filepath.Join(dir, "part-*.csv")},
		{"--train", "x", "--out", filepath.Join(dir, "n.aer"), "--method", "gbdt"},
		{"--train", "x", "--out", filepath.Join(dir, "n.aer"), "--param", "nosuch=1"},
		{"--train", "x", "--out", filepath.Join(dir, "n.aer"), "--holdout", "1"},
	} {
		stderr.Reset()
		if code := run(append([]string{"aer-beam", "fit"}, args...), &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d: %s", args, code, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "n.aer")); err == nil {
		t.Error("a failed fit wrote a model file")
	}
	// A pattern that matches no file: one line before any pipeline
	// runs, exit 1, no model.
	for _, args := range [][]string{
		{"fit", "--train", filepath.Join(dir, "none-*.csv"), "--out", filepath.Join(dir, "n.aer")},
		{"fit", "--train", filepath.Join(dir, "part-*.csv"), "--valid", filepath.Join(dir, "none-*.csv"), "--out", filepath.Join(dir, "n.aer")},
		{"predict", "--model", model, "--data", filepath.Join(dir, "none-*.csv"), "--out", filepath.Join(dir, "p")},
	} {
		stderr.Reset()
		code := run(append([]string{"aer-beam"}, args...), &stdout, &stderr)
		if lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n"); code != 1 || len(lines) != 1 || !strings.HasSuffix(lines[0], ": no files match") {
			t.Errorf("%q: exit %d, want 1 and one line: %s", args, code, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "n.aer")); err == nil {
		t.Error("a failed fit wrote a model file")
	}
}

// TestHelp: aer-beam's help lists every command's flags under its name,
// and help COMMAND that command's alone.
func TestHelp(t *testing.T) {
	for _, c := range []struct {
		args      []string
		want, not []string
	}{
		{[]string{"help"}, []string{"fit's flags:", "-train", "predict's flags:", "-model"}, nil},
		{[]string{"help", "fit"}, []string{"fit's flags:", "-train"}, []string{"predict's flags:"}},
		{[]string{"help", "predict"}, []string{"predict's flags:", "-model"}, []string{"fit's flags:"}},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"aer-beam"}, c.args...), &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d", c.args, code)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%q: no %q in\n%s", c.args, w, stderr.String())
			}
		}
		for _, n := range c.not {
			if strings.Contains(stderr.String(), n) {
				t.Errorf("%q: %q in\n%s", c.args, n, stderr.String())
			}
		}
	}
}

// TestRefuseOverwrite: fit refuses an --out that is one of the files
// --train or --valid match (by another name too: a symbolic link), and
// predict an --out folder that is an input file or lies inside one, or
// whose shards or manifest would replace an input; each before any
// pipeline runs, exit 2, every file as it was.
func TestRefuseOverwrite(t *testing.T) {
	dir := t.TempDir()
	trainPath, modelFile := treeModel(t, dir)
	src, err := os.ReadFile(trainPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sh0.csv", "sh1.csv", "v0.csv"} {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(filepath.Join(dir, "sh1.csv"), link); err != nil {
		t.Fatal(err)
	}
	prev := filepath.Join(dir, "prev")
	if err := os.MkdirAll(prev, 0o755); err != nil {
		t.Fatal(err)
	}
	// A previous run's folder, its manifest matched as data.
	for _, name := range []string{"a.csv", "manifest.json"} {
		if err := os.WriteFile(filepath.Join(prev, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shards := filepath.Join(dir, "sh*.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--train", shards, "--out", filepath.Join(dir, "sh0.csv")}, "--out " + filepath.Join(dir, "sh0.csv") + " is the --train file"},
		{[]string{"fit", "--train", shards, "--out", link}, "is the --train file " + filepath.Join(dir, "sh1.csv")},
		{[]string{"fit", "--train", shards, "--valid", filepath.Join(dir, "v*.csv"), "--out", filepath.Join(dir, "v0.csv")}, "is the --valid file"},
		{[]string{"predict", "--model", modelFile, "--data", shards, "--out", filepath.Join(dir, "sh0.csv")}, "is the --data file"},
		{[]string{"predict", "--model", modelFile, "--data", shards, "--out", filepath.Join(dir, "sh0.csv", "scores")}, "lies inside the --data file"},
		{[]string{"predict", "--model", modelFile, "--data", filepath.Join(prev, "*"), "--out", prev}, "the output " + filepath.Join(prev, "manifest.json") + " is the --data file"},
		{[]string{"predict", "--model", modelFile, "--data", shards, "--out", modelFile}, "is the --model file"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"aer-beam"}, c.args...), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) || !strings.Contains(stderr.String(), "refusing to overwrite") && !strings.Contains(stderr.String(), "want a folder") {
			t.Errorf("%q: exit %d, want 2 and %q: %s", c.args, code, c.want, stderr.String())
		}
	}
	for _, name := range []string{"sh0.csv", "sh1.csv", "v0.csv", "prev/a.csv", "prev/manifest.json"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(b, src) {
			t.Errorf("%s changed (%v)", name, err)
		}
	}
	if entries, _ := os.ReadDir(prev); len(entries) != 2 {
		t.Errorf("a refused predict wrote in %s: %v", prev, entries)
	}
	if _, err := aer.Load(modelFile); err != nil {
		t.Errorf("the model: %v", err)
	}
}

// TestPredictFailureLeavesNothing: a predict whose one file cannot be
// scored exits 1 and leaves the --out folder as it was: no shard of the
// files it did score, no manifest, no temporary file, an earlier shard
// untouched.
func TestPredictFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	trainPath, modelFile := treeModel(t, dir)
	src, err := os.ReadFile(trainPath)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	if err := os.WriteFile(filepath.Join(in, "a.csv"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "b.csv"), []byte("nosuch,columns\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	const earlier = "an earlier run's shard\n"
	if err := os.WriteFile(filepath.Join(out, "a.pred.csv"), []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"aer-beam", "predict", "--model", modelFile, "--data", filepath.Join(in, "*.csv"), "--out", out}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1: %s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "b.csv") {
		t.Errorf("the error does not name the file that failed: %s", stderr.String())
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || entries[0].Name() != "a.pred.csv" {
		t.Errorf("a failed predict left %v in --out", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "a.pred.csv")); string(b) != earlier {
		t.Errorf("an earlier shard was replaced: %q", b)
	}
}
