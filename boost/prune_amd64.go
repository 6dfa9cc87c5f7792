//go:build amd64 && !purego

package boost

//go:noescape
func scanKernel(gh *float64, n int, st *[6]float64) int

// scan is scanGo with SSE2.
func scan(gh []float64, n int, st *[6]float64) int {
	if n <= 0 {
		return 0
	}
	_ = gh[2*n-1]
	return scanKernel(&gh[0], n, st)
}
