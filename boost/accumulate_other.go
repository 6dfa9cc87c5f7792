//go:build !amd64 || purego

package boost

func (g *grower) accumulate(hist []float64, rows []int32) { g.accumulateGo(hist, rows) }
