package adaptive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/mixture"
	"github.com/aer-go/aer/resample"
)

// Seed streams: each random stage draws from its own stream of Config.Seed.
const (
	streamHoldout = iota + 1
	streamMixture
	streamSubsets
	streamMembers // + grid point * 1000 + member index
	streamStatic
	streamPeers // + peer index
	// streamMixtureRows draws the majority rows the mixture is fitted on.
	streamMixtureRows = 1 << 20
	// streamPeerRows (of the peers' stream) draws the rows the peers
	// are fitted on.
	streamPeerRows = 1 << 20
)

// Report describes a fit, stage by stage; it encodes to JSON.
type Report struct {
	// Config is the configuration with every default filled in.
	Config Config `json:"config"`
	// Rows and positives of the data the members were trained on and of
	// the validation data used for tuning; Holdout says the validation
	// rows were held out of the training data because none were given.
	TrainRows      int  `json:"train_rows"`
	TrainPositives int  `json:"train_positives"`
	ValidRows      int  `json:"valid_rows"`
	ValidPositives int  `json:"valid_positives"`
	Holdout        bool `json:"holdout"`
	// CrossTune is the number of folds the members' outputs on the
	// training rows were scored out of, when they were tuning rows beside
	// the validation rows or in their stead (Config.CrossTune); 0
	// otherwise. ValidRows and ValidPositives count the validation rows
	// given (without them, the training rows).
	CrossTune int `json:"cross_tune,omitempty"`
	// CrossTuneComponents is the number of folds the component members'
	// and the peers' outputs were scored out of when fewer than CrossTune
	// (Config.CrossTuneComponents); 0 when they share CrossTune's folds.
	CrossTuneComponents int `json:"cross_tune_components,omitempty"`
	// Fallback, when not nil, says which member the ensemble fell back on
	// (Config.Fallback) and why.
	Fallback *FallbackReport `json:"fallback,omitempty"`
	// MixtureReport is the mixture's, fitted on the majority rows.
	MixtureReport
	// Subsets are the sizes of the 2L subsets (member order).
	Subsets []resample.Subset `json:"subsets"`
	// WeightRows is the number of rows the static weights were fitted on.
	WeightRows int `json:"weight_rows"`
	// Grid reports each member setting tried (one entry without a grid)
	// and Chosen indexes it.
	Grid   []GridPoint `json:"grid"`
	Chosen int         `json:"chosen"`
	// Static, Tune and Combiner are those of the chosen setting.
	Static   *ensemble.StaticResult `json:"static"`
	Tune     *ensemble.TuneResult   `json:"tune"`
	Combiner ensemble.Combiner      `json:"combiner"`
	// BayesDelta says delta is the Bayes threshold (Config.DeltaRule),
	// not the tuned one the tuning report gives.
	BayesDelta bool `json:"bayes_delta,omitempty"`
	// Valid is every metric of the final model on the validation rows at
	// the threshold (without validation rows, on the tuning rows).
	Valid metrics.Report `json:"valid"`
	// Seconds per stage and in total (excluding data loading).
	Seconds Timings `json:"seconds"`
	// Warnings are what the user should know about the fit, in words, as
	// aer mixture words them for the same mixture: sizes of
	// Config.Components left out of the pool, BIC choosing the smallest
	// or largest L of the pool, components of the chosen mixture that
	// collapsed (mixture.Selection.Warnings).
	Warnings []string `json:"warnings,omitempty"`
}

// MixtureReport is what a fit's report says of its mixture.
type MixtureReport struct {
	// Pool is the mixture sizes tried: Config.Components without the sizes
	// the rows are too few for. Mixture is their BIC table and the chosen
	// L.
	Pool    []int              `json:"pool"`
	Mixture *mixture.Selection `json:"mixture"`
	// MixtureRows is the number of rows the mixture was fitted on when
	// Config.MixtureRows subsampled them, else 0 (all rows).
	MixtureRows int `json:"mixture_rows,omitempty"`
	// Covariance is the covariance type used (auto resolved).
	Covariance string `json:"covariance"`
}

// GridPoint is the outcome of one member setting.
type GridPoint struct {
	// Params are the grid point's member settings ("eta=0.1"), on top of
	// Config.MemberParams; "method=NAME" for Config.Learners.
	Params []string `json:"params"`
	// ValidMetric is the metric on the validation rows at the tuned
	// lambda and delta, Lambda and Delta.
	ValidMetric float64 `json:"valid_metric"`
	Lambda      float64 `json:"lambda"`
	Delta       float64 `json:"delta"`
	// MemberLeaves is each member's number of parameters (leaves, for
	// trees), the k of its AIC and BIC.
	MemberLeaves []int `json:"member_leaves"`
}

// Timings are wall-clock seconds of the stages of Fit.
type Timings struct {
	Prepare float64 `json:"prepare"`
	Mixture float64 `json:"mixture"`
	Subsets float64 `json:"subsets"`
	Members float64 `json:"members"`
	Weights float64 `json:"weights"`
	Tune    float64 `json:"tune"`
	Total   float64 `json:"total"`
}

// Fit trains an AER model on train (features with NaN = missing, labels
// with 1 = minority, optional row weights), tuning lambda and delta on
// valid. When valid is nil a stratified share Config.Holdout of the
// training rows is held out for tuning instead, and the members see only
// the rest; the model keeps the held-out rows' scores (Model.HeldOut)
// for a decision layer. The data are not modified, except train.X when
// env.ConsumeTrain allows it (imputed and standardised in place). env gives the seed every random
// choice flows from (the same seed and data give a bit-identical model
// whatever env.Workers is), the worker bound, progress and logging.
//
// Row weights reach the members (each trains on its subset's rows with
// their weights) and the static weights' loss. The mixture, the subsets and
// the imputation and standardisation ignore them: the mixture describes
// where the majority rows lie, and a subset is a rank cut of them. The
// validation metric that tunes lambda and delta counts rows, unweighted.
func Fit(ctx context.Context, train, valid *learn.Data, cfg *Config, env learn.Env) (*Model, *Report, error) {
	start := time.Now()
	f, err := newFit(ctx, train, valid, cfg, env)
	if err != nil {
		return nil, nil, err
	}
	err = runStages([]stage{
		{f.prepare, &f.rep.Seconds.Prepare},
		{f.fitMixture, &f.rep.Seconds.Mixture},
		{f.makeSubsets, &f.rep.Seconds.Subsets},
		{f.weightRows, nil},
		{f.fitMembers, &f.rep.Seconds.Members},
	})
	if err != nil {
		return nil, nil, err
	}
	return f.conclude(start)
}

// stage is one stage of a fit and where its seconds go (nil: nowhere).
type stage struct {
	run     func() error
	seconds *float64
}

// runStages runs the stages in turn, timing each, until one fails.
func runStages(stages []stage) error {
	for _, s := range stages {
		t0 := time.Now()
		if err := s.run(); err != nil {
			return err
		}
		if s.seconds != nil {
			*s.seconds += time.Since(t0).Seconds()
		}
	}
	return nil
}

// conclude chooses the member set, finishes the model and its report
// (the fit having started at start) and returns them.
func (f *fitRun) conclude(start time.Time) (*Model, *Report, error) {
	best, err := f.chooseSet()
	if err != nil {
		return nil, nil, err
	}
	if err := f.finish(best); err != nil {
		return nil, nil, err
	}
	f.rep.Seconds.Total = time.Since(start).Seconds()
	f.m.report = f.rep
	return f.m, f.rep, nil
}

// fitRun carries one fit from stage to stage: the configuration, the data
// as each stage leaves it, and the model and report being filled in.
type fitRun struct {
	ctx          context.Context
	c            *resolvedConfig
	env          learn.Env
	workers      int
	train, valid *learn.Data
	m            *Model
	rep          *Report
	// xt is the training features imputed and standardised (a copy of
	// train.X unless held out or given up), xvt the validation
	// features'.
	xt, xvt *mat.Dense
	// majority and minority are the training rows of each class.
	majority, minority []int
	subsets            []resample.Subset
	// logDensValid are the validation rows' component log-densities.
	logDensValid *mat.Dense
	// wx, wy and ww are the rows the static weights are fitted on.
	wx *mat.Dense
	wy []int
	ww []float64
	// prior is the training rows' (weighted) positive share, the Bayes
	// threshold's prior.
	prior float64
	// sets are the member sets to weigh and tune: one per member
	// setting, or one pooling them all.
	sets []memberSet
	// points name the member settings of each set.
	points [][]string
	// crossTuned says the training rows are tuning rows too, scored out
	// of fold (Config.CrossTune): valid is then the training rows
	// followed by the validation rows given (extra), if any, whose
	// features xe are kept apart from the training rows' (xvt is xt).
	crossTuned bool
	extra      *learn.Data
	xe         *mat.Dense
}

// memberSet is an ensemble of fitted members and, once weighed and
// tuned, its static weights and combiner.
type memberSet struct {
	members []Member
	// owner is the component of each member (-1: none); nil for the
	// default layout of 2L members.
	owner  []int
	static *ensemble.StaticResult
	tune   *ensemble.TuneResult
	valid  *mat.Dense // the members' outputs on the validation rows
	// oof, when the fit cross-tunes (Config.CrossTune), are the members'
	// out-of-fold outputs on the training rows, the validation rows then.
	oof    *mat.Dense
	logits *ensemble.Logits
	leaves []int
}

// holdOut returns train and valid, or, when valid is nil, a stratified
// share Config.Holdout of the training rows held out as valid and the
// rest.
func holdOut(train, valid *learn.Data, c *resolvedConfig, env learn.Env) (*learn.Data, *learn.Data, error) {
	if valid != nil {
		return train, valid, nil
	}
	parts, err := dataset.StratifiedSplit(train.Y, []float64{1 - c.Holdout, c.Holdout}, rng.DeriveSeed(env.Seed, streamHoldout))
	if err != nil {
		return nil, nil, fmt.Errorf("aer: hold-out split: %w", err)
	}
	return train.Subset(parts[0]), train.Subset(parts[1]), nil
}

// newFit resolves the configuration, checks the data and, without
// validation data, holds a share of the training rows out for it.
func newFit(ctx context.Context, train, valid *learn.Data, cfg *Config, env learn.Env) (*fitRun, error) {
	c, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	if err := checkData("training", train, 2); err != nil {
		return nil, err
	}
	rep := &Report{Holdout: valid == nil}
	want := c.CrossTune
	if valid != nil && c.CrossTuneBelow > 0 && count1(valid.Y) >= c.CrossTuneBelow {
		want = -1 // enough validation positives to tune on alone
	}
	folds := crossTuneFolds(train.Y, want, valid != nil, &rep.Warnings)
	crossTuned := folds >= 2
	var extra *learn.Data
	if crossTuned {
		extra = valid
		valid = train
		rep.CrossTune = folds
	} else if train, valid, err = holdOut(train, valid, c, env); err != nil {
		return nil, err
	}
	if err := checkData("validation", valid, 1); err != nil {
		return nil, err
	}
	if valid.Cols() != train.Cols() {
		return nil, fmt.Errorf("aer: validation data has %d features, training data %d", valid.Cols(), train.Cols())
	}
	if extra != nil {
		if err := checkData("validation", extra, 1); err != nil {
			return nil, err
		}
		if extra.Cols() != train.Cols() {
			return nil, fmt.Errorf("aer: validation data has %d features, training data %d", extra.Cols(), train.Cols())
		}
	}
	return &fitRun{ctx: ctx, c: c, env: env, workers: env.Threads(), train: train, valid: valid, rep: rep, crossTuned: crossTuned, extra: extra}, nil
}

// crossTuneFolds returns the number of folds a fit cross-tunes with:
// Config.CrossTune (want), fewer when a class has fewer training rows
// (one per fold), and 0 (no cross-tuning) when it has fewer than 2; a
// reduction is noted in warnings.
func crossTuneFolds(y []int, want int, valid bool, warnings *[]string) int {
	if want < 2 {
		return 0
	}
	pos := count1(y)
	k := min(want, pos, len(y)-pos)
	switch {
	case k >= want:
		return k
	case k >= 2:
		*warnings = append(*warnings, fmt.Sprintf("cross_tune: %d folds, not %d: a class has %d training rows", k, want, min(pos, len(y)-pos)))
		return k
	case valid:
		*warnings = append(*warnings, fmt.Sprintf("cross_tune: a class has %d training rows, too few for 2 folds: tuned on the validation rows alone", min(pos, len(y)-pos)))
	}
	return 0
}

// prepare imputes the training means and standardises the training and
// validation features.
func (f *fitRun) prepare() error {
	f.env.Report("prepare", 0, 1)
	defer f.env.Report("prepare", 1, 1)
	f.m = &Model{}
	// The hold-out split made its own copy of the rows; otherwise the
	// caller's features are copied unless it gave them up.
	var err error
	if f.xt, err = f.m.fitInputs(f.train.X, f.train.Features, f.rep.Holdout && !f.crossTuned || f.env.ConsumeTrain, !f.c.NoStandardize); err != nil {
		return err
	}
	if f.crossTuned && f.extra != nil {
		// The validation rows' features stay apart (xe): only their
		// component log-densities join the training rows'.
		f.xe = f.m.prepare(f.extra.X)
		f.xvt = f.xt
		f.valid = &learn.Data{Y: append(append([]int(nil), f.train.Y...), f.extra.Y...), W: learn.AppendWeights(f.train.W, len(f.train.Y), f.extra.W, len(f.extra.Y))}
	} else if f.crossTuned {
		f.xvt = f.xt
	} else {
		f.xvt = f.m.prepare(f.valid.X)
	}
	given := f.valid
	if f.extra != nil {
		given = f.extra
	}
	f.rep.TrainRows, f.rep.ValidRows = len(f.train.Y), len(given.Y)
	f.rep.TrainPositives, f.rep.ValidPositives = count1(f.train.Y), count1(given.Y)
	f.prior = f.train.PositiveShare()
	return nil
}

// fitMixture fits the mixture on the majority rows, L by BIC (step 1).
func (f *fitRun) fitMixture() error {
	for i, v := range f.train.Y {
		if v == 1 {
			f.minority = append(f.minority, i)
		} else {
			f.majority = append(f.majority, i)
		}
	}
	sel, err := f.c.mixtureOn(f.ctx, f.xt, f.majority, &f.rep.MixtureReport, &f.rep.Warnings, f.env, f.workers)
	if err != nil {
		return err
	}
	f.m.mixture = sel.Model
	// With the mixture's size known, the rest of the fit needs less than
	// the estimate before it (which takes the pool's largest): tell the
	// caller, now and after the subsets.
	f.replan(fromSubsets)
	return nil
}

// mixtureOn fits the mixture on the rows of xt (a sample of MixtureRows
// of them when there are more, counted in rep.MixtureRows), as
// selectMixture does.
func (c *resolvedConfig) mixtureOn(ctx context.Context, xt *mat.Dense, rows []int, rep *MixtureReport, warnings *[]string, env learn.Env, workers int) (*mixture.Selection, error) {
	mixRows := rows
	if c.MixtureRows > 0 && len(rows) > c.MixtureRows {
		mixRows = sampleRows(rows, c.MixtureRows, rng.DeriveSeed(env.Seed, streamMixtureRows))
		rep.MixtureRows = len(mixRows)
	}
	return c.selectMixture(ctx, learn.Rows(xt, mixRows), len(rows), rep, warnings, env, workers)
}

// selectMixture fits the mixture on x, standardised majority rows (all
// nMajority of them or a sample), choosing L by BIC among the sizes
// nMajority rows can stand on, and records the pool, the covariance, the
// BIC table in rep and the warnings in warnings.
func (c *resolvedConfig) selectMixture(ctx context.Context, x *mat.Dense, nMajority int, rep *MixtureReport, warnings *[]string, env learn.Env, workers int) (*mixture.Selection, error) {
	d := colsOf(x)
	cov := c.cov.Resolve(d, 0)
	rep.Covariance = cov.String()
	// A component needs rows to stand on: with full (or tied) covariances
	// at least d+1 majority rows per component, else at least 2; larger L
	// only fit degenerate components whose huge densities win the BIC.
	// On wide tables the sizes are compared on principal components
	// with full covariances, which need the more rows per component.
	pcs, poolCov, poolD := 0, cov, d
	if c.SelectPCs > 0 && d > 4*c.SelectPCs {
		pcs, poolCov, poolD = c.SelectPCs, mixture.Full, c.SelectPCs
	}
	pool, dropped := mixture.FeasiblePool(c.Components, poolCov, poolD, nMajority)
	if len(pool) == 0 {
		return nil, fmt.Errorf("aer: %d majority rows are too few for any mixture size in %v (%s covariance needs %d rows per component)",
			nMajority, c.Components, poolCov, mixture.RowsPerComponent(poolCov, poolD))
	}
	rep.Pool = pool
	if w := mixture.LeftOutWarning(dropped, nMajority, poolD, poolCov); w != "" {
		*warnings = append(*warnings, w)
	}
	sel, err := mixture.Select(ctx, x, pool, &mixture.Settings{
		Covariance:       cov,
		Family:           c.family,
		NInit:            c.NInit,
		SelectRows:       c.SelectRows,
		SelectProjection: pcs,
		RefitRestarts:    c.RefitRestarts,
		Seed:             rng.DeriveSeed(env.Seed, streamMixture),
		Workers:          workers,
		Logger:           env.Logger,
		Fitted:           func(done, total int) { env.Report("mixture", done, total) },
	})
	if err != nil {
		return nil, fmt.Errorf("aer: mixture: %w", err)
	}
	rep.Mixture = sel
	*warnings = append(*warnings, sel.Warnings(0)...)
	return sel, nil
}

// replan tells the caller the memory the fit needs from stage from on.
func (f *fitRun) replan(from int) {
	if f.env.MemoryPlan != nil {
		L := int64(len(f.m.mixture.Weights))
		x := f.train.X
		f.env.MemoryPlan(f.c.fitMemory(int64(len(f.train.Y)), int64(len(f.valid.Y)), int64(x.RawMatrix().Cols), int64(f.workers), L, f.xt != x, from))
	}
}

// makeSubsets ranks the majority rows under each component and draws the
// global and local subsets (step 2).
func (f *fitRun) makeSubsets() error {
	// Two steps: the majority rows' scores under every component, then
	// the subsets ranked by them.
	f.env.Report("subsets", 0, 2)
	scores, err := rowScores(f.m.mixture, f.xt, f.majority, f.c.Rank == RankResponsibility)
	if err != nil {
		return fmt.Errorf("aer: ranking majority rows: %w", err)
	}
	f.env.Report("subsets", 1, 2)
	f.subsets, err = resample.Subsets(f.xt, scores, f.majority, f.minority, rng.DeriveSeed(f.env.Seed, streamSubsets), &resample.SubsetOptions{
		LocalRandom: f.c.LocalRandom,
		NoTomek:     f.c.NoTomek,
		Workers:     f.workers,
	})
	if err != nil {
		return fmt.Errorf("aer: subsets: %w", err)
	}
	f.rep.Subsets = f.subsets
	f.env.Report("subsets", 2, 2)
	// The subsets' buffers are done with: the rest needs less still.
	f.replan(fromMembers)
	return nil
}

// weightRows picks the rows the static weights are fitted on and computes
// the validation rows' component log-densities.
func (f *fitRun) weightRows() error {
	if f.c.WeightData == WeightValid {
		f.wx, f.wy, f.ww = f.xvt, f.valid.Y, f.valid.W
	} else {
		union := unionRows(f.subsets, len(f.train.Y))
		f.wx, f.wy, f.ww = learn.Rows(f.xt, union), learn.Pick(f.train.Y, union), learn.Pick(f.train.W, union)
	}
	f.rep.WeightRows = len(f.wy)
	var err error
	if f.logDensValid, err = f.tuningLogDensity(); err != nil {
		return fmt.Errorf("aer: validation log-densities: %w", err)
	}
	if err := finiteRows(f.logDensValid); err != nil {
		return fmt.Errorf("aer: validation log-densities: %w", err)
	}
	return nil
}

// tuningLogDensity returns the component log-densities of the tuning
// rows: xvt's, followed by xe's when a cross-tuned fit has validation
// rows.
func (f *fitRun) tuningLogDensity() (*mat.Dense, error) {
	ld, err := f.m.mixture.ComponentLogDensity(f.xvt, nil)
	if err != nil || f.xe == nil {
		return ld, err
	}
	le, err := f.m.mixture.ComponentLogDensity(f.xe, nil)
	if err != nil {
		return nil, err
	}
	return stackRows(ld, le), nil
}

// fitMembers trains the members of every member setting, the global
// members and the peers (step 3), and groups them into the sets to weigh
// and tune: one per setting, or one pooling them all.
func (f *fitRun) fitMembers() error {
	c, learners := f.c, f.c.learners
	member := &learn.Data{X: f.xt, Y: f.train.Y, W: f.train.W}
	var balanced *learn.Data
	if *c.Global {
		balanced = &learn.Data{X: f.xt, Y: f.train.Y, W: balancedWeights(f.train)}
	}
	labels, seeds := make([]string, len(learners)), make([]uint64, len(learners))
	for g := range learners {
		if len(learners) > 1 && *c.Pool {
			labels[g] = " [" + strings.Join(c.points[g], ",") + "]"
		}
		seeds[g] = rng.DeriveSeed(f.env.Seed, streamMembers+uint64(g)*1000)
	}
	trained, owner, peers, err := trainMembers(f.ctx, member, balanced, f.subsets, nil, learners, labels, seeds,
		c.Peers, c.PeerRows, rng.DeriveSeed(f.env.Seed, streamPeers), f.workers, f.env.Logger, func(done, total int) {
			f.env.Report("members", done, total)
		})
	if err != nil {
		return err
	}
	f.sets, f.points = c.groupSets(trained, owner, peers)
	if f.crossTuned {
		return f.crossTune(labels, seeds)
	}
	return nil
}

// groupSets groups the trained members (per learner, per place, with the
// component each place belongs to) and the peers into the sets to weigh
// and tune: one per member setting, or one pooling them all; points
// name each set's member settings.
func (c *resolvedConfig) groupSets(trained [][]Member, owner []int, peers []Member) (sets []memberSet, points [][]string) {
	if !*c.Pool && !*c.Global {
		owner = nil // the default layout of 2L members
	}
	sets = make([]memberSet, len(trained))
	for g := range trained {
		sets[g] = memberSet{members: trained[g], owner: owner}
	}
	points = c.points
	if *c.Pool && len(sets) > 1 {
		var pooled memberSet
		for _, s := range sets {
			pooled.members = append(pooled.members, s.members...)
			pooled.owner = append(pooled.owner, s.owner...)
		}
		sets = []memberSet{pooled}
		points = [][]string{{"pool"}}
	}
	if len(peers) > 0 {
		for g := range sets {
			s := &sets[g]
			if s.owner == nil {
				s.owner = make([]int, len(s.members))
				for k := range s.owner {
					s.owner[k] = k / 2
				}
			}
			s.members = append(slices.Clone(s.members), peers...)
			for range peers {
				s.owner = append(s.owner, -1)
			}
		}
	}
	return sets, points
}

// chooseSet weighs and tunes every member set and returns the best on
// validation; the first (simplest listed) wins ties.
func (f *fitRun) chooseSet() (memberSet, error) {
	best := -1
	var bestSet memberSet
	for g, s := range f.sets {
		t0 := time.Now()
		s, err := f.weigh(s, f.stage("weights", g))
		if err != nil {
			return memberSet{}, err
		}
		f.rep.Seconds.Weights += time.Since(t0).Seconds()

		t0 = time.Now()
		if s.tune, err = f.tune(s, f.stage("tune", g)); err != nil {
			return memberSet{}, err
		}
		f.rep.Seconds.Tune += time.Since(t0).Seconds()

		point := GridPoint{Params: f.points[g], ValidMetric: s.tune.Metric, Lambda: s.tune.Combiner.Lambda, Delta: s.tune.Combiner.Delta, MemberLeaves: s.leaves}
		if point.Params == nil {
			point.Params = []string{}
		}
		f.rep.Grid = append(f.rep.Grid, point)
		// Strictly better only: the first (simplest listed) setting wins ties.
		if best < 0 || s.tune.Metric > f.rep.Grid[best].ValidMetric {
			best, bestSet = g, s
		}
	}
	f.rep.Chosen = best
	return bestSet, nil
}

// stage returns the progress report of stage name for member set g:
// the stage as it is when there is one set, else named after the set
// ("weights 2/3").
func (f *fitRun) stage(name string, g int) func(done, total int) {
	if len(f.sets) > 1 {
		name = fmt.Sprintf("%s %d/%d", name, g+1, len(f.sets))
	}
	return func(done, total int) { f.env.Report(name, done, total) }
}

// weigh fits the static weights of the members of s (step 4), from their
// outputs on the weight rows, reporting its three steps (the outputs on
// the validation rows, on the weight rows, the weights) to report.
func (f *fitRun) weigh(s memberSet, report func(done, total int)) (memberSet, error) {
	c := f.c
	report(0, 3)
	defer report(3, 3)
	s.leaves = make([]int, len(s.members))
	for k, mb := range s.members {
		s.leaves[k] = learn.NumParams(mb.Model)
	}
	// The members' outputs on the validation rows serve the weights
	// (when fitted there), the tuning and the final validation score:
	// computed once.
	var err error
	if s.oof != nil && f.xe != nil {
		out, err := memberOutputs(s.members, f.xe, f.workers)
		if err != nil {
			return s, err
		}
		s.valid = stackRows(s.oof, out)
	} else if s.valid = s.oof; s.valid == nil {
		if s.valid, err = memberOutputs(s.members, f.xvt, f.workers); err != nil {
			return s, err
		}
	}
	report(1, 3)
	fw := s.valid
	if c.WeightData != WeightValid {
		if fw, err = memberOutputs(s.members, f.wx, f.workers); err != nil {
			return s, err
		}
	}
	report(2, 3)
	if c.outputs == ensemble.Labels {
		if fw == s.valid {
			fw = mat.DenseCopyOf(s.valid)
		}
		binarize(fw)
	}
	// In logit space the static weights and the tuning share one logit
	// copy of the validation outputs.
	if c.space == ensemble.LogitSpace && fw == s.valid && !c.DynamicEnsemble {
		s.logits = ensemble.NewLogits(s.valid, 0, f.workers)
	}
	s.static = &ensemble.StaticResult{Weights: uniform(len(s.members)), Init: "uniform"}
	if !c.DynamicEnsemble {
		st := ensemble.StaticSettings{
			Outputs: c.outputs, Space: c.space, Projection: c.projection, Init: c.init, Leaves: s.leaves,
			Schedule: c.schedule, StepScale: c.StepScale, Tol: c.Tol, MaxIter: c.MaxIter, BatchSize: c.BatchSize,
			Seed: rng.DeriveSeed(f.env.Seed, streamStatic), Workers: f.workers, Logits: s.logits,
		}
		if s.static, err = ensemble.FitStaticContext(f.ctx, fw, f.wy, f.ww, &st); err != nil {
			return s, fmt.Errorf("aer: static weights: %w", err)
		}
	}
	return s, nil
}

// tune chooses the dynamic rule, lambda and delta of s on the validation
// rows (step 5), reporting each candidate done to report.
func (f *fitRun) tune(s memberSet, report func(done, total int)) (*ensemble.TuneResult, error) {
	c, metric := f.c, f.c.metric
	ts := &ensemble.TuneSettings{
		Metric: func(tp, fp, tn, fn int) float64 {
			return metric.Of(metrics.Confusion{TP: float64(tp), FP: float64(fp), TN: float64(tn), FN: float64(fn)})
		},
		Candidates: c.candidates(f.m.mixture, colsOf(f.xvt)),
		Owner:      s.owner,
		Space:      c.space,
		Select:     c.selection,
		Deltas:     deltaGrid(c.DeltaStep),
		Workers:    f.workers,
		Logits:     s.logits,
		Progress:   report,
	}
	if c.Thresholds == ThresholdsFine {
		ts.Deltas, ts.DeltaQuantiles = ensemble.DeltaGrid(), 200
	}
	if c.DynamicEnsemble {
		ts.Lambdas = ensemble.DynamicEnsembleLambdas()
	}
	t, err := ensemble.Tune(s.valid, f.valid.Y, f.logDensValid, s.static.Weights, ts)
	if err != nil {
		return nil, fmt.Errorf("aer: tuning lambda and delta: %w", err)
	}
	return t, nil
}

// finish makes the model of the chosen set: its members and combiner,
// the Bayes threshold when the configuration asks for it, and the report
// of the validation rows.
func (f *fitRun) finish(best memberSet) error {
	m, rep, c := f.m, f.rep, f.c
	// The scores of the validation rows (every training row when
	// cross-tuned), the threshold and the out-of-distribution scores.
	f.env.Report("finish", 0, 2)
	defer f.env.Report("finish", 2, 2)
	m.members = best.members
	m.combiner = best.tune.Combiner
	m.combiner.Static = best.static.Weights
	rep.Static, rep.Tune, rep.Combiner = best.static, best.tune, m.combiner
	m.config = c.Config
	rep.Config = c.Config

	scores, _, err := m.scoreOutputs(best.valid, f.logDensValid, best.logits)
	if err != nil {
		return err
	}
	if c.Fallback > 0 {
		if k, fr := fallback(scores, best.valid, best.owner, f.valid.Y, f.valid.W, m.combiner.OutputEps(), c.Fallback); k >= 0 {
			fr.Member = best.members[k].Name
			m.combiner.Static, m.combiner.Lambda = oneHot(k, len(best.members)), 0
			rep.Combiner, rep.Fallback = m.combiner, fr
			if scores, _, err = m.scoreOutputs(best.valid, f.logDensValid, best.logits); err != nil {
				return err
			}
		}
	}
	if c.DeltaRule == DeltaBayes {
		if delta, ok, err := bayesDelta(f.valid.Y, scores, f.valid.W, c.metric, f.prior); err != nil {
			return err
		} else if ok {
			m.combiner.Delta = delta
			rep.Combiner.Delta = delta
			rep.BayesDelta = true
		}
	}
	// The report and the out-of-distribution threshold are of the
	// validation rows given, when a cross-tuned fit has some.
	vy, vs, vx := f.valid.Y, scores, f.xvt
	if f.extra != nil {
		n := len(f.train.Y)
		vy, vs, vx = f.valid.Y[n:], scores[n:], f.xe
	}
	rep.Valid = metrics.Evaluate(vy, vs, m.combiner.Delta, nil)
	f.env.Report("finish", 1, 2)
	ood, err := m.mixture.ScoreSamples(vx, nil)
	if err != nil {
		return fmt.Errorf("aer: out-of-distribution scores: %w", err)
	}
	for i, v := range ood {
		ood[i] = -v
	}
	m.ood = &oodInfo{Alpha: OODAlpha, Threshold: oodThreshold(ood, OODAlpha), Rows: len(ood)}
	switch {
	case f.crossTuned:
		// The training rows' out-of-fold scores, ahead of any validation
		// rows given.
		n := len(f.train.Y)
		m.held = &heldOut{y: f.valid.Y[:n], score: scores[:n], w: f.train.W, folds: f.rep.CrossTune}
	case rep.Holdout:
		m.held = &heldOut{y: f.valid.Y, score: scores, w: f.valid.W}
	}
	return nil
}

// candidates returns the dynamic rules Tune chooses among.
func (c *resolvedConfig) candidates(mx *mixture.Model, d int) []ensemble.DynamicSettings {
	var logPi []float64
	if c.MixtureWeights {
		logPi = make([]float64, len(mx.Weights))
		for l, w := range mx.Weights {
			logPi[l] = math.Log(w)
		}
	}
	if c.rule == ensemble.Tempered {
		return ensemble.TemperedCandidates(TemperedGrid(d), logPi, true)
	}
	return []ensemble.DynamicSettings{{Rule: c.rule, LogPi: logPi}}
}

// bayesDelta returns the threshold on validation scores where their
// sigmoid calibration reaches prior, the training rows' positive share,
// and false when metric has no such threshold (not balanced accuracy) or
// the calibration does not increase with the score.
func bayesDelta(yv []int, score, wv []float64, metric metrics.Metric, prior float64) (float64, bool, error) {
	o := decision.MetricObjective(metric)
	l, err := decision.FitBayesLayer(yv, score, wv, o, prior)
	if errors.Is(err, decision.ErrNoBayes) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("aer: bayes threshold: %w", err)
	}
	return l.Threshold, l.Rule == decision.RuleBayes, nil
}

// sampleRows returns k of rows drawn uniformly without replacement, in
// their order in rows (selection sampling: one pass).
func sampleRows(rows []int, k int, seed uint64) []int {
	rnd := rng.New(seed)
	out := make([]int, 0, k)
	for i, r := range rows {
		if rnd.IntN(len(rows)-i) < k-len(out) {
			out = append(out, r)
		}
	}
	return out
}

// stratifiedSample returns k of the rows of labels y, in order: every
// positive row when they are at most k/2, else k/2 of them drawn at
// random, and negatives drawn at random for the rest.
func stratifiedSample(y []int, k int, seed uint64) []int {
	var pos, neg []int
	for i, v := range y {
		if v == 1 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	kp := min(len(pos), k/2)
	kn := min(len(neg), k-kp)
	rows := append(sampleRows(pos, kp, rng.DeriveSeed(seed, 1)), sampleRows(neg, kn, rng.DeriveSeed(seed, 2))...)
	slices.Sort(rows)
	return rows
}

// rowScores returns, for the given rows of x, their log-density under
// each component of mx alone or, with resp, their responsibilities: one
// row per listed row. It gathers the rows a block at a time, so the rows
// are never copied whole.
func rowScores(mx *mixture.Model, x *mat.Dense, rows []int, resp bool) (*mat.Dense, error) {
	K := mx.K()
	out := mat.NewDense(len(rows), K, nil)
	// A multiple of the mixture's own row blocks, so every row is computed
	// exactly as over the whole matrix.
	const block = 1 << 14
	// One buffer serves every block: fresh memory for each would be
	// faulted in block after block (4 s of the 6M-row fit).
	raw, c := x.RawMatrix(), colsOf(x)
	buf := make([]float64, min(block, len(rows))*c)
	for lo := 0; lo < len(rows); lo += block {
		hi := min(lo+block, len(rows))
		for k, i := range rows[lo:hi] {
			copy(buf[k*c:(k+1)*c], raw.Data[i*raw.Stride:i*raw.Stride+c])
		}
		xb := mat.NewDense(hi-lo, c, buf[:(hi-lo)*c])
		dst := out.Slice(lo, hi, 0, K).(*mat.Dense)
		var err error
		if resp {
			_, err = mx.Responsibilities(xb, dst)
		} else {
			_, err = mx.ComponentLogDensity(xb, dst)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// trainMembers fits, for every learner, one member per subset and, when
// balanced is not nil, one more on all its rows (the global member), and
// each peer method once on all of data with its own settings, workers at
// a time, each on one goroutine with the seed stream of its learner
// (seeds[g]) and its place (peers: stream k of peerSeed), so the models do
// not depend on scheduling. The peers come first, one at a time on every
// worker (their models do not depend on the number of workers); of the
// members, the largest fits (the global members, on every row) start
// first, so that no core waits alone on one of them at the end. The
// learners that fit one subset share its rows (copied once, then dropped)
// and what their fits can reuse of them (learn.Shared: boosted trees'
// bins). It returns each learner's members, the component
// each belongs to (-1 for the global member) and the peers; labels[g] is
// appended to the names of learner g's members. fit, when not nil, says
// which places (subset k, or the global members' len(subsets)) are
// fitted: the members of the others are left zero.
func trainMembers(ctx context.Context, data, balanced *learn.Data, subsets []resample.Subset, fit func(k int) bool, learners []learn.Method, labels []string, seeds []uint64,
	peerMethods []learn.Method, peerRows int, peerSeed uint64, workers int, logger *slog.Logger, done func(done, total int)) ([][]Member, []int, []Member, error) {
	n, G, P := len(subsets), len(learners), len(peerMethods)
	if balanced != nil {
		n++
	}
	owner := make([]int, n)
	for k := range owner {
		owner[k] = -1
		if k < len(subsets) {
			owner[k] = subsets[k].Component
		}
	}
	members := make([][]Member, G)
	for g := range members {
		members[g] = make([]Member, n)
	}
	// The peers first, one at a time on every worker: a peer's copy of
	// every row (logreg's feature-major layout) is then never held beside
	// a global member's buffers, the largest of the pool's.
	peers := make([]Member, P)
	fits := 0
	for k := range n {
		if fit == nil || fit(k) {
			fits += G
		}
	}
	done(0, P+fits)
	peerData := data
	if P > 0 && peerRows > 0 && len(data.Y) > peerRows {
		rows := stratifiedSample(data.Y, peerRows, rng.DeriveSeed(peerSeed, streamPeerRows))
		peerData = &learn.Data{X: learn.Rows(data.X, rows), Y: learn.Pick(data.Y, rows), W: learn.Pick(data.W, rows)}
	}
	for t, pm := range peerMethods {
		env := learn.Env{Seed: rng.DeriveSeed(peerSeed, uint64(t)), Workers: workers, Logger: logger}
		mb, err := pm.Fit(ctx, peerData, nil, env)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("aer: peer %s: %w", pm.Name(), err)
		}
		peers[t] = Member{Method: pm.Name(), Model: mb, Name: "all rows (" + pm.Name() + ")"}
		done(t+1, P+fits)
	}
	places := newPlaces(data, balanced, subsets, fit, G)
	threads := places.threads(workers, G)
	pool := newCores(learn.Env{Workers: workers}.Threads())
	_, err := learn.ForEach(ctx, workers, fits, func() func(context.Context, int) error {
		return func(ctx context.Context, t int) error {
			k, g := places.order[t/G], t%G
			defer places.release(k)
			// A member takes its share of the workers (one, but several
			// for a place too big to finish alongside the others); the
			// work its place's members share (bins) takes every worker,
			// as the others may wait for it.
			pool.take(threads[k])
			defer pool.give(threads[k])
			env := learn.Env{Seed: rng.DeriveSeed(seeds[g], uint64(k)), Workers: threads[k], SharedWorkers: workers, Logger: logger}
			name := "all rows" + labels[g]
			if k < len(subsets) {
				name = fmt.Sprintf("%s %d%s", subsets[k].Kind, subsets[k].Component, labels[g])
			}
			mb, err := learners[g].Fit(ctx, places.rows(k), nil, env)
			if err != nil {
				return fmt.Errorf("aer: member %d (%s): %w", k, name, err)
			}
			members[g][k] = Member{Method: learners[g].Name(), Model: mb, Name: name}
			return nil
		}
	}, func(finished, _ int) { done(P+finished, P+fits) })
	if err != nil {
		return nil, nil, nil, err
	}
	return members, owner, peers, nil
}

// places are the row sets members are trained on, the subsets and, when
// balanced is not nil, all rows with balanced weights (the last place):
// each place's rows are copied when its first member starts and dropped
// when its last ends, so the rows of few places are held at once.
type places struct {
	data, balanced *learn.Data
	subsets        []resample.Subset
	slots          []place
	// order lists the places by decreasing rows (ties in order; the
	// global place, every row, first): the longest fits start first, so
	// the pool ends on short ones instead of one worker finishing a long
	// fit alone (4 s of the 6M-row fit, where the local subsets are a
	// tenth of the global ones). Each member's seed is its place's, so
	// the order changes no model.
	order []int
}

type place struct {
	once sync.Once
	d    *learn.Data
	left atomic.Int32
}

// newPlaces returns the places of the subsets (and balanced), each to be
// fitted by G members; fit, when not nil, says which are (the others are
// left out of order).
func newPlaces(data, balanced *learn.Data, subsets []resample.Subset, fit func(k int) bool, G int) *places {
	n := len(subsets)
	if balanced != nil {
		n++
	}
	p := &places{data: data, balanced: balanced, subsets: subsets, slots: make([]place, n), order: make([]int, 0, n)}
	for k := range p.slots {
		p.slots[k].left.Store(int32(G))
	}
	if balanced != nil && (fit == nil || fit(n-1)) {
		p.order = append(p.order, n-1)
	}
	for k := range len(subsets) {
		if fit == nil || fit(k) {
			p.order = append(p.order, k)
		}
	}
	slices.SortStableFunc(p.order, func(a, b int) int { return cmp.Compare(p.size(b), p.size(a)) })
	return p
}

// threadBlock is the rows below which a member fits on one thread: the
// boosted trees spread a node's rows over threads in blocks of 16,384.
const threadBlock = 16384

// threads returns how many of workers threads each place's members
// take. A member's share of the pool's work (rows times G) decides: one
// that would run for longer than the pool's ideal span (the total work
// over the workers) on one thread gets the threads that bring it down
// to that span, at most one per threadBlock of its rows. On 16 cores
// the member on every row of a 1M-row fit otherwise ran alone at the
// end on one thread while the rest of the machine idled. Results do not
// depend on it (every member's fit is the same on any number of
// workers).
func (p *places) threads(workers, G int) []int {
	w := learn.Env{Workers: workers}.Threads()
	out := make([]int, len(p.slots))
	total := 0
	for k := range out {
		total += p.size(k) * G
	}
	for k := range out {
		out[k] = 1
		if size := p.size(k); size >= 2*threadBlock && total > 0 {
			t := (w*size + total - 1) / total
			out[k] = max(1, min(t, w, size/threadBlock))
		}
	}
	return out
}

// size is the number of rows of place k.
func (p *places) size(k int) int {
	if k < len(p.subsets) {
		return len(p.subsets[k].Rows)
	}
	return p.data.Rows()
}

// cores hands the workers' threads out to the members: a member of t
// threads waits until t are free.
type cores struct {
	mu   sync.Mutex
	cond *sync.Cond
	free int
}

func newCores(n int) *cores {
	c := &cores{free: n}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *cores) take(t int) {
	c.mu.Lock()
	for c.free < t {
		c.cond.Wait()
	}
	c.free -= t
	c.mu.Unlock()
}

func (c *cores) give(t int) {
	c.mu.Lock()
	c.free += t
	c.mu.Unlock()
	c.cond.Broadcast()
}

// rows returns the rows of place k, copied on first use, with what the
// fits of its members can share (learn.Shared: boosted trees' bins).
func (p *places) rows(k int) *learn.Data {
	s := &p.slots[k]
	s.once.Do(func() {
		if k < len(p.subsets) {
			s.d = p.data.Subset(p.subsets[k].Rows)
		} else {
			d := *p.balanced
			s.d = &d
		}
		s.d.Shared = &learn.Shared{}
	})
	return s.d
}

// release drops the rows of place k once its last member is fitted.
func (p *places) release(k int) {
	if p.slots[k].left.Add(-1) == 0 {
		p.slots[k].d = nil
	}
}

// balancedWeights returns the row weights of d (nil: all 1) with the
// minority rows' multiplied by the weighted count of majority rows over
// that of minority rows, so that both classes weigh the same.
func balancedWeights(d *learn.Data) []float64 {
	neg, pos := d.ClassWeights()
	out := make([]float64, d.Rows())
	for i, v := range d.Y {
		out[i] = d.Weight(i)
		if v == 1 {
			out[i] *= neg / pos
		}
	}
	return out
}

// memberOutputs returns the rows x members matrix of member probabilities,
// members computed in parallel, workers at a time (each member's
// prediction is deterministic).
func memberOutputs(members []Member, x *mat.Dense, workers int) (*mat.Dense, error) {
	r, _ := x.Dims()
	k := len(members)
	out := mat.NewDense(r, k, nil)
	raw := out.RawMatrix()
	errs := make([]error, k)
	// Each member's column is written into out as soon as it is scored
	// (distinct members write distinct cells), so at most one column per
	// goroutine is held besides out.
	score := func(j int, mb learn.Scorer, col []float64) []float64 {
		col, errs[j] = mb.PositiveProba(x, col)
		if errs[j] == nil {
			for i, v := range col {
				raw.Data[i*raw.Stride+j] = v
			}
		}
		return col
	}
	if workers <= 1 {
		// One goroutine: no hand-offs (a served row is scored here).
		var col []float64
		for j, mb := range members {
			col = score(j, mb.Model, col)
		}
	} else {
		cols := make(chan []float64, workers)
		for range workers {
			cols <- nil
		}
		var wg sync.WaitGroup
		for j, mb := range members {
			col := <-cols
			wg.Go(func() { cols <- score(j, mb.Model, col) })
		}
		wg.Wait()
	}
	for j, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("aer: member %d: %w", j, err)
		}
	}
	return out, nil
}

func binarize(f *mat.Dense) {
	raw := f.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, v := range row {
			if v >= 0.5 {
				row[j] = 1
			} else {
				row[j] = 0
			}
		}
	}
}

func uniform(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1 / float64(n)
	}
	return w
}

// unionRows returns the rows in any subset, ascending.
func unionRows(subsets []resample.Subset, n int) []int {
	in := make([]bool, n)
	for _, s := range subsets {
		for _, i := range s.Rows {
			in[i] = true
		}
	}
	var rows []int
	for i, b := range in {
		if b {
			rows = append(rows, i)
		}
	}
	return rows
}

func count1(y []int) int {
	n := 0
	for _, v := range y {
		n += v
	}
	return n
}

func colsOf(x *mat.Dense) int {
	if x == nil || x.IsEmpty() {
		return 0
	}
	_, c := x.Dims()
	return c
}

func checkData(what string, d *learn.Data, minPos int) error {
	if d == nil || d.Rows() == 0 {
		return fmt.Errorf("aer: %s data has no rows", what)
	}
	if err := d.Check(what + " data"); err != nil {
		return fmt.Errorf("aer: %w", err)
	}
	x, y := d.X, d.Y
	r, c := x.Dims()
	if c == 0 {
		return fmt.Errorf("aer: %s data has no features", what)
	}
	if len(y) != r {
		return fmt.Errorf("aer: %s data has %d rows but %d labels", what, r, len(y))
	}
	pos := 0
	for i, v := range y {
		if v != 0 && v != 1 {
			return fmt.Errorf("aer: %s label of row %d is %d, want 0 or 1", what, i+1, v)
		}
		pos += v
	}
	if pos < minPos {
		return fmt.Errorf("aer: %s data has %d positive rows, need at least %d", what, pos, minPos)
	}
	if pos == r {
		return fmt.Errorf("aer: %s data has no negative (majority) rows", what)
	}
	raw := x.RawMatrix()
	for i := range r {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsInf(v, 0) {
				return fmt.Errorf("aer: %s data row %d, feature %d is infinite", what, i+1, j+1)
			}
		}
	}
	return nil
}

func finiteRows(m *mat.Dense) error {
	raw := m.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if math.IsNaN(v) {
				return fmt.Errorf("row %d: log-density is NaN", i+1)
			}
		}
	}
	return nil
}

// deltaGrid returns step, 2 step, ... below 1, each rounded to 1e-9 so
// that 0.15 is 0.15 and not 0.15000000000000002.
func deltaGrid(step float64) []float64 {
	var g []float64
	for k := 1; float64(k)*step < 1-1e-9; k++ {
		g = append(g, math.Round(float64(k)*step*1e9)/1e9)
	}
	return g
}

// String is the report in one line, for aer fit's text output.
func (r *Report) String() string {
	return fmt.Sprintf("L = %d components (BIC), %d members, lambda %.2f, delta %.2f, validation %s %.4f",
		r.Mixture.Components, len(r.Combiner.Static), r.Combiner.Lambda, r.Combiner.Delta, r.Config.Metric, r.Valid.Value(mustMetric(r.Config.Metric)))
}

func mustMetric(name string) metrics.Metric {
	m, _ := metrics.ParseMetric(name)
	return m
}

// Seed streams of the multi-class fit, beside Fit's (which it shares for
// the hold-out split, the mixture and the members).
const streamMultiLocal = 1<<20 + 1

// MultiReport describes a multi-class fit (FitClasses); it encodes to JSON.
type MultiReport struct {
	// Config is the configuration with every default filled in.
	Config Config `json:"config"`
	// Classes is the number of classes; TrainRows and ValidRows count the
	// rows, TrainClass the training rows of each class; Holdout says the
	// validation rows were held out of the training rows.
	Classes    int   `json:"classes"`
	TrainRows  int   `json:"train_rows"`
	TrainClass []int `json:"train_class"`
	ValidRows  int   `json:"valid_rows"`
	Holdout    bool  `json:"holdout"`
	// MixtureReport is the mixture's, fitted on the training rows of
	// every class.
	MixtureReport
	// Target is the smallest class's training rows: each class gives
	// every local subset its Target best-ranked rows (and LocalRandom
	// Target more at random).
	Target int `json:"target"`
	// Subsets are the rows of each class in each subset (member order:
	// global l, local l).
	Subsets []MultiSubset `json:"subsets"`
	// WeightRows is the number of rows the static weights were fitted
	// on.
	WeightRows int `json:"weight_rows"`
	// Grid reports each member set weighed and tuned, Chosen the one
	// kept.
	Grid   []MultiGridPoint `json:"grid"`
	Chosen int              `json:"chosen"`
	// Static are the chosen set's static weights, Dynamic its likelihood
	// rule and Lambda its mixing weight.
	Static  []float64                `json:"static"`
	Dynamic ensemble.DynamicSettings `json:"dynamic"`
	Lambda  float64                  `json:"lambda"`
	// ValidLoss is the class-balanced log-loss of the model on the
	// validation rows; ValidBA their balanced accuracy by the largest
	// probability over the class's mean validation probability.
	ValidLoss float64 `json:"valid_loss"`
	ValidBA   float64 `json:"valid_balanced_accuracy"`
	// Seconds per stage and in total.
	Seconds Timings `json:"seconds"`
	// Warnings are the mixture's.
	Warnings []string `json:"warnings,omitempty"`
}

// MultiSubset is one member's subset: its kind (global or local), its
// component and the rows of each class.
type MultiSubset struct {
	Kind      string `json:"kind"`
	Component int    `json:"component"`
	Rows      []int  `json:"rows"`
}

// MultiGridPoint is the outcome of one member set on the validation
// rows: its lowest class-balanced log-loss over the likelihood rules
// and lambdas, and where.
type MultiGridPoint struct {
	Params    []string                 `json:"params"`
	ValidLoss float64                  `json:"valid_loss"`
	Lambda    float64                  `json:"lambda"`
	Dynamic   ensemble.DynamicSettings `json:"dynamic"`
}

// multiFit carries one multi-class fit from stage to stage.
type multiFit struct {
	ctx     context.Context
	c       *resolvedConfig
	env     learn.Env
	workers int
	k       int
	train   *learn.Data
	valid   *learn.Data
	m       *MultiModel
	rep     *MultiReport
	xt, xvt *mat.Dense
	// classRows are the training rows of each class.
	classRows [][]int
	subsets   []MultiSubset
	// logDensValid are the validation rows' component log-densities.
	logDensValid *mat.Dense
	// wx, wy and ww are the rows the static weights are fitted on.
	wx *mat.Dense
	wy []int
	ww []float64
}

// FitClasses trains AER's multi-class model (see Method.FitClasses) and
// returns it with its report.
func FitClasses(ctx context.Context, train, valid *learn.Data, k int, cfg *Config, env learn.Env) (*MultiModel, *MultiReport, error) {
	start := time.Now()
	c, err := cfg.resolve()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if k < 2 {
		return nil, nil, fmt.Errorf("aer: %w: %d classes, want at least 2", learn.ErrData, k)
	}
	if cfg == nil || cfg.Peers == nil {
		// The preset's peers that fit k classes themselves (logreg; svm
		// scores two classes only).
		c.Peers = slices.DeleteFunc(c.Peers, func(m learn.Method) bool {
			_, ok := m.(learn.ClassFitter)
			return !ok
		})
	}
	if err := checkMulti("training", train, k, true); err != nil {
		return nil, nil, err
	}
	rep := &MultiReport{Classes: k, Holdout: valid == nil}
	if train, valid, err = holdOut(train, valid, c, env); err != nil {
		return nil, nil, err
	}
	if rep.Holdout {
		if err := checkMulti("training", train, k, true); err != nil {
			return nil, nil, fmt.Errorf("%w (after holding out %v of the rows for validation)", err, c.Holdout)
		}
	}
	if err := checkMulti("validation", valid, k, false); err != nil {
		return nil, nil, err
	}
	if valid.Cols() != train.Cols() {
		return nil, nil, fmt.Errorf("aer: %w: validation data has %d features, training data %d", learn.ErrData, valid.Cols(), train.Cols())
	}
	f := &multiFit{ctx: ctx, c: c, env: env, workers: env.Threads(), k: k, train: train, valid: valid, rep: rep}
	var sets []multiSet
	err = runStages([]stage{
		{f.prepare, &rep.Seconds.Prepare},
		{f.fitMixture, &rep.Seconds.Mixture},
		{f.makeSubsets, &rep.Seconds.Subsets},
		{func() (err error) { sets, err = f.fitMembers(); return err }, &rep.Seconds.Members},
		{func() error { return f.choose(sets) }, nil},
	})
	if err != nil {
		return nil, nil, err
	}
	rep.Seconds.Total = time.Since(start).Seconds()
	f.m.report = rep
	return f.m, rep, nil
}

// checkMulti checks data of k classes: labels in 0..k-1 (every class
// present when all is set), finite features, non-negative weights.
func checkMulti(what string, d *learn.Data, k int, all bool) error {
	if d == nil || d.Rows() == 0 {
		return fmt.Errorf("aer: %w: %s data has no rows", learn.ErrData, what)
	}
	if len(d.Y) != d.Rows() {
		return fmt.Errorf("aer: %w: %s data has %d rows but %d labels", learn.ErrData, what, d.Rows(), len(d.Y))
	}
	if d.Cols() == 0 {
		return fmt.Errorf("aer: %w: %s data has no features", learn.ErrData, what)
	}
	count := make([]int, k)
	for i, y := range d.Y {
		if y < 0 || y >= k {
			return fmt.Errorf("aer: %w: %s label of row %d is %d, want 0..%d", learn.ErrData, what, i+1, y, k-1)
		}
		count[y]++
	}
	if all {
		for c, n := range count {
			if n == 0 {
				return fmt.Errorf("aer: %w: %s data has no row of class %d", learn.ErrData, what, c)
			}
		}
	}
	tmp := *d
	tmp.Y = make([]int, len(d.Y))
	if err := tmp.Check(what + " data"); err != nil {
		return fmt.Errorf("aer: %w", err)
	}
	return nil
}

// prepare imputes the training means and standardises the features.
func (f *multiFit) prepare() error {
	f.m = &MultiModel{k: f.k}
	var err error
	if f.xt, err = f.m.fitInputs(f.train.X, f.train.Features, f.rep.Holdout || f.env.ConsumeTrain, !f.c.NoStandardize); err != nil {
		return err
	}
	f.xvt = f.m.prepare(f.valid.X)
	f.classRows = make([][]int, f.k)
	for i, y := range f.train.Y {
		f.classRows[y] = append(f.classRows[y], i)
	}
	f.rep.TrainRows, f.rep.ValidRows = f.train.Rows(), f.valid.Rows()
	for _, rows := range f.classRows {
		f.rep.TrainClass = append(f.rep.TrainClass, len(rows))
	}
	return nil
}

// fitMixture fits the mixture on the training rows of every class.
func (f *multiFit) fitMixture() error {
	all := make([]int, f.train.Rows())
	for i := range all {
		all[i] = i
	}
	sel, err := f.c.mixtureOn(f.ctx, f.xt, all, &f.rep.MixtureReport, &f.rep.Warnings, f.env, f.workers)
	if err != nil {
		return err
	}
	f.m.mixture = sel.Model
	return nil
}

// makeSubsets ranks each class's rows under every component and draws
// the global and local subsets of each component.
func (f *multiFit) makeSubsets() error {
	f.env.Report("subsets", 0, 1)
	L := f.m.mixture.K()
	t := len(f.train.Y)
	for _, rows := range f.classRows {
		t = min(t, len(rows))
	}
	f.rep.Target = t
	extra := int(math.Floor(f.c.LocalRandom * float64(t)))
	// order[c][l] lists class c's rows by decreasing score under
	// component l (ties by row).
	order := make([][][]int, f.k)
	for c, rows := range f.classRows {
		scores, err := rowScores(f.m.mixture, f.xt, rows, f.c.Rank == RankResponsibility)
		if err != nil {
			return fmt.Errorf("aer: ranking the rows of class %d: %w", c, err)
		}
		order[c] = make([][]int, L)
		for l := range L {
			idx := make([]int, len(rows))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int {
				sa, sb := scores.At(a, l), scores.At(b, l)
				switch {
				case sa > sb:
					return -1
				case sa < sb:
					return 1
				}
				return 0
			})
			o := make([]int, len(rows))
			for i, j := range idx {
				o[i] = rows[j]
			}
			order[c][l] = o
		}
	}
	for l := range L {
		rnd := rng.Derive(f.env.Seed, streamMultiLocal+uint64(l))
		var global, local []int
		for c := range f.k {
			o := order[c][l]
			n := len(o)
			q := min(n, max((n+L-1)/L, t))
			global = append(global, o[:q]...)
			top := min(n, t)
			local = append(local, o[:top]...)
			if rest := o[top:]; len(rest) > 0 && extra > 0 {
				// floor(LocalRandom t) of the rest at random, in rank order.
				pick := min(extra, len(rest))
				perm := rnd.Perm(len(rest))[:pick]
				slices.Sort(perm)
				for _, j := range perm {
					local = append(local, rest[j])
				}
			}
		}
		slices.Sort(global)
		slices.Sort(local)
		f.subsets = append(f.subsets,
			MultiSubset{Kind: "global", Component: l, Rows: global},
			MultiSubset{Kind: "local", Component: l, Rows: local})
	}
	f.rep.Subsets = f.subsets
	f.env.Report("subsets", 1, 1)
	return nil
}

// classBalanced returns the row weights of the rows of d (labels y,
// weights w; nil: all 1) scaled so that every class present weighs the
// same, the total unchanged.
func classBalanced(y []int, w []float64, k int) []float64 {
	tot := make([]float64, k)
	sum := 0.0
	for i, c := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		tot[c] += wi
		sum += wi
	}
	present := 0
	for _, v := range tot {
		if v > 0 {
			present++
		}
	}
	out := make([]float64, len(y))
	for i, c := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if tot[c] > 0 {
			out[i] = wi * sum / (float64(present) * tot[c])
		}
	}
	return out
}

// multiSet is a set of multi-class members: the members of one member
// setting (or all settings pooled) with the peers.
type multiSet struct {
	members []MultiMember
	owner   []int
	point   []string
}

// fitMembers trains, for every learner, one member per subset and, when
// Global, one on every row with the classes balanced, and every peer
// once on every row, workers at a time, each on one goroutine with its
// own seed stream, so the models do not depend on scheduling.
func (f *multiFit) fitMembers() ([]multiSet, error) {
	c := f.c
	type job struct {
		g, place int // learner (or -1 - peer) and place
	}
	places := len(f.subsets)
	if *c.Global {
		places++
	}
	var jobs []job
	for g := range c.learners {
		for p := range places {
			jobs = append(jobs, job{g, p})
		}
	}
	for t := range c.Peers {
		jobs = append(jobs, job{-1 - t, -1})
	}
	fitters, err := multiFitters(c.learners, "member method %s has no multi-class model of its own: use multiclass ovr")
	if err != nil {
		return nil, err
	}
	peers, err := multiFitters(c.Peers, "peer %s has no multi-class model of its own: set peers=none or use multiclass ovr")
	if err != nil {
		return nil, err
	}
	all := &learn.Data{X: f.xt, Y: f.train.Y, W: f.train.W, Features: f.train.Features}
	balanced := &learn.Data{X: f.xt, Y: f.train.Y, W: classBalanced(f.train.Y, f.train.W, f.k), Features: f.train.Features}
	out := make([]MultiMember, len(jobs))
	f.env.Report("members", 0, len(jobs))
	_, err = learn.ForEach(f.ctx, f.workers, len(jobs), func() func(context.Context, int) error {
		return func(ctx context.Context, j int) error {
			jb := jobs[j]
			if jb.g < 0 {
				t := -1 - jb.g
				env := learn.Env{Seed: rng.DeriveSeed(rng.DeriveSeed(f.env.Seed, streamPeers), uint64(t)), Workers: 1, Logger: f.env.Logger}
				mb, err := peers[t].FitClasses(ctx, all, nil, f.k, env)
				if err != nil {
					return fmt.Errorf("aer: peer %s: %w", c.Peers[t].Name(), err)
				}
				out[j] = MultiMember{Method: c.Peers[t].Name(), Model: mb, Name: "all rows (" + c.Peers[t].Name() + ")", Component: -1}
				return nil
			}
			label := ""
			if len(c.learners) > 1 && *c.Pool {
				label = " [" + strings.Join(c.points[jb.g], ",") + "]"
			}
			d, name, comp := balanced, "all rows"+label, -1
			if jb.place < len(f.subsets) {
				s := f.subsets[jb.place]
				y := learn.Pick(f.train.Y, s.Rows)
				d = &learn.Data{X: learn.Rows(f.xt, s.Rows), Y: y, W: classBalanced(y, learn.Pick(f.train.W, s.Rows), f.k), Features: f.train.Features}
				name, comp = fmt.Sprintf("%s %d%s", s.Kind, s.Component, label), s.Component
			}
			seed := rng.DeriveSeed(rng.DeriveSeed(f.env.Seed, streamMembers+uint64(jb.g)*1000), uint64(jb.place))
			mb, err := fitters[jb.g].FitClasses(ctx, d, nil, f.k, learn.Env{Seed: seed, Workers: 1, Logger: f.env.Logger})
			if err != nil {
				return fmt.Errorf("aer: member %d (%s): %w", jb.place, name, err)
			}
			out[j] = MultiMember{Method: c.learners[jb.g].Name(), Model: mb, Name: name, Component: comp}
			return nil
		}
	}, func(done, total int) { f.env.Report("members", done, total) })
	if err != nil {
		return nil, err
	}
	var peerMembers []MultiMember
	if len(c.Peers) > 0 {
		peerMembers = out[len(c.learners)*places:]
	}
	var sets []multiSet
	for g := range c.learners {
		sets = append(sets, multiSet{members: out[g*places : (g+1)*places], point: c.points[g]})
	}
	if *c.Pool && len(sets) > 1 {
		pooled := multiSet{point: []string{"pool"}}
		for _, s := range sets {
			pooled.members = append(pooled.members, s.members...)
		}
		sets = []multiSet{pooled}
	}
	for i := range sets {
		s := &sets[i]
		s.members = append(slices.Clone(s.members), peerMembers...)
		s.owner = make([]int, len(s.members))
		for j, mb := range s.members {
			s.owner[j] = mb.Component
		}
	}
	return sets, nil
}

// multiFitters returns methods as multi-class fitters; the first that is
// none is an error wrapping learn.ErrParam, refuse (a format of its
// name) saying why.
func multiFitters(methods []learn.Method, refuse string) ([]learn.ClassFitter, error) {
	out := make([]learn.ClassFitter, len(methods))
	for j, m := range methods {
		mf, ok := m.(learn.ClassFitter)
		if !ok {
			return nil, fmt.Errorf("aer: %w: "+refuse, learn.ErrParam, m.Name())
		}
		out[j] = mf
	}
	return out, nil
}

// choose weighs and tunes every member set on the validation rows and
// keeps the one of lowest validation loss (the first on ties).
func (f *multiFit) choose(sets []multiSet) error {
	c := f.c
	t0 := time.Now()
	f.env.Report("weights", 0, len(sets))
	var err error
	if f.logDensValid, err = f.m.mixture.ComponentLogDensity(f.xvt, nil); err != nil {
		return fmt.Errorf("aer: validation log-densities: %w", err)
	}
	if err := finiteRows(f.logDensValid); err != nil {
		return fmt.Errorf("aer: validation log-densities: %w", err)
	}
	f.wx, f.wy, f.ww = f.xvt, f.valid.Y, f.valid.W
	if c.WeightData != WeightValid {
		var rows []int
		for _, s := range f.subsets {
			rows = append(rows, s.Rows...)
		}
		slices.Sort(rows)
		rows = slices.Compact(rows)
		f.wx, f.wy, f.ww = learn.Rows(f.xt, rows), learn.Pick(f.train.Y, rows), learn.Pick(f.train.W, rows)
	}
	f.rep.WeightRows = len(f.wy)
	vw := classBalanced(f.valid.Y, f.valid.W, f.k)
	best := -1
	var bestModel *MultiModel
	for g, s := range sets {
		outs, err := multiOutputs(s.members, f.xvt, f.k, f.workers)
		if err != nil {
			return err
		}
		comb := &multiCombiner{k: f.k, logit: c.space == ensemble.LogitSpace, owner: s.owner}
		wouts := outs
		if c.WeightData != WeightValid {
			if wouts, err = multiOutputs(s.members, f.wx, f.k, f.workers); err != nil {
				return err
			}
		}
		static := uniform(len(s.members))
		if !c.DynamicEnsemble {
			static = fitMultiStatic(wouts, f.wy, classBalanced(f.wy, f.ww, f.k), f.k, comb.logit, c.StepScale, c.Tol, c.MaxIter)
		}
		comb.static = static
		lambdas := make([]float64, 21)
		for i := range lambdas {
			lambdas[i] = float64(i) / 20
		}
		if c.DynamicEnsemble {
			lambdas = []float64{1}
		}
		bestLoss, bestLambda := math.Inf(1), 0.0
		var bestRule ensemble.DynamicSettings
		for _, rule := range c.candidates(f.m.mixture, colsOf(f.xvt)) {
			dyn, err := memberDynamic(f.logDensValid, rule, s.owner)
			if err != nil {
				return err
			}
			for _, lam := range lambdas {
				comb.lambda = lam
				loss := comb.loss(outs, dyn, f.valid.Y, vw)
				if loss < bestLoss-1e-12 {
					bestLoss, bestLambda, bestRule = loss, lam, rule
				}
			}
		}
		f.rep.Grid = append(f.rep.Grid, MultiGridPoint{Params: nonNil(s.point), ValidLoss: bestLoss, Lambda: bestLambda, Dynamic: bestRule})
		if best < 0 || bestLoss < f.rep.Grid[best].ValidLoss {
			best = g
			comb.lambda, comb.dynamic = bestLambda, bestRule
			bestModel = &MultiModel{core: f.m.core, k: f.k, members: s.members, comb: *comb}
			dyn, err := memberDynamic(f.logDensValid, bestRule, s.owner)
			if err != nil {
				return err
			}
			p := comb.proba(nil, outs, dyn)
			f.rep.ValidLoss = bestLoss
			f.rep.ValidBA = bayesBA(p, f.valid.Y, f.k)
		}
		f.env.Report("weights", g+1, len(sets))
	}
	bestModel.config = c.Config
	f.m = bestModel
	f.rep.Chosen = best
	f.rep.Config = c.Config
	f.rep.Static, f.rep.Dynamic, f.rep.Lambda = bestModel.comb.static, bestModel.comb.dynamic, bestModel.comb.lambda
	f.rep.Seconds.Weights = time.Since(t0).Seconds()
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// bayesBA is the balanced accuracy of predicting each row's class of
// largest probability over the class's mean probability (the multi-class
// Bayes decision).
func bayesBA(p []float64, y []int, k int) float64 {
	n := len(y)
	prior := make([]float64, k)
	for i := range n {
		for c := range k {
			prior[c] += p[i*k+c] / float64(n)
		}
	}
	hit, tot := make([]float64, k), make([]float64, k)
	for i, yi := range y {
		best, bv := 0, math.Inf(-1)
		for c := range k {
			if v := p[i*k+c] / max(prior[c], 1e-300); v > bv {
				best, bv = c, v
			}
		}
		tot[yi]++
		if best == yi {
			hit[yi]++
		}
	}
	s, m := 0.0, 0
	for c := range k {
		if tot[c] > 0 {
			s += hit[c] / tot[c]
			m++
		}
	}
	return s / float64(max(m, 1))
}

// stackRows returns a's rows followed by b's.
func stackRows(a, b *mat.Dense) *mat.Dense {
	ra, c := a.Dims()
	rb, _ := b.Dims()
	out := mat.NewDense(ra+rb, c, nil)
	out.Slice(0, ra, 0, c).(*mat.Dense).Copy(a)
	out.Slice(ra, ra+rb, 0, c).(*mat.Dense).Copy(b)
	return out
}
