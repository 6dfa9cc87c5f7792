//go:build amd64 && !purego

package boost

//go:noescape
func pruneScanKernel(lg, lh *float64, n int, c *[4]float64) int

// pruneScan returns the first i < n at which the pruning test of
// evalFeature does not exclude the candidate (lg[i], lh[i]), or n; lg
// and lh must hold n rounded up to even values.
func pruneScan(lg, lh []float64, n int, c *[4]float64) int {
	if n <= 0 {
		return n
	}
	_ = lg[(n+1)&^1-1]
	_ = lh[(n+1)&^1-1]
	return min(pruneScanKernel(&lg[0], &lh[0], n, c), n)
}
