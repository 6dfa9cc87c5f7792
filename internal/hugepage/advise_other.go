//go:build !linux

package hugepage

import "unsafe"

// advise does nothing where transparent huge pages are not Linux's.
func advise(unsafe.Pointer, int) error { return nil }
