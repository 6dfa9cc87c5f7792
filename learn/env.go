package learn

import (
	"context"
	"io"
	"log/slog"
	"runtime"
)

// Env holds what the caller decides for one fit and a model never stores:
// the seed every random choice flows from, the bound on goroutines, a
// progress callback and a logger. The zero Env is seed 0, every core, no
// progress and no logging.
type Env struct {
	// Seed drives every random choice; the same seed and data give a
	// bit-identical model whatever Workers is.
	Seed uint64
	// Workers bounds the goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when not nil, is called as stages advance; it may be
	// called from several goroutines, one call at a time.
	Progress func(Progress)
	// Logger receives debug records; nil discards them.
	Logger *slog.Logger
	// ConsumeTrain says the caller will not read the training features
	// again: a method may then overwrite train.X in place (impute and
	// standardise it) instead of working on a copy, which saves a copy of
	// the table on large data. Labels and weights are never changed.
	// Methods that always copy ignore it.
	ConsumeTrain bool
	// SharedWorkers bounds the goroutines of the work a fit memoises in
	// its Data's Shared (boosted trees' bins): other fits on the same
	// rows may be waiting for it, so it may use more workers than the fit
	// itself. 0 or less means Workers.
	SharedWorkers int
	// MemoryPlan, when not nil, is told during a fit how much memory
	// beyond the tables the rest of the fit is expected to need at its
	// peak, when the method learns a closer figure than its
	// MemoryEstimator gave before the fit (AER after its mixture, once it
	// knows the mixture's size, and again after its subsets). aer fit
	// lowers the runtime's soft memory limit to the tables plus it.
	// Called from the fit's goroutine; a method may never call it.
	MemoryPlan func(bytes int64)
}

// Progress reports how far a fit is: Done of Total units of Stage.
type Progress struct {
	Stage string
	Done  int
	Total int
}

// Threads returns Workers, or GOMAXPROCS when it is 0 or less.
func (e Env) Threads() int {
	if e.Workers > 0 {
		return e.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// SharedThreads returns SharedWorkers, or Threads when it is 0 or less.
func (e Env) SharedThreads() int {
	if e.SharedWorkers > 0 {
		return e.SharedWorkers
	}
	return e.Threads()
}

// Log returns the logger, never nil.
func (e Env) Log() *slog.Logger {
	if e.Logger != nil {
		return e.Logger
	}
	return discard
}

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// Report calls the progress callback, if any.
func (e Env) Report(stage string, done, total int) {
	if e.Progress != nil {
		e.Progress(Progress{Stage: stage, Done: done, Total: total})
	}
}

// Quiet returns e without progress reporting, for fits nested in another
// (an ensemble's members), which report their own progress.
func (e Env) Quiet() Env {
	e.Progress = nil
	return e
}

// Interrupted returns ctx's error, if it is done: the check a long loop
// makes between steps so that a cancelled fit stops promptly.
func Interrupted(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
		return nil
	}
}
