package aer

import (
	"slices"

	"github.com/aer-go/aer/learn"
)

// FitMemory estimates the live heap an AER fit of shape s needs at its
// peak beyond the training and validation tables (learn.MemoryEstimator),
// from the buffers of its stages, with the largest mixture of the pool
// (L components) and ratio-free worst cases:
//
//   - held throughout: the standardised validation table and its
//     log-densities (the training table too, unless ConsumeTrain lets
//     AER standardise it in place), and the subsets' row lists;
//   - the mixture: the rows it is fitted on (at most mixture_rows) and
//     the responsibilities of a fit per worker;
//   - the subsets: each component's ranking of the rows and the Tomek
//     search's index over the global subsets' union;
//   - the peers, fitted one at a time on all rows before the members:
//     the largest of their own estimates (logreg: its feature-major
//     copy);
//   - the members: the bins of the rows of every place being fitted and
//     a boosted tree's per-row buffers per worker;
//   - the weights and tuning: the members' outputs on the validation
//     rows and their logits.
//
// It returns the largest stage plus what is held throughout. Measured
// with `aer bench --scaling` beside the heap it reports, it is within a
// small factor of the true peak (TestFitMemory).
func (m *Method) FitMemory(s learn.Shape) int64 {
	r, err := m.cfg.resolve()
	if err != nil {
		return 0
	}
	n, nv, f := int64(s.Rows), int64(s.ValidRows), int64(s.Features)
	if nv == 0 { // held out of the training rows
		nv = int64(float64(n) * r.Holdout)
		n -= nv
	}
	workers := int64(learn.Env{Workers: s.Workers}.Threads())
	L := int64(8)
	if len(r.Components) > 0 {
		L = int64(slices.Max(r.Components))
	}
	G := int64(max(len(r.learners), 1))
	peers := int64(len(r.Peers))
	members := 2*L*G + peers
	if *r.Global {
		members += G
	}
	const word = 8
	held := nv*f*word + nv*L*word + 2*n*word
	if !s.ConsumeTrain {
		held += n * f * word
	}
	mixRows := n
	if r.MixtureRows > 0 {
		mixRows = min(n, int64(r.MixtureRows))
	}
	mix := mixRows*f*word + workers*mixRows*L*word*2
	// Boosted trees: two layouts of one-byte bins, and about 100 bytes a
	// row of gradients, row indices, margins and weights.
	perRow := 2*f + 100
	fit := min(workers, G) * n * perRow
	// The peers fit on every row, one at a time before the members.
	var peerFit int64
	for _, name := range r.Peers {
		b := n * f * word // at least a copy of the rows
		if pm, err := newMember(name); err == nil {
			if e, ok := learn.FitMemory(pm, learn.Shape{Rows: int(n), Features: int(f), Workers: int(workers)}); ok {
				b = e
			}
		}
		peerFit = max(peerFit, b)
	}
	if workers > G { // subsets' copies while the global members train
		fit += (workers - G) * (n/L*f*word + n/L*perRow)
	}
	// The subsets: every component's ranking of the majority rows, and
	// the Tomek search's index over the global subsets' union (float64
	// rows, their int16 panels and, where a tile needs them, their
	// float32 panels).
	subsets := n*L*word + n*f*(word+2+4)
	outputs := 2 * nv * members * word
	return 16<<20 + held + max(mix, subsets, peerFit, fit, outputs)
}
