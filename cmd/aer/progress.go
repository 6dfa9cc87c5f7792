package main

import (
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

// progress shows how a long command advances on stderr, stage by stage
// (reading, mixture, subsets, members, weights, tune for an AER fit).
//
// On a terminal it draws a progress bar: the stage, its count when it
// counts its work (a spinner when it does not) and the stage's elapsed
// time, redrawn every tickEvery whether or not the work reported, so no
// stage stands still on the screen.
//
// When stderr is a file or a pipe (a log, a batch job), it writes plain
// lines instead, each with the time since the start: one when a stage
// starts ("fit aer: members 0/69, 6.0 s"), one when it finishes ("fit
// aer: members done in 10.2 s, 16.3 s"), and within a long stage one at
// most every lineEvery ("fit aer: members 12/69, 10.4 s"), then a last
// line at the end. Any other writer (the buffers of in-process tests,
// which compare stderr) gets nothing.
type progress struct {
	mu    sync.Mutex
	label string
	now   func() time.Time // the clock
	start time.Time

	// The current stage, its last report, when it started and whether
	// it reported its last unit (Done = Total).
	stage      string
	last       learn.Progress
	stageStart time.Time
	finished   bool

	bar  *progressbar.ProgressBar // terminal mode when not nil
	term io.Writer                // the terminal
	desc string                   // the bar's description

	lines    io.Writer // plain-line mode when not nil
	lastLine time.Time

	ticks ticker // redraws while it runs
}

// barThrottle bounds how often the bar is drawn (tests draw every frame).
var barThrottle = 100 * time.Millisecond

// tickEvery is how often the bar is redrawn without a report, and how
// often plain-line mode looks for a stage silent for lineEvery.
var tickEvery = 250 * time.Millisecond

// lineEvery bounds how often plain lines report the progress of one
// stage (a variable for tests).
var lineEvery = 10 * time.Second

func newProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return &progress{}
	}
	var p *progress
	if !term.IsTerminal(int(f.Fd())) {
		p = newProgressLines(f, label, time.Now)
	} else {
		t := time.Now()
		p = &progress{label: label, now: time.Now, start: t, term: f, bar: progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(f),
			progressbar.OptionSetDescription(label),
			progressbar.OptionSpinnerType(14),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(barThrottle),
			// The description has the stage's elapsed time.
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionSetElapsedTime(false),
			// The ticker below redraws; the bar's own spinner
			// goroutine would stop at the first finished stage.
			progressbar.OptionSetSpinnerChangeInterval(0),
		)}
	}
	p.tick()
	return p
}

// newProgressLines returns a progress writing plain lines to w, with the
// clock now and no ticker (tests drive the clock).
func newProgressLines(w io.Writer, label string, now func() time.Time) *progress {
	t := now()
	return &progress{lines: w, label: label, now: now, start: t, lastLine: t}
}

// tick starts the goroutine that redraws the bar every tickEvery, or in
// plain-line mode writes the line of a stage silent for lineEvery.
func (p *progress) tick() {
	p.ticks.start(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch {
		case p.stage == "":
		case p.bar != nil:
			p.bar.Describe(p.describe())
		case p.lines != nil && !p.finished && p.now().Sub(p.lastLine) >= lineEvery:
			p.writeLine(p.now(), p.last, "")
		}
	})
}

// ticker calls a function every tickEvery on a goroutine of its own,
// from start until stop: what keeps a bar moving through a stage that
// reports nothing.
type ticker struct {
	stop, stopped chan struct{} // while it runs
}

// start starts calling f.
func (t *ticker) start(f func()) {
	t.stop, t.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(t.stopped)
		tk := time.NewTicker(tickEvery)
		defer tk.Stop()
		for {
			select {
			case <-t.stop:
				return
			case <-tk.C:
			}
			f()
		}
	}()
}

// halt stops the calls and waits for the last to return; a ticker not
// started is left as it is.
func (t *ticker) halt() {
	if t.stop != nil {
		close(t.stop)
		<-t.stopped
		t.stop = nil
	}
}

// update shows the stage and, for counted stages, how far it is.
func (p *progress) update(s learn.Progress) {
	if p.lines == nil && p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	if s.Stage != p.stage {
		p.endStage(t)
		p.stage, p.stageStart, p.finished = s.Stage, t, false
		p.last = learn.Progress{Stage: s.Stage, Total: -1}
		if p.bar != nil {
			// A new bar state per stage, drawn at once under the
			// stage's name: the first draw after a reset is never
			// throttled, and a later one might be (a stage done within
			// the throttle would never show).
			p.bar.Reset()
			p.bar.Describe(p.describe())
		}
		if p.lines != nil {
			p.writeLine(t, s, "")
		}
	}
	if p.finished {
		return
	}
	complete := s.Total > 0 && s.Done >= s.Total
	if p.bar != nil {
		switch {
		case complete:
			// A finished bar draws nothing more: the stage's last
			// moments spin instead.
			p.bar.ChangeMax(-1)
		case s.Total > 0 && s.Total != p.last.Total:
			p.bar.ChangeMax(s.Total)
		case s.Total <= 0 && p.last.Total != 0:
			p.bar.ChangeMax(-1)
		}
		if !complete && s.Total > 0 {
			p.bar.Set(s.Done)
		}
	}
	p.last = s
	p.finished = complete
	if p.bar != nil {
		p.bar.Describe(p.describe())
		return
	}
	switch {
	case complete:
		p.writeLine(t, s, fmt.Sprintf(" done in %.1f s", t.Sub(p.stageStart).Seconds()))
	case t.Sub(p.lastLine) >= lineEvery:
		p.writeLine(t, s, "")
	}
}

// endStage ends the current stage, if any, at t: in plain-line mode a
// stage that did not report its end gets its line.
func (p *progress) endStage(t time.Time) {
	if p.stage == "" || p.finished || p.lines == nil {
		return
	}
	p.finished = true
	p.writeLine(t, learn.Progress{Stage: p.stage}, fmt.Sprintf(" done in %.1f s", t.Sub(p.stageStart).Seconds()))
}

// describe is the bar's description: the stage, its count, whether it
// is done, and its elapsed seconds.
func (p *progress) describe() string {
	what := p.label + ": " + p.stage + count(p.last)
	if p.finished {
		what += " done"
	}
	return fmt.Sprintf("%s, %.1f s", what, p.now().Sub(p.stageStart).Seconds())
}

// count is " done/total" of a counted stage (in MB for reading), else "".
func count(s learn.Progress) string {
	switch {
	case s.Total <= 1:
		return ""
	case isReading(s.Stage):
		return fmt.Sprintf(" %.1f/%.1f MB", float64(s.Done)/1e6, float64(s.Total)/1e6)
	}
	return fmt.Sprintf(" %d/%d", s.Done, s.Total)
}

// writeLine writes the plain line of s at t, with what after the stage.
func (p *progress) writeLine(t time.Time, s learn.Progress, what string) {
	p.lastLine = t
	c := count(s)
	if what != "" {
		c = ""
	}
	fmt.Fprintf(p.lines, "%s: %s%s%s, %.1f s\n", p.label, s.Stage, c, what, t.Sub(p.start).Seconds())
}

// done ends the display; err is the outcome of the work shown.
func (p *progress) done(err error) {
	p.ticks.halt()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.lines != nil {
		t := p.now()
		what := "done"
		if err != nil {
			what = "stopped"
		} else {
			p.endStage(t)
		}
		fmt.Fprintf(p.lines, "%s: %s, %.1f s\n", p.label, what, t.Sub(p.start).Seconds())
	}
}

// writer returns the writer of the command's other lines on stderr while
// the progress shows: on a terminal it clears the bar before each write
// (the next tick draws it again below); otherwise it is w.
func (p *progress) writer(w io.Writer) io.Writer {
	if p.bar == nil {
		return w
	}
	return barWriter{p}
}

type barWriter struct{ p *progress }

func (b barWriter) Write(s []byte) (int, error) {
	b.p.mu.Lock()
	defer b.p.mu.Unlock()
	b.p.bar.Clear()
	return b.p.term.Write(s)
}

// reading returns ctx telling the reads of data files (loadData) to p
// as stage "reading NAME", in bytes of the file.
func (p *progress) reading(ctx context.Context) context.Context {
	if p.bar == nil && p.lines == nil {
		return ctx
	}
	return withReadProgress(ctx, func(name string, read, size int64) {
		p.update(learn.Progress{Stage: "reading " + name, Done: int(read), Total: int(size)})
	})
}

// isReading reports whether stage is a reading stage (counted in bytes).
func isReading(stage string) bool { return len(stage) >= 8 && stage[:8] == "reading " }

// readProgressKey keys the reading-progress callback in a context.
type readProgressKey struct{}

// withReadProgress returns ctx whose data files (loadData) report their
// reading to f: the file's base name, bytes read and its size (0 when
// unknown), at most once per readStep bytes and at the end.
func withReadProgress(ctx context.Context, f func(name string, read, size int64)) context.Context {
	return context.WithValue(ctx, readProgressKey{}, f)
}

// readStep is the least number of bytes between reading reports.
const readStep = 1 << 20

// readProgress returns the Progress hook of a ctxio reader of the file
// name of size bytes, when ctx asks for one, and a call that reports the
// end of the read.
func readProgress(ctx context.Context, name string, size int64) (hook func(int64), end func()) {
	f, ok := ctx.Value(readProgressKey{}).(func(string, int64, int64))
	if !ok {
		return nil, func() {}
	}
	var mu sync.Mutex
	var last, read int64
	f(name, 0, max(size, 0))
	return func(n int64) {
			mu.Lock()
			defer mu.Unlock()
			read = n
			switch {
			case n-last < readStep:
			case size > 0:
				// A file read again (rereading) stays at its end until done.
				last = n
				f(name, min(n, size-1), size)
			default:
				last = n
				f(name, n, 0)
			}
		}, func() {
			mu.Lock()
			defer mu.Unlock()
			n := max(size, read, 1)
			f(name, n, n)
		}
}

// noteLogger returns a logger that writes records of level Info to w as
// "cmd: message" lines, the notes a method has for the user; debug
// records are dropped. Warnings (level Warn and above) are kept and
// written by flush, each once, with the number of times it came when it
// came more than once (a warning of every member of an ensemble).
func noteLogger(w io.Writer, cmd string) *slog.Logger {
	return slog.New(&noteHandler{w: w, prefix: cmd})
}

type noteHandler struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	seen   map[string]bool // when not nil, notes already written
	// warned counts each warning; order lists them as they first came.
	warned map[string]int
	order  []string
}

func (h *noteHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h *noteHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Level >= slog.LevelWarn {
		if h.warned == nil {
			h.warned = map[string]int{}
		}
		if h.warned[r.Message] == 0 {
			h.order = append(h.order, r.Message)
		}
		h.warned[r.Message]++
		return nil
	}
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

// flushNotes writes the warnings l's handler (noteLogger's) has kept, in
// the order they first came, one line each, to w.
func flushNotes(l *slog.Logger, w io.Writer) {
	h, ok := l.Handler().(*noteHandler)
	if !ok {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range h.order {
		if n := h.warned[m]; n > 1 {
			fmt.Fprintf(w, "%s: warning: %s (%d times)\n", h.prefix, m, n)
		} else {
			fmt.Fprintf(w, "%s: warning: %s\n", h.prefix, m)
		}
	}
	h.order, h.warned = nil, nil
}

// noteLoggerOnce is noteLogger writing each distinct note once: the
// rounds of a cross-validation repeat their methods' notes.
func noteLoggerOnce(w io.Writer, cmd string) *slog.Logger {
	return slog.New(&noteHandler{w: w, prefix: cmd, seen: map[string]bool{}})
}
