package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/aer-go/aer/learn"
)

// progress shows how a long fit advances on stderr. On a terminal it
// draws a progress bar. When stderr is a file or a pipe (a log, a batch
// job), it writes plain lines instead: one when a stage starts, one at
// most every lineEvery within a stage that counts its work, and one at
// the end, each with the time since the start ("fit aer: members 12/69,
// 10.4 s"). Any other writer (the buffers of in-process tests, which
// compare stderr) gets nothing.
type progress struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	label string
	stage string

	lines    io.Writer        // plain-line mode when not nil
	now      func() time.Time // the clock of plain lines
	start    time.Time
	lastLine time.Time
}

// barThrottle bounds how often the bar is drawn (tests draw every frame).
var barThrottle = 100 * time.Millisecond

// lineEvery bounds how often plain lines report the progress of one stage.
const lineEvery = 10 * time.Second

func newProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return &progress{}
	}
	if !term.IsTerminal(int(f.Fd())) {
		return newProgressLines(f, label, time.Now)
	}
	return &progress{label: label, bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(barThrottle),
	)}
}

// newProgressLines returns a progress writing plain lines to w, with the
// clock now.
func newProgressLines(w io.Writer, label string, now func() time.Time) *progress {
	t := now()
	return &progress{lines: w, label: label, now: now, start: t, lastLine: t}
}

// update shows the stage and, for counted stages, how far it is.
func (p *progress) update(s learn.Progress) {
	if p.lines != nil {
		p.line(s)
		return
	}
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.Stage != p.stage {
		// A new bar state per stage: a stage whose count reached its
		// total finishes the bar, and a finished bar draws nothing more.
		// A stage that does not count its work gets a spinner.
		p.stage = s.Stage
		p.bar.Reset()
		p.bar.ChangeMax(cmp.Or(max(s.Total, 0), -1))
		p.bar.Describe(p.label + ": " + s.Stage)
	}
	p.bar.Set(s.Done)
}

// line writes the plain line of s, if one is due: at a new stage, or
// lineEvery after the last line.
func (p *progress) line(s learn.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	if s.Stage == p.stage && t.Sub(p.lastLine) < lineEvery {
		return
	}
	p.stage, p.lastLine = s.Stage, t
	count := ""
	if s.Total > 1 {
		count = fmt.Sprintf(" %d/%d", s.Done, s.Total)
	}
	fmt.Fprintf(p.lines, "%s: %s%s, %.1f s\n", p.label, s.Stage, count, t.Sub(p.start).Seconds())
}

// done ends the display; err is the outcome of the work shown.
func (p *progress) done(err error) {
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.lines != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		what := "done"
		if err != nil {
			what = "stopped"
		}
		fmt.Fprintf(p.lines, "%s: %s, %.1f s\n", p.label, what, p.now().Sub(p.start).Seconds())
	}
}

// noteLogger returns a logger that writes records of level Info and above
// to w as "cmd: message" lines, the notes a method has for the user; debug
// records are dropped.
func noteLogger(w io.Writer, cmd string) *slog.Logger {
	return slog.New(&noteHandler{w: w, prefix: cmd})
}

type noteHandler struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	seen   map[string]bool // when not nil, messages already written
}

func (h *noteHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h *noteHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen != nil {
		if h.seen[r.Message] {
			return nil
		}
		h.seen[r.Message] = true
	}
	_, err := fmt.Fprintf(h.w, "%s: %s\n", h.prefix, r.Message)
	return err
}

func (h *noteHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *noteHandler) WithGroup(string) slog.Handler      { return h }

// noteLoggerOnce is noteLogger writing each distinct message once: the
// rounds of a cross-validation repeat their methods' notes.
func noteLoggerOnce(w io.Writer, cmd string) *slog.Logger {
	return slog.New(&noteHandler{w: w, prefix: cmd, seen: map[string]bool{}})
}
