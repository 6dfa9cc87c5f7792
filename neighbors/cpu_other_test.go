//go:build !unix

package neighbors

// cpuSeconds is unavailable here; benchmarks report zero CPU time.
func cpuSeconds() float64 { return 0 }
