//go:build linux

package svm

import (
	"syscall"
	"unsafe"
)

// minMapped is the least cache, in bytes, mapped with huge pages;
// minAnon the least mapped at all.
const (
	minMapped = 8 << 20
	minAnon   = 256 << 10
)

// reserve returns n float32 values of anonymous memory mapped for the
// kernel cache, and the function that unmaps it. The kernel hands the
// pages over zeroed as columns first touch them, where the Go heap would
// clear the whole cache up front and its scavenger hand the pages back
// after (together 4% of an AER fit on 1,000 rows, whose svm peer is
// fitted five times); from minMapped on the mapping is advised to use
// transparent huge pages (2 MB pages mean about 500 times fewer page
// faults as the cache fills). Small caches and failed mappings take the
// Go heap.
func reserve(n int) ([]float32, func()) {
	if 4*n < minAnon {
		return make([]float32, n), func() {}
	}
	b, err := syscall.Mmap(-1, 0, 4*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]float32, n), func() {}
	}
	if 4*n >= minMapped {
		_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // advice only: without it, 4 KB pages
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), func() { _ = syscall.Munmap(b) }
}
