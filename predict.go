package aer

import (
	"context"
	"io"
	"slices"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// PredictOptions say how a model scores a table. The zero value (and a
// nil *PredictOptions) predicts at the model's threshold on every core.
type PredictOptions struct {
	// Threshold, when not nil, replaces the model's threshold: a row is
	// predicted positive when its score is at least it.
	Threshold *float64
	// Workers bounds the goroutines; 0 means every core.
	Workers int
}

// Predictions are a model's scores of a table's rows, with its predicted
// classes at the threshold.
type Predictions struct {
	// Classes are the model's classes, [0] negative and [1] positive, as
	// the training data wrote them.
	Classes [2]string
	// IDColumn names the table's id column, "" without one; ID holds its
	// cells.
	IDColumn string
	ID       []string
	// Label holds the table's labels in the model's classes (1 =
	// Classes[1]), nil when the table has none.
	Label []int
	// Score holds each row's score: the probability of the positive
	// class as the model gives it.
	Score []float64
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
}

// Class returns the predicted class of row i by name.
func (p *Predictions) Class(i int) string { return p.Classes[p.Pred[i]] }

// Positives counts the rows predicted positive.
func (p *Predictions) Positives() int {
	n := 0
	for _, v := range p.Pred {
		n += v
	}
	return n
}

// WriteCSV writes the predictions as aer predict does: columns
// [id,]label,score,pred (label only when the table had one), label and
// pred as the class names.
func (p *Predictions) WriteCSV(w io.Writer) error {
	pw := dataset.NewPredictionsWriter(w, p.IDColumn, p.Label != nil, true, false)
	if err := pw.Write(&dataset.Predictions{ID: p.ID, Label: p.Label, Score: p.Score, Pred: p.Pred, Classes: p.Classes}); err != nil {
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
	s := m.Schema()
	e, err := t.d.Encode(&s)
	if err != nil {
		return nil, err
	}
	score, err := learn.Predict(ctx, m.model, e.X, opt.Workers)
	if err != nil {
		return nil, err
	}
	p := &Predictions{Classes: s.Classes, IDColumn: t.d.IDColumn, ID: t.d.IDs, Label: e.Y, Score: score,
		Pred: make([]int, len(score)), Ignored: e.Ignored}
	p.Threshold, p.ThresholdFrom = m.Threshold()
	if opt.Threshold != nil {
		p.Threshold, p.ThresholdFrom = *opt.Threshold, "option"
	}
	for i, v := range score {
		if v >= p.Threshold {
			p.Pred[i] = 1
		}
	}
	count := func(column string, n int) {
		if n > 0 {
			if p.Unseen == nil {
				p.Unseen = map[string]int{}
			}
			p.Unseen[column] += n
		}
	}
	for k, c := range s.Categories {
		count(c.Column, e.Unseen[k])
	}
	// A table read with the model's lists of values (Model.ReadTable)
	// counted its unseen values as it read them.
	for k, c := range t.d.Categories {
		if k < len(t.d.Unseen) {
			count(c.Column, t.d.Unseen[k])
		}
	}
	p.Ignored = append(slices.Clone(t.d.Ignored), p.Ignored...)
	return p, nil
}

// ReadOptions are the options to read data for the model, as aer predict
// reads it: the label when the data has it (in the model's classes), the
// id, weight and dropped columns recognised, categorical columns encoded
// with the model's lists of values, and columns the model does not use
// ignored whatever they hold.
func (m *Model) ReadOptions() dataset.Options {
	s := m.Schema()
	opt := s.ReadOptions()
	opt.Keep = RawColumns(&s)
	return opt
}

// RawColumns are the columns of data a model of schema s reads, as they
// are named in a file: the numeric features and the categorical columns
// (each one once, by its own name), in the schema's order.
func RawColumns(s *dataset.Schema) []string {
	catOf := map[string]string{}
	for _, c := range s.Categories {
		for _, n := range c.Names() {
			catOf[n] = c.Column
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range s.Features {
		name := f
		if c, ok := catOf[f]; ok {
			name = c
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// ReadTable reads the table at path ("-": the standard input) as data for
// the model (see ReadOptions).
func (m *Model) ReadTable(path string) (*Table, error) {
	return ReadTableOptions(path, m.ReadOptions())
}
