//go:build linux || darwin

package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// On a terminal, aer fit --method aer draws its progress bar through
// every stage: frames of the members stage with their share done, after
// the mixture (the bar used to finish with the mixture's one unit of work
// and draw nothing more). The test draws every frame: the bar's throttle
// would leave stages shorter than 100 ms undrawn.
func TestProgressTerminal(t *testing.T) {
	dir := t.TempDir()
	train, valid, _ := aerTask(t, dir)
	defer func(t time.Duration) { barThrottle = t }(barThrottle)
	barThrottle = 0
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	var (
		mu   sync.Mutex
		seen bytes.Buffer
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			seen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	args := append([]string{"fit", "--method", "aer", "--train", train, "--valid", valid, "--out", filepath.Join(dir, "m.aer"), "--threads", "1"}, smallAER...)
	var out bytes.Buffer
	if err := run(args, &out, tty); err != nil {
		t.Fatal(err)
	}
	// Let the reader drain what the bar wrote before the terminal hangs
	// up (a read after the hang-up fails, whatever is left unread).
	for last := -1; ; {
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		n := seen.Len()
		mu.Unlock()
		if n == last {
			break
		}
		last = n
	}
	tty.Close()
	<-done
	mu.Lock()
	frames := seen.String()
	mu.Unlock()
	for _, want := range []string{`fit aer: mixture`, `fit aer: members\s+\d+% \|`, `fit aer: weights`, `fit aer: tune`} {
		if !regexp.MustCompile(want).MatchString(frames) {
			t.Errorf("no frame matching %q on the terminal:\n%q", want, lastBytes(frames, 3000))
		}
	}
}

func lastBytes(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
