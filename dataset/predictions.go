package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrWeight is wrapped by the *Error of a weight that is missing or
// negative (a weight that is not a number or is infinite fails as any
// other cell does, with ErrNotNumber or ErrInfinite).
var ErrWeight = errors.New("invalid weight")

// Predictions are one method's outputs on labelled or unlabelled rows: the
// file format of aer predict, read by aer eval and aer compare. Columns:
// label (0/1, optional), score (probability of the positive class), pred
// (0/1, optional), weight (the row's weight, optional).
type Predictions struct {
	Label []int     // nil when the file has no label column
	Score []float64 // in [0, 1] for probabilities; any finite value is allowed
	Pred  []int     // nil when the file has no pred column
	// Weight holds the row weights, finite and not negative, as
	// metrics.Evaluate takes them; nil when the file has no weight column.
	Weight []float64
	// ID holds the row identifiers of the file's first column when it
	// is none of the columns above (aer predict --id writes it there);
	// nil otherwise. IDColumn names it.
	ID       []string
	IDColumn string
}

// LoadPredictions reads a predictions file. Labels other than 0/1 are
// mapped with the usual rule (the rarer class positive); pred must be 0 or
// 1; score must be a finite number on every row, and weight, when there is
// a weight column, a finite number >= 0 on every row.
func LoadPredictions(path string) (*Predictions, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A bad cell found after parsing has lost its line: the file is read
	// again to name it.
	locate := func(row int, col string) (int, string) {
		g, err := os.Open(path)
		if err != nil {
			return 0, ""
		}
		defer g.Close()
		return locateCell(bufio.NewReader(g), row, col)
	}
	return readPredictions(bufio.NewReader(f), filepath.Base(path), locate)
}

// ReadPredictions reads a predictions table from r; name prefixes errors.
// See LoadPredictions.
func ReadPredictions(r io.Reader, name string) (*Predictions, error) {
	// Keep the text, to name the line of a bad cell found after parsing.
	var buf bytes.Buffer
	locate := func(row int, col string) (int, string) {
		return locateCell(bytes.NewReader(buf.Bytes()), row, col)
	}
	return readPredictions(io.TeeReader(r, &buf), name, locate)
}

// readPredictions reads a predictions table; locate finds the line and the
// cell of data row row (from 0) in column col, or 0 and "".
func readPredictions(r io.Reader, name string, locate func(row int, col string) (int, string)) (*Predictions, error) {
	opt := Options{Label: "label", LabelOptional: true, AllowOneClass: true,
		idFirst: true, idExcept: []string{"label", "score", "pred", "weight", splitColumn}}
	d, err := Read(r, name, opt)
	if err != nil {
		return nil, err
	}
	// Prefer 1 as the positive class of 0/1 labels whatever the counts.
	if d.Y != nil && d.Classes == [2]string{"1", "0"} {
		for i := range d.Y {
			d.Y[i] = 1 - d.Y[i]
		}
		d.Classes = [2]string{"0", "1"}
	}
	col := map[string]int{}
	for j, f := range d.Features {
		col[f] = j
	}
	js, ok := col["score"]
	if !ok {
		return nil, &Error{File: name, Line: 1, Column: "score", Err: ErrColumns, Detail: "a predictions file needs a score column"}
	}
	n := d.Rows()
	p := &Predictions{Label: d.Y, Score: make([]float64, n), ID: d.IDs, IDColumn: d.IDColumn}
	for i := range n {
		v := d.X.At(i, js)
		if v != v {
			line, cell := locate(i, "score")
			return nil, &Error{File: name, Line: line, Column: "score", Value: cell, Err: ErrNotNumber, Detail: fmt.Sprintf("missing score in data row %d", i+1)}
		}
		p.Score[i] = v
	}
	if jp, ok := col["pred"]; ok {
		p.Pred = make([]int, n)
		for i := range n {
			v := d.X.At(i, jp)
			if v != 0 && v != 1 {
				line, _ := locate(i, "pred")
				return nil, &Error{File: name, Line: line, Column: "pred", Value: FormatFloat(v), Err: ErrNotNumber, Detail: fmt.Sprintf("pred must be 0 or 1, data row %d", i+1)}
			}
			p.Pred[i] = int(v)
		}
	}
	if jw, ok := col["weight"]; ok {
		p.Weight = make([]float64, n)
		for i := range n {
			v := d.X.At(i, jw) // finite or NaN: Read refuses infinities
			if !(v >= 0) {
				line, cell := locate(i, "weight")
				detail := "weights must be finite and not negative"
				if v != v {
					detail = "missing; " + detail
				}
				return nil, &Error{File: name, Line: line, Column: "weight", Value: cell, Err: ErrWeight, Detail: detail}
			}
			p.Weight[i] = v + 0 // -0 becomes 0
		}
	}
	return p, nil
}

// locateCell reads a CSV table as Read does and returns the line of data
// row row (counted from 0, blank lines skipped) and its cell in column
// col, or 0 and "" when there is no such cell.
func locateCell(r io.Reader, row int, col string) (int, string) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return 0, ""
	}
	j := -1
	for k, h := range header {
		if k == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if strings.TrimSpace(h) == col {
			j = k
		}
	}
	if j < 0 {
		return 0, ""
	}
	for i := 0; ; {
		rec, err := cr.Read()
		if err != nil {
			return 0, ""
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" && len(header) > 1 {
			continue // skipped by Read
		}
		if i == row {
			if j >= len(rec) {
				return 0, ""
			}
			line, _ := cr.FieldPos(j)
			return line, strings.TrimSpace(rec[j])
		}
		i++
	}
}

// WritePredictions writes p as CSV: the ID column (when p has IDs),
// label (when present), score, pred
// (when present), weight (when present). Scores and weights round-trip
// exactly.
func WritePredictions(w io.Writer, p *Predictions) error {
	id := ""
	if p.ID != nil {
		id = p.IDColumn
		if id == "" {
			id = "id"
		}
	}
	pw := NewPredictionsWriter(w, id, p.Label != nil, p.Pred != nil, p.Weight != nil)
	if err := pw.Write(p); err != nil {
		return err
	}
	return pw.Flush()
}

// PredictionsWriter writes a predictions file a batch of rows at a time,
// byte for byte as WritePredictions writes all of them at once.
type PredictionsWriter struct {
	bw                  *bufio.Writer
	id                  string
	label, pred, weight bool
	rows                int
	headerDone          bool
	buf                 []byte
}

// NewPredictionsWriter returns a writer of a predictions file with the
// columns id (named id, when not empty), label (when label), score, pred (when pred) and weight (when
// weight). Every batch must have the columns it promises.
func NewPredictionsWriter(w io.Writer, id string, label, pred, weight bool) *PredictionsWriter {
	return &PredictionsWriter{bw: bufio.NewWriterSize(w, 1<<16), id: id, label: label, pred: pred, weight: weight, buf: make([]byte, 0, 32)}
}

func (pw *PredictionsWriter) header() {
	if pw.headerDone {
		return
	}
	pw.headerDone = true
	bw := pw.bw
	sep := ""
	if pw.id != "" {
		bw.WriteString(csvCell(pw.id))
		sep = ","
	}
	if pw.label {
		bw.WriteString(sep)
		bw.WriteString("label")
		sep = ","
	}
	bw.WriteString(sep + "score")
	if pw.pred {
		bw.WriteString(",pred")
	}
	if pw.weight {
		bw.WriteString(",weight")
	}
	bw.WriteByte('\n')
}

// Write appends the rows of p (a batch); errors count rows from the start
// of the file.
func (pw *PredictionsWriter) Write(p *Predictions) error {
	pw.header()
	bw, buf := pw.bw, pw.buf
	if pw.id != "" && len(p.ID) != len(p.Score) || pw.label && len(p.Label) != len(p.Score) || pw.pred && len(p.Pred) != len(p.Score) || pw.weight && len(p.Weight) != len(p.Score) {
		return fmt.Errorf("predictions: a batch of %d scores lacks a column the file has", len(p.Score))
	}
	for i, s := range p.Score {
		pw.rows++
		if pw.id != "" {
			bw.WriteString(csvCell(p.ID[i]))
			bw.WriteByte(',')
		}
		if pw.label {
			bw.WriteByte(byte('0' + p.Label[i]))
			bw.WriteByte(',')
		}
		if math.IsNaN(s) {
			return fmt.Errorf("predictions: row %d: score is NaN", pw.rows)
		}
		buf = strconv.AppendFloat(buf[:0], s, 'g', -1, 64)
		bw.Write(buf)
		if pw.pred {
			bw.WriteByte(',')
			bw.WriteByte(byte('0' + p.Pred[i]))
		}
		if pw.weight {
			v := p.Weight[i]
			if !(v >= 0) || math.IsInf(v, 1) {
				return fmt.Errorf("predictions: row %d: weight %v is not a finite non-negative number", pw.rows, v)
			}
			bw.WriteByte(',')
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			bw.Write(buf)
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	pw.buf = buf
	return nil
}

// Flush writes the header if no batch came, and what is buffered.
func (pw *PredictionsWriter) Flush() error {
	pw.header()
	return pw.bw.Flush()
}
