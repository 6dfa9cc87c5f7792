package adaptive

import (
	"slices"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
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
//   - the peers, fitted one at a time on all rows (at most peer_rows,
//     copied) before the members: the largest of their own estimates
//     (logreg: its feature-major copy; the svm, without one, a copy of
//     its rows: its kernel cache is reserved outside the Go heap);
//   - the members: the bins of the rows of every place being fitted and
//     a boosted tree's per-row buffers per worker;
//   - the weights and tuning: the members' outputs on the validation
//     rows and their logits;
//   - cross-tuning (CrossTune): the training rows as tuning rows, and a
//     copy of the rows per fold fitted at once.
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
	var folds int64 // copies of the rows by folds fitted side by side
	switch {
	case r.CrossTune >= 2:
		// Cross-tuned: every training row scored out of fold is a tuning
		// row beside the validation rows; each fold copies the rest of
		// the rows, about what a validation table of n rows would hold;
		// on a small table several folds at once (foldWorkers).
		nv += n
		jobs := r.CrossTune
		if r.CrossTuneComponents < r.CrossTune {
			jobs += r.CrossTuneComponents // the component members' and peers' own folds
		}
		conc, _ := foldWorkers(s.Workers, jobs, s.Rows, s.Features)
		folds = int64(conc-1) * n * f * 8
	case nv == 0: // held out of the training rows
		nv = int64(float64(n) * r.Holdout)
		n -= nv
	}
	workers := int64(learn.Env{Workers: s.Workers}.Threads())
	L := int64(8)
	if len(r.Components) > 0 {
		L = int64(slices.Max(r.Components))
	}
	return folds + r.fitMemory(n, nv, f, workers, L, !s.ConsumeTrain, fromStart)
}

// members is the number of members (peers included) of an AER fit with a
// mixture of L components.
func (r *resolvedConfig) members(L int64) int64 {
	G := int64(max(len(r.learners), 1))
	members := 2*L*G + int64(len(r.Peers))
	if *r.Global {
		members += G
	}
	return members
}

// The stages a memory estimate covers: the whole fit (FitMemory), or
// the rest of it from the subsets or from the members on (Fit's
// MemoryPlan, once the mixture's size is known).
const (
	fromStart = iota
	fromSubsets
	fromMembers
)

// fitMemory is FitMemory's estimate for n training and nv validation rows
// of f features and a mixture of L components (and so r.members(L)
// members), over the stages from from on; copy says the training table
// is copied (not standardised in place).
func (r *resolvedConfig) fitMemory(n, nv, f, workers, L int64, copy bool, from int) int64 {
	G := int64(max(len(r.learners), 1))
	const word = 8
	held := nv*f*word + nv*L*word + 2*n*word
	if copy {
		held += n * f * word
	}
	mixRows := n
	if r.MixtureRows > 0 {
		mixRows = min(n, int64(r.MixtureRows))
	}
	mix := mixRows*f*word + workers*mixRows*L*word*2
	if cov := r.cov.Resolve(int(f), 0); cov == mixture.Full || cov == mixture.Tied {
		// Each restart's covariances and their inverses, f x f each.
		mix += (2*workers*L + 1) * f * f * word
	}
	// Boosted trees: two layouts of one-byte bins, and about 100 bytes a
	// row of gradients, row indices, margins and weights.
	perRow := 2*f + 100
	fit := min(workers, G) * n * perRow
	// The peers fit on every row (at most peer_rows of them, a copy),
	// one at a time before the members.
	pn, copied := n, int64(0)
	if r.PeerRows > 0 && int64(r.PeerRows) < n {
		pn, copied = int64(r.PeerRows), int64(r.PeerRows)*f*word
	}
	var peerFit int64
	for _, pm := range r.Peers {
		b := pn * f * word // at least a copy of the rows
		if e, ok := learn.FitMemory(pm, learn.Shape{Rows: int(pn), Features: int(f), Workers: int(workers)}); ok {
			b = e
		}
		peerFit = max(peerFit, b+copied)
	}
	if workers > G { // subsets' copies while the global members train
		fit += (workers - G) * (n/L*f*word + n/L*perRow)
	}
	// The members' trees, held to the end: each learner fits 2L members
	// (and a global one), each on at most the n rows.
	var trees int64
	for _, lm := range r.learners {
		if mm, ok := lm.(interface{ ModelMemory(rows int64) int64 }); ok {
			trees += (2*L + 1) * mm.ModelMemory(n)
		}
	}
	held += trees
	outputs := 2 * nv * r.members(L) * word
	stages := max(peerFit, fit, outputs)
	if from <= fromSubsets {
		// The subsets: every component's ranking of the majority rows,
		// and the Tomek search's index over the global subsets' union
		// (float64 rows, their int16 panels and, where a tile needs
		// them, their float32 panels).
		subsets := n*L*word + n*f*(word+2+4)
		stages = max(stages, subsets)
	}
	if from == fromStart {
		stages = max(stages, mix)
	}
	return 16<<20 + held + stages
}
