//go:build unix

package memlimit

import (
	"io/fs"
	"syscall"
)

// addressRoom is the address space the process may still map under its
// RLIMIT_AS (ulimit -v), false when there is no such limit.
func addressRoom(root fs.FS) (int64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil {
		return 0, false
	}
	return roomUnder(r.Cur, root)
}

// roomUnder is the address space left under a limit of limit bytes: the
// limit less what the process maps already (VmSize). An idle Go process
// maps about 1.2 GB, almost all of it address space the runtime reserves
// and never touches (its page allocator's summaries, its heap arena
// index): it counts against ulimit -v all the same, so "half of what is
// available" computed without it is no limit there. False when there is
// no limit or the mapped size is unknown (not Linux).
func roomUnder(limit uint64, root fs.FS) (int64, bool) {
	if limit >= noLimit {
		return 0, false
	}
	used, ok := vmSize(root)
	if !ok {
		return 0, false
	}
	return max(int64(limit)-used, 0), true
}
