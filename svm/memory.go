package svm

import "github.com/aer-go/aer/learn"

// FitMemory estimates the live heap a fit of shape s needs at its peak
// beyond the tables (learn.MemoryEstimator): the solver's copy of the
// rows (float64, padded to whole lanes), its kernel cache (cache_size
// megabytes, but never more than every column of the rows in single
// precision, nor less than two), and ten float64s a row of solver state
// (labels, bounds, alphas, gradients and their bound-clipped sums, the
// kernel's diagonal, the active set).
func (m *Method) FitMemory(s learn.Shape) int64 {
	set, err := m.s.resolved()
	if err != nil {
		set.CacheSize = 200
	}
	n, f := int64(s.Rows), int64(s.Features)
	slot := (n + lane - 1) / lane * lane
	slots := max(2, int64(set.CacheSize*(1<<20))/(4*max(slot, 1)))
	slots = min(slots, max(n, 2))
	return 1<<20 + slot*f*8 + slots*slot*4 + 10*n*8
}
