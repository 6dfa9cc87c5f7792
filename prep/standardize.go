package prep

import (
	"context"
	"encoding/json"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// Standardize returns inner behind mean imputation and standardisation
// fitted on the training rows (unweighted, as scikit-learn's
// StandardScaler): the returned method has inner's name and parameters,
// plus standardize (true by default; false only imputes).
func Standardize(inner learn.Method) learn.Method {
	s := standardized{WrappedMethod: learn.WrappedMethod{Inner: inner}}
	_, estimates := inner.(learn.MemoryEstimator)
	_, multi := inner.(learn.ClassFitter)
	switch {
	case estimates && multi:
		return &multiEstimating{estimating{s}}
	case estimates:
		return &estimating{s}
	case multi:
		return &multiStandardized{s}
	}
	return &s
}

// standardized has the inner method's name, description and parameters
// (learn.WrappedMethod), plus its own.
type standardized struct {
	learn.WrappedMethod
	off bool // standardize=false: impute only
}

var params = learn.ParamTable[standardized]{
	learn.Bool("standardize", "standardise features with the training mean and standard deviation (missing values take the training mean either way)", true,
		func(s *standardized) *bool { return &s.off }),
}

// PaperGrid is the inner method's, if it has one: preprocessing leaves
// its parameters as they are.
func (s *standardized) PaperGrid() []string {
	if g, ok := s.Inner.(learn.Gridder); ok {
		return g.PaperGrid()
	}
	return nil
}

func (s *standardized) Set(key, value string) error {
	if params.Has(key) {
		return params.Set(s, key, value)
	}
	return s.Inner.Set(key, value)
}

func (s *standardized) Params() []learn.Param {
	def := standardized{}
	return append(params.List(s, &def), s.Inner.Params()...)
}

// Fit fits the preprocessing on train, applies it to copies of train and
// valid and fits inner on them.
func (s *standardized) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	p := &Prep{Means: dataset.ColumnMeans(train.X)}
	if mf, ok := s.Inner.(learn.MappedFitter); ok && !s.off && !hasNaN(train.X) {
		// Imputation has nothing to do, and the inner method copies the
		// rows anyway: it standardises them as it copies.
		p.Scaler = dataset.FitScaler(train.X)
		if err := p.Scaler.Check(train.Features); err != nil {
			return nil, fmt.Errorf("%w: training data: %v", learn.ErrData, err)
		}
		tr := *train
		tr.Shared = nil // work shared on train.X is not on the mapped rows
		va, err := p.applyValid(train, valid)
		if err != nil {
			return nil, err
		}
		env.ConsumeTrain = false // the caller's rows are read, not consumed
		m, err := mf.FitMapped(ctx, &tr, va, &learn.ColumnMap{Shift: p.Scaler.Mean, Scale: p.Scaler.Scale}, env)
		if err != nil {
			return nil, err
		}
		return newModel(p, m), nil
	}
	tr, va, err := s.prepare(p, train, valid)
	if err != nil {
		return nil, err
	}
	m, err := s.Inner.Fit(ctx, tr, va, env)
	if err != nil {
		return nil, err
	}
	return newModel(p, m), nil
}

// prepare fits p's standardisation (unless turned off) on train's rows
// imputed by p.Means, and returns preprocessed copies of train and
// valid.
func (s *standardized) prepare(p *Prep, train, valid *learn.Data) (*learn.Data, *learn.Data, error) {
	xt := p.impute(train.X)
	if !s.off {
		p.Scaler = dataset.FitScaler(xt)
		if err := p.Scaler.Check(train.Features); err != nil {
			return nil, nil, fmt.Errorf("%w: training data: %v", learn.ErrData, err)
		}
		p.Scaler.Transform(xt)
	}
	tr := *train
	tr.X, tr.Shared = xt, nil // work shared on train.X is not on xt
	va, err := p.applyValid(train, valid)
	if err != nil {
		return nil, nil, err
	}
	return &tr, va, nil
}

// applyValid returns a preprocessed copy of valid (nil: nil).
func (p *Prep) applyValid(train, valid *learn.Data) (*learn.Data, error) {
	if valid == nil {
		return nil, nil
	}
	if valid.Cols() != train.Cols() {
		return nil, fmt.Errorf("%w: validation data has %d features, training data %d", learn.ErrData, valid.Cols(), train.Cols())
	}
	v := *valid
	v.X = p.Apply(valid.X)
	return &v, nil
}

// hasNaN tells whether x has a missing value.
func hasNaN(x *mat.Dense) bool {
	r, c := x.Dims()
	raw := x.RawMatrix()
	for i := range r {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if v != v {
				return true
			}
		}
	}
	return false
}

// estimating is the standardisation of an inner method that estimates
// its own fit's memory: Standardize returns it for those, so that the
// wrapper estimates too, and only for those.
type estimating struct{ standardized }

// FitMemory estimates the live heap a fit of shape sh needs beyond the
// tables (learn.MemoryEstimator): the inner method's, plus the
// standardised copy of the training rows unless the inner method maps
// them as it copies them (learn.MappedFitter; rows with missing values
// are copied anyway), plus the copy of the validation rows.
func (s *estimating) FitMemory(sh learn.Shape) int64 {
	inner, _ := learn.FitMemory(s.Inner, learn.Shape{Rows: sh.Rows, Features: sh.Features, ValidRows: sh.ValidRows, Workers: sh.Workers})
	const word = 8
	copies := int64(sh.ValidRows) * int64(sh.Features) * word
	if _, mapped := s.Inner.(learn.MappedFitter); !mapped || s.off {
		copies += int64(sh.Rows) * int64(sh.Features) * word
	}
	return inner + copies
}

// multiStandardized and multiEstimating are the standardisation of an
// inner method that fits multi-class labels itself (learn.ClassFitter):
// Standardize returns them for those, so that the wrapper is a
// ClassFitter exactly when its inner method is.
type (
	multiStandardized struct{ standardized }
	multiEstimating   struct{ estimating }
)

func (s *multiStandardized) FitClasses(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	return s.fitMulti(ctx, train, valid, k, env)
}

func (s *multiStandardized) LoadClasses(payload []byte) (learn.Model, error) {
	return s.loadMulti(payload)
}

func (s *multiEstimating) FitClasses(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, error) {
	return s.fitMulti(ctx, train, valid, k, env)
}

func (s *multiEstimating) LoadClasses(payload []byte) (learn.Model, error) {
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
	tr, va, err := s.prepare(p, train, valid)
	if err != nil {
		return nil, err
	}
	m, err := s.Inner.(learn.ClassFitter).FitClasses(ctx, tr, va, k, env)
	if err != nil {
		return nil, err
	}
	return &MultiModel{Prep: p, Inner: m}, nil
}

// loadMulti decodes a MultiModel's payload.
func (s *standardized) loadMulti(payload []byte) (learn.Model, error) {
	p, m, err := load(payload, s.Inner.(learn.ClassFitter).LoadClasses)
	if err != nil {
		return nil, err
	}
	return &MultiModel{Prep: p, Inner: m}, nil
}

// Load decodes a model written by Model.MarshalBinary.
func (s *standardized) Load(payload []byte) (learn.Scorer, error) {
	p, m, err := load(payload, s.Inner.Load)
	if err != nil {
		return nil, err
	}
	return newModel(p, m), nil
}

// load decodes the payload of a model behind its preprocessing: the
// preprocessing, and the inner model by loadInner.
func load[M interface{ NumFeatures() int }](payload []byte, loadInner func([]byte) (M, error)) (*Prep, M, error) {
	var e encoded
	var none M
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, none, fmt.Errorf("prep: decoding model: %w", err)
	}
	if e.Prep == nil || (e.Prep.Scaler != nil && (len(e.Prep.Scaler.Mean) != len(e.Prep.Means) || len(e.Prep.Scaler.Scale) != len(e.Prep.Means))) {
		return nil, none, fmt.Errorf("prep: the model's preprocessing is missing or does not match its features")
	}
	m, err := loadInner(e.Model)
	if err != nil {
		return nil, none, err
	}
	if m.NumFeatures() != len(e.Prep.Means) {
		return nil, none, fmt.Errorf("prep: the inner model has %d features, the preprocessing %d", m.NumFeatures(), len(e.Prep.Means))
	}
	return e.Prep, m, nil
}

// Prep is fitted preprocessing: training means for missing values, then
// an optional standardisation.
type Prep struct {
	Means  []float64       `json:"means"`
	Scaler *dataset.Scaler `json:"scaler,omitempty"`
}

func (p *Prep) impute(x *mat.Dense) *mat.Dense {
	xt := mat.DenseCopyOf(x)
	dataset.Impute(xt, p.Means)
	return xt
}

// check is an error when x's columns are not the raw features.
func (p *Prep) check(x *mat.Dense) error {
	if _, c := x.Dims(); c != len(p.Means) {
		return fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, len(p.Means))
	}
	return nil
}

// marshal encodes p with the inner model.
func (p *Prep) marshal(inner learn.Model) ([]byte, error) {
	b, err := inner.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(encoded{Prep: p, Model: b})
}

// Apply returns a preprocessed copy of x.
func (p *Prep) Apply(x *mat.Dense) *mat.Dense {
	xt := p.impute(x)
	if p.Scaler != nil {
		p.Scaler.Transform(xt)
	}
	return xt
}

// Model is a fitted model behind its preprocessing. It is a
// learn.Wrapped that changes the rows (learn.InputChanged): its inner
// model's threshold, summary, size and built-in importances are found
// through it (learn.ThresholdOf, learn.SummaryOf, ...), its attributions
// are the inner model's on the preprocessed rows (Attribute), and a
// per-row explanation of the inner model, which reads preprocessed rows,
// is not offered.
type Model struct {
	learn.Wrapped
	Prep *Prep
}

// newModel returns inner behind p.
func newModel(p *Prep, inner learn.Scorer) *Model {
	return &Model{Wrapped: learn.Wrapped{Inner: inner, Changed: learn.InputChanged}, Prep: p}
}

type encoded struct {
	Prep  *Prep  `json:"prep"`
	Model []byte `json:"model"`
}

// PositiveProba preprocesses x and gives the inner model's probabilities.
func (m *Model) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	if err := m.Prep.check(x); err != nil {
		return nil, err
	}
	return m.Inner.PositiveProba(m.Prep.Apply(x), dst)
}

// NumFeatures is the number of raw features.
func (m *Model) NumFeatures() int { return len(m.Prep.Means) }

// MarshalBinary encodes the preprocessing with the inner model.
func (m *Model) MarshalBinary() ([]byte, error) { return m.Prep.marshal(m.Inner) }

// NumClasses is 2: Model scores the positive class (PositiveProba).
func (m *Model) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}

// MultiModel is a multi-class model behind its preprocessing.
type MultiModel struct {
	Prep  *Prep
	Inner learn.Model
}

// PredictProba preprocesses x and gives the inner model's class
// probabilities.
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	if err := m.Prep.check(x); err != nil {
		return nil, err
	}
	return m.Inner.PredictProba(m.Prep.Apply(x), dst)
}

// NumClasses is the inner model's number of classes.
func (m *MultiModel) NumClasses() int { return m.Inner.NumClasses() }

// NumFeatures is the number of raw features.
func (m *MultiModel) NumFeatures() int { return len(m.Prep.Means) }

// MarshalBinary encodes the preprocessing with the inner model.
func (m *MultiModel) MarshalBinary() ([]byte, error) { return m.Prep.marshal(m.Inner) }

// Rewrap returns the same preprocessing in front of inner
// (learn.Rewrapper): a quantised copy of the inner model.
func (m *Model) Rewrap(inner learn.Scorer) learn.Scorer { return newModel(m.Prep, inner) }
