package aer

import (
	"context"
	"fmt"
	"io"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/predfile"
)

// StreamBatch is the number of rows PredictStream reads, scores and
// writes at a time: its memory is bounded by it, not by the data.
const StreamBatch = 4096

// StreamOptions say how PredictStream reads and scores. The zero value
// (and a nil *StreamOptions) reads the data as Model.ReadOptions says and
// predicts at the model's threshold on every core.
type StreamOptions struct {
	PredictOptions
	// ID names the data's id column, written as the first column; empty
	// means the model's (aer fit --id), when the data has it.
	ID string
	// Batch is the rows read at a time; 0 means StreamBatch.
	Batch int
}

// readOptions are m's read options with the id column of opt, when set.
func (opt *StreamOptions) readOptions(m *Model) dataset.Options {
	ropt := m.ReadOptions()
	if opt.ID != "" {
		ropt.ID = opt.ID
	}
	return ropt
}

// checkID refuses data (named name) whose id column got is not the one
// opt asked for, when it asked for one.
func (opt *StreamOptions) checkID(got, name string) error {
	if opt.ID != "" && got != opt.ID {
		return fmt.Errorf("%w: id column %s: %s has no such column", learn.ErrData, opt.ID, name)
	}
	return nil
}

// StreamSummary is what PredictStream scored.
type StreamSummary struct {
	// Rows and Positive count the rows scored and predicted positive.
	Rows, Positive int
	// Labelled says whether the data had the label column.
	Labelled bool
	// Threshold is the threshold of the predictions, and ThresholdFrom
	// where it came from (see Predictions).
	Threshold     float64
	ThresholdFrom string
	// Unseen counts, per categorical column, the cells whose value the
	// training data did not have; nil when there are none.
	Unseen map[string]int
	// IDColumn names the id column written, "" without one.
	IDColumn string
	// OODFlagged counts the rows flagged out of distribution, above
	// OODThreshold, when PredictOptions.OOD asked for them.
	OODFlagged   int
	OODThreshold float64
}

// PredictStream reads the table in r (CSV, gzip-compressed CSV or
// Parquet; name names it in errors) a batch of rows at a time, scores it
// and writes the predictions to w as Predictions.WriteCSV does, so
// memory does not grow with the data. Columns are matched by name as
// Predict matches them.
func (m *Model) PredictStream(ctx context.Context, r io.Reader, name string, w io.Writer, opt *StreamOptions) (*StreamSummary, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	if err := readerGiven(r, name); err != nil {
		return nil, err
	}
	if err := writerGiven(w, name); err != nil {
		return nil, err
	}
	if opt == nil {
		opt = &StreamOptions{}
	}
	if m.scorer() == nil {
		return m.predictStreamClasses(ctx, r, name, w, opt)
	}
	ropt := opt.readOptions(m)
	s, err := dataset.NewStream(r, name, ropt)
	if err != nil {
		return nil, err
	}
	if err := opt.checkID(s.IDColumn(), name); err != nil {
		return nil, err
	}
	schema := m.Schema()
	if err := dataset.MatchColumns(name, s.Features(), schema.Features); err != nil {
		return nil, err
	}
	sum := &StreamSummary{Labelled: s.Labelled(), IDColumn: s.IDColumn()}
	sum.Threshold, sum.ThresholdFrom = m.Threshold()
	if opt.Threshold != nil {
		sum.Threshold, sum.ThresholdFrom = *opt.Threshold, "option"
	}
	batch := opt.Batch
	if batch <= 0 {
		batch = StreamBatch
	}
	var ood learn.OODScorer
	if opt.OOD {
		var ok bool
		if ood, ok = m.OOD(); !ok {
			return nil, fmt.Errorf("%w (models fitted by this version have one, unless fitted with --ood-density=false)", learn.ErrNoOOD)
		}
		sum.OODThreshold, _ = ood.OODThreshold()
	}
	pw := predfile.NewPredictionsWriter(w, s.IDColumn(), s.Labelled(), true, false)
	if ood != nil {
		pw.WithOOD()
	}
	preds := predfile.Predictions{Classes: dataset.ClassPair(s.Classes())} // label and pred as the training file's class names
	for {
		d, err := s.Next(batch)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		x, err := d.Matrix(schema.Features)
		if err != nil {
			return nil, err
		}
		score, err := learn.Predict(ctx, m.scorer(), x, opt.Workers)
		if err != nil {
			return nil, err
		}
		preds.ID, preds.Label, preds.Score, preds.Pred = d.IDs, d.Y, score, preds.Pred[:0]
		for _, v := range score {
			p := 0
			if v >= sum.Threshold {
				p = 1
				sum.Positive++
			}
			preds.Pred = append(preds.Pred, p)
		}
		if ood != nil {
			if preds.OOD, err = ood.OODScore(x, preds.OOD); err != nil {
				return nil, err
			}
			preds.OODFlag = preds.OODFlag[:0]
			for _, v := range preds.OOD {
				preds.OODFlag = append(preds.OODFlag, v > sum.OODThreshold)
				if v > sum.OODThreshold {
					sum.OODFlagged++
				}
			}
		}
		sum.Rows += len(score)
		if err := pw.Write(&preds); err != nil {
			return nil, err
		}
	}
	sum.Unseen = addUnseen(nil, s.Categories(), s.Unseen())
	return sum, pw.Flush()
}

// predictStreamClasses is PredictStream for a model of three or more
// classes: the table is read whole, then scored.
func (m *Model) predictStreamClasses(ctx context.Context, r io.Reader, name string, w io.Writer, opt *StreamOptions) (*StreamSummary, error) {
	ropt := opt.readOptions(m)
	d, err := dataset.Decode(r, name, ropt)
	if err != nil {
		return nil, err
	}
	if err := opt.checkID(d.IDColumn, name); err != nil {
		return nil, err
	}
	p, err := m.Predict(ctx, &Table{d: d}, &PredictOptions{OOD: opt.OOD})
	if err != nil {
		return nil, err
	}
	if err := p.WriteCSV(w); err != nil {
		return nil, err
	}
	sum := &StreamSummary{Rows: len(p.Pred), Labelled: p.Label != nil, IDColumn: p.IDColumn, ThresholdFrom: p.ThresholdFrom, Unseen: p.Unseen}
	if p.OOD != nil {
		sum.OODFlagged, sum.OODThreshold = p.OODFlagged(), p.OODThreshold
	}
	return sum, nil
}
