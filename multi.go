package aer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/multiclass"
	"github.com/aer-go/aer/pipeline"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/search"
)

// How a multi-class model holds its classes (Settings.Multiclass,
// modelfile.Header.Multiclass).
const (
	// MulticlassNative: the method's own multi-class model
	// (learn.MultiFitter: softmax boosted trees, multinomial logistic
	// regression).
	MulticlassNative = multiclass.Native
	// MulticlassOvR and MulticlassOvO: binary models of the method, one
	// per class or one per pair of classes (package multiclass).
	MulticlassOvR = multiclass.OneVsRest
	MulticlassOvO = multiclass.OneVsOne
)

// MultiClass says whether the model has three or more classes.
func (m *Model) MultiClass() bool { return m.multi != nil }

// Classes returns the model's class names in order: the multi-class
// labels, or the negative and the positive class.
func (m *Model) Classes() []string { return m.header.Schema.ClassNames() }

// fitMulti fits method to a multi-class training table (Fit's path for
// tables with Labels): natively when the method is a learn.MultiFitter
// and s.Multiclass is "" or native, else by decomposition (one-vs-rest
// by default), at every point of s.Grid when it is set. The decision
// (decision.FitMulti, rule s.Decision.Rule) predicts by default the
// class of largest probability over its training share, the Bayes rule
// for balanced accuracy; "tuned" tunes the weights on the validation
// rows, "argmax" takes the most probable class.
func fitMulti(ctx context.Context, train, valid *Table, s *Settings, method learn.Method) (*Model, error) {
	method, err := multiMethod(method, s)
	if err != nil {
		return nil, err
	}
	schema := train.Schema()
	k := schema.NumClasses()
	tr := &learn.Data{X: train.d.X, Y: train.d.Y, W: train.d.W, Features: train.d.Features}
	va, err := validData(train, valid)
	if err != nil {
		return nil, err
	}
	env := learn.Env{Seed: s.Seed, Workers: s.Workers, Progress: s.Progress, Logger: s.Logger, MemoryPlan: s.MemoryPlan}
	start := time.Now()
	dec, err := multiDecision(s)
	if err != nil {
		return nil, err
	}
	f, method, found, err := fitMultiData(ctx, method, s, dec, tr, va, k, env)
	if err != nil {
		return nil, err
	}
	mm, layer, strategy := f.Model, f.Layer, f.Strategy
	layerJSON, err := json.Marshal(layer)
	if err != nil {
		return nil, err
	}
	summary := &TrainSummary{Rows: train.Rows(), MissingCells: train.d.Missing()}
	if va != nil {
		summary.ValidRows = va.Rows()
	}
	cfg, err := json.Marshal(FitConfig{Seed: s.Seed, Params: learn.ParamMap(method.Params()), Train: summary})
	if err != nil {
		return nil, err
	}
	h := &modelfile.Header{Method: method.Name(), Schema: schema, Config: cfg, Decision: layerJSON, Producer: "aer " + Version, Multiclass: strategy}
	return &Model{header: h, multi: mm, multiLayer: layer, report: &FitReport{Search: found, Seconds: time.Since(start).Seconds()}}, nil
}

// fitMultiData fits method to a multi-class training set with its
// decision dec: once, or, with s.Grid, at every point of the grid on
// copies of method, keeping the best on the validation rows (then the
// chosen method and the search's outcome are returned too).
func fitMultiData(ctx context.Context, method learn.Method, s *Settings, dec decision.MultiOptions, tr, va *learn.Data, k int, env learn.Env) (*multiclass.Fitted, learn.Method, *search.Outcome, error) {
	if s.Grid == nil {
		f, err := multiclass.FitDecided(ctx, method, s.Multiclass, dec, tr, va, k, env)
		return f, method, nil, err
	}
	if va == nil {
		return nil, nil, nil, fmt.Errorf("%w: a grid search needs validation rows", learn.ErrParam)
	}
	axes, err := pipeline.Axes(method, s.Grid)
	if err != nil {
		return nil, nil, nil, err
	}
	return multiclass.SearchDecided(ctx, func() (learn.Method, error) { return cloneMethod(method) }, axes, s.Multiclass, dec, tr, va, k, env)
}

// multiMethod is method (DefaultMethod when nil) with s's parameters
// set, for a multi-class fit.
func multiMethod(method learn.Method, s *Settings) (learn.Method, error) {
	if method == nil {
		method = DefaultMethod()
	}
	if len(s.Params) > 0 {
		c, err := cloneMethod(method)
		if err != nil {
			return nil, err
		}
		if err := pipeline.SetParams(c, s.Params); err != nil {
			return nil, err
		}
		method = c
	}
	return method, nil
}

// multiDecision is the multi-class decision s asks for: s.Decision's
// rule, its objective's metric (balanced accuracy, macro F1 for f1,
// G-mean for gmean; a metric but balanced accuracy is tuned), or the
// cost matrix's rule.
func multiDecision(s *Settings) (decision.MultiOptions, error) {
	d := decision.MultiOptions{Rule: s.Decision.Rule, Cost: s.CostMatrix}
	if s.CostMatrix != nil {
		if d.Rule != "" && d.Rule != decision.MultiCost {
			return d, fmt.Errorf("%w: a cost matrix decides by rule cost, not %s", learn.ErrParam, d.Rule)
		}
		d.Rule = decision.MultiCost
	}
	switch s.Decision.Calibrate {
	case "", decision.Sigmoid:
	default:
		return d, fmt.Errorf("%w: calibration %s is for binary models: a multi-class model's binary members are calibrated by a sigmoid", learn.ErrParam, s.Decision.Calibrate)
	}
	o := s.Decision.Objective
	if o == nil {
		return d, nil
	}
	switch {
	case o.CostFN+o.CostFP > 0:
		return d, fmt.Errorf("%w: a cost fn=,fp= is for two classes: give three or more classes' costs as a cost matrix (aer fit --cost-matrix)", learn.ErrParam)
	case o.MinRecall > 0:
		return d, fmt.Errorf("%w: a minimum recall is for two classes", learn.ErrParam)
	}
	switch o.Metric {
	case metrics.BalancedAccuracy:
		return d, nil
	case metrics.F1:
		d.Metric = decision.MultiMacroF1
	case metrics.GMean:
		d.Metric = decision.MultiGMean
	default:
		return d, fmt.Errorf("%w: a multi-class decision is tuned for balanced_accuracy, f1 (macro) or gmean, not %s", learn.ErrParam, o.Metric)
	}
	if d.Rule == "" {
		d.Rule = decision.MultiTuned
	}
	return d, nil
}

// loadMulti decodes a multi-class model's payload (ReadModel).
func loadMulti(h *modelfile.Header, method learn.Method, payload []byte) (learn.Model, error) {
	k := h.Schema.NumClasses()
	if k < 3 {
		return nil, fmt.Errorf("%w: a %s multi-class model without three or more labels in its schema", modelfile.ErrHeader, h.Multiclass)
	}
	var mm learn.Model
	var err error
	switch h.Multiclass {
	case MulticlassNative:
		mf, ok := method.(learn.MultiFitter)
		if !ok {
			return nil, fmt.Errorf("%w: method %s has no multi-class model of its own", modelfile.ErrHeader, h.Method)
		}
		mm, err = mf.LoadMulti(payload)
	case MulticlassOvR, MulticlassOvO:
		mm, err = multiclass.Load(payload, method)
	default:
		return nil, fmt.Errorf("%w: multiclass %q", modelfile.ErrHeader, h.Multiclass)
	}
	if err != nil {
		return nil, err
	}
	if mm.NumClasses() != k || mm.NumFeatures() != len(h.Schema.Features) {
		return nil, fmt.Errorf("%w: the model has %d classes and %d features, its header %d and %d", modelfile.ErrHeader, mm.NumClasses(), mm.NumFeatures(), k, len(h.Schema.Features))
	}
	return mm, nil
}

// predictMulti scores a multi-class model: each row's class
// probabilities, and its class by the model's decision (MultiLayer: by
// default the largest probability over the class's training share).
func (m *Model) predictMulti(ctx context.Context, t *Table, opt *PredictOptions) (*Predictions, error) {
	enc, err := m.encode(t)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	proba, err := m.multi.PredictProba(enc.X, nil)
	if err != nil {
		return nil, err
	}
	k := m.multi.NumClasses()
	r, _ := enc.X.Dims()
	p := &Predictions{IDColumn: t.d.IDColumn, ID: t.d.IDs, Label: enc.Y, Names: m.Classes(), Proba: proba,
		Score: make([]float64, r), Pred: make([]int, r), Unseen: enc.unseen, Ignored: enc.ignored}
	m.multiLayer.Predict(proba, p.Pred)
	p.ThresholdFrom = m.multiLayer.Rule
	for i := range r {
		p.Score[i] = proba[i*k+p.Pred[i]]
	}
	return p, nil
}

// writeMultiCSV writes multi-class predictions: the id column (when
// the table has one), label (when labelled), pred (the class name), then
// score_<class> per class, in the model's class order.
func (p *Predictions) writeMultiCSV(w io.Writer) error {
	var ids []string
	if p.IDColumn != "" {
		ids = p.ID
	}
	return predfile.WriteMultiPredictions(w, &predfile.MultiPredictions{Classes: p.Names, Label: p.Label, Pred: p.Pred, Proba: p.Proba}, p.IDColumn, ids)
}

// predictStreamMulti is PredictStream for a multi-class model: the table
// is read whole, then scored.
func (m *Model) predictStreamMulti(ctx context.Context, r io.Reader, name string, w io.Writer, opt *StreamOptions) (*StreamSummary, error) {
	ropt := m.ReadOptions()
	if opt.ID != "" {
		ropt.ID = opt.ID
	}
	d, err := dataset.Decode(r, name, ropt)
	if err != nil {
		return nil, err
	}
	if opt.ID != "" && d.IDColumn != opt.ID {
		return nil, fmt.Errorf("%w: id column %s: %s has no such column", learn.ErrData, opt.ID, name)
	}
	p, err := m.predictMulti(ctx, &Table{d: d}, nil)
	if err != nil {
		return nil, err
	}
	if err := p.writeMultiCSV(w); err != nil {
		return nil, err
	}
	return &StreamSummary{Rows: len(p.Pred), Labelled: p.Label != nil, IDColumn: p.IDColumn, ThresholdFrom: p.ThresholdFrom, Unseen: p.Unseen}, nil
}

// MultiDecision is a multi-class model's decision: its rule and class
// weights; nil for a binary model.
func (m *Model) MultiDecision() *decision.MultiLayer { return m.multiLayer }
