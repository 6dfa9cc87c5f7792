package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/learn"
)

// TestProgressLines: without a terminal, a line when a stage starts and
// one when it ends, at most one per lineEvery within a stage, and a last
// line; the clock is simulated.
func TestProgressLines(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(1000, 0)
	p := newProgressLines(&buf, "fit aer", func() time.Time { return now })
	step := func(d time.Duration, stage string, done, total int) {
		now = now.Add(d)
		p.update(learn.Progress{Stage: stage, Done: done, Total: total})
	}
	step(100*time.Millisecond, "mixture", 1, 1)
	step(time.Second, "members", 0, 69)
	for i := 1; i <= 60; i++ { // 30 s of members, a report every 0.5 s
		step(500*time.Millisecond, "members", i, 69)
	}
	step(time.Second, "weights", 1, 1)
	now = now.Add(2 * time.Second)
	p.done(nil)
	want := `fit aer: mixture, 0.1 s
fit aer: mixture done in 0.0 s, 0.1 s
fit aer: members 0/69, 1.1 s
fit aer: members 20/69, 11.1 s
fit aer: members 40/69, 21.1 s
fit aer: members 60/69, 31.1 s
fit aer: members done in 31.0 s, 32.1 s
fit aer: weights, 32.1 s
fit aer: weights done in 0.0 s, 32.1 s
fit aer: done, 34.1 s
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	q := newProgressLines(&buf, "fit gbdt", func() time.Time { return now })
	q.done(errors.New("boom"))
	if buf.String() != "fit gbdt: stopped, 0.0 s\n" {
		t.Errorf("failed fit: %q", buf.String())
	}
}

// TestProgressModes: a file that is not a terminal gets lines, an
// in-process buffer nothing.
func TestProgressModes(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := newProgress(f, "fit tree")
	p.update(learn.Progress{Stage: "tree", Done: 1, Total: 1})
	p.done(nil)
	got, _ := os.ReadFile(f.Name())
	if lines := strings.Split(strings.TrimSpace(string(got)), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "fit tree: tree, ") ||
		!strings.HasPrefix(lines[1], "fit tree: tree done in ") || !strings.HasPrefix(lines[2], "fit tree: done, ") {
		t.Errorf("log file:\n%s", got)
	}
	var buf bytes.Buffer
	q := newProgress(&buf, "fit tree")
	q.update(learn.Progress{Stage: "tree", Done: 1, Total: 1})
	q.done(nil)
	if buf.Len() != 0 {
		t.Errorf("buffer got %q", buf.String())
	}
}

// TestProgressLinesTick: without a terminal, a stage that reports nothing
// for lineEvery still gets a line, once per lineEvery (the ticker's), and
// a finished stage none.
func TestProgressLinesTick(t *testing.T) {
	defer func(l, k time.Duration) { lineEvery, tickEvery = l, k }(lineEvery, tickEvery)
	lineEvery, tickEvery = 200*time.Millisecond, 20*time.Millisecond
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := newProgress(f, "fit aer")
	p.update(learn.Progress{Stage: "mixture", Done: 0, Total: 8})
	time.Sleep(700 * time.Millisecond)
	p.update(learn.Progress{Stage: "mixture", Done: 8, Total: 8})
	time.Sleep(500 * time.Millisecond)
	p.done(nil)
	got, _ := os.ReadFile(f.Name())
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	periodic := 0
	for _, l := range lines[1 : len(lines)-2] {
		if !strings.HasPrefix(l, "fit aer: mixture 0/8, ") {
			t.Errorf("line %q between the stage's first and last", l)
		}
		periodic++
	}
	if periodic < 2 || periodic > 4 || !strings.HasPrefix(lines[len(lines)-2], "fit aer: mixture done in ") {
		t.Errorf("want 2-4 periodic lines in 0.7 s of a stage at one per 0.2 s, then its end:\n%s", got)
	}
}

// TestFitProgressLog: aer fit --method aer with stderr a file (a log)
// writes one line when each stage starts and one when it ends, each with
// the time since the start, and nothing else of the progress.
func TestFitProgressLog(t *testing.T) {
	dir := t.TempDir()
	train, valid, _ := aerTask(t, dir)
	f, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	args := append([]string{"fit", "--method", "aer", "--train", train, "--valid", valid, "--out", filepath.Join(dir, "m.aer")}, smallAER...)
	var out bytes.Buffer
	if err := run(args, &out, f); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(f.Name())
	starts, ends := map[string]int{}, map[string]int{}
	startRe := regexp.MustCompile(`^fit aer: (.+?)( [\d.]+/[\d.]+( MB)?)?, \d+\.\d s$`)
	endRe := regexp.MustCompile(`^fit aer: (.+) done in \d+\.\d s, \d+\.\d s$`)
	for _, l := range strings.Split(strings.TrimSpace(string(got)), "\n") {
		switch m, n := endRe.FindStringSubmatch(l), startRe.FindStringSubmatch(l); {
		case m != nil:
			ends[m[1]]++
		case n != nil:
			starts[n[1]]++
		case strings.HasPrefix(l, "fit aer: "):
			t.Errorf("progress line %q is neither a stage's start nor its end", l)
		}
	}
	stages := []string{"reading task.train.csv", "reading task.valid.csv", "prepare", "mixture", "subsets", "members", "cross-tune", "weights", "tune", "finish"}
	for _, s := range stages {
		if starts[s] != 1 || ends[s] != 1 {
			t.Errorf("stage %q: %d start lines and %d end lines, want 1 and 1", s, starts[s], ends[s])
		}
	}
	if starts["done"] != 1 || len(starts) != len(stages)+1 || len(ends) != len(stages) {
		t.Errorf("stages logged: %v started, %v ended:\n%s", starts, ends, got)
	}
}

// TestNotesFoldWarnings: a warning repeated by every member of an
// ensemble is written once, with its count, when the notes are flushed;
// other notes as they come.
func TestNotesFoldWarnings(t *testing.T) {
	var buf bytes.Buffer
	l := noteLogger(&buf, "fit")
	l.Info("a note")
	for range 17 {
		l.Warn("svm: the solver stopped at max_iter=10 before reaching tol=0.001")
	}
	l.Warn("once")
	l.Debug("dropped")
	if buf.String() != "fit: a note\n" {
		t.Errorf("before the flush: %q", buf.String())
	}
	flushNotes(l, &buf)
	want := "fit: a note\nfit: warning: svm: the solver stopped at max_iter=10 before reaching tol=0.001 (17 times)\nfit: warning: once\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// TestCVProgressLog: aer cv with stderr a file logs the reading and the
// folds as stages, its rounds' lines between.
func TestCVProgressLog(t *testing.T) {
	dir := t.TempDir()
	train, _, _ := aerTask(t, dir)
	f, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	if err := run([]string{"cv", "--data", train, "--method", "tree", "--folds", "3"}, &out, f); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(f.Name())
	want := regexp.MustCompile(`^cv tree: reading task.train.csv 0.0/0.\d MB, \d+\.\d s
cv tree: reading task.train.csv done in \d+\.\d s, \d+\.\d s
cv tree: folds 0/3, \d+\.\d s
(cv: repeat 1/1, fold \d/3: .*
){3}cv tree: folds done in \d+\.\d s, \d+\.\d s
cv tree: done, \d+\.\d s
$`)
	if !want.Match(got) {
		t.Errorf("stderr:\n%s", got)
	}
}

// TestFitProgressLogCrossTune: without validation rows the default aer
// fit logs its cross-tuning stage (the members' out-of-fold fits) like
// every other, a start line and an end line, before the weights.
func TestFitProgressLogCrossTune(t *testing.T) {
	dir := t.TempDir()
	train, _, _ := aerTask(t, dir)
	f, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	args := append([]string{"fit", "--method", "aer", "--train", train, "--out", filepath.Join(dir, "m.aer")}, smallAER...)
	var out bytes.Buffer
	if err := run(args, &out, f); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(f.Name())
	text := string(got)
	start := regexp.MustCompile(`(?m)^fit aer: cross-tune \d+/\d+, \d+\.\d s$`).FindStringIndex(text)
	end := regexp.MustCompile(`(?m)^fit aer: cross-tune done in \d+\.\d s, \d+\.\d s$`).FindStringIndex(text)
	weights := strings.Index(text, "fit aer: weights")
	if start == nil || end == nil || weights < 0 || !(start[0] < end[0] && end[0] < weights) {
		t.Errorf("want a cross-tune start line, its end line, then the weights:\n%s", text)
	}
}
