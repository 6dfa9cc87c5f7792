package hugepage

import (
	"syscall"
	"unsafe"
)

// madvHugepage is MADV_HUGEPAGE of <linux/mman.h>, the same on every
// Linux architecture.
const madvHugepage = 14

// hugeSize is the huge page size of x86-64 and arm64 with 4 KB base pages.
const hugeSize = 2 << 20

// advise asks for huge pages on the whole 2 MB pages inside [p, p+n).
// The advice is a hint: callers ignore its error (a kernel without THP).
func advise(p unsafe.Pointer, n int) error {
	start := (uintptr(p) + hugeSize - 1) &^ (hugeSize - 1)
	end := (uintptr(p) + uintptr(n)) &^ (hugeSize - 1)
	if end <= start {
		return nil
	}
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugepage); e != 0 {
		return e
	}
	return nil
}
