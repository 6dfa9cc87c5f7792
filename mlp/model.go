package mlp

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// format names the encoding of a model, checked by Load.
const format = "aer/mlp-focal/1"

// Model is a trained network. It is read-only, so safe for concurrent
// use.
type Model struct {
	lay     layout
	theta   []float64
	summary *Summary
}

// NumFeatures returns the number of input features.
func (m *Model) NumFeatures() int { return m.lay.sizes[0] }

// NumParams returns the number of weights and biases.
func (m *Model) NumParams() int { return m.lay.n }

// Hidden returns the hidden layer widths.
func (m *Model) Hidden() []int {
	return append([]int(nil), m.lay.sizes[1:len(m.lay.sizes)-1]...)
}

// PositiveProba writes the positive-class probability of every row of x
// into dst (allocated when too short) and returns it. It uses one
// goroutine and refuses missing values.
func (m *Model) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	if x == nil || x.IsEmpty() {
		return dst[:0], nil
	}
	r, c := x.Dims()
	if c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	raw := x.RawMatrix()
	if i, j := firstNaN(raw.Data, raw.Stride, r, c); i >= 0 {
		return nil, fmt.Errorf("%w: row %d, feature %d: missing value; %s needs complete features", learn.ErrData, i+1, j+1, MethodName)
	}
	if len(dst) < r {
		dst = make([]float64, r)
	}
	dst = dst[:r]
	s := m.lay.newScratch(r, false)
	for r0 := 0; r0 < r; r0 += block {
		n := min(block, r-r0)
		z := m.lay.forward(m.theta, raw.Data[r0*raw.Stride:], raw.Stride, n, s)
		for i, v := range z {
			dst[r0+i] = sigmoid(v)
		}
	}
	return dst, nil
}

// Summary returns what the fit found, or nil for a loaded model.
func (m *Model) Summary() any {
	if m.summary == nil {
		return nil
	}
	return m.summary
}

// Summary is the report of a fit.
type Summary struct {
	Hidden []int `json:"hidden"`
	Params int   `json:"params"`
	// Epochs is the number of epochs run, BestEpoch (from 1) the one
	// whose weights the model keeps: the lowest validation loss, or the
	// last epoch without validation rows.
	Epochs       int  `json:"epochs"`
	BestEpoch    int  `json:"best_epoch"`
	StoppedEarly bool `json:"stopped_early"`
	// Validation says what early stopping watched: "given" (the
	// validation data), "held out" (HeldOut training rows) or "none".
	Validation string `json:"validation"`
	HeldOut    int    `json:"held_out_rows,omitempty"`
	// TrainLoss is the weighted mean focal loss of each epoch's batches
	// (each taken before its step); ValidLoss the weighted mean on the
	// validation rows after each epoch.
	TrainLoss []float64 `json:"train_loss"`
	ValidLoss []float64 `json:"valid_loss,omitempty"`
}

// String is the summary in one line, for aer fit's text output.
func (s *Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hidden layers %v, %d parameters; %d epochs", s.Hidden, s.Params, s.Epochs)
	switch {
	case len(s.ValidLoss) >= s.BestEpoch && s.BestEpoch > 0:
		fmt.Fprintf(&b, ", best %d (validation focal loss %.6g", s.BestEpoch, s.ValidLoss[s.BestEpoch-1])
		if s.Validation == "held out" {
			fmt.Fprintf(&b, " on %d held-out training rows", s.HeldOut)
		}
		b.WriteString(")")
		if s.StoppedEarly {
			b.WriteString(", stopped early")
		}
	case len(s.TrainLoss) > 0:
		fmt.Fprintf(&b, ", no validation rows (training focal loss %.6g)", s.TrainLoss[len(s.TrainLoss)-1])
	}
	return b.String()
}

// encoded is a model's saved form. Go's JSON writes every float64 in
// the shortest form that parses back to the same bits, so a loaded model
// predicts bit for bit as the saved one.
type encoded struct {
	Format   string    `json:"format"`
	Features int       `json:"features"`
	Hidden   []int     `json:"hidden"`
	Theta    []float64 `json:"theta"`
}

// MarshalBinary encodes the model for Load.
func (m *Model) MarshalBinary() ([]byte, error) {
	return json.Marshal(encoded{Format: format, Features: m.NumFeatures(), Hidden: m.Hidden(), Theta: m.theta})
}

// Load decodes a model written by Model.MarshalBinary.
func Load(payload []byte) (*Model, error) {
	var e encoded
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, fmt.Errorf("mlp: decoding model: %w", err)
	}
	if e.Format != format {
		return nil, fmt.Errorf("mlp: model format %q, want %q", e.Format, format)
	}
	if e.Features < 1 || len(e.Hidden) == 0 {
		return nil, fmt.Errorf("mlp: model with %d features and %d hidden layers", e.Features, len(e.Hidden))
	}
	for _, h := range e.Hidden {
		if h < 1 || h > maxWidth {
			return nil, fmt.Errorf("mlp: model with a hidden layer of %d units", h)
		}
	}
	n := numParams(e.Features, e.Hidden...)
	if n < 0 || len(e.Theta) != n {
		return nil, fmt.Errorf("mlp: model has %d parameters, its layers %v need %d", len(e.Theta), e.Hidden, n)
	}
	for j, v := range e.Theta {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("mlp: model parameter %d is %v", j, v)
		}
	}
	return &Model{lay: newLayout(e.Features, e.Hidden...), theta: e.Theta}, nil
}

// NumClasses is 2: Model scores the positive class (PositiveProba).
func (m *Model) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}
