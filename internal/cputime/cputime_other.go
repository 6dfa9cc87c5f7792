//go:build !unix

package cputime

// Seconds is unavailable here: it returns 0, and benchmarks report zero
// CPU time.
func Seconds() float64 { return 0 }
