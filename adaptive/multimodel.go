package adaptive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

// MultiModel is AER's own multi-class model (FitMulti): multi-class
// members on class-balanced subsets of the components of a Gaussian
// mixture of every class's rows, mixed per row by static and likelihood
// weights. It is safe for concurrent use once fitted or loaded.
type MultiModel struct {
	k       int
	means   []float64
	scaler  *dataset.Scaler
	mixture *mixture.Model
	members []MultiMember
	comb    multiCombiner
	config  Config

	report *MultiReport // nil for a loaded model
}

// MultiMember is one multi-class member: its registered method, model,
// what it was trained on and its mixture component (-1: none, a member
// on every row or a peer).
type MultiMember struct {
	Method    string
	Model     learn.Model
	Name      string
	Component int
}

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return m.k }

// NumFeatures returns the number of input features.
func (m *MultiModel) NumFeatures() int { return len(m.means) }

// Config returns the configuration the model was fitted with.
func (m *MultiModel) Config() Config { return m.config }

// Mixture returns the mixture of the training rows (standardised). The
// caller must not modify it.
func (m *MultiModel) Mixture() *mixture.Model { return m.mixture }

// Members returns the members in the order of the static weights.
func (m *MultiModel) Members() []MultiMember { return slices.Clone(m.members) }

// Static returns a copy of the static weights.
func (m *MultiModel) Static() []float64 { return slices.Clone(m.comb.static) }

// Lambda returns the weight of the likelihood weights.
func (m *MultiModel) Lambda() float64 { return m.comb.lambda }

// Dynamic returns the rule of the likelihood weights.
func (m *MultiModel) Dynamic() ensemble.DynamicSettings { return m.comb.dynamic }

// Summary returns the fit's MultiReport, nil for a loaded model.
func (m *MultiModel) Summary() any {
	if m.report == nil {
		return nil
	}
	return m.report
}

// Warnings returns the fit's warnings, nil for a loaded model.
func (m *MultiModel) Warnings() []string {
	if m.report == nil {
		return nil
	}
	return m.report.Warnings
}

// prepare returns an imputed, standardised copy of x.
func (m *MultiModel) prepare(x *mat.Dense) *mat.Dense {
	xt := mat.DenseCopyOf(x)
	dataset.Impute(xt, m.means)
	if m.scaler != nil {
		m.scaler.Transform(xt)
	}
	return xt
}

// PredictProba writes the class probabilities of every row of x
// (raw features, NaN = missing) into dst, row-major, Classes() per row
// (allocated when too short), and returns it; each row sums to 1. It
// uses one goroutine (learn.MultiModel).
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("aer: %w: no rows to predict", learn.ErrData)
	}
	if _, c := x.Dims(); c != m.NumFeatures() {
		return nil, fmt.Errorf("aer: %w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	xt := m.prepare(x)
	outs, err := multiOutputs(m.members, xt, m.k, 1)
	if err != nil {
		return nil, err
	}
	logDens, err := m.mixture.ComponentLogDensity(xt, nil)
	if err != nil {
		return nil, fmt.Errorf("aer: component log-densities: %w", err)
	}
	var dyn *mat.Dense
	if m.comb.lambda > 0 {
		if dyn, err = memberDynamic(logDens, m.comb.dynamic, m.comb.owner); err != nil {
			return nil, err
		}
	}
	return m.comb.proba(dst, outs, dyn), nil
}

// multiEncoded is the serialised form of a MultiModel (floats exact, as
// encoded's).
type multiEncoded struct {
	Format  string                   `json:"format"`
	Classes int                      `json:"classes"`
	Means   []float64                `json:"means"`
	Scaler  *dataset.Scaler          `json:"scaler,omitempty"`
	Mixture *mixture.Model           `json:"mixture"`
	Members []multiEncodedMember     `json:"members"`
	Static  []float64                `json:"static"`
	Lambda  float64                  `json:"lambda"`
	Dynamic ensemble.DynamicSettings `json:"dynamic"`
	Logit   bool                     `json:"logit"`
	Config  Config                   `json:"config"`
}

type multiEncodedMember struct {
	Method    string `json:"method"`
	Name      string `json:"name,omitempty"`
	Component int    `json:"component"`
	Payload   []byte `json:"payload"`
}

const formatMulti1 = "aer-multi-1"

// MarshalBinary encodes the model for LoadMulti.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	e := multiEncoded{Format: formatMulti1, Classes: m.k, Means: m.means, Scaler: m.scaler, Mixture: m.mixture,
		Static: m.comb.static, Lambda: m.comb.lambda, Dynamic: m.comb.dynamic, Logit: m.comb.logit, Config: m.config}
	for j, mb := range m.members {
		b, err := mb.Model.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("aer: member %d: %w", j, err)
		}
		e.Members = append(e.Members, multiEncodedMember{Method: mb.Method, Name: mb.Name, Component: mb.Component, Payload: b})
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(&e); err != nil {
		return nil, fmt.Errorf("aer: encoding model: %w", err)
	}
	return buf.Bytes(), nil
}

// LoadMulti decodes a model written by MultiModel.MarshalBinary and
// checks that its parts fit together. Members are loaded by the methods
// registered under their names (boosted trees and logistic regression
// always are).
func LoadMulti(b []byte) (*MultiModel, error) {
	var e multiEncoded
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("aer: decoding multi-class model: %w", err)
	}
	if e.Format != formatMulti1 {
		return nil, fmt.Errorf("aer: multi-class model format %q, this build reads %q", e.Format, formatMulti1)
	}
	if e.Classes < 2 || e.Mixture == nil || len(e.Members) == 0 {
		return nil, errors.New("aer: multi-class model lacks its classes, mixture or members")
	}
	if e.Mixture.Dim() != len(e.Means) {
		return nil, fmt.Errorf("aer: mixture has %d features, the model %d", e.Mixture.Dim(), len(e.Means))
	}
	if e.Scaler != nil && (len(e.Scaler.Mean) != len(e.Means) || len(e.Scaler.Scale) != len(e.Means)) {
		return nil, errors.New("aer: scaler does not match the number of features")
	}
	if len(e.Static) != len(e.Members) {
		return nil, fmt.Errorf("aer: %d members and %d static weights", len(e.Members), len(e.Static))
	}
	if !(e.Lambda >= 0 && e.Lambda <= 1) {
		return nil, fmt.Errorf("aer: lambda %v is not in [0, 1]", e.Lambda)
	}
	m := &MultiModel{k: e.Classes, means: e.Means, scaler: e.Scaler, mixture: e.Mixture, config: e.Config,
		comb: multiCombiner{k: e.Classes, logit: e.Logit, static: e.Static, lambda: e.Lambda, dynamic: e.Dynamic}}
	for j, em := range e.Members {
		if em.Component < -1 || em.Component >= e.Mixture.K() {
			return nil, fmt.Errorf("aer: member %d: component %d of a mixture of %d", j, em.Component, e.Mixture.K())
		}
		method, err := methodByName(em.Method)
		if err != nil {
			return nil, fmt.Errorf("aer: member %d: %w", j, err)
		}
		mf, ok := method.(learn.MultiFitter)
		if !ok {
			return nil, fmt.Errorf("aer: member %d: method %s has no multi-class model", j, em.Method)
		}
		mb, err := mf.LoadMulti(em.Payload)
		if err != nil {
			return nil, fmt.Errorf("aer: member %d (%s): %w", j, em.Method, err)
		}
		if mb.NumFeatures() != len(e.Means) || mb.NumClasses() != e.Classes {
			return nil, fmt.Errorf("aer: member %d has %d features and %d classes, the model %d and %d", j, mb.NumFeatures(), mb.NumClasses(), len(e.Means), e.Classes)
		}
		m.members = append(m.members, MultiMember{Method: em.Method, Model: mb, Name: em.Name, Component: em.Component})
		m.comb.owner = append(m.comb.owner, em.Component)
	}
	if m.comb.lambda > 0 {
		if _, err := ensemble.MemberWeights(nil, mat.NewDense(1, m.mixture.K(), nil), m.comb.owner); err != nil {
			return nil, fmt.Errorf("aer: %w", err)
		}
	}
	return m, nil
}
