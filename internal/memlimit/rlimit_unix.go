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
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= noLimit {
		return 0, false
	}
	used, ok := vmSize(root)
	if !ok {
		return 0, false
	}
	return max(int64(r.Cur)-used, 0), true
}
