package main

import (
	"math"
	"os"
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
