package resample

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/neighbors"
)

// SMOTE is the Synthetic Minority Over-sampling TEchnique (Chawla et al.
// 2002) as imbalanced-learn 0.10's SMOTE: each synthetic row picks a
// minority row x uniformly, one of its KNeighbors nearest minority rows z
// uniformly and a gap u uniform in [0, 1), and is x + u·(z - x). Rows are
// made until the minority has floor(Ratio · m_maj) rows (balanced by
// default). With a Strategy, on any number of classes, each class the
// strategy names gets its target count of rows (see Strategy.Targets),
// made the same way from its own rows and their nearest neighbours within
// the class, as imbalanced-learn does class by class. The result is every
// row of the data, in order, then the synthetic rows, classes in
// increasing order.
//
// Neighbours are exact Euclidean ones among the class's rows (package
// neighbors), a row never its own neighbour (an exact duplicate is one, at
// distance 0); ties go to the smaller row number. Distances use the
// features as given: standardise them first when their scales differ.
//
// Missing values are refused: a minority row with a missing value is an
// error naming the row and feature (impute first; the smote-gbdt method
// imputes training means in front). Rows of the other classes are copied
// as they are.
//
// Weights: a synthetic row weighs the mean of its two parents' weights
// (1 when the data has none, so unweighted data stays unweighted); counts
// are of rows, as in imbalanced-learn.
type SMOTE struct {
	// KNeighbors is the number of nearest minority rows a synthetic row
	// may be drawn towards; 0 means 5.
	KNeighbors int
	// Ratio is the minority to majority row ratio after over-sampling,
	// in (0, 1], for labels 0 and 1; 0 means 1, balanced classes
	// (imbalanced-learn's "auto").
	Ratio float64
	// Strategy, when not empty, is the sampling_strategy in any form
	// ParseStrategy reads ("not majority", "1:60,2:60") and Ratio is not
	// used. "auto" on labels 0 and 1 is Ratio 1.
	Strategy string
}

// smoteStrategyHelp is the help of SMOTE's sampling_strategy.
const smoteStrategyHelp = "minority to majority row ratio after over-sampling, for two classes (1 = balanced); or auto, minority, not minority, not majority, all, or per-class row counts CLASS:N,CLASS:N (class indices from 0)"

// MaxNeighbors bounds k_neighbors: each minority row keeps that many
// neighbours.
const MaxNeighbors = 10_000

var smoteParams = learn.ParamTable[SMOTE]{
	learn.Int("k_neighbors", "nearest minority rows a synthetic row may be drawn towards", 1, MaxNeighbors, func(s *SMOTE) *int { return &s.KNeighbors }),
	strategyParam("sampling_strategy", OverSampling, smoteStrategyHelp,
		func(s *SMOTE) *float64 { return &s.Ratio }, func(s *SMOTE) *string { return &s.Strategy }),
}

func (s SMOTE) resolved() SMOTE {
	if s.KNeighbors == 0 {
		s.KNeighbors = 5
	}
	if s.Ratio == 0 {
		s.Ratio = 1
	}
	return s
}

// Name returns "smote".
func (s *SMOTE) Name() string { return "smote" }

// Set sets k_neighbors or sampling_strategy.
func (s *SMOTE) Set(key, value string) error { return smoteParams.Set(s, key, value) }

// Params lists k_neighbors and sampling_strategy.
func (s *SMOTE) Params() []learn.Param {
	cur, def := s.resolved(), SMOTE{}.resolved()
	return smoteParams.List(&cur, &def)
}

// Resample returns d's rows followed by the synthetic minority rows.
func (s *SMOTE) Resample(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, error) {
	out, _, err := s.resample(ctx, s.Name(), d, env, false)
	return out, err
}

// Trace resamples as Resample does and says where each row comes from:
// d's rows, then the synthetic ones with their two parents and gap.
func (s *SMOTE) Trace(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, []Origin, error) {
	return s.resample(ctx, s.Name(), d, env, true)
}

// resample over-samples d; with trace, it says where each row comes from
// (nil origins without).
func (s *SMOTE) resample(ctx context.Context, name string, d *learn.Data, env learn.Env, trace bool) (*learn.Data, []Origin, error) {
	r := s.resolved()
	p, err := planFor(name, OverSampling, r.Ratio, r.Strategy, d)
	if err != nil {
		return nil, nil, err
	}
	if p.binary {
		return r.binary(ctx, name, d, env, p.ratio, trace)
	}
	if r.KNeighbors < 1 {
		return nil, nil, fmt.Errorf("%s: %w: k_neighbors %d is below 1", name, learn.ErrParam, r.KNeighbors)
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	// Each class's rows, neighbours and draws, checked before any row is
	// made.
	type class struct {
		label, n int
		rows     []int
		nn       *neighbors.Result
	}
	byClass := classRows(d.Y)
	var todo []class
	n, total := d.Rows(), d.Rows()
	for _, t := range p.targets {
		if t.N == 0 {
			continue
		}
		if total += t.N; total > maxCount {
			return nil, nil, fmt.Errorf("%s: %w: sampling_strategy asks for %d rows in all, more than a sampler makes (at most %d)", name, learn.ErrData, total, maxCount)
		}
		rows := byClass[t.Class]
		nn, err := classNeighbors(name, d, rows, r.KNeighbors, fmt.Sprintf("rows of class %d", t.Class), env)
		if err != nil {
			return nil, nil, err
		}
		if err := learn.Interrupted(ctx); err != nil {
			return nil, nil, err
		}
		todo = append(todo, class{label: t.Class, n: t.N, rows: rows, nn: nn})
	}
	out := grow(d, total)
	var origins []Origin
	if trace {
		origins = make([]Origin, n, total)
		for i := range n {
			origins[i] = Origin{Row: i, A: -1, B: -1}
		}
	}
	at := n
	for _, c := range todo {
		origins = synthesize(out, d, c.rows, c.nn, c.n, at, c.label, rng.Derive(env.Seed, uint64(c.label)), origins, trace)
		at += c.n
	}
	return out, origins, nil
}

// binary is SMOTE on labels 0 and 1 with a ratio.
func (r SMOTE) binary(ctx context.Context, name string, d *learn.Data, env learn.Env, ratio float64, trace bool) (*learn.Data, []Origin, error) {
	if err := check(name, d); err != nil {
		return nil, nil, err
	}
	if r.KNeighbors < 1 || !(ratio > 0 && ratio <= 1) {
		return nil, nil, fmt.Errorf("%s: %w: k_neighbors %d or sampling_strategy %v out of range", name, learn.ErrParam, r.KNeighbors, ratio)
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	minLabel, minority, majority := classes(d.Y)
	// imbalanced-learn: int(n_majority * ratio - n_minority).
	nNew := int(float64(len(majority))*ratio - float64(len(minority)))
	if nNew < 0 {
		return nil, nil, fmt.Errorf("%s: %w: sampling_strategy %v asks for %d minority rows and there are already %d; raise it",
			name, learn.ErrData, ratio, len(minority)+nNew, len(minority))
	}
	n := d.Rows()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var origins []Origin
	if trace {
		origins = append(keptOrigins(all), make([]Origin, 0, nNew)...)
	}
	if nNew == 0 {
		return d.Subset(all), origins, nil
	}
	k := r.KNeighbors
	if k > len(minority)-1 {
		return nil, nil, fmt.Errorf("%s: %w: k_neighbors=%d needs at least %d minority rows, the data has %d", name, learn.ErrData, k, k+1, len(minority))
	}
	nn, err := classNeighbors(name, d, minority, k, "minority rows", env)
	if err != nil {
		return nil, nil, err
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, nil, err
	}
	out := grow(d, n+nNew)
	origins = synthesize(out, d, minority, nn, nNew, n, minLabel, rng.New(env.Seed), origins, trace)
	return out, origins, nil
}

// classNeighbors returns the k nearest neighbours of each of rows among
// rows (positions into rows), after checking that there are more than k
// of them (what names them in the error) and that they have no missing
// value.
func classNeighbors(name string, d *learn.Data, rows []int, k int, what string, env learn.Env) (*neighbors.Result, error) {
	if k > len(rows)-1 {
		return nil, fmt.Errorf("%s: %w: k_neighbors=%d needs at least %d %s, the data has %d", name, learn.ErrData, k, k+1, what, len(rows))
	}
	if err := checkFinite(name, d, rows); err != nil {
		return nil, err
	}
	ix, err := neighbors.NewRows(d.X, rows)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	nn, err := ix.SearchSelf(nil, k, &neighbors.Options{Workers: env.Threads()})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return nn, nil
}

// grow returns a table of rows rows whose first rows are d's (features,
// labels and weights; weights only when d has some).
func grow(d *learn.Data, rows int) *learn.Data {
	n, c := d.X.Dims()
	x := mat.NewDense(rows, c, nil)
	dst, src := x.RawMatrix(), d.X.RawMatrix()
	for i := range n {
		copy(dst.Data[i*c:(i+1)*c], src.Data[i*src.Stride:i*src.Stride+c])
	}
	y := make([]int, rows)
	copy(y, d.Y)
	var w []float64
	if d.W != nil {
		w = make([]float64, rows)
		copy(w, d.W)
	}
	return &learn.Data{X: x, Y: y, W: w, Features: d.Features}
}

// synthesize writes nNew synthetic rows of label into out from row at on:
// each picks one of rows uniformly, one of its k neighbours in nn
// uniformly and a gap, all drawn from draw in that order. With trace it
// appends their origins to origins, which it returns.
func synthesize(out, d *learn.Data, rows []int, nn *neighbors.Result, nNew, at, label int, draw *rand.Rand, origins []Origin, trace bool) []Origin {
	c, k := d.Cols(), nn.K
	dst, src := out.X.RawMatrix(), d.X.RawMatrix()
	for s := range nNew {
		p := draw.IntN(len(rows))
		q := nn.Index[p*k+draw.IntN(k)]
		gap := draw.Float64()
		a, b := rows[p], rows[q]
		xa := src.Data[a*src.Stride : a*src.Stride+c]
		xb := src.Data[b*src.Stride : b*src.Stride+c]
		row := dst.Data[(at+s)*c : (at+s+1)*c]
		for j := range row {
			row[j] = xa[j] + gap*(xb[j]-xa[j])
		}
		if trace {
			origins = append(origins, Origin{Row: -1, A: a, B: b, Gap: gap})
		}
		out.Y[at+s] = label
		if out.W != nil {
			out.W[at+s] = (d.W[a] + d.W[b]) / 2
		}
	}
	return origins
}

// SMOTETomek is SMOTE, then Tomek-link cleaning of the result, as
// imbalanced-learn's SMOTETomek: by default both ends of every link go
// (its TomekLinks(sampling_strategy="all")).
type SMOTETomek struct {
	SMOTE SMOTE
	// TomekStrategy is which ends of the links go: "all" (or empty) both,
	// "auto" the majority end only (on more classes, every end but the
	// minority's); or any cleaning form of Tomek's Strategy.
	TomekStrategy string
}

var smoteTomekParams = learn.ParamTable[SMOTETomek]{
	learn.Int("k_neighbors", "nearest minority rows a synthetic row may be drawn towards", 1, MaxNeighbors, func(s *SMOTETomek) *int { return &s.SMOTE.KNeighbors }),
	strategyParam("sampling_strategy", OverSampling, smoteStrategyHelp,
		func(s *SMOTETomek) *float64 { return &s.SMOTE.Ratio }, func(s *SMOTETomek) *string { return &s.SMOTE.Strategy }),
	strategyParam("tomek_strategy", Cleaning,
		"ends of the Tomek links removed after SMOTE: all = both, auto = all but the minority's; or majority, not minority, not majority, or a list of classes CLASS,CLASS",
		nil, func(s *SMOTETomek) *string { return &s.TomekStrategy }),
}

func (s SMOTETomek) resolved() SMOTETomek {
	s.SMOTE = s.SMOTE.resolved()
	if s.TomekStrategy == "" {
		s.TomekStrategy = "all"
	}
	return s
}

// Name returns "smote-tomek".
func (s *SMOTETomek) Name() string { return "smote-tomek" }

// Set sets k_neighbors, sampling_strategy or tomek_strategy.
func (s *SMOTETomek) Set(key, value string) error { return smoteTomekParams.Set(s, key, value) }

// Params lists k_neighbors, sampling_strategy and tomek_strategy.
func (s *SMOTETomek) Params() []learn.Param {
	cur, def := s.resolved(), SMOTETomek{}.resolved()
	return smoteTomekParams.List(&cur, &def)
}

// Resample over-samples d with SMOTE, then removes Tomek links.
func (s *SMOTETomek) Resample(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, error) {
	out, _, err := s.resample(ctx, d, env, false)
	return out, err
}

// Trace resamples as Resample does and says where each row comes from:
// the rows of d and the synthetic rows that no Tomek link removed.
func (s *SMOTETomek) Trace(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, []Origin, error) {
	return s.resample(ctx, d, env, true)
}

// resample is Resample, and with trace Trace.
func (s *SMOTETomek) resample(ctx context.Context, d *learn.Data, env learn.Env, trace bool) (*learn.Data, []Origin, error) {
	r := s.resolved()
	over, origins, err := r.SMOTE.resample(ctx, s.Name(), d, env, trace)
	if err != nil {
		return nil, nil, err
	}
	t := Tomek{Strategy: r.TomekStrategy}
	out, kept, err := t.resample(ctx, s.Name(), over, env)
	if err != nil {
		return nil, nil, err
	}
	return out, learn.Pick(origins, kept), nil
}
