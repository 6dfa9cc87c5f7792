package aer

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/mixture"
)

// Model is a fitted AER model. It is safe for concurrent use by several
// goroutines once fitted or loaded.
type Model struct {
	// Means imputes missing values (training means, raw scale).
	Means []float64
	// Scaler standardises features; nil when Config.NoStandardize.
	Scaler *dataset.Scaler
	// Mixture is the Gaussian mixture of the majority class.
	Mixture *mixture.Model
	// Members are the 2L members (boosted trees unless Config.Learners
	// says otherwise): member 2l was trained on the global subset of
	// component l, member 2l+1 on its local subset.
	Members []Classifier
	// Combiner holds the static weights, the dynamic rule, lambda and delta.
	Combiner ensemble.Combiner
	// Config is the configuration the model was fitted with.
	Config Config
}

// NumFeatures returns the number of input features.
func (m *Model) NumFeatures() int { return len(m.Means) }

// prepare returns an imputed, standardised copy of x.
func (m *Model) prepare(x *mat.Dense) *mat.Dense {
	xt := mat.DenseCopyOf(x)
	dataset.Impute(xt, m.Means)
	if m.Scaler != nil {
		m.Scaler.Transform(xt)
	}
	return xt
}

func (m *Model) checkInput(x *mat.Dense) error {
	if x == nil || x.IsEmpty() {
		return errors.New("aer: no rows to predict")
	}
	_, c := x.Dims()
	if c != m.NumFeatures() {
		return fmt.Errorf("aer: data has %d features, the model %d", c, m.NumFeatures())
	}
	return nil
}

// Diagnostics counts rows whose dynamic weights needed special handling
// (the literal log rule's fallback to exp, underflowed densities).
type Diagnostics = ensemble.DynamicDiag

// PredictProba returns the ensemble score w*.f(x) in [0, 1] of every row of
// x (raw features, NaN = missing), with diagnostics of the dynamic weights.
// Members predict in parallel, Config.Workers at a time (0: GOMAXPROCS).
func (m *Model) PredictProba(x *mat.Dense) ([]float64, Diagnostics, error) {
	if err := m.checkInput(x); err != nil {
		return nil, Diagnostics{}, err
	}
	workers := m.Config.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return m.scorePrepared(m.prepare(x), workers)
}

// Predict returns the class of every row: 1 when its score >= delta.
func (m *Model) Predict(x *mat.Dense) ([]int, error) {
	s, _, err := m.PredictProba(x)
	if err != nil {
		return nil, err
	}
	return m.Combiner.Predict(nil, s), nil
}

// Threshold returns the tuned decision threshold delta.
func (m *Model) Threshold() float64 { return m.Combiner.Delta }

func (m *Model) scorePrepared(xt *mat.Dense, workers int) ([]float64, Diagnostics, error) {
	f := memberOutputs(m.Members, xt, workers)
	logDens, err := m.Mixture.ComponentLogDensity(xt, nil)
	if err != nil {
		return nil, Diagnostics{}, fmt.Errorf("aer: component log-densities: %w", err)
	}
	s, diag, err := m.Combiner.Score(nil, f, logDens)
	if err != nil {
		return nil, diag, fmt.Errorf("aer: %w", err)
	}
	for i, v := range s {
		if math.IsNaN(v) {
			return nil, diag, fmt.Errorf("aer: score of row %d is NaN", i+1)
		}
	}
	return s, diag, nil
}

// Explanation breaks down the prediction of one row.
type Explanation struct {
	// Members names each member ("global 0", "local 0", ...).
	Members []string `json:"members"`
	*ensemble.Explanation
}

// Explain breaks down the score of one row (raw features): per-component
// log-densities and likelihood weights, static weights, mixed weights, each
// member's output and contribution, the score and the prediction.
func (m *Model) Explain(row []float64) (*Explanation, error) {
	if len(row) != m.NumFeatures() {
		return nil, fmt.Errorf("aer: row has %d features, the model %d", len(row), m.NumFeatures())
	}
	xt := m.prepare(mat.NewDense(1, len(row), append([]float64(nil), row...)))
	f := memberOutputs(m.Members, xt, 1)
	logDens, err := m.Mixture.ComponentLogDensity(xt, nil)
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	e, err := m.Combiner.Explain(f.RawRowView(0), logDens.RawRowView(0))
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	names := make([]string, len(m.Members))
	for k := range names {
		kind := "global"
		if k%2 == 1 {
			kind = "local"
		}
		names[k] = fmt.Sprintf("%s %d", kind, k/2)
	}
	return &Explanation{Members: names, Explanation: e}, nil
}

// encoded is the serialised form of a Model. encoding/json writes float64
// in the shortest form that parses back to the same bits, so the round trip
// is exact.
type encoded struct {
	Format   string            `json:"format"`
	Means    []float64         `json:"means"`
	Scaler   *dataset.Scaler   `json:"scaler,omitempty"`
	Mixture  *mixture.Model    `json:"mixture"`
	Members  [][]byte          `json:"members"`
	Combiner ensemble.Combiner `json:"combiner"`
	Config   Config            `json:"config"`
	// Checksum is the SHA-256 of the members' bytes, a guard against a
	// payload assembled from mismatched parts.
	Checksum []byte `json:"checksum"`
}

const formatV1 = "aer-model-1"

// MarshalBinary encodes the model.
func (m *Model) MarshalBinary() ([]byte, error) {
	e := encoded{Format: formatV1, Means: m.Means, Scaler: m.Scaler, Mixture: m.Mixture, Combiner: m.Combiner, Config: m.Config}
	h := sha256.New()
	for k, mb := range m.Members {
		b, err := encodeMember(mb)
		if err != nil {
			return nil, fmt.Errorf("aer: member %d: %w", k, err)
		}
		e.Members = append(e.Members, b)
		h.Write(b)
	}
	e.Checksum = h.Sum(nil)
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(&e); err != nil {
		return nil, fmt.Errorf("aer: encoding model: %w", err)
	}
	return buf.Bytes(), nil
}

// UnmarshalBinary decodes a model written by MarshalBinary and checks that
// its parts fit together.
func (m *Model) UnmarshalBinary(b []byte) error {
	var e encoded
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return fmt.Errorf("aer: decoding model: %w", err)
	}
	if e.Format != formatV1 {
		return fmt.Errorf("aer: model format %q, this build reads %q", e.Format, formatV1)
	}
	if e.Mixture == nil || len(e.Members) == 0 {
		return errors.New("aer: model lacks its mixture or members")
	}
	h := sha256.New()
	nm := Model{Means: e.Means, Scaler: e.Scaler, Mixture: e.Mixture, Combiner: e.Combiner, Config: e.Config}
	for k, mb := range e.Members {
		h.Write(mb)
		var bm boost.Model
		if err := bm.UnmarshalBinary(mb); err != nil {
			return fmt.Errorf("aer: member %d: %w", k, err)
		}
		if bm.NumFeatures != len(e.Means) {
			return fmt.Errorf("aer: member %d has %d features, the model %d", k, bm.NumFeatures, len(e.Means))
		}
		bm.SetThreads(1) // members predict in parallel with each other
		nm.Members = append(nm.Members, boostMember{&bm})
	}
	if !bytes.Equal(h.Sum(nil), e.Checksum) {
		return errors.New("aer: model members do not match their checksum")
	}
	if nm.Mixture.Dim() != len(nm.Means) {
		return fmt.Errorf("aer: mixture has %d features, the model %d", nm.Mixture.Dim(), len(nm.Means))
	}
	if len(nm.Members) != 2*nm.Mixture.K() || len(nm.Combiner.Static) != len(nm.Members) {
		return fmt.Errorf("aer: %d members and %d static weights for %d components", len(nm.Members), len(nm.Combiner.Static), nm.Mixture.K())
	}
	if nm.Scaler != nil && (len(nm.Scaler.Mean) != len(nm.Means) || len(nm.Scaler.Scale) != len(nm.Means)) {
		return errors.New("aer: scaler does not match the number of features")
	}
	*m = nm
	return nil
}
