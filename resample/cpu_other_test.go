//go:build !unix

package resample

// cpuSeconds is unavailable here; benchmarks report zero CPU time.
func cpuSeconds() float64 { return 0 }
