package mlp

import (
	"context"
	"fmt"
	"math"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/prep"
)

// MethodName is the name the method is registered under.
const MethodName = "mlp-focal"

// Method is the focal-loss network on the learn contract. Its features
// must be complete; NewStandardized puts it behind imputation and
// standardisation.
type Method struct {
	s Settings
}

// NewMethod returns the network with DefaultSettings, on raw features.
func NewMethod() learn.Method { return &Method{s: DefaultSettings()} }

// NewStandardized returns the network behind prep.Standardize: missing
// values take the training mean and every feature is standardised with
// the training mean and standard deviation. It is the method registered
// as mlp-focal.
func NewStandardized() learn.Method { return prep.Standardize(NewMethod()) }

// Name returns MethodName.
func (m *Method) Name() string { return MethodName }

// Describe returns a one-line description.
func (m *Method) Describe() string {
	return "neural network with two hidden ReLU layers trained on the focal loss (the paper's alpha 0.25, gamma 3) with Adam and early stopping"
}

// Settings returns a copy of the configured settings.
func (m *Method) Settings() Settings { return m.s }

// Set sets one parameter (see Settings).
func (m *Method) Set(key, value string) error { return m.s.Set(key, value) }

// Params lists every parameter with its value and default.
func (m *Method) Params() []learn.Param { return m.s.List() }

// Fit trains the network on train. Early stopping watches the loss on
// valid when given, else on a stratified ValidationFraction of train's
// rows held out from training.
func (m *Method) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	s := m.s
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if err := checkData(train, "training data"); err != nil {
		return nil, err
	}
	if valid != nil {
		if err := checkData(valid, "validation data"); err != nil {
			return nil, err
		}
		if valid.Cols() != train.Cols() {
			return nil, fmt.Errorf("%w: validation data has %d features, training data %d", learn.ErrData, valid.Cols(), train.Cols())
		}
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	in := train.Cols()
	if numParams(in, s.Hidden1, s.Hidden2) < 0 {
		return nil, fmt.Errorf("%w: %d features and hidden layers of %d and %d units make more than %d parameters", learn.ErrParam, in, s.Hidden1, s.Hidden2, maxParams)
	}
	sum := &Summary{Hidden: []int{s.Hidden1, s.Hidden2}, Validation: "none"}
	fit, stop := train, valid
	if valid != nil {
		sum.Validation = "given"
	} else if s.ValidationFraction > 0 {
		parts, err := dataset.StratifiedSplit(train.Y, []float64{1 - s.ValidationFraction, s.ValidationFraction}, rng.DeriveSeed(env.Seed, streamHoldout))
		if err != nil {
			return nil, err
		}
		if len(parts[0]) > 0 && len(parts[1]) > 0 {
			fit, stop = train.Subset(parts[0]), train.Subset(parts[1])
			sum.Validation, sum.HeldOut = "held out", len(parts[1])
		}
	}
	tr := newRows(fit)
	if !(tr.total > 0) {
		return nil, fmt.Errorf("%w: training data has no row of positive weight", learn.ErrData)
	}
	var va *rows
	if stop != nil {
		v := newRows(stop)
		if v.total > 0 {
			va = &v
		} else if valid != nil {
			return nil, fmt.Errorf("%w: validation data has no row of positive weight", learn.ErrData)
		} else {
			sum.Validation, sum.HeldOut = "none", 0
		}
	}
	lay := newLayout(in, s.Hidden1, s.Hidden2)
	theta, err := fitNet(ctx, lay, &s, &tr, va, env, sum)
	if err != nil {
		return nil, err
	}
	sum.Params = lay.n
	return &Model{lay: lay, theta: theta, summary: sum}, nil
}

// checkData is learn.Data.Check plus complete features: the network
// cannot read a missing value.
func checkData(d *learn.Data, what string) error {
	if err := d.Check(what); err != nil {
		return err
	}
	if i, j := firstNaN(d.X.RawMatrix().Data, d.X.RawMatrix().Stride, d.Rows(), d.Cols()); i >= 0 {
		return fmt.Errorf("%w: %s row %d, feature %d: missing value; %s needs complete features (impute first, as the registered method does)", learn.ErrData, what, i+1, j+1, MethodName)
	}
	return nil
}

// firstNaN returns the row and column of the first NaN, or -1, -1.
func firstNaN(x []float64, stride, r, c int) (int, int) {
	for i := range r {
		for j, v := range x[i*stride : i*stride+c] {
			if math.IsNaN(v) {
				return i, j
			}
		}
	}
	return -1, -1
}

// Load decodes a model written by Model.MarshalBinary.
func (m *Method) Load(payload []byte) (learn.Scorer, error) {
	return Load(payload)
}
