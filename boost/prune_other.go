//go:build !amd64 || purego

package boost

func pruneScan(lg, lh []float64, n int, c *[4]float64) int { return pruneScanGo(lg, lh, n, c) }
