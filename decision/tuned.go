package decision

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// Settings configure the threshold tuning. The zero value tunes for
// balanced accuracy on the thresholds 0.01, 0.02, ..., 0.99, holding out
// a stratified 25% of the training rows when no validation data is given.
type Settings struct {
	// Metric is what the threshold maximises; empty means
	// "balanced_accuracy".
	Metric string `json:"metric"`
	// Step is the spacing of the threshold grid; 0 means 0.01.
	Step float64 `json:"step"`
	// Holdout is the share of training rows held out for tuning when Fit
	// gets no validation data; 0 means 0.25.
	Holdout float64 `json:"holdout"`
}

var params = learn.ParamTable[Settings]{
	learn.Enum("threshold_metric", "what the decision threshold maximises on validation", metricNames(), func(s *Settings) *string { return &s.Metric }),
	learn.OpenFloat("threshold_step", "spacing of the threshold grid, from 0.0001", 0, 0.5, func(s *Settings) *float64 { return &s.Step }),
	learn.OpenFloat("threshold_holdout", "share of training rows held out for tuning without validation data", 0, 1, func(s *Settings) *float64 { return &s.Holdout }),
}

func metricNames() []string {
	var names []string
	for _, m := range metrics.AllMetrics() {
		names = append(names, m.String())
	}
	return names
}

func (s Settings) resolved() (Settings, metrics.Metric, error) {
	if s.Metric == "" {
		s.Metric = metrics.BalancedAccuracy.String()
	}
	if s.Step == 0 {
		s.Step = 0.01
	}
	if s.Holdout == 0 {
		s.Holdout = 0.25
	}
	m, err := metrics.ParseMetric(s.Metric)
	if err != nil {
		return s, 0, err
	}
	if !(s.Step >= 1e-4 && s.Step < 0.5) || !(s.Holdout > 0 && s.Holdout < 1) {
		return s, 0, fmt.Errorf("threshold_step %v (from 0.0001 below 0.5: each step is a candidate threshold) or threshold_holdout %v out of range", s.Step, s.Holdout)
	}
	return s, m, nil
}

// Tuned is a method whose models predict at a threshold tuned on
// validation data.
type Tuned struct {
	learn.WrappedMethod
	name, describe string
	s              Settings
}

// Tune returns the method registered as name that fits inner and tunes
// the decision threshold of its models. Parameters of inner stay settable
// through the returned method; its own are threshold_metric,
// threshold_step and threshold_holdout.
func Tune(name, describe string, inner learn.Method) *Tuned {
	return &Tuned{WrappedMethod: learn.WrappedMethod{Inner: inner}, name: name, describe: describe}
}

// Name returns the registered name.
func (t *Tuned) Name() string { return t.name }

// Describe returns a one-line description.
func (t *Tuned) Describe() string { return t.describe }

// PaperGrid is the inner method's, if it has one: tuning the threshold
// leaves the inner method's parameters as they are.
func (t *Tuned) PaperGrid() []string {
	if g, ok := t.Inner.(learn.Gridder); ok {
		return g.PaperGrid()
	}
	return nil
}

// Set sets a threshold parameter or one of the inner method's.
func (t *Tuned) Set(key, value string) error {
	if params.Has(key) {
		return params.Set(&t.s, key, value)
	}
	return t.Inner.Set(key, value)
}

// Params lists the threshold parameters, then the inner method's.
func (t *Tuned) Params() []learn.Param {
	cur, _, _ := t.s.resolved()
	def, _, _ := Settings{}.resolved()
	return append(params.List(&cur, &def), t.Inner.Params()...)
}

// Fit fits the inner method on train, scores valid (or, without it, a
// stratified hold-out of train that the inner method does not see) and
// keeps the threshold with the best metric, the middle of the longest run
// of tied thresholds.
func (t *Tuned) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	s, metric, err := t.s.resolved()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	// The sweep panics on bad labels, and the inner method may not look
	// at valid at all.
	if valid != nil {
		if err := valid.Check("validation data"); err != nil {
			return nil, err
		}
	}
	if valid == nil {
		parts, err := dataset.StratifiedSplit(train.Y, []float64{1 - s.Holdout, s.Holdout}, rng.DeriveSeed(env.Seed, 1))
		if err != nil {
			return nil, fmt.Errorf("decision: hold-out split: %w", err)
		}
		train, valid = train.Subset(parts[0]), train.Subset(parts[1])
	}
	m, err := t.Inner.Fit(ctx, train, valid, env)
	if err != nil {
		return nil, err
	}
	score, err := learn.Predict(ctx, m, valid.X, env.Workers)
	if err != nil {
		return nil, fmt.Errorf("decision: scoring validation rows: %w", err)
	}
	var grid []float64
	for k := 1; float64(k)*s.Step < 1-1e-9; k++ {
		grid = append(grid, math.Round(float64(k)*s.Step*1e9)/1e9)
	}
	sw := metrics.SweepThresholds(valid.Y, score, grid, valid.W)
	best := sw.Best(metric)
	if best < 0 {
		return nil, fmt.Errorf("decision: %s is undefined at every threshold on the validation rows", metric)
	}
	return &Model{Wrapped: learn.Wrapped{Inner: m}, threshold: sw[best].Threshold, metric: s.Metric, value: metric.Of(sw[best].Confusion)}, nil
}

// Load decodes a model written by Model.MarshalBinary.
func (t *Tuned) Load(payload []byte) (learn.Scorer, error) {
	var e encoded
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, fmt.Errorf("decision: decoding model: %w", err)
	}
	if !(e.Threshold > 0 && e.Threshold < 1) {
		return nil, fmt.Errorf("decision: threshold %v is not in (0, 1)", e.Threshold)
	}
	m, err := t.Inner.Load(e.Model)
	if err != nil {
		return nil, err
	}
	return &Model{Wrapped: learn.Wrapped{Inner: m}, threshold: e.Threshold, metric: e.Metric, value: e.Value}, nil
}

// Model is a fitted model with a tuned threshold. It is a learn.Wrapped
// that scores as its inner model (Inner) does: the inner model's
// attributions, explanations, size and importances are found through it.
type Model struct {
	learn.Wrapped
	threshold float64
	metric    string
	value     float64
}

type encoded struct {
	Threshold float64 `json:"threshold"`
	Metric    string  `json:"metric"`
	Value     float64 `json:"valid_value"`
	Model     []byte  `json:"model"`
}

// Threshold returns the tuned threshold.
func (m *Model) Threshold() float64 { return m.threshold }

// Summary reports the threshold and the inner model's summary.
func (m *Model) Summary() any {
	return &Summary{Threshold: m.threshold, Metric: m.metric, ValidValue: m.value, Model: learn.SummaryOf(m.Inner)}
}

// Summary is the report of a tuned fit.
type Summary struct {
	Threshold  float64 `json:"threshold"`
	Metric     string  `json:"threshold_metric"`
	ValidValue float64 `json:"valid_value"`
	// Model is the inner model's summary, if it has one.
	Model any `json:"model,omitempty"`
}

// String is the summary in one line, for aer fit's text output.
func (s *Summary) String() string {
	out := fmt.Sprintf("threshold %.4g, validation %s %.4f", s.Threshold, s.Metric, s.ValidValue)
	if st, ok := s.Model.(fmt.Stringer); ok {
		out += "; " + st.String()
	}
	return out
}

// MarshalBinary encodes the threshold with the inner model.
func (m *Model) MarshalBinary() ([]byte, error) {
	b, err := m.Inner.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(encoded{Threshold: m.threshold, Metric: m.metric, Value: m.value, Model: b})
}

// Rewrap returns the same tuned threshold in front of inner
// (learn.Rewrapper): a quantised copy of the inner model.
func (m *Model) Rewrap(inner learn.Scorer) learn.Scorer {
	c := *m
	c.Inner = inner
	return &c
}
