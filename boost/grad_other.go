//go:build !amd64 || purego

package boost

var useAVX2Exp = false

// logisticGrad sets gp[i] to the logistic gradient pair of margin[i] and
// label y[i] (0 or 1).
func logisticGrad(gp []gpair, margin []float64, y []int) { logisticGradGo(gp, margin, y) }
