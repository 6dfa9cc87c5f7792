package logreg

import "github.com/aer-go/aer/learn"

// FitMemory estimates the live heap a fit of shape s needs at its peak
// beyond the tables (learn.MemoryEstimator): the solver's feature-major
// copy of the rows (the features and the intercept's column of ones,
// padded to a multiple of 4 columns) and six float64s a row (labels,
// weights, margins, the loss's first and second derivatives, the class
// weights of the rows).
func (m *Method) FitMemory(s learn.Shape) int64 {
	n, f := int64(roundUp(s.Rows, 4)), int64(s.Features)
	return 1<<20 + n*(int64(roundUp(int(f)+1, kernelCols))+6)*8
}
