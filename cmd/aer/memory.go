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

// fitLimitFloor is the smallest soft limit a fit's plan sets: below it
// the collector's work is negligible next to the fit's either way, and a
// small fit's fixed costs are the least well estimated.
const fitLimitFloor = 512 << 20

// limitToPlan lowers the runtime's soft memory limit to planned bytes
// (the tables plus the method's estimate of its fit; at least
// fitLimitFloor) when that is below the limit in force, unless GOMEMLIMIT
// is set or there is no plan (planned <= 0). The collector then runs as
// the heap nears what the fit is expected to hold at its peak, instead
// of letting it grow to twice the live data first: at 6M training rows
// that is the difference between about 3.8 GB and 5.9 GB resident. An
// estimate below the true peak costs collector time (the runtime caps it
// near half the CPU), not a failure. It returns the limit in force.
func limitToPlan(planned int64) int64 {
	cur := debug.SetMemoryLimit(-1)
	if _, set := os.LookupEnv("GOMEMLIMIT"); set || planned <= 0 {
		return cur
	}
	if planned = max(planned, fitLimitFloor); planned < cur {
		debug.SetMemoryLimit(planned)
		return planned
	}
	return cur
}

// fittingGCPercent is the garbage collector's GOGC for aer fit and aer
// cv on a small training file (fittingGCBytes): a fit allocates its
// working buffers over and over (an AER fit grows some 5,000 small trees)
// above a small live heap, and Go's default of 100 collects every time
// the heap doubles; 400 collects a quarter as often. Measured with aer
// fit --threads 1: 5-8% less CPU time on six of the development datasets
// for 10-15 MB more resident memory; on a 120,000-row table the same
// setting took 3% off for 75% more (374 to 654 MB), so larger files keep
// Go's default (docs/speed.md).
const fittingGCPercent = 400

// fittingGCBytes is the largest training file fitted at fittingGCPercent.
const fittingGCBytes = 8 << 20

// setFittingGC applies fittingGCPercent when the training file (path;
// "-" or an unreadable one counts as large) has at most fittingGCBytes,
// unless the environment sets GOGC.
func setFittingGC(path string) {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() <= fittingGCBytes {
		debug.SetGCPercent(fittingGCPercent)
	}
}
