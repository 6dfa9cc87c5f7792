package aer

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/predfile"
)

// PredictOptions say how a model scores a table. The zero value (and a
// nil *PredictOptions) predicts at the model's threshold on every core.
type PredictOptions struct {
	// Threshold, when not nil, replaces the model's threshold: a row is
	// predicted positive when its score is at least it.
	Threshold *float64
	// Workers bounds the goroutines; 0 means every core.
	Workers int
	// OOD asks for each row's out-of-distribution score and flag
	// (Predictions.OOD, OODFlag); a model without them (one not fitted
	// by AER, or an AER model file written before it had them) is an
	// error wrapping learn.ErrNoOOD.
	OOD bool
}

// Predictions are a model's probabilities of a table's rows, with its
// predicted classes: of two classes at the threshold, of more by the
// model's decision.
type Predictions struct {
	// Classes are the model's classes in order: of two, [0] negative and
	// [1] positive, as the training data wrote them. Label and Pred
	// index them.
	Classes []string
	// IDColumn names the table's id column, "" without one; ID holds its
	// cells.
	IDColumn string
	ID       []string
	// Label holds the table's labels in the model's classes (1 =
	// Classes[1]), nil when the table has none.
	Label []int
	// Score holds each row's score: of two classes the probability of
	// the positive class as the model gives it, of more the predicted
	// class's probability.
	Score []float64
	// Proba holds every class's probability of each row, row-major,
	// len(Classes) per row, for three or more classes; nil for two,
	// whose Score says it all (Probability gives either).
	Proba []float64
	// Pred holds each row's predicted class (1 = Classes[1]).
	Pred []int
	// Threshold is the threshold of Pred, and ThresholdFrom where it came
	// from: "option" (PredictOptions.Threshold) or the model's source
	// (see Model.Threshold).
	Threshold     float64
	ThresholdFrom string
	// Unseen counts, per categorical column, the cells whose value the
	// training data did not have (encoded as all zeros, as a missing
	// cell is); nil when there are none.
	Unseen map[string]int
	// Ignored names the table's columns the model does not use.
	Ignored []string
	// OOD holds, when PredictOptions.OOD asked for it, each row's
	// out-of-distribution score (higher = farther from the training
	// data; for AER minus the log-density under the majority class's
	// mixture), and OODFlag whether it is above OODThreshold, the score
	// the model set so that a small share of rows like its training
	// data (adaptive.OODAlpha) lie above it. All nil or 0 otherwise.
	OOD          []float64
	OODFlag      []bool
	OODThreshold float64
}

// OODFlagged counts the rows flagged out of distribution.
func (p *Predictions) OODFlagged() int {
	if p == nil {
		return 0
	}
	n := 0
	for _, f := range p.OODFlag {
		if f {
			n++
		}
	}
	return n
}

// Class returns the predicted class of row i by name.
// It is "" for a row or a class the predictions do not have.
func (p *Predictions) Class(i int) string {
	if p == nil || i < 0 || i >= len(p.Pred) || p.Pred[i] < 0 || p.Pred[i] >= len(p.Classes) {
		return ""
	}
	return p.Classes[p.Pred[i]]
}

// Probability returns the probability of class c (an index of Classes)
// for row i, whatever the number of classes; NaN for a row or a class
// the predictions do not have.
func (p *Predictions) Probability(i, c int) float64 {
	switch {
	case p == nil || i < 0 || c < 0 || c >= len(p.Classes):
		return math.NaN()
	case p.Proba == nil && i >= len(p.Score), p.Proba != nil && (i+1)*len(p.Classes) > len(p.Proba):
		return math.NaN()
	}
	if p.Proba == nil {
		if c == 1 {
			return p.Score[i]
		}
		return 1 - p.Score[i]
	}
	return p.Proba[i*len(p.Classes)+c]
}

// Positives counts the rows predicted positive.
func (p *Predictions) Positives() int {
	if p == nil {
		return 0
	}
	n := 0
	for _, v := range p.Pred {
		n += v
	}
	return n
}

// WriteCSV writes the predictions as aer predict does: of two classes
// the columns [id,]label,score,pred (label only when the table had one),
// label and pred as the class names, then ood_score,ood when the
// predictions have them (PredictOptions.OOD); of more [id,]label,pred then
// score_<class> per class, in the model's class order.
func (p *Predictions) WriteCSV(w io.Writer) error {
	if p == nil {
		return fmt.Errorf("%w: the predictions are nil", learn.ErrData)
	}
	if err := writerGiven(w, "writing predictions"); err != nil {
		return err
	}
	if len(p.Classes) > 2 {
		var ids []string
		if p.IDColumn != "" {
			ids = p.ID
		}
		return predfile.WriteMultiPredictions(w, &predfile.MultiPredictions{Classes: p.Classes, Label: p.Label, Pred: p.Pred, Proba: p.Proba, OOD: p.OOD, OODFlag: p.OODFlag}, p.IDColumn, ids)
	}
	pw := predfile.NewPredictionsWriter(w, p.IDColumn, p.Label != nil, true, false)
	if p.OOD != nil {
		pw.WithOOD()
	}
	if err := pw.Write(&predfile.Predictions{ID: p.ID, Label: p.Label, Score: p.Score, Pred: p.Pred, Classes: dataset.ClassPair(p.Classes), OOD: p.OOD, OODFlag: p.OODFlag}); err != nil {
		return err
	}
	return pw.Flush()
}

// Predict scores the rows of t. Its columns are matched to the model's by
// name: any order, columns the model does not use ignored (listed in
// Ignored), a categorical column encoded with the model's list of its
// values (a value the list lacks encodes to all zeros, like a missing
// cell, and is counted in Unseen), however t was read. A feature column
// the model needs and t lacks is an error naming it.
func (m *Model) Predict(ctx context.Context, t *Table, opt *PredictOptions) (*Predictions, error) {
	if opt == nil {
		opt = &PredictOptions{}
	}
	enc, err := m.encode(t)
	if err != nil {
		return nil, err
	}
	r, _ := enc.X.Dims()
	p := &Predictions{Classes: m.Classes(), IDColumn: t.d.IDColumn, ID: t.d.IDs, Label: enc.Y,
		Pred: make([]int, r), Unseen: enc.unseen, Ignored: enc.ignored}
	if opt.OOD {
		if err := p.scoreOOD(m, enc.X); err != nil {
			return nil, err
		}
	}
	if s := m.scorer(); s != nil {
		// Two classes: the positive class's probabilities, on every core,
		// at the threshold.
		if p.Score, err = learn.Predict(ctx, s, enc.X, opt.Workers); err != nil {
			return nil, err
		}
		p.Threshold, p.ThresholdFrom = m.Threshold()
		if opt.Threshold != nil {
			p.Threshold, p.ThresholdFrom = *opt.Threshold, "option"
		}
		for i, v := range p.Score {
			if v >= p.Threshold {
				p.Pred[i] = 1
			}
		}
		return p, nil
	}
	// Three or more: every class's probabilities, the class by the
	// model's decision (by default the largest probability over the
	// class's training share).
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.Proba, err = m.model.PredictProba(enc.X, nil); err != nil {
		return nil, err
	}
	k := len(p.Classes)
	m.layer.Predict(p.Proba, p.Pred)
	p.ThresholdFrom = m.layer.Rule
	p.Score = make([]float64, r)
	for i := range r {
		p.Score[i] = p.Proba[i*k+p.Pred[i]]
	}
	return p, nil
}

// scoreOOD fills p's out-of-distribution scores and flags of the rows
// x, encoded for m (Model.OOD).
func (p *Predictions) scoreOOD(m *Model, x *mat.Dense) error {
	o, ok := m.OOD()
	if !ok {
		return fmt.Errorf("%w (models fitted by this version have one, unless fitted with --ood-density=false)", learn.ErrNoOOD)
	}
	var err error
	if p.OOD, err = o.OODScore(x, nil); err != nil {
		return err
	}
	p.OODThreshold, _ = o.OODThreshold()
	p.OODFlag = make([]bool, len(p.OOD))
	for i, v := range p.OOD {
		p.OODFlag[i] = v > p.OODThreshold
	}
	return nil
}

// encoded is a table encoded for the model, with what Predictions report
// of it.
type encoded struct {
	*dataset.Encoded
	unseen  map[string]int // per categorical column; nil when none
	ignored []string       // the table's columns the model does not use
}

// encode maps t's columns onto the model's schema by name (see Predict);
// a nil model or table is an error.
func (m *Model) encode(t *Table) (*encoded, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	if err := t.usable("the table"); err != nil {
		return nil, err
	}
	s := m.Schema()
	e, err := t.d.Encode(&s)
	if err != nil {
		return nil, err
	}
	out := &encoded{Encoded: e, ignored: append(slices.Clone(t.d.Ignored), e.Ignored...)}
	out.unseen = addUnseen(nil, s.Categories, e.Unseen)
	// A table read with the model's lists of values (Model.ReadTable)
	// counted its unseen values as it read them.
	out.unseen = addUnseen(out.unseen, t.d.Categories, t.d.Unseen)
	return out, nil
}

// addUnseen adds counts[k], the unseen values of cats[k], to dst by
// column name, and returns it; dst stays nil while every count is 0.
func addUnseen(dst map[string]int, cats []dataset.Category, counts []int) map[string]int {
	for k, c := range cats {
		if k < len(counts) && counts[k] > 0 {
			if dst == nil {
				dst = map[string]int{}
			}
			dst[c.Column] += counts[k]
		}
	}
	return dst
}

// ReadOptions are the options to read data for the model, as aer predict
// reads it: the label when the data has it (in the model's classes), the
// id, weight and dropped columns recognised, categorical columns encoded
// with the model's lists of values, and columns the model does not use
// ignored whatever they hold.
func (m *Model) ReadOptions() dataset.Options {
	s := m.Schema()
	opt := s.ReadOptions()
	opt.Keep = s.RawColumns()
	return opt
}

// ReadTable reads the table in the file at path as data for the model
// (see Model.ReadOptions), in any format aer.ReadTable reads.
func (m *Model) ReadTable(path string) (*Table, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	return readTable(path, m.ReadOptions())
}
