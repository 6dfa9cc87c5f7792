package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/aer-go/aer/learn"
)

// progress draws a progress bar of a long fit on stderr when stderr is a
// terminal, and nothing otherwise (logs and pipes stay clean).
type progress struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	label string
	stage string
}

func newProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	return &progress{label: label, bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100_000_000),
	)}
}

// update shows the stage and, for counted stages, how far it is.
func (p *progress) update(s learn.Progress) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.Stage != p.stage {
		p.stage = s.Stage
		p.bar.ChangeMax(s.Total)
		p.bar.Describe(p.label + ": " + s.Stage)
	}
	p.bar.Set(s.Done)
}

func (p *progress) done() {
	if p.bar != nil {
		p.bar.Finish()
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
