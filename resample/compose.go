package resample

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aer-go/aer/learn"
)

// Resampled returns the method registered as name that resamples the
// training rows with sampler, then fits inner on the result. Validation
// rows are never resampled: they go to inner as they are. Its parameters
// are the sampler's, then inner's; it panics when a key is both (a
// composition is declared in code).
//
// The sampler and inner get the same Env, seed included, so fitting the
// composition equals resampling with that seed (aer resample) and fitting
// inner on the result with it. The model predicts with inner's model
// (resampling happens only in training); it keeps inner's threshold and
// per-row explanations, if inner's model has them (the model is a
// learn.Wrapped that changes neither rows nor scores, so they are found
// through it), and reports the row counts before and after resampling.
func Resampled(name, describe string, sampler Sampler, inner learn.Method) learn.Method {
	keys := learn.ParamMap(inner.Params())
	for _, p := range sampler.Params() {
		if _, dup := keys[p.Key]; dup {
			panic(fmt.Sprintf("resample: parameter %q is both the %s sampler's and the %s method's", p.Key, sampler.Name(), inner.Name()))
		}
	}
	return &resampled{WrappedMethod: learn.WrappedMethod{Inner: inner}, name: name, describe: describe, sampler: sampler}
}

type resampled struct {
	learn.WrappedMethod
	name, describe string
	sampler        Sampler
}

func (r *resampled) Name() string     { return r.name }
func (r *resampled) Describe() string { return r.describe }

// Set sets a sampler parameter or one of the inner method's.
func (r *resampled) Set(key, value string) error {
	if _, ok := learn.ParamMap(r.sampler.Params())[key]; ok {
		return r.sampler.Set(key, value)
	}
	return r.Inner.Set(key, value)
}

// Params lists the sampler's parameters, then the inner method's.
func (r *resampled) Params() []learn.Param {
	return append(r.sampler.Params(), r.Inner.Params()...)
}

// Fit resamples train and fits the inner method on it, with valid as it
// is.
func (r *resampled) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	env.Report("resample", 0, 1)
	rs, err := r.sampler.Resample(ctx, train, env)
	if err != nil {
		return nil, fmt.Errorf("resampling the training rows: %w", err)
	}
	env.Report("resample", 1, 1)
	s := Summary{Sampler: r.sampler.Name(), Before: CountRows(train), After: CountRows(rs)}
	env.Log().Debug("resampled the training rows", "sampler", s.Sampler, "before", s.Before.String(), "after", s.After.String())
	m, err := r.Inner.Fit(ctx, rs, valid, env)
	if err != nil {
		return nil, err
	}
	return &Model{Wrapped: learn.Wrapped{Inner: m}, summary: s}, nil
}

// Load decodes a model written by the MarshalBinary of a Resampled
// method's model.
func (r *resampled) Load(payload []byte) (learn.Scorer, error) {
	var e encoded
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, fmt.Errorf("resample: decoding model: %w", err)
	}
	if e.Sampler != r.sampler.Name() {
		return nil, fmt.Errorf("resample: the model was resampled by %q, not %q", e.Sampler, r.sampler.Name())
	}
	m, err := r.Inner.Load(e.Model)
	if err != nil {
		return nil, err
	}
	return &Model{Wrapped: learn.Wrapped{Inner: m}, summary: Summary{Sampler: e.Sampler, Before: e.Before, After: e.After}}, nil
}

// Model is a model fitted on resampled rows. It predicts with its inner
// model (Inner): it is a learn.Wrapped that changes neither rows nor
// scores, so the inner model's threshold, explanations, attributions,
// size and importances are found through it.
type Model struct {
	learn.Wrapped
	summary Summary
}

type encoded struct {
	Sampler string `json:"sampler"`
	Before  Counts `json:"before"`
	After   Counts `json:"after"`
	Model   []byte `json:"model"`
}

// Summary reports the row counts before and after resampling and the
// inner model's summary.
func (m *Model) Summary() any {
	s := m.summary
	s.Model = learn.SummaryOf(m.Inner)
	return &s
}

// MarshalBinary encodes the counts with the inner model.
func (m *Model) MarshalBinary() ([]byte, error) {
	b, err := m.Inner.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(encoded{Sampler: m.summary.Sampler, Before: m.summary.Before, After: m.summary.After, Model: b})
}

// Summary is the report of a fit on resampled rows.
type Summary struct {
	Sampler string `json:"sampler"`
	Before  Counts `json:"before"`
	After   Counts `json:"after"`
	// Model is the inner model's summary, if it has one.
	Model any `json:"model,omitempty"`
}

// String is the summary in one line, for aer fit's text output.
func (s *Summary) String() string {
	out := fmt.Sprintf("%s resampled %s to %s", s.Sampler, s.Before, s.After)
	if st, ok := s.Model.(fmt.Stringer); ok {
		out += "; " + st.String()
	}
	return out
}

// Rewrap returns a model fitted on the same resampled rows around inner
// (learn.Rewrapper): a quantised copy of the inner model.
func (m *Model) Rewrap(inner learn.Scorer) learn.Scorer {
	return &Model{Wrapped: learn.Wrapped{Inner: inner}, summary: m.summary}
}
