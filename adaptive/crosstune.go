package adaptive

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/resample"
)

// streamCrossTune draws the folds of Config.CrossTune.
const streamCrossTune = 1<<20 + 1

// streamCrossTuneComponents draws the component members' folds
// (Config.CrossTuneComponents) when they are fewer than CrossTune.
const streamCrossTuneComponents = 1<<20 + 1<<12

// foldPart says which members a cross-tuning fold refits.
type foldPart int

const (
	partAll        foldPart = iota // every member and peer
	partGlobal                     // the global members
	partComponents                 // the component members and the peers
)

// foldJob is one refit of members without a fold of the training rows.
type foldJob struct {
	name   string // for warnings and errors: "cross_tune fold 2"
	rows   []int  // the fold: the rows scored out of it
	stream uint64 // the fold's seed stream
	part   foldPart
}

// crossTune gives every member set the outputs, on each training row, of
// its members fitted without that row's fold (Config.CrossTune folds,
// stratified): the rows the static weights, lambda, the fallback and the
// decision layer are fitted on when there are no validation rows. The
// folds share the mixture and the subsets fitted on every row; each
// fold's members are trained on its subsets' rows outside the fold, with
// their own seeds, and the peers on the rows outside the fold. With
// fewer Config.CrossTuneComponents folds, the component members and the
// peers are refitted on folds of their own and the global members on
// the CrossTune folds. On a small table the folds are fitted side by
// side (foldWorkers), each on its share of the workers; the models do
// not depend on it.
func (f *fitRun) crossTune(labels []string, seeds []uint64) error {
	jobs, err := f.foldJobs()
	if err != nil {
		return err
	}
	learners, err := foldLearners(f.c.learners, f.c.CrossTuneMaxBin)
	if err != nil {
		return err
	}
	n := len(f.train.Y)
	oof := make([]*mat.Dense, len(f.sets))
	for g, s := range f.sets {
		oof[g] = mat.NewDense(n, len(s.members), nil)
	}
	// Progress: each job's units are its member fits and the scoring of
	// its rows (one more), so the stage ends with the last job's
	// scoring, not before it; the jobs' counts add up.
	var mu sync.Mutex
	done := make([]int, len(jobs))
	units := make([]int, len(jobs))
	for k, j := range jobs {
		units[k] = f.foldUnits(j.part) + 1
	}
	report := func(k, d int) { // d < 0: job k is done
		mu.Lock()
		defer mu.Unlock()
		if d < 0 {
			d = units[k]
		}
		done[k] = d
		sum, total := 0, 0
		for i, v := range done {
			sum += v
			total += units[i]
		}
		f.env.Report("cross-tune", sum, total)
	}
	rows, cols := f.xt.Dims()
	conc, threads := foldWorkers(f.workers, len(jobs), rows, cols)
	warnings := make([][]string, len(jobs))
	_, err = learn.ForEach(f.ctx, conc, len(jobs), func() func(context.Context, int) error {
		return func(ctx context.Context, k int) error {
			w, err := f.crossTuneFold(ctx, jobs[k], learners, labels, seeds, oof, threads, func(d, _ int) { report(k, d) })
			warnings[k] = w
			if err != nil {
				return fmt.Errorf("aer: %s: %w", jobs[k].name, err)
			}
			report(k, -1)
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

// foldJobs returns the cross-tuning refits: one per fold of every member,
// or, with fewer component folds, the global members' per fold and the
// component members' and peers' per component fold.
func (f *fitRun) foldJobs() ([]foldJob, error) {
	folds, err := dataset.StratifiedKFold(f.train.Y, f.rep.CrossTune, rng.DeriveSeed(f.env.Seed, streamCrossTune))
	if err != nil {
		return nil, fmt.Errorf("aer: cross_tune: %w", err)
	}
	cc := min(f.c.CrossTuneComponents, f.rep.CrossTune)
	split := cc < f.rep.CrossTune
	var jobs []foldJob
	if !split || *f.c.Global {
		part := partAll
		if split {
			part = partGlobal
		}
		for k, rows := range folds {
			jobs = append(jobs, foldJob{name: fmt.Sprintf("cross_tune fold %d", k+1), rows: rows, stream: streamCrossTune + uint64(k), part: part})
		}
	}
	if !split || len(f.subsets) == 0 && len(f.c.Peers) == 0 {
		return jobs, nil
	}
	cfolds, err := dataset.StratifiedKFold(f.train.Y, cc, rng.DeriveSeed(f.env.Seed, streamCrossTuneComponents))
	if err != nil {
		return nil, fmt.Errorf("aer: cross_tune_components: %w", err)
	}
	f.rep.CrossTuneComponents = cc
	for k, rows := range cfolds {
		jobs = append(jobs, foldJob{name: fmt.Sprintf("cross_tune_components fold %d", k+1), rows: rows, stream: streamCrossTuneComponents + uint64(k), part: partComponents})
	}
	return jobs, nil
}

// foldLearners returns the member methods of the cross-tuning refits:
// learners, with max_bin at most maxBin (Config.CrossTuneMaxBin; -1: as
// they are) where they have one.
func foldLearners(learners []learn.Method, maxBin int) ([]learn.Method, error) {
	if maxBin < 0 {
		return learners, nil
	}
	out := slices.Clone(learners)
	for g, m := range learners {
		for _, p := range m.Params() {
			if p.Key != "max_bin" {
				continue
			}
			own, err := strconv.Atoi(p.Value)
			if err != nil {
				return nil, fmt.Errorf("aer: cross_tune_max_bin: member %s max_bin %q: %w", m.Name(), p.Value, err)
			}
			if own > 0 && own <= maxBin {
				break
			}
			c, err := cloneMethod(m)
			if err == nil {
				err = c.Set("max_bin", strconv.Itoa(maxBin))
			}
			if err != nil {
				return nil, fmt.Errorf("aer: cross_tune_max_bin: member %s: %w", m.Name(), err)
			}
			out[g] = c
			break
		}
	}
	return out, nil
}

// foldUnits is the member fits of a job refitting part.
func (f *fitRun) foldUnits(part foldPart) int {
	G := len(f.c.learners)
	units := 0
	if part != partComponents && *f.c.Global {
		units += G
	}
	if part != partGlobal {
		units += len(f.c.Peers) + len(f.subsets)*G
	}
	return units
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

// crossTuneFold fits job's members (its part, of learners) on the rows
// outside its fold with workers goroutines, writes their outputs on the
// fold's rows into oof and returns its warnings.
func (f *fitRun) crossTuneFold(ctx context.Context, job foldJob, learners []learn.Method, labels []string, seeds []uint64, oof []*mat.Dense, workers int, progress func(done, total int)) ([]string, error) {
	c := f.c
	fold := job.rows
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
	if *c.Global && job.part != partComponents {
		balanced = &learn.Data{X: data.X, Y: data.Y, W: balancedWeights(data)}
	}
	subsets := make([]resample.Subset, len(f.subsets))
	for i, s := range f.subsets {
		subsets[i] = s
		subsets[i].Rows = nil
		if job.part == partGlobal {
			continue // not fitted
		}
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
			warnings = append(warnings, fmt.Sprintf("%s: subset %d (%s, component %d) has no rows of a class outside the fold: its member's out-of-fold outputs there come from a member fitted on every row outside it", job.name, i, s.Kind, s.Component))
		}
	}
	foldSeeds := make([]uint64, len(seeds))
	for g, sd := range seeds {
		foldSeeds[g] = rng.DeriveSeed(sd, job.stream)
	}
	peerMethods := c.Peers
	var fit func(k int) bool // the places fitted: all
	switch job.part {
	case partGlobal:
		peerMethods = nil
		fit = func(k int) bool { return k >= len(subsets) }
	case partComponents:
		fit = func(k int) bool { return k < len(subsets) }
	}
	trained, owner, peers, err := trainMembers(ctx, data, balanced, subsets, fit, learners, labels, foldSeeds,
		peerMethods, c.PeerRows, rng.DeriveSeed(f.env.Seed, streamPeers+job.stream), workers, f.env.Logger, progress)
	if err != nil {
		return warnings, err
	}
	if len(peers) < len(c.Peers) {
		peers = make([]Member, len(c.Peers)) // not fitted
	}
	if balanced == nil && *c.Global {
		for g := range trained {
			trained[g] = append(trained[g], Member{}) // not fitted
		}
		owner = append(owner, -1)
	}
	sets, _ := c.groupSets(trained, owner, peers)
	xf := learn.Rows(f.xt, fold)
	for g, s := range sets {
		// The columns of the members fitted here.
		var cols []int
		var fitted []Member
		for j, m := range s.members {
			if m.Model != nil {
				cols = append(cols, j)
				fitted = append(fitted, m)
			}
		}
		out, err := memberOutputs(fitted, xf, workers)
		if err != nil {
			return warnings, err
		}
		// The folds' rows are disjoint, and the component folds write
		// other columns: concurrent jobs write different cells.
		for i, r := range fold {
			for k, j := range cols {
				oof[g].Set(r, j, out.At(i, k))
			}
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
