package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/aer-go/aer/internal/memlimit"
)

// TestSetMemoryLimit: without GOMEMLIMIT the runtime's soft limit becomes
// 90% of the memory available; with it, the limit is left alone.
func TestSetMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	avail, ok := memlimit.Available()
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	if got := setMemoryLimit(); got != math.MaxInt64 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: the limit became %d", got)
	}
	if !ok {
		t.Skip("the system does not say how much memory is available")
	}
	// t.Setenv restores the variable at the end; unset it for the
	// default case.
	os.Unsetenv("GOMEMLIMIT")
	got := setMemoryLimit()
	if got <= 0 || got > avail || got < avail/2 || debug.SetMemoryLimit(-1) != got {
		t.Errorf("limit %d with %d bytes available", got, avail)
	}
}

// TestLimitToPlan: without GOMEMLIMIT a fit's plan lowers the soft limit
// (never below fitLimitFloor) and never raises it; with GOMEMLIMIT, or
// without a plan, the limit is left alone.
func TestLimitToPlan(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	cases := []struct{ cur, planned, want int64 }{
		{math.MaxInt64, 3 << 30, 3 << 30},
		{8 << 30, 3 << 30, 3 << 30},
		{2 << 30, 3 << 30, 2 << 30}, // never raised
		{8 << 30, 1 << 20, fitLimitFloor},
		{8 << 30, 0, 8 << 30}, // no plan
	}
	for _, c := range cases {
		debug.SetMemoryLimit(c.cur)
		if got := limitToPlan(c.planned); got != c.want || debug.SetMemoryLimit(-1) != c.want {
			t.Errorf("limit %d, plan %d: got %d (in force %d), want %d", c.cur, c.planned, got, debug.SetMemoryLimit(-1), c.want)
		}
	}
	t.Setenv("GOMEMLIMIT", "8GiB")
	debug.SetMemoryLimit(8 << 30)
	if got := limitToPlan(3 << 30); got != 8<<30 || debug.SetMemoryLimit(-1) != 8<<30 {
		t.Errorf("GOMEMLIMIT set: limit became %d", got)
	}
}

// TestSetFittingGC: aer fit and aer cv collect at GOGC=400 on a small
// training file, at Go's default on a large one or standard input, and
// as the environment says when it sets GOGC.
func TestSetFittingGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small.csv"), filepath.Join(dir, "large.csv")
	if err := os.WriteFile(small, []byte("x,label\n1,0\n2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(large, make([]byte, fittingGCBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	for _, c := range []struct {
		path string
		want int
	}{{small, fittingGCPercent}, {large, 100}, {"-", 100}, {filepath.Join(dir, "absent.csv"), 100}} {
		setFittingGC(c.path)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("%s: percent %d, want %d", filepath.Base(c.path), got, c.want)
		}
	}
	t.Setenv("GOGC", "100")
	setFittingGC(small)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC=100 set: percent %d, want 100", got)
	}
}
