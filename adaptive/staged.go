package adaptive

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
	"github.com/aer-go/aer/resample"
)

// Staged is AER's fit cut into the steps of Fit, for an engine that holds
// the training rows itself, spread over machines, and runs each step
// where the rows are (aer-beam's distributed fit). The engine:
//
//  1. imputes and standardises the features with the training rows'
//     column means and standard deviations (dataset.NewScaler);
//  2. fits the mixture on the standardised majority rows, or a sample of
//     MixtureRows of them (FitMixture);
//  3. ranks every majority row under each component (Scores) and builds
//     the 2L subsets of Fit (resample.Subsets' rules: the global subset
//     of component l, its top floor(m_n/L) majority rows and every
//     minority row, cleaned of Tomek links unless NoTomek; the local
//     subset, its top m_k majority rows, floor(LocalRandom m_k) drawn at
//     random from the rest, and every minority row);
//  4. trains every member on its place's rows (FitMember: each learner
//     on each subset, and, when Global, on all rows with the classes
//     balanced) and the peers (FitPeer);
//  5. weighs and tunes the members on the validation rows (Assemble).
//
// Every random choice flows from the seed given to NewStaged, so the
// same rows in the same places give the same model. Fit itself does not
// use Staged: it keeps the rows in one matrix and shares buffers between
// the steps.
type Staged struct {
	c    *resolvedConfig
	seed uint64
}

// NewStaged resolves cfg (nil: the defaults) for a fit with the given
// seed. A configuration whose static weights are fitted on the union of
// the subsets (WeightUnion, the paper preset's) needs every training
// row in one place and is refused: the engine fits them on the
// validation rows (weight_data=valid). Nor does it cross-tune, which
// fits every member again on folds of the training rows: it tunes on the
// validation rows alone, and records cross_tune -1; a cross_tune the
// configuration sets is refused.
func NewStaged(cfg *Config, seed uint64) (*Staged, error) {
	c, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	if cfg != nil && cfg.CrossTune >= 2 {
		return nil, fmt.Errorf("aer: %w: cross_tune=%d fits the members again on folds of the training rows, which a staged fit does not hold in one place; it tunes on the validation rows (cross_tune=-1)",
			learn.ErrParam, cfg.CrossTune)
	}
	c.CrossTune, c.CrossTuneComponents, c.CrossTuneMaxBin = -1, -1, -1
	if c.WeightData != WeightValid {
		return nil, fmt.Errorf("aer: %w: weight_data=%s fits the static weights on the union of the subsets, which a staged fit does not hold in one place; set weight_data=valid",
			learn.ErrParam, c.WeightData)
	}
	return &Staged{c: c, seed: seed}, nil
}

// Config returns the resolved configuration (every default filled in).
func (s *Staged) Config() Config { return s.c.Config }

// MixtureRows is the number of majority rows the mixture is fitted on:
// with more, a uniform sample of that many; 0 means all.
func (s *Staged) MixtureRows() int { return max(s.c.MixtureRows, 0) }

// Standardize says whether the features are standardised (they are
// always imputed with the training means).
func (s *Staged) Standardize() bool { return !s.c.NoStandardize }

// Tomek says whether the global subsets are cleaned of Tomek links.
func (s *Staged) Tomek() bool { return !s.c.NoTomek }

// LocalRandom is the share of m_k majority rows drawn at random into each
// local subset.
func (s *Staged) LocalRandom() float64 {
	if s.c.LocalRandom == 0 {
		return 0.5
	}
	return s.c.LocalRandom
}

// Learners is the number of member settings: each trains one member per
// place.
func (s *Staged) Learners() int { return len(s.c.learners) }

// Global says whether each learner also trains a member on all training
// rows with the classes balanced (place 2L).
func (s *Staged) Global() bool { return *s.c.Global }

// Peers is the number of peer methods, each trained once on all training
// rows.
func (s *Staged) Peers() int { return len(s.c.Peers) }

// FitMixture fits the mixture of the majority class on x, standardised
// majority rows (all nMajority of them, or a sample of MixtureRows),
// choosing L by BIC, and returns the selection: the model, the BIC table
// and what to warn about (Selection.Warnings). rep, when not nil,
// receives the pool, the covariance and the warnings as Fit's report has
// them.
func (s *Staged) FitMixture(ctx context.Context, x *mat.Dense, nMajority int, rep *Report, env learn.Env) (*mixture.Selection, error) {
	if rep == nil {
		rep = &Report{}
	}
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("aer: %w: no majority rows for the mixture", learn.ErrData)
	}
	env.Seed = s.seed
	return s.c.selectMixture(ctx, x, nMajority, &rep.MixtureReport, &rep.Warnings, env, env.Threads())
}

// Scores ranks the rows of x (imputed and standardised) under each
// component of mx, as the subsets rank the majority rows: one row per
// row of x, one column per component, higher first (the log-density
// under the component alone, or the responsibility with rank=
// responsibility).
func (s *Staged) Scores(mx *mixture.Model, x *mat.Dense) (*mat.Dense, error) {
	r, _ := x.Dims()
	rows := make([]int, r)
	for i := range rows {
		rows[i] = i
	}
	return rowScores(mx, x, rows, s.c.Rank == RankResponsibility)
}

// Tomek removes from rows (indices into x, labels y) the majority end of
// every Tomek link among them, as the global subsets are cleaned, and
// returns the rows kept and the number removed.
func (s *Staged) CleanTomek(x *mat.Dense, y []int, rows []int, workers int) ([]int, int, error) {
	links, err := resample.TomekLinks(x, y, rows, &resample.TomekOptions{Workers: workers})
	if err != nil {
		return nil, 0, fmt.Errorf("aer: tomek links: %w", err)
	}
	kept := resample.DropMajority(rows, links)
	return kept, len(rows) - len(kept), nil
}

// BalancedWeights returns d's row weights (nil: all 1) with the minority
// rows' scaled so that both classes weigh the same: the weights of the
// member on all rows.
func BalancedWeights(d *learn.Data) []float64 { return balancedWeights(d) }

// MemberName is the name Fit gives learner g's member on place k: the
// subset's kind and component (kind resample.Global or resample.Local),
// or "all rows" for the place of every row (component < 0).
func (s *Staged) MemberName(g int, kind string, component int) string {
	label := ""
	if len(s.c.learners) > 1 && *s.c.Pool {
		label = " [" + strings.Join(s.c.points[g], ",") + "]"
	}
	if component < 0 {
		return "all rows" + label
	}
	return fmt.Sprintf("%s %d%s", kind, component, label)
}

// FitMember trains learner g's member of place k on d (imputed and
// standardised rows): places 0..2L-1 are the subsets in Fit's order
// (2l global, 2l+1 local), place 2L all rows with balanced weights
// (BalancedWeights). Its seed is the one Fit gives it; env's seed is
// ignored.
func (s *Staged) FitMember(ctx context.Context, g, k int, name string, d *learn.Data, env learn.Env) (Member, error) {
	if g < 0 || g >= len(s.c.learners) {
		return Member{}, fmt.Errorf("aer: no member setting %d (have %d)", g, len(s.c.learners))
	}
	env.Seed = rng.DeriveSeed(rng.DeriveSeed(s.seed, streamMembers+uint64(g)*1000), uint64(k))
	mb, err := s.c.learners[g].Fit(ctx, d, nil, env)
	if err != nil {
		return Member{}, fmt.Errorf("aer: member %d (%s): %w", k, name, err)
	}
	return Member{Method: s.c.learners[g].Name(), Model: mb, Name: name}, nil
}

// FitPeer trains peer t on d (imputed and standardised rows, their own
// weights), with the seed Fit gives it, on the subsample of at most
// Config.PeerRows rows that Fit takes.
func (s *Staged) FitPeer(ctx context.Context, t int, d *learn.Data, env learn.Env) (Member, error) {
	if t < 0 || t >= len(s.c.Peers) {
		return Member{}, fmt.Errorf("aer: no peer %d (have %d)", t, len(s.c.Peers))
	}
	pm := s.c.Peers[t]
	peerSeed := rng.DeriveSeed(s.seed, streamPeers)
	env.Seed = rng.DeriveSeed(peerSeed, uint64(t))
	if s.c.PeerRows > 0 && len(d.Y) > s.c.PeerRows {
		rows := stratifiedSample(d.Y, s.c.PeerRows, rng.DeriveSeed(peerSeed, streamPeerRows))
		d = &learn.Data{X: learn.Rows(d.X, rows), Y: learn.Pick(d.Y, rows), W: learn.Pick(d.W, rows)}
	}
	mb, err := pm.Fit(ctx, d, nil, env)
	if err != nil {
		return Member{}, fmt.Errorf("aer: peer %s: %w", pm.Name(), err)
	}
	return Member{Method: pm.Name(), Model: mb, Name: "all rows (" + pm.Name() + ")"}, nil
}

// Parts are what the engine's steps made, for Assemble.
type Parts struct {
	// Means impute missing values (the training rows' column means, raw
	// scale); Scaler standardises (nil when not Standardize).
	Means  []float64
	Scaler *dataset.Scaler
	// Mixture is FitMixture's selection.
	Mixture *mixture.Selection
	// Members are each learner's members, by place (2L subsets, then all
	// rows when Global); Peers the peers in order.
	Members [][]Member
	Peers   []Member
	// Subsets describe the 2L subsets in place order (counts only: Rows
	// may be nil).
	Subsets []resample.Subset
	// TrainRows and TrainPositives count the training rows; Prior is
	// their weighted positive share (learn.Data.PositiveShare).
	TrainRows, TrainPositives int
	Prior                     float64
	// MixtureRows is the sample the mixture was fitted on, when smaller
	// than the majority rows; Warnings are the steps' (FitMixture's report).
	MixtureRows int
	Warnings    []string
}

// Assemble weighs and tunes the members on valid (raw features, as the
// training rows were read) and returns the model, as Fit's last steps
// do, with its report.
func (s *Staged) Assemble(ctx context.Context, p *Parts, valid *learn.Data, env learn.Env) (*Model, *Report, error) {
	start := time.Now()
	if err := checkData("validation", valid, 1); err != nil {
		return nil, nil, err
	}
	if p.Mixture == nil || p.Mixture.Model == nil {
		return nil, nil, fmt.Errorf("aer: assemble: no mixture")
	}
	d := len(p.Means)
	if valid.Cols() != d || (p.Scaler != nil && len(p.Scaler.Mean) != d) || p.Mixture.Model.Dim() != d {
		return nil, nil, fmt.Errorf("aer: assemble: %d means, validation data of %d features, mixture of %d", d, valid.Cols(), p.Mixture.Model.Dim())
	}
	L := p.Mixture.Model.K()
	if len(p.Members) != len(s.c.learners) {
		return nil, nil, fmt.Errorf("aer: assemble: members of %d settings, want %d", len(p.Members), len(s.c.learners))
	}
	places := 2 * L
	if *s.c.Global {
		places++
	}
	for g, ms := range p.Members {
		if len(ms) != places {
			return nil, nil, fmt.Errorf("aer: assemble: setting %d has %d members, want %d", g, len(ms), places)
		}
	}
	if len(p.Peers) != len(s.c.Peers) {
		return nil, nil, fmt.Errorf("aer: assemble: %d peers, want %d", len(p.Peers), len(s.c.Peers))
	}
	env.Seed = s.seed
	f := &fitRun{ctx: ctx, c: s.c, env: env, workers: env.Threads(), valid: valid, prior: p.Prior,
		rep: &Report{Holdout: false, MixtureReport: MixtureReport{MixtureRows: p.MixtureRows}, Subsets: p.Subsets}}
	f.m = &Model{core: core{means: p.Means, scaler: p.Scaler, mixture: p.Mixture.Model}}
	f.rep.TrainRows, f.rep.TrainPositives = p.TrainRows, p.TrainPositives
	f.rep.ValidRows, f.rep.ValidPositives = len(valid.Y), count1(valid.Y)
	f.rep.Mixture = p.Mixture
	f.rep.Pool = poolOf(p.Mixture)
	f.rep.Covariance = p.Mixture.Model.Covariance.String()
	f.rep.Warnings = p.Warnings
	f.xvt = f.m.prepare(valid.X)
	if err := f.weightRows(); err != nil {
		return nil, nil, err
	}
	owner := make([]int, places)
	for k := range owner {
		owner[k] = -1
		if k < 2*L {
			owner[k] = k / 2
		}
	}
	f.sets, f.points = s.c.groupSets(p.Members, owner, p.Peers)
	return f.conclude(start)
}

// poolOf is the sizes a selection compared.
func poolOf(sel *mixture.Selection) []int {
	var pool []int
	for _, c := range sel.Candidates {
		pool = append(pool, c.Components)
	}
	return pool
}
