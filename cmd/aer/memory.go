package main

import (
	"math"
	"os"
	"runtime/debug"

	"github.com/aer-go/aer/internal/memlimit"
)

// availableMemory is the memory the process may still use
// (memlimit.Available); tests replace it.
var availableMemory = memlimit.Available

// memoryShare is the share of the memory available at start that the Go
// runtime treats as its soft limit.
const memoryShare = 0.9

// setMemoryLimit makes the garbage collector work harder as the heap
// nears the memory the process may still use, unless GOMEMLIMIT is set:
// by default the heap may grow to twice the live data before a collection,
// which on large tables is the difference between a fit that finishes and
// one the kernel kills. It returns the limit set, or math.MaxInt64 when
// none was (GOMEMLIMIT set, or the system does not say).
func setMemoryLimit() int64 {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return math.MaxInt64
	}
	avail, ok := memlimit.Available()
	if !ok || avail <= 0 {
		return math.MaxInt64
	}
	limit := int64(float64(avail) * memoryShare)
	debug.SetMemoryLimit(limit)
	return limit
}
