package boost

import "github.com/aer-go/aer/learn"

// FitMemory estimates the live heap a fit of shape s needs at its peak
// beyond the tables (learn.MemoryEstimator): the bins of the training
// rows in two layouts (a byte a cell each), about 100 bytes a row of
// gradient pairs, row indices, margins, labels and weights, the
// validation rows' margins, and 16 MB of histograms and sketches.
// Measured with `aer bench --scaling` beside the heap it reports, it is
// within a small factor of the true peak (TestFitMemory).
func (m *Method) FitMemory(s learn.Shape) int64 {
	n, nv, f := int64(s.Rows), int64(s.ValidRows), int64(s.Features)
	return 16<<20 + n*(2*f+100) + nv*16
}
