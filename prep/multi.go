package prep

import (
	"context"
	"encoding/json"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// multiStandardized and multiEstimating are the standardisation of an
// inner method that fits multi-class labels itself (learn.MultiFitter):
// Standardize returns them for those, so that the wrapper is a
// MultiFitter exactly when its inner method is.
type (
	multiStandardized struct{ standardized }
	multiEstimating   struct{ estimating }
)

func (s *multiStandardized) FitMulti(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	return s.fitMulti(ctx, train, valid, k, env)
}

func (s *multiStandardized) LoadMulti(payload []byte) (learn.Model, error) {
	return s.loadMulti(payload)
}

func (s *multiEstimating) FitMulti(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	return s.fitMulti(ctx, train, valid, k, env)
}

func (s *multiEstimating) LoadMulti(payload []byte) (learn.Model, error) {
	return s.loadMulti(payload)
}

// fitMulti fits the preprocessing on train and the inner method's
// multi-class model on the preprocessed rows.
func (s *standardized) fitMulti(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	// train.Check is binary (labels 0/1): the inner method checks the
	// labels 0..k-1.
	if train.Rows() == 0 || train.Cols() == 0 {
		return nil, fmt.Errorf("%w: training data has %d rows and %d features", learn.ErrData, train.Rows(), train.Cols())
	}
	p := &Prep{Means: dataset.ColumnMeans(train.X)}
	xt := p.impute(train.X)
	if !s.off {
		p.Scaler = dataset.FitScaler(xt)
		if err := p.Scaler.Check(train.Features); err != nil {
			return nil, fmt.Errorf("%w: training data: %v", learn.ErrData, err)
		}
		p.Scaler.Transform(xt)
	}
	tr := *train
	tr.X, tr.Shared = xt, nil
	va, err := p.applyValid(train, valid)
	if err != nil {
		return nil, err
	}
	m, err := s.Inner.(learn.MultiFitter).FitMulti(ctx, &tr, va, k, env)
	if err != nil {
		return nil, err
	}
	return &MultiModel{Prep: p, Inner: m}, nil
}

// loadMulti decodes a MultiModel's payload.
func (s *standardized) loadMulti(payload []byte) (learn.Model, error) {
	var e encoded
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, fmt.Errorf("prep: decoding model: %w", err)
	}
	if e.Prep == nil || (e.Prep.Scaler != nil && (len(e.Prep.Scaler.Mean) != len(e.Prep.Means) || len(e.Prep.Scaler.Scale) != len(e.Prep.Means))) {
		return nil, fmt.Errorf("prep: the model's preprocessing is missing or does not match its features")
	}
	m, err := s.Inner.(learn.MultiFitter).LoadMulti(e.Model)
	if err != nil {
		return nil, err
	}
	if m.NumFeatures() != len(e.Prep.Means) {
		return nil, fmt.Errorf("prep: the inner model has %d features, the preprocessing %d", m.NumFeatures(), len(e.Prep.Means))
	}
	return &MultiModel{Prep: e.Prep, Inner: m}, nil
}

// MultiModel is a multi-class model behind its preprocessing.
type MultiModel struct {
	Prep  *Prep
	Inner learn.Model
}

// PredictProba preprocesses x and gives the inner model's class
// probabilities.
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	if _, c := x.Dims(); c != len(m.Prep.Means) {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, len(m.Prep.Means))
	}
	return m.Inner.PredictProba(m.Prep.Apply(x), dst)
}

// NumClasses is the inner model's number of classes.
func (m *MultiModel) NumClasses() int { return m.Inner.NumClasses() }

// NumFeatures is the number of raw features.
func (m *MultiModel) NumFeatures() int { return len(m.Prep.Means) }

// MarshalBinary encodes the preprocessing with the inner model.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	b, err := m.Inner.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(encoded{Prep: m.Prep, Model: b})
}
