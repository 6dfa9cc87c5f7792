// Package cputime reads the CPU time the process has used, for the
// benchmarks that report CPU seconds beside wall time (on a shared
// machine the CPU time is the steadier figure).
package cputime
