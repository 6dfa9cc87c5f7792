//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aer-go/aer/learn"
)

// largestAccepted is the largest value of an integer parameter that
// Set accepts (every one has an upper bound; learn.Int), by bisection.
func largestAccepted(t *testing.T, name, key string) int {
	lo, hi := 0, 1<<31
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		m, err := learn.New(name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Set(key, strconv.Itoa(mid)) == nil {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// TestEveryMethodAtItsLargestSizes runs aer fit for every registered
// method with each integer parameter at the largest value it accepts,
// on the 80-row table, under a 4 GB address-space cap (ulimit -v): the
// fit ends in a model (exit 0) or an error message (exit 1 or 2), never
// a Go fatal error, a panic, a signal, or a fit that runs past a minute
// (a bound a fit cannot reach in time on 80 rows is too large). Two
// children run at once.
func TestEveryMethodAtItsLargestSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every method's largest sizes under a memory cap")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no shell")
	}
	train, err := filepath.Abs("testdata/fit/train.csv")
	if err != nil {
		t.Fatal(err)
	}
	type fitCase struct{ method, key, value string }
	var cases []fitCase
	for _, name := range learn.Names() {
		m, err := learn.New(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m.Params() {
			probe, _ := learn.New(name)
			if _, err := strconv.Atoi(p.Default); err != nil || probe.Set(p.Key, "2.5") == nil {
				continue // not an integer parameter
			}
			cases = append(cases, fitCase{name, p.Key, strconv.Itoa(largestAccepted(t, name, p.Key))})
		}
	}
	if len(cases) < 50 {
		t.Fatalf("only %d integer parameters found", len(cases))
	}
	dir := t.TempDir()
	var mu sync.Mutex
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out := filepath.Join(dir, fmt.Sprintf("m%d.aer", i))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			args := []string{"fit", "--method", c.method, "--train", train, "--param", c.key + "=" + c.value, "--out", out}
			cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -v 4194304 && exec "$0" "$@"`, os.Args[0]}, args...)...)
			cmd.Env = append(os.Environ(), runAsAerEnv+"=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				code = -1
			}
			msg := stderr.String()
			_, statErr := os.Stat(out)
			mu.Lock()
			defer mu.Unlock()
			t.Logf("%s %s=%s: exit %d in %.1f s", c.method, c.key, c.value, code, time.Since(start).Seconds())
			switch {
			case ctx.Err() != nil:
				t.Errorf("%s %s=%s: still running after a minute: lower the bound", c.method, c.key, c.value)
			case strings.Contains(msg, "fatal error") || strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic"):
				t.Errorf("%s %s=%s: exit %d: %.400s", c.method, c.key, c.value, code, msg)
			case code == 0 && statErr != nil:
				t.Errorf("%s %s=%s: exit 0 without a model", c.method, c.key, c.value)
			case code == 1 || code == 2:
				if !strings.Contains(msg, "aer: ") {
					t.Errorf("%s %s=%s: exit %d without a message: %.400s", c.method, c.key, c.value, code, msg)
				}
				if statErr == nil {
					t.Errorf("%s %s=%s: exit %d wrote %s", c.method, c.key, c.value, code, out)
				}
			case code != 0:
				t.Errorf("%s %s=%s: exit %d: %.400s", c.method, c.key, c.value, code, msg)
			}
		}()
	}
	wg.Wait()
}
