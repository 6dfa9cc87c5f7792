package resample

import (
	"context"
	"fmt"
	"slices"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// RUS is random under-sampling, imbalanced-learn's RandomUnderSampler:
// every minority row stays, and floor(m_min / Ratio) majority rows are
// drawn at random without replacement, so the classes end Ratio:1
// (minority:majority) apart. Rows are counted, not weighted: kept rows
// keep their weights.
type RUS struct {
	// Ratio is the minority to majority row ratio after resampling, in
	// (0, 1]; 0 means 1, balanced classes (imbalanced-learn's "auto").
	Ratio float64
}

var rusParams = learn.ParamTable[RUS]{
	ratioParam("minority to majority row ratio after under-sampling (1 = balanced)", func(s *RUS) *float64 { return &s.Ratio }),
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

// Resample returns the minority rows and the drawn majority rows, in the
// order of d. The draw is a partial Fisher-Yates shuffle of the majority
// rows seeded by env.Seed.
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
	if err := check(s.Name(), d); err != nil {
		return nil, err
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	r := s.resolved()
	if !(r.Ratio > 0 && r.Ratio <= 1) {
		return nil, fmt.Errorf("rus: %w: sampling_strategy %v is not in (0, 1]", learn.ErrParam, r.Ratio)
	}
	_, minority, majority := classes(d.Y)
	n := int(float64(len(minority)) / r.Ratio)
	if n > len(majority) {
		return nil, fmt.Errorf("rus: %w: sampling_strategy %v asks for %d majority rows to go with %d minority rows, and there are only %d; raise it",
			learn.ErrData, r.Ratio, n, len(minority), len(majority))
	}
	drawn, err := Sample(majority, n, rng.New(env.Seed))
	if err != nil {
		return nil, err // not reached: n <= len(majority)
	}
	rows := append(drawn, minority...)
	slices.Sort(rows)
	return rows, nil
}
