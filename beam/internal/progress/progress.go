// Package progress prints one line when a stage of an aer-beam pipeline
// starts and one when it ends, with its elapsed time, on the standard
// error of the process that ran the command, never one per element.
//
// The stages are the pipeline's steps separated by its barriers (a
// side input or a GroupByKey a later step waits for in full): a stage
// has ended when the next one begins, so Begin of a stage ends every
// earlier stage still open, and the command's Stop ends the last. The
// transforms call Begin (and End) as they process elements; the lines
// are printed only in the process that called Start, where the runner
// runs the transforms in that process (Prism in-process, the default,
// or any runner with a LOOPBACK worker). A worker started by a cluster
// never called Start and prints nothing: there the runner's own monitor
// shows the stages.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

var (
	mu     sync.Mutex
	out    io.Writer // nil: disabled
	prefix string
	open   []*stage // started, in order; ended ones marked
	seen   = map[string]bool{}
	now    = time.Now
)

type stage struct {
	name  string
	start time.Time
	ended bool
}

// Start enables the lines in this process, each prefixed by prefix
// ("aer-beam: fit: "), written to w; it forgets every earlier stage.
func Start(w io.Writer, pfx string) {
	mu.Lock()
	defer mu.Unlock()
	out, prefix, open, seen = w, pfx, nil, map[string]bool{}
}

// Stop ends every stage still open and disables the lines.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	endBefore(len(open))
	out = nil
}

// Begin reports that stage name is under way. Its first call (per
// Start) prints "name ..." after ending every stage begun before it;
// later calls cost a lock and a map look-up.
func Begin(name string) {
	mu.Lock()
	defer mu.Unlock()
	if out == nil || seen[name] {
		return
	}
	seen[name] = true
	endBefore(len(open))
	open = append(open, &stage{name: name, start: now()})
	fmt.Fprintf(out, "%s%s ...\n", prefix, name)
}

// End ends stage name (once), printing its elapsed time; a stage not
// begun, or not in this process, is ignored.
func End(name string) {
	mu.Lock()
	defer mu.Unlock()
	if out == nil {
		return
	}
	for _, s := range open {
		if s.name == name {
			end(s)
		}
	}
}

// endBefore ends the open stages among open[:n].
func endBefore(n int) {
	for _, s := range open[:n] {
		end(s)
	}
}

func end(s *stage) {
	if s.ended {
		return
	}
	s.ended = true
	fmt.Fprintf(out, "%s%s: done in %s\n", prefix, s.name, Seconds(now().Sub(s.start)))
}

// Seconds formats d as seconds with two decimals ("1.25s").
func Seconds(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }
