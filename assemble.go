package aer

import (
	"context"
	"fmt"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/pipeline"
)

// Assemble makes the model Fit would return from a model method fitted
// elsewhere, for an engine that fits where the data are (aer-beam's
// distributed AER fit, adaptive.Staged): the decision layer is fitted on
// valid (features in schema's order, labels 0/1; nil: none) as Fit's is,
// s.Decision saying how, except that there is no cross-fitting; prior is
// the training rows' weighted positive share (the Bayes threshold's
// prior) and train describes them for the model file's header. s.Seed is
// recorded as the fit's seed; s.Params and s.Grid must be empty (the
// method is fitted already).
func Assemble(ctx context.Context, learned learn.Scorer, method learn.Method, schema dataset.Schema, valid *learn.Data, train TrainSummary, prior float64, s *Settings) (*Model, error) {
	if s == nil {
		s = &Settings{}
	}
	if len(s.Params) > 0 || s.Grid != nil {
		return nil, fmt.Errorf("%w: Assemble takes a fitted model: no parameters or grid", learn.ErrParam)
	}
	if learned == nil || method == nil {
		return nil, fmt.Errorf("%w: Assemble needs the fitted model and its method", learn.ErrParam)
	}
	if n := learned.NumFeatures(); n != len(schema.Features) {
		return nil, fmt.Errorf("%w: the model takes %d features, the schema has %d", learn.ErrData, n, len(schema.Features))
	}
	if valid != nil && valid.Cols() != len(schema.Features) {
		return nil, fmt.Errorf("%w: validation rows of %d features, the schema has %d", learn.ErrData, valid.Cols(), len(schema.Features))
	}
	start := time.Now()
	layered := decision.Wrap(method, s.Decision)
	env := learn.Env{Seed: s.Seed, Workers: s.Workers, Logger: s.Logger}
	m, err := layered.FinishPrior(ctx, learned, valid, prior, env)
	if err != nil {
		return nil, err
	}
	if valid != nil {
		train.ValidRows = valid.Rows()
		train.ValidPositives = 0
		for _, v := range valid.Y {
			train.ValidPositives += v
		}
	}
	f := &pipeline.Fitted{Method: method, Model: m, Layer: decision.LayerOf(m)}
	return newFitted(f, schema, s.Seed, &train, time.Since(start))
}
