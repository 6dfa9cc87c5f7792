package aer

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// Decide returns a copy of the model with its decision fitted afresh on
// the labelled validation table valid, as opt says (the zero value is
// the default of Fit: a sigmoid calibration and the Bayes-optimal
// threshold for balanced accuracy; of three or more classes, Bayes class
// weights): what aer import --valid does for a model another library
// trained, which comes with none. A decision the model had is replaced;
// a threshold the method tuned itself (AER with preset=paper,
// gbdt-tuned) is kept unless opt.Override. The training rows are not at
// hand, so the Bayes rule's prior is valid's positive share (its class
// shares for three or more classes), and there is no cross-fitting
// (opt.CrossFit above 0 is an error). valid is read by column name as
// Fit reads validation rows. m is left as it is.
func (m *Model) Decide(ctx context.Context, valid *Table, opt decision.Options, env Env) (*Model, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	if err := valid.usable("the validation table Decide needs"); err != nil {
		return nil, err
	}
	if opt.CrossFit > 0 {
		return nil, fmt.Errorf("%w: a decision fitted after the fit cannot be cross-fitted (the training rows are not at hand)", learn.ErrParam)
	}
	k := m.NumClasses()
	if err := opt.CheckClasses(k); err != nil {
		return nil, err
	}
	va, err := encodeValid(m.Schema(), valid)
	if err != nil {
		return nil, err
	}
	if err := va.CheckClassWeights("validation data"); err != nil {
		return nil, err
	}
	var (
		model learn.Model
		layer *decision.Layer
	)
	if k > 2 {
		base := m.model
		proba, err := base.PredictProba(va.X, nil)
		if err != nil {
			return nil, fmt.Errorf("scoring the validation rows: %w", err)
		}
		if layer, err = decision.FitWeights(opt, k, va.Y, va.W, va.Y, proba); err != nil {
			return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
		}
		model = base
	} else {
		base := decision.Detach(m.scorer())
		s, err := decision.Wrap(nil, opt).FinishPrior(ctx, base, va, va.PositiveShare(), env)
		if err != nil {
			return nil, err
		}
		model, layer = s, decision.LayerOf(s)
	}
	var layerJSON []byte
	if layer != nil {
		if layerJSON, err = json.Marshal(layer); err != nil {
			return nil, err
		}
	}
	h := *m.header
	h.Decision = layerJSON
	return &Model{header: &h, model: model, layer: layer, density: m.density}, nil
}
