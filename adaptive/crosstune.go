package adaptive

import (
	"fmt"

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
// their own seeds, and the peers on the rows outside the fold.
func (f *fitRun) crossTune(labels []string, seeds []uint64) error {
	c := f.c
	folds, err := dataset.StratifiedKFold(f.train.Y, f.rep.CrossTune, rng.DeriveSeed(f.env.Seed, streamCrossTune))
	if err != nil {
		return fmt.Errorf("aer: cross_tune: %w", err)
	}
	n := len(f.train.Y)
	oof := make([]*mat.Dense, len(f.sets))
	for g, s := range f.sets {
		oof[g] = mat.NewDense(n, len(s.members), nil)
	}
	units := 1
	for k, fold := range folds {
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
				// A small component's rows of a class may all lie in
				// the fold: the member's stand-in is fitted on every
				// row outside it.
				subsets[i].Rows = allRows(len(keep))
				f.rep.Warnings = append(f.rep.Warnings, fmt.Sprintf("cross_tune fold %d: subset %d (%s, component %d) has no rows of a class outside the fold: its member's out-of-fold outputs there come from a member fitted on every row outside it", k+1, i, s.Kind, s.Component))
			}
		}
		foldSeeds := make([]uint64, len(seeds))
		for g, sd := range seeds {
			foldSeeds[g] = rng.DeriveSeed(sd, streamCrossTune+uint64(k))
		}
		trained, owner, peers, err := trainMembers(f.ctx, data, balanced, subsets, c.learners, labels, foldSeeds,
			c.Peers, c.PeerRows, rng.DeriveSeed(f.env.Seed, streamPeers+streamCrossTune+uint64(k)), f.workers, f.env.Logger, func(done, total int) {
				// Each fold's units: its member fits and the scoring of
				// its rows (one more), so the stage ends with the last
				// fold's scoring, not before it.
				units = total + 1
				f.env.Report("cross-tune", k*units+done, len(folds)*units)
			})
		if err != nil {
			return fmt.Errorf("aer: cross_tune fold %d: %w", k+1, err)
		}
		sets, _ := c.groupSets(trained, owner, peers)
		xf := learn.Rows(f.xt, fold)
		for g, s := range sets {
			out, err := memberOutputs(s.members, xf, f.workers)
			if err != nil {
				return err
			}
			for i, r := range fold {
				oof[g].SetRow(r, out.RawRowView(i))
			}
		}
		f.env.Report("cross-tune", (k+1)*units, len(folds)*units)
	}
	for g := range f.sets {
		f.sets[g].oof = oof[g]
	}
	return nil
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
