// Package hugepage allocates large numeric slices the kernel may back
// with transparent huge pages.
//
// A fresh large slice costs a page fault per 4 KB page the first time it
// is written; on virtual machines a fault costs microseconds, so filling
// a 400 MB matrix spends over a second in the kernel (measured: 1.4 s
// against 0.08 s with 2 MB pages). Linux backs memory with 2 MB pages only
// where the process asks (madvise(MADV_HUGEPAGE), when
// /sys/kernel/mm/transparent_hugepage/enabled is "madvise", the common
// default), and the Go runtime no longer asks for its heap. NumPy asks for
// every array of 4 MB or more; this package does the same for the few
// large slices that hold data rows (feature matrices, bins, per-row
// statistics). Elsewhere, and for small slices, it is a plain make.
package hugepage
