//go:build !amd64 || purego

package boost

func scan(gh []float64, n int, st *[6]float64) int { return scanGo(gh, n, st) }

func scan2(gha, ghb []float64, n int, st *[8]float64) (int, int) { return scan2Go(gha, ghb, n, st) }
