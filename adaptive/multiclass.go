package adaptive

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

// Seed streams of the multi-class fit, beside Fit's (which it shares for
// the hold-out split, the mixture and the members).
const streamMultiLocal = 1<<20 + 1

// MultiReport describes a multi-class fit (FitMulti); it encodes to JSON.
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
	// Pool, Mixture, MixtureRows and Covariance are the mixture's, fitted
	// on the training rows of every class, as Report has them.
	Pool        []int              `json:"pool"`
	Mixture     *mixture.Selection `json:"mixture"`
	MixtureRows int                `json:"mixture_rows,omitempty"`
	Covariance  string             `json:"covariance"`
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

// FitMulti trains AER's own multi-class model (learn.MultiFitter) on
// train, whose labels are 0..k-1; valid, when nil, is a stratified
// share Config.Holdout of the training rows held out. The fit mirrors
// Fit's:
//
//  1. the features are imputed and standardised;
//  2. a Gaussian mixture is fitted to the training rows of every class
//     (L by BIC, as Fit's mixture of the majority rows);
//  3. for each component l, two class-balanced subsets: the global one
//     takes from each class c its max(ceil(n_c/L), min(n_c, t)) rows
//     of highest log-density under component l, t the smallest class's
//     rows; the local one its min(n_c, t) best rows and
//     floor(LocalRandom t) more drawn at random from the rest of the
//     class. A class of t rows or fewer is whole in every subset (as
//     the minority is in Fit's). Row weights make every class weigh the
//     same in a subset;
//  4. a multi-class member (the member method's learn.MultiFitter:
//     softmax boosted trees by default) is trained on each subset, one
//     on every row with the classes balanced (Config.Global) and each
//     peer's multi-class model on every row (Config.Peers);
//  5. static weights on the simplex minimise the class-balanced
//     log-loss of the combined probabilities on the validation rows
//     (or the union of the subsets, WeightUnion), by projected gradient
//     descent from uniform weights;
//  6. the likelihood rule (Config.Likelihood: tempered chooses T among
//     TemperedGrid and uniform) and lambda (0.05 grid) mixing the static
//     weights with the per-row likelihood weights of the components
//     (each split over the component's two members) are chosen by the
//     same loss on the validation rows.
//
// Members are combined in Config.Space: log-probabilities summed and
// normalised by a softmax (logit), or probabilities averaged
// (probability). Every random choice flows from env.Seed; the model does
// not depend on env.Workers.
func (m *Method) FitMulti(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	if err := m.cfg.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	model, _, err := FitMulti(ctx, train, valid, k, &m.cfg, env)
	if err != nil {
		return nil, err
	}
	return model, nil
}

// LoadMulti decodes a model written by MultiModel.MarshalBinary.
func (m *Method) LoadMulti(payload []byte) (learn.Model, error) {
	model, err := LoadMulti(payload)
	if err != nil {
		return nil, err
	}
	if m.locked && !model.config.DynamicEnsemble {
		return nil, fmt.Errorf("aer: the payload's dynamic_ensemble setting does not match the method %s", m.name)
	}
	return model, nil
}

// PreferDecomposition keeps one-vs-rest binary AERs AER's default for
// multi-class labels (multiclass.Decomposer), the model of FitMulti
// reachable as the native strategy: on the 5 shared multi-class tables x
// seeds 0-9 its balanced accuracy was within noise of one-vs-rest's
// (+0.0009, standard error 0.0035), its MAUC higher (+0.0043, 0.0020).
// (The strategy is written out: package multiclass's tests use the
// registered methods, so adaptive does not import it.)
func (m *Method) PreferDecomposition() string { return "ovr" }

var _ learn.MultiFitter = (*Method)(nil)

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

// FitMulti trains AER's multi-class model (see Method.FitMulti) and
// returns it with its report.
func FitMulti(ctx context.Context, train, valid *learn.Data, k int, cfg *Config, env learn.Env) (*MultiModel, *MultiReport, error) {
	start := time.Now()
	c, err := cfg.resolve()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if k < 2 {
		return nil, nil, fmt.Errorf("aer: %w: %d classes, want at least 2", learn.ErrData, k)
	}
	if err := checkMulti("training", train, k, true); err != nil {
		return nil, nil, err
	}
	rep := &MultiReport{Classes: k}
	if valid == nil {
		parts, err := dataset.StratifiedSplit(train.Y, []float64{1 - c.Holdout, c.Holdout}, rng.DeriveSeed(env.Seed, streamHoldout))
		if err != nil {
			return nil, nil, fmt.Errorf("aer: hold-out split: %w", err)
		}
		train, valid = train.Subset(parts[0]), train.Subset(parts[1])
		rep.Holdout = true
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
	for _, stage := range []struct {
		run     func() error
		seconds *float64
	}{
		{f.prepare, &rep.Seconds.Prepare},
		{f.fitMixture, &rep.Seconds.Mixture},
		{f.makeSubsets, &rep.Seconds.Subsets},
	} {
		t0 := time.Now()
		if err := stage.run(); err != nil {
			return nil, nil, err
		}
		*stage.seconds = time.Since(t0).Seconds()
	}
	t0 := time.Now()
	sets, err := f.fitMembers()
	if err != nil {
		return nil, nil, err
	}
	rep.Seconds.Members = time.Since(t0).Seconds()
	if err := f.choose(sets); err != nil {
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
	x := f.train.X
	f.m = &MultiModel{k: f.k, means: dataset.ColumnMeans(x)}
	f.xt = x
	if !f.rep.Holdout && !f.env.ConsumeTrain {
		f.xt = mat.DenseCopyOf(x)
	}
	dataset.Impute(f.xt, f.m.means)
	if !f.c.NoStandardize {
		f.m.scaler = dataset.FitScaler(f.xt)
		if err := f.m.scaler.Check(f.train.Features); err != nil {
			return fmt.Errorf("aer: %w: training data: %v", learn.ErrData, err)
		}
		f.m.scaler.Transform(f.xt)
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
	mixRows := all
	if c := f.c; c.MixtureRows > 0 && len(all) > c.MixtureRows {
		mixRows = sampleRows(all, c.MixtureRows, rng.DeriveSeed(f.env.Seed, streamMixtureRows))
		f.rep.MixtureRows = len(mixRows)
	}
	var rep Report
	sel, err := f.c.selectMixture(f.ctx, learn.Rows(f.xt, mixRows), len(all), &rep, f.env, f.workers)
	if err != nil {
		return err
	}
	f.rep.Pool, f.rep.Mixture, f.rep.Covariance, f.rep.Warnings = rep.Pool, rep.Mixture, rep.Covariance, rep.Warnings
	f.m.mixture = sel.Model
	f.env.Report("mixture", 1, 1)
	return nil
}

// makeSubsets ranks each class's rows under every component and draws
// the global and local subsets of each component.
func (f *multiFit) makeSubsets() error {
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
	fitters := make([]learn.MultiFitter, len(c.learners))
	for g, lm := range c.learners {
		mf, ok := lm.(learn.MultiFitter)
		if !ok {
			return nil, fmt.Errorf("aer: %w: member method %s has no multi-class model of its own: use multiclass ovr", learn.ErrParam, lm.Name())
		}
		fitters[g] = mf
	}
	peers := make([]learn.MultiFitter, len(c.Peers))
	for t, pm := range c.Peers {
		mf, ok := pm.(learn.MultiFitter)
		if !ok {
			return nil, fmt.Errorf("aer: %w: peer %s has no multi-class model of its own: set peers=none or use multiclass ovr", learn.ErrParam, pm.Name())
		}
		peers[t] = mf
	}
	all := &learn.Data{X: f.xt, Y: f.train.Y, W: f.train.W, Features: f.train.Features}
	balanced := &learn.Data{X: f.xt, Y: f.train.Y, W: classBalanced(f.train.Y, f.train.W, f.k), Features: f.train.Features}
	out := make([]MultiMember, len(jobs))
	_, err := learn.ForEach(f.ctx, f.workers, len(jobs), func() func(context.Context, int) error {
		return func(ctx context.Context, j int) error {
			jb := jobs[j]
			if jb.g < 0 {
				t := -1 - jb.g
				env := learn.Env{Seed: rng.DeriveSeed(rng.DeriveSeed(f.env.Seed, streamPeers), uint64(t)), Workers: 1, Logger: f.env.Logger}
				mb, err := peers[t].FitMulti(ctx, all, nil, f.k, env)
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
			mb, err := fitters[jb.g].FitMulti(ctx, d, nil, f.k, learn.Env{Seed: seed, Workers: 1, Logger: f.env.Logger})
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

// choose weighs and tunes every member set on the validation rows and
// keeps the one of lowest validation loss (the first on ties).
func (f *multiFit) choose(sets []multiSet) error {
	c := f.c
	t0 := time.Now()
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
			bestModel = &MultiModel{k: f.k, means: f.m.means, scaler: f.m.scaler, mixture: f.m.mixture, members: s.members, comb: *comb}
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

// multiOutputs returns every member's class probabilities on x, one
// rows x k block per member (member-major), members scored workers at a
// time.
func multiOutputs(members []MultiMember, x *mat.Dense, k, workers int) ([][]float64, error) {
	out := make([][]float64, len(members))
	_, err := learn.ForEach(context.Background(), workers, len(members), func() func(context.Context, int) error {
		return func(_ context.Context, j int) error {
			p, err := members[j].Model.PredictProba(x, nil)
			if err != nil {
				return fmt.Errorf("aer: member %d (%s): %w", j, members[j].Name, err)
			}
			out[j] = p
			return nil
		}
	}, nil)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// memberDynamic returns the rows x members likelihood weights of rule:
// each component's weight split over its members, none for members of
// no component.
func memberDynamic(logDens *mat.Dense, rule ensemble.DynamicSettings, owner []int) (*mat.Dense, error) {
	comp, _, err := ensemble.ComponentWeights(nil, logDens, rule)
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	d, err := ensemble.MemberWeights(nil, comp, owner)
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	return d, nil
}

// logFloor bounds the members' log-probabilities in logit space.
const logFloor = -34.538776394910684 // log(1e-15)

// multiCombiner mixes the members' class probabilities: per row, the
// member weights lambda d_i + (1 - lambda) static (d_i the row's
// likelihood weights), applied to log-probabilities and normalised by a
// softmax (logit), or to probabilities.
type multiCombiner struct {
	k       int
	logit   bool
	static  []float64
	owner   []int
	lambda  float64
	dynamic ensemble.DynamicSettings
}

// proba writes the combined probabilities of the rows (outs: member-major
// blocks of rows x k) into dst, rows x k, and returns it.
func (c *multiCombiner) proba(dst []float64, outs [][]float64, dyn *mat.Dense) []float64 {
	k := c.k
	rows := len(outs[0]) / k
	if cap(dst) < rows*k {
		dst = make([]float64, rows*k)
	}
	dst = dst[:rows*k]
	w := make([]float64, len(outs))
	for i := range rows {
		c.rowWeights(w, dyn, i)
		c.row(dst[i*k:(i+1)*k], outs, w, i)
	}
	return dst
}

// rowWeights writes row i's member weights into w.
func (c *multiCombiner) rowWeights(w []float64, dyn *mat.Dense, i int) {
	for j := range w {
		w[j] = (1 - c.lambda) * c.static[j]
	}
	if c.lambda > 0 {
		for j := range w {
			w[j] += c.lambda * dyn.At(i, j)
		}
	}
}

// row combines row i of the members' outputs with weights w into p.
func (c *multiCombiner) row(p []float64, outs [][]float64, w []float64, i int) {
	k := c.k
	clear(p)
	for j, o := range outs {
		if w[j] == 0 {
			continue
		}
		for cl, v := range o[i*k : (i+1)*k] {
			if c.logit {
				v = max(math.Log(v), logFloor)
			}
			p[cl] += w[j] * v
		}
	}
	if c.logit {
		hi := p[0]
		for _, v := range p[1:] {
			hi = max(hi, v)
		}
		for cl, v := range p {
			p[cl] = math.Exp(v - hi)
		}
	}
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	if !(sum > 0) {
		for cl := range p {
			p[cl] = 1 / float64(k)
		}
		return
	}
	for cl := range p {
		p[cl] /= sum
	}
}

// loss is the weighted (vw) mean of -log p_y of the combined
// probabilities.
func (c *multiCombiner) loss(outs [][]float64, dyn *mat.Dense, y []int, vw []float64) float64 {
	k := c.k
	p := make([]float64, k)
	w := make([]float64, len(outs))
	s, sw := 0.0, 0.0
	for i, yi := range y {
		c.rowWeights(w, dyn, i)
		c.row(p, outs, w, i)
		s += vw[i] * -max(math.Log(p[yi]), logFloor)
		sw += vw[i]
	}
	return s / sw
}

// fitMultiStatic returns the static weights on the simplex minimising
// the weighted (w) mean log-loss of the members' outputs (outs) combined
// with them, by projected gradient descent from uniform weights: steps
// of stepScale/||g|| halved until the loss falls, at most maxIter, until
// the loss changes by at most tol of itself.
func fitMultiStatic(outs [][]float64, y []int, w []float64, k int, logit bool, stepScale, tol float64, maxIter int) []float64 {
	M := len(outs)
	n := len(y)
	// z[j][i*k+c]: member j's output (log-probability in logit space).
	z := outs
	if logit {
		z = make([][]float64, M)
		for j, o := range outs {
			z[j] = make([]float64, len(o))
			for t, v := range o {
				z[j][t] = max(math.Log(v), logFloor)
			}
		}
	}
	sw := 0.0
	for _, v := range w {
		sw += v
	}
	score := make([]float64, k)
	eval := func(wt []float64, grad []float64) float64 {
		if grad != nil {
			clear(grad)
		}
		loss := 0.0
		for i := range n {
			clear(score)
			for j := range M {
				if wt[j] == 0 && grad == nil {
					continue
				}
				for c := range k {
					score[c] += wt[j] * z[j][i*k+c]
				}
			}
			yi := y[i]
			if logit {
				hi := score[0]
				for _, v := range score[1:] {
					hi = max(hi, v)
				}
				sum := 0.0
				for c := range k {
					score[c] = math.Exp(score[c] - hi)
					sum += score[c]
				}
				for c := range k {
					score[c] /= sum
				}
				loss += w[i] * -max(math.Log(score[yi]), logFloor)
				if grad != nil {
					for j := range M {
						g := -z[j][i*k+yi]
						for c := range k {
							g += score[c] * z[j][i*k+c]
						}
						grad[j] += w[i] * g / sw
					}
				}
			} else {
				py := max(score[yi], 1e-15)
				loss += w[i] * -math.Log(py)
				if grad != nil {
					for j := range M {
						grad[j] -= w[i] * z[j][i*k+yi] / py / sw
					}
				}
			}
		}
		return loss / sw
	}
	wt := uniform(M)
	grad := make([]float64, M)
	cand := make([]float64, M)
	step := make([]float64, M)
	loss := eval(wt, grad)
	for range maxIter {
		norm := 0.0
		for _, g := range grad {
			norm += g * g
		}
		norm = math.Sqrt(norm)
		if !(norm > 0) || math.IsInf(norm, 0) {
			break
		}
		eta := stepScale / norm
		improved := false
		for range 30 {
			for j := range step {
				step[j] = wt[j] - eta*grad[j]
			}
			ensemble.ProjectSimplex(cand, step)
			if l := eval(cand, nil); l < loss {
				improved = true
				break
			}
			eta /= 2
		}
		if !improved {
			break
		}
		copy(wt, cand)
		prev := loss
		loss = eval(wt, grad)
		if tol >= 0 && math.Abs(prev-loss) <= tol*math.Abs(prev) {
			break
		}
	}
	return wt
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
