package resample

import (
	"context"
	"fmt"
	"slices"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// RUS is random under-sampling, imbalanced-learn's RandomUnderSampler.
// On two classes with a ratio: every minority row stays, and
// floor(m_min / Ratio) majority rows are drawn at random without
// replacement, so the classes end Ratio:1 (minority:majority) apart. With
// a Strategy, on any number of classes: each class the strategy names
// keeps its target count of rows (see Strategy.Targets), drawn at random
// without replacement, and the other classes keep every row. Rows are
// counted, not weighted: kept rows keep their weights.
type RUS struct {
	// Ratio is the minority to majority row ratio after resampling, in
	// (0, 1], for labels 0 and 1; 0 means 1, balanced classes
	// (imbalanced-learn's "auto").
	Ratio float64
	// Strategy, when not empty, is the sampling_strategy in any form
	// ParseStrategy reads ("not minority", "0:30,2:40") and Ratio is not
	// used. "auto" on labels 0 and 1 is Ratio 1.
	Strategy string
}

var rusParams = learn.ParamTable[RUS]{
	strategyParam("sampling_strategy", UnderSampling,
		"minority to majority row ratio after under-sampling, for two classes (1 = balanced); or auto, majority, not minority, not majority, all, or per-class row counts CLASS:N,CLASS:N (class indices from 0)",
		func(s *RUS) *float64 { return &s.Ratio }, func(s *RUS) *string { return &s.Strategy }),
}

func (s RUS) resolved() RUS {
	if s.Ratio == 0 {
		s.Ratio = 1
	}
	return s
}

// Name returns "rus".
func (s *RUS) Name() string { return "rus" }

// Set sets sampling_strategy.
func (s *RUS) Set(key, value string) error { return rusParams.Set(s, key, value) }

// Params lists sampling_strategy.
func (s *RUS) Params() []learn.Param {
	cur, def := s.resolved(), RUS{}.resolved()
	return rusParams.List(&cur, &def)
}

// Resample returns the rows of d it keeps, in the order of d. The draw is
// a partial Fisher-Yates shuffle of the majority rows seeded by env.Seed
// (two classes with a ratio), or of each named class's rows seeded by
// rng.Derive(env.Seed, class), so that a class's rows do not depend on
// the other classes.
func (s *RUS) Resample(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, error) {
	rows, err := s.rows(ctx, d, env)
	if err != nil {
		return nil, err
	}
	return d.Subset(rows), nil
}

// Trace resamples as Resample does and says where each row comes from
// (every row is one of d's).
func (s *RUS) Trace(ctx context.Context, d *learn.Data, env learn.Env) (*learn.Data, []Origin, error) {
	rows, err := s.rows(ctx, d, env)
	if err != nil {
		return nil, nil, err
	}
	return d.Subset(rows), keptOrigins(rows), nil
}

// rows returns the rows of d that RUS keeps, in order.
func (s *RUS) rows(ctx context.Context, d *learn.Data, env learn.Env) ([]int, error) {
	r := s.resolved()
	p, err := planFor(s.Name(), UnderSampling, r.Ratio, r.Strategy, d)
	if err != nil {
		return nil, err
	}
	if p.binary {
		return binaryUnder(ctx, d, env, p.ratio)
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	byClass := classRows(d.Y)
	keep := make([]bool, d.Rows())
	for i := range keep {
		keep[i] = true
	}
	var rows []int
	for _, t := range p.targets {
		for _, i := range byClass[t.Class] {
			keep[i] = false
		}
		drawn, err := Sample(byClass[t.Class], t.N, rng.Derive(env.Seed, uint64(t.Class)))
		if err != nil {
			return nil, fmt.Errorf("rus: %w", err) // not reached: Targets checked N
		}
		rows = append(rows, drawn...)
	}
	for i, k := range keep {
		if k {
			rows = append(rows, i)
		}
	}
	slices.Sort(rows)
	return rows, nil
}

// binaryUnder is RUS on labels 0 and 1 with a ratio.
func binaryUnder(ctx context.Context, d *learn.Data, env learn.Env, ratio float64) ([]int, error) {
	if err := check("rus", d); err != nil {
		return nil, err
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	_, minority, majority := classes(d.Y)
	n := int(float64(len(minority)) / ratio)
	if n > len(majority) {
		return nil, fmt.Errorf("rus: %w: sampling_strategy %v asks for %d majority rows to go with %d minority rows, and there are only %d; raise it",
			learn.ErrData, ratio, n, len(minority), len(majority))
	}
	drawn, err := Sample(majority, n, rng.New(env.Seed))
	if err != nil {
		return nil, err // not reached: n <= len(majority)
	}
	rows := append(drawn, minority...)
	slices.Sort(rows)
	return rows, nil
}
