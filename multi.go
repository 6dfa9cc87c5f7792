package aer

import (
	"context"
	"fmt"
	"io"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/decompose"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/predfile"
)

// How a model of three or more classes holds them
// (Settings.Decomposition, modelfile.Header.Multiclass).
const (
	// Native: the method's own model of k classes (softmax boosted
	// trees, multinomial logistic regression, a tree's class shares).
	Native = decompose.Native
	// OneVsRest and OneVsOne: two-class models of the method, one per
	// class or one per pair of classes (package decompose).
	OneVsRest = decompose.OneVsRest
	OneVsOne  = decompose.OneVsOne
)

// Classes returns the model's class names in order: the multi-class
// labels, or the negative and the positive class.
func (m *Model) Classes() []string { return m.header.Schema.ClassNames() }

// decisionOf is the decision s asks for: s.Decision, with the cost
// matrix (Settings.CostMatrix) as its objective's.
func decisionOf(s *Settings) decision.Options {
	d := s.Decision
	if s.CostMatrix != nil {
		g := d.Goal()
		g.Matrix = s.CostMatrix
		d.Objective = &g
	}
	return d
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
	case Native:
		mf, ok := method.(learn.ClassFitter)
		if !ok {
			return nil, fmt.Errorf("%w: method %s has no multi-class model of its own", modelfile.ErrHeader, h.Method)
		}
		mm, err = mf.LoadClasses(payload)
	case OneVsRest, OneVsOne:
		mm, err = decompose.Load(payload, method)
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
// probabilities, and its class by the model's decision (decision.Layer: by
// default the largest probability over the class's training share).
func (m *Model) predictMulti(ctx context.Context, t *Table, opt *PredictOptions) (*Predictions, error) {
	enc, err := m.encode(t)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	proba, err := m.model.PredictProba(enc.X, nil)
	if err != nil {
		return nil, err
	}
	k := m.model.NumClasses()
	r, _ := enc.X.Dims()
	p := &Predictions{IDColumn: t.d.IDColumn, ID: t.d.IDs, Label: enc.Y, Names: m.Classes(), Proba: proba,
		Score: make([]float64, r), Pred: make([]int, r), Unseen: enc.unseen, Ignored: enc.ignored}
	m.layer.Predict(proba, p.Pred)
	p.ThresholdFrom = m.layer.Rule
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
