package mlp

import (
	"fmt"

	"github.com/aer-go/aer/learn"
)

// Settings configure mlp-focal. Zero is a meaningful value of several
// fields (Gamma 0 is the logistic loss, WeightDecay 0 no decay), so the
// defaults are DefaultSettings' and not the zero value.
type Settings struct {
	// Hidden1 and Hidden2 are the widths of the two hidden ReLU layers.
	Hidden1, Hidden2 int
	// Alpha weighs the positive rows' loss, 1-Alpha the negative rows'.
	Alpha float64
	// Gamma is the focal exponent; 0 gives the (alpha-weighted)
	// logistic loss.
	Gamma float64
	// LearningRate, Beta1, Beta2 and Epsilon are Adam's.
	LearningRate, Beta1, Beta2, Epsilon float64
	// WeightDecay adds WeightDecay * w to the gradient of every weight
	// (not the biases): an L2 penalty of WeightDecay/2 ||w||^2 on the
	// mean batch loss, as PyTorch's Adam weight_decay.
	WeightDecay float64
	// BatchSize is the number of rows per Adam step (all rows when there
	// are fewer).
	BatchSize int
	// MaxEpochs bounds the passes over the training rows.
	MaxEpochs int
	// Patience is the number of epochs without a new lowest validation
	// loss after which training stops.
	Patience int
	// ValidationFraction is the share of training rows held out
	// (stratified) for early stopping when Fit gets no validation data;
	// 0 trains on every row for MaxEpochs epochs.
	ValidationFraction float64
}

// DefaultSettings returns the defaults: the paper's focal loss (alpha
// 0.25, gamma 3), hidden layers of 64 and 32 units (the paper gives no
// sizes), Adam with PyTorch's and Keras' defaults, batches of 256, no
// weight decay, at most 200 epochs with a patience of 10, and 10% of the
// training rows held out when there is no validation data
// (scikit-learn's MLPClassifier validation_fraction).
func DefaultSettings() Settings {
	return Settings{
		Hidden1: 64, Hidden2: 32,
		Alpha: 0.25, Gamma: 3,
		LearningRate: 1e-3, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8,
		BatchSize: 256, MaxEpochs: 200, Patience: 10,
		ValidationFraction: 0.1,
	}
}

// Set sets one parameter from its text form; the error wraps
// learn.ErrParam.
func (s *Settings) Set(key, value string) error { return table.Set(s, key, value) }

// List describes every parameter with its value and default.
func (s *Settings) List() []learn.Param {
	def := DefaultSettings()
	return table.List(s, &def)
}

var table = learn.ParamTable[Settings]{
	width("hidden1", "units in the first hidden ReLU layer", func(s *Settings) *int { return &s.Hidden1 }),
	width("hidden2", "units in the second hidden ReLU layer", func(s *Settings) *int { return &s.Hidden2 }),
	learn.Float("alpha", "focal loss weight of the positive (minority) rows; negatives weigh 1-alpha (the paper: 0.25)", 0, 1, func(s *Settings) *float64 { return &s.Alpha }),
	learn.Float("gamma", "focal loss exponent; 0 is the weighted logistic loss (the paper: 3)", 0, 100, func(s *Settings) *float64 { return &s.Gamma }),
	learn.OpenFloat("learning_rate", "Adam's step size", 0, 10, func(s *Settings) *float64 { return &s.LearningRate }),
	below1("beta1", "Adam's decay of the gradient's running mean", func(s *Settings) *float64 { return &s.Beta1 }),
	below1("beta2", "Adam's decay of the squared gradient's running mean", func(s *Settings) *float64 { return &s.Beta2 }),
	learn.OpenFloat("epsilon", "Adam's denominator guard", 0, 1, func(s *Settings) *float64 { return &s.Epsilon }),
	learn.Float("weight_decay", "L2 penalty: weight_decay * w is added to every weight's gradient (biases excluded)", 0, 1e6, func(s *Settings) *float64 { return &s.WeightDecay }),
	learn.Int("batch_size", "rows per Adam step", 1, learn.MaxRows, func(s *Settings) *int { return &s.BatchSize }),
	learn.Int("max_epochs", "maximum passes over the training rows", 1, learn.MaxRounds, func(s *Settings) *int { return &s.MaxEpochs }),
	learn.Int("patience", "epochs without a lower validation loss before stopping (the best epoch's weights are kept)", 1, learn.MaxRounds, func(s *Settings) *int { return &s.Patience }),
	below1("validation_fraction", "share of training rows held out (stratified) for early stopping when no validation data is given; 0 trains max_epochs on all rows", func(s *Settings) *float64 { return &s.ValidationFraction }),
}

// maxWidth bounds a hidden layer, so that a mistyped size fails with an
// error instead of exhausting memory.
const maxWidth = 1 << 14

// width declares a hidden layer size in [1, maxWidth].
func width(key, help string, field func(*Settings) *int) learn.ParamSpec[Settings] {
	return learn.Int(key, help, 1, maxWidth, field)
}

// below1 declares a number parameter in [0, 1).
func below1(key, help string, field func(*Settings) *float64) learn.ParamSpec[Settings] {
	p := learn.Float(key, help, 0, 1, field)
	set := p.Set
	p.Set = func(s *Settings, v string) error {
		if f, err := learn.ParseFloat(v); err == nil && f == 1 {
			return fmt.Errorf("want a number in [0, 1)")
		}
		return set(s, v)
	}
	return p
}

// check reports settings that cannot train (possible only for Settings
// built in code, not through Set).
func (s *Settings) check() error {
	switch {
	case s.Hidden1 < 1 || s.Hidden2 < 1 || s.Hidden1 > maxWidth || s.Hidden2 > maxWidth:
		return fmt.Errorf("hidden layer sizes %d, %d: want integers in [1, %d]", s.Hidden1, s.Hidden2, maxWidth)
	case !(s.Alpha >= 0 && s.Alpha <= 1):
		return fmt.Errorf("alpha %v: want a number in [0, 1]", s.Alpha)
	case !(s.Gamma >= 0 && s.Gamma <= 100):
		return fmt.Errorf("gamma %v: want a number in [0, 100]", s.Gamma)
	case !(s.LearningRate > 0 && s.LearningRate < 10):
		return fmt.Errorf("learning_rate %v: want a number in (0, 10)", s.LearningRate)
	case !(s.Beta1 >= 0 && s.Beta1 < 1 && s.Beta2 >= 0 && s.Beta2 < 1):
		return fmt.Errorf("beta1 %v, beta2 %v: want numbers in [0, 1)", s.Beta1, s.Beta2)
	case !(s.Epsilon > 0 && s.Epsilon < 1):
		return fmt.Errorf("epsilon %v: want a number in (0, 1)", s.Epsilon)
	case !(s.WeightDecay >= 0 && s.WeightDecay <= 1e6):
		return fmt.Errorf("weight_decay %v: want a number in [0, 1e6]", s.WeightDecay)
	case s.BatchSize < 1 || s.MaxEpochs < 1 || s.Patience < 1:
		return fmt.Errorf("batch_size %d, max_epochs %d, patience %d: want at least 1", s.BatchSize, s.MaxEpochs, s.Patience)
	case !(s.ValidationFraction >= 0 && s.ValidationFraction < 1):
		return fmt.Errorf("validation_fraction %v: want a number in [0, 1)", s.ValidationFraction)
	}
	return nil
}
