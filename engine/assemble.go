package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/density"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
)

// Fitted is a model an engine fitted, with what the model file records
// of its fit.
type Fitted struct {
	// Learned is the fitted model, without a decision layer.
	Learned learn.Scorer
	// Method is the method that fitted it, with its parameters.
	Method learn.Method
	// Schema describes the training data; Learned takes its features in
	// this order.
	Schema dataset.Schema
	// Train describes the training rows for the model file's header;
	// Assemble fills in the validation rows.
	Train aer.TrainSummary
	// Prior is the training rows' weighted positive share: the Bayes
	// threshold's prior.
	Prior float64
	// Density, when not nil, is the out-of-distribution density of a
	// model without a score of its own (what aer.Fit fits on a sample of
	// the training rows), kept in the model file's header; nil: none.
	Density *density.Model
}

// Assemble makes the model aer.Fit would return from f: the decision
// layer is fitted on valid (features in f.Schema's order, labels 0/1;
// nil: none) as Fit's is, s.Decision saying how, except that there is no
// cross-fitting (it needs the training rows). s.Seed is recorded as the
// fit's seed; s.Params and s.Grid must be empty (the method is fitted
// already). The model is the one its file reads back to, so it scores
// as aer predict does.
func Assemble(ctx context.Context, f *Fitted, valid *learn.Data, s *aer.Settings) (*aer.Model, error) {
	if s == nil {
		s = &aer.Settings{}
	}
	if len(s.Params) > 0 || s.Grid != nil {
		return nil, fmt.Errorf("%w: Assemble takes a fitted model: no parameters or grid", learn.ErrParam)
	}
	if f == nil || f.Learned == nil || f.Method == nil {
		return nil, fmt.Errorf("%w: Assemble needs the fitted model and its method", learn.ErrParam)
	}
	if n := f.Learned.NumFeatures(); n != len(f.Schema.Features) {
		return nil, fmt.Errorf("%w: the model takes %d features, the schema has %d", learn.ErrData, n, len(f.Schema.Features))
	}
	if valid != nil && valid.Cols() != len(f.Schema.Features) {
		return nil, fmt.Errorf("%w: validation rows of %d features, the schema has %d", learn.ErrData, valid.Cols(), len(f.Schema.Features))
	}
	layered := decision.Wrap(f.Method, s.Decision)
	env := learn.Env{Seed: s.Seed, Workers: s.Workers, Logger: s.Logger}
	m, err := layered.FinishPrior(ctx, f.Learned, valid, f.Prior, env)
	if err != nil {
		return nil, err
	}
	train := f.Train
	if valid != nil {
		train.ValidRows = valid.Rows()
		train.ValidPositives = 0
		for _, v := range valid.Y {
			train.ValidPositives += v
		}
	}
	h := &modelfile.Header{Method: f.Method.Name(), Schema: f.Schema, Producer: "aer " + aer.Version}
	if h.Config, err = json.Marshal(aer.FitConfig{Seed: s.Seed, Params: learn.ParamMap(f.Method.Params()), Train: &train}); err != nil {
		return nil, err
	}
	if layer := decision.LayerOf(m); layer != nil {
		if h.Decision, err = json.Marshal(layer); err != nil {
			return nil, err
		}
	}
	if f.Density != nil {
		if h.OOD, err = f.Density.Encode(); err != nil {
			return nil, err
		}
	}
	payload, err := decision.Detach(m).MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encoding the model: %w", err)
	}
	var file bytes.Buffer
	if err := modelfile.Encode(&file, h, payload); err != nil {
		return nil, err
	}
	return aer.ReadModel(&file, "the assembled model")
}
