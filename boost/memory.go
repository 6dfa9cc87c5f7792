package boost

import "github.com/aer-go/aer/learn"

// FitMemory estimates the live heap a fit of shape s needs at its peak
// beyond the tables (learn.MemoryEstimator): the bins of the training
// rows in two layouts (a byte a cell each), about 100 bytes a row of
// gradient pairs, row indices, margins, labels and weights, the
// validation rows' margins, 16 MB of histograms and sketches, and the
// trees (n_estimators of them, 64 bytes a node, as many nodes as the
// depth, the leaf bound and the rows allow). Measured with `aer bench
// --scaling` beside the heap it reports, it is within a small factor of
// the true peak (TestFitMemory).
func (m *Method) FitMemory(s learn.Shape) int64 {
	n, nv, f := int64(s.Rows), int64(s.ValidRows), int64(s.Features)
	return 16<<20 + n*(2*f+100) + nv*16 + treeBytes(&m.s, n)
}

// ModelMemory bounds the memory of the trees a fit on rows rows grows
// (what a model holds), for the estimates of ensembles of boosted trees.
func (m *Method) ModelMemory(rows int64) int64 { return treeBytes(&m.s, rows) }

// treeBytes bounds the trees' memory: 64 bytes a node.
func treeBytes(set *Settings, rows int64) int64 {
	s := *set
	s.treeDefaults()
	nodes := 2 * max(rows, 1)
	if d := s.MaxDepth; d > 0 && d < 40 {
		nodes = min(nodes, int64(2)<<d)
	}
	if l := s.MaxLeaves; l > 0 {
		nodes = min(nodes, 2*int64(l))
	}
	return int64(s.NEstimators) * nodes * 64
}
