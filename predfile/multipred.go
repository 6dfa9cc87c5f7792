package predfile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
)

// MultiPredictions are a multi-class model's predictions as aer predict
// writes them: per row the true class (when labelled), the predicted
// class and the probability of each class (columns score_<class>).
type MultiPredictions struct {
	// Classes are the classes, in the order of the score_ columns.
	Classes []string
	// Label and Pred index Classes; Label is nil without a label column.
	Label, Pred []int
	// Proba holds each row's probabilities, row-major.
	Proba []float64
	// Weight holds the weight column's values; nil without one.
	Weight []float64
}

// ScorePrefix starts the name of a multi-class predictions file's
// probability columns.
const ScorePrefix = "score_"

// IsMultiPredictions says whether a predictions file's header is a
// multi-class one: score_<class> columns and no score column.
func IsMultiPredictions(header []string) bool {
	n := 0
	for _, h := range header {
		if h == "score" {
			return false
		}
		if strings.HasPrefix(h, ScorePrefix) {
			n++
		}
	}
	return n >= 2
}

// ErrMultiPredictions is wrapped by ReadMultiPredictions' errors.
var ErrMultiPredictions = errors.New("multi-class predictions")

// ReadMultiPredictions reads a multi-class predictions file: the
// score_<class> columns (two or more), label and pred (class names;
// pred, when absent, is each row's most probable class), weight; any
// other column (an id) is ignored. name names the file in errors.
func ReadMultiPredictions(r io.Reader, name string) (*MultiPredictions, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: reading the header: %v", name, ErrMultiPredictions, err)
	}
	header = slices.Clone(header)
	p := &MultiPredictions{}
	label, pred, weight := -1, -1, -1
	var scoreCols []int
	for j, h := range header {
		switch {
		case h == "label":
			label = j
		case h == "pred":
			pred = j
		case h == "weight":
			weight = j
		case strings.HasPrefix(h, ScorePrefix):
			c := strings.TrimPrefix(h, ScorePrefix)
			if slices.Contains(p.Classes, c) {
				return nil, fmt.Errorf("%s: %w: column %q appears twice", name, ErrMultiPredictions, h)
			}
			p.Classes = append(p.Classes, c)
			scoreCols = append(scoreCols, j)
		}
	}
	k := len(p.Classes)
	if k < 2 {
		return nil, fmt.Errorf("%s: %w: %d score_<class> columns, want 2 or more", name, ErrMultiPredictions, k)
	}
	index := make(map[string]int, k)
	for c, n := range p.Classes {
		index[n] = c
	}
	if label >= 0 {
		p.Label = []int{}
	}
	if weight >= 0 {
		p.Weight = []float64{}
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %v", name, ErrMultiPredictions, err)
		}
		cell := func(j int) string { return strings.TrimSpace(rec[j]) }
		class := func(j int) (int, error) {
			c, ok := index[cell(j)]
			if !ok {
				return 0, fmt.Errorf("%s: line %d, column %q: %w: %q is not one of the classes %q", name, line, header[j], ErrMultiPredictions, cell(j), p.Classes)
			}
			return c, nil
		}
		row := make([]float64, k)
		best := 0
		for c, j := range scoreCols {
			v, err := strconv.ParseFloat(cell(j), 64)
			if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
				return nil, fmt.Errorf("%s: line %d, column %q: %w: %q is not a probability", name, line, header[j], ErrMultiPredictions, cell(j))
			}
			row[c] = v
			if v > row[best] {
				best = c
			}
		}
		p.Proba = append(p.Proba, row...)
		if label >= 0 {
			c, err := class(label)
			if err != nil {
				return nil, err
			}
			p.Label = append(p.Label, c)
		}
		if pred >= 0 {
			if best, err = class(pred); err != nil {
				return nil, err
			}
		}
		p.Pred = append(p.Pred, best)
		if weight >= 0 {
			w, err := strconv.ParseFloat(cell(weight), 64)
			if err != nil || !(w >= 0) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("%s: line %d, column \"weight\": %w: %q is not a non-negative weight", name, line, ErrMultiPredictions, cell(weight))
			}
			p.Weight = append(p.Weight, w)
		}
	}
	if len(p.Pred) == 0 {
		return nil, fmt.Errorf("%s: %w: no rows", name, ErrMultiPredictions)
	}
	return p, nil
}

// WriteMultiPredictions writes multi-class predictions as CSV, as aer
// predict writes them: the id column idColumn when ids is not nil, label
// (when p has labels), pred (the class name), then score_<class> per
// class in p.Classes' order. Probabilities round-trip exactly.
func WriteMultiPredictions(w io.Writer, p *MultiPredictions, idColumn string, ids []string) error {
	cw := csv.NewWriter(w)
	var head []string
	if ids != nil {
		head = append(head, idColumn)
	}
	if p.Label != nil {
		head = append(head, "label")
	}
	head = append(head, "pred")
	for _, c := range p.Classes {
		head = append(head, ScorePrefix+c)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	// A class name, like any cell, is quoted by encoding/csv when it
	// needs it.
	k := len(p.Classes)
	row := make([]string, 0, len(head))
	for i := range p.Pred {
		row = row[:0]
		if ids != nil {
			row = append(row, ids[i])
		}
		if p.Label != nil {
			row = append(row, p.Classes[p.Label[i]])
		}
		row = append(row, p.Classes[p.Pred[i]])
		for _, v := range p.Proba[i*k : (i+1)*k] {
			row = append(row, dataset.FormatFloat(v))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
