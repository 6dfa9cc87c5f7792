//go:build !amd64 || purego

package boost

func scan(gh []float64, n int, st *[6]float64) int { return scanGo(gh, n, st) }
