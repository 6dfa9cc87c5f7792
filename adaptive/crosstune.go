package adaptive

import (
	"context"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
)

// streamCrossTune draws the folds of Config.CrossTune.
const streamCrossTune = 1<<20 + 1

// crossTune gives every member set the outputs, on each training row, of
// its members fitted without that row's fold (Config.CrossTune folds,
// stratified): the rows the static weights, lambda, the fallback and the
// decision layer are fitted on when there are no validation rows. The
// folds share the mixture and the subsets fitted on every row; each
// fold's members are trained on its subsets' rows outside the fold, with
// their own seeds, and the peers on the rows outside the fold. On a
// small table the folds are fitted side by side (foldWorkers), each on
// its share of the workers; the models do not depend on it.
func (f *fitRun) crossTune(labels []string, seeds []uint64) error {
	folds, err := dataset.StratifiedKFold(f.train.Y, f.rep.CrossTune, rng.DeriveSeed(f.env.Seed, streamCrossTune))
	if err != nil {
		return fmt.Errorf("aer: cross_tune: %w", err)
	}
	n := len(f.train.Y)
	oof := make([]*mat.Dense, len(f.sets))
	for g, s := range f.sets {
		oof[g] = mat.NewDense(n, len(s.members), nil)
	}
	// Progress: each fold's units are its member fits and the scoring of
	// its rows (one more), so the stage ends with the last fold's
	// scoring, not before it; the folds' counts add up.
	var mu sync.Mutex
	done := make([]int, len(folds))
	units := 1
	report := func(k, d, u int) { // d < 0: fold k is done
		mu.Lock()
		defer mu.Unlock()
		if u > 0 {
			units = u
		}
		if d < 0 {
			d = units
		}
		done[k] = d
		sum := 0
		for _, v := range done {
			sum += v
		}
		f.env.Report("cross-tune", sum, len(folds)*units)
	}
	rows, cols := f.xt.Dims()
	conc, threads := foldWorkers(f.workers, len(folds), rows, cols)
	warnings := make([][]string, len(folds))
	_, err = learn.ForEach(f.ctx, conc, len(folds), func() func(context.Context, int) error {
		return func(ctx context.Context, k int) error {
			w, err := f.crossTuneFold(ctx, k, folds[k], labels, seeds, oof, threads, func(d, total int) { report(k, d, total+1) })
			warnings[k] = w
			if err != nil {
				return fmt.Errorf("aer: cross_tune fold %d: %w", k+1, err)
			}
			report(k, -1, 0)
			return nil
		}
	}, nil)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		f.rep.Warnings = append(f.rep.Warnings, w...)
	}
	for g := range f.sets {
		f.sets[g].oof = oof[g]
	}
	return nil
}

// foldCells is the most training cells (rows x features) whose
// cross-tuning folds are fitted side by side: each holds a copy of its
// rows, so at most a few copies of 32 MB are held at once.
const foldCells = 1 << 22

// foldWorkers returns how many folds of a fit on workers goroutines run
// at once, and the workers of each. A table of fewer than threadBlock
// rows (whose members fit on one thread each) and foldCells cells has its
// folds side by side: one fold's dozen or two member fits alone leave
// cores idle, its peers, fitted one after another, most of all. Larger
// tables fit one fold at a time on every worker.
func foldWorkers(workers, folds, rows, cols int) (conc, threads int) {
	workers = learn.Env{Workers: workers}.Threads()
	if rows >= threadBlock || rows*cols > foldCells {
		return 1, workers
	}
	// As many workers a fold as make every fold run at once, and as
	// many folds at once as have them: never more than workers in all.
	threads = max(1, (workers+folds-1)/folds)
	return max(1, min(folds, workers/threads)), threads
}

// crossTuneFold fits fold k's members and peers on the rows outside it
// (held) with workers goroutines, writes their outputs on its rows into
// oof and returns its warnings.
func (f *fitRun) crossTuneFold(ctx context.Context, k int, fold []int, labels []string, seeds []uint64, oof []*mat.Dense, workers int, progress func(done, total int)) ([]string, error) {
	c := f.c
	n := len(f.train.Y)
	var warnings []string
	index := make([]int, n)
	for _, r := range fold {
		index[r] = -1
	}
	keep := make([]int, 0, n-len(fold))
	for r := range n {
		if index[r] == 0 {
			index[r] = len(keep)
			keep = append(keep, r)
		}
	}
	data := &learn.Data{X: learn.Rows(f.xt, keep), Y: learn.Pick(f.train.Y, keep), W: learn.Pick(f.train.W, keep)}
	var balanced *learn.Data
	if *c.Global {
		balanced = &learn.Data{X: data.X, Y: data.Y, W: balancedWeights(data)}
	}
	subsets := make([]resample.Subset, len(f.subsets))
	for i, s := range f.subsets {
		subsets[i] = s
		subsets[i].Rows = nil
		for _, r := range s.Rows {
			if index[r] >= 0 {
				subsets[i].Rows = append(subsets[i].Rows, index[r])
			}
		}
		if !bothClasses(data, subsets[i].Rows) {
			// A small component's rows of a class may all lie in the
			// fold: the member's stand-in is fitted on every row
			// outside it.
			subsets[i].Rows = allRows(len(keep))
			warnings = append(warnings, fmt.Sprintf("cross_tune fold %d: subset %d (%s, component %d) has no rows of a class outside the fold: its member's out-of-fold outputs there come from a member fitted on every row outside it", k+1, i, s.Kind, s.Component))
		}
	}
	foldSeeds := make([]uint64, len(seeds))
	for g, sd := range seeds {
		foldSeeds[g] = rng.DeriveSeed(sd, streamCrossTune+uint64(k))
	}
	trained, owner, peers, err := trainMembers(ctx, data, balanced, subsets, c.learners, labels, foldSeeds,
		c.Peers, c.PeerRows, rng.DeriveSeed(f.env.Seed, streamPeers+streamCrossTune+uint64(k)), workers, f.env.Logger, progress)
	if err != nil {
		return warnings, err
	}
	sets, _ := c.groupSets(trained, owner, peers)
	xf := learn.Rows(f.xt, fold)
	for g, s := range sets {
		out, err := memberOutputs(s.members, xf, workers)
		if err != nil {
			return warnings, err
		}
		// The folds' rows are disjoint: concurrent folds write
		// different rows.
		for i, r := range fold {
			oof[g].SetRow(r, out.RawRowView(i))
		}
	}
	return warnings, nil
}

// bothClasses reports whether rows of d hold both labels with positive
// weight, which a member needs to be fitted.
func bothClasses(d *learn.Data, rows []int) bool {
	var seen [2]bool
	for _, r := range rows {
		if d.W != nil && !(d.W[r] > 0) {
			continue
		}
		seen[d.Y[r]] = true
	}
	return seen[0] && seen[1]
}

// allRows returns 0, 1, ..., n-1.
func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}
