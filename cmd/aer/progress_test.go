package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/learn"
)

// TestProgressLines: without a terminal, a line per stage, at most one per
// lineEvery within a stage, and a last line; the clock is simulated.
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
fit aer: members 0/69, 1.1 s
fit aer: members 20/69, 11.1 s
fit aer: members 40/69, 21.1 s
fit aer: members 60/69, 31.1 s
fit aer: weights, 32.1 s
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
	if lines := strings.Split(strings.TrimSpace(string(got)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], "fit tree: tree, ") || !strings.HasPrefix(lines[1], "fit tree: done, ") {
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
