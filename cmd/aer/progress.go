package main

import (
	"io"
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	aermodel "github.com/aer-go/aer"
)

// progress draws a progress bar of a long fit on stderr when stderr is a
// terminal, and nothing otherwise (logs and pipes stay clean).
type progress struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	stage string
}

func newProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100_000_000),
	)}
}

// update shows the stage and, for counted stages, how far it is.
func (p *progress) update(s aermodel.Progress) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.Stage != p.stage {
		p.stage = s.Stage
		p.bar.ChangeMax(s.Total)
		p.bar.Describe("aer fit: " + s.Stage)
	}
	p.bar.Set(s.Done)
}

func (p *progress) done() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
