package dataset

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// Predictions are one method's outputs on labelled or unlabelled rows: the
// file format of aer predict, read by aer eval and aer compare. Columns:
// label (0/1, optional), score (probability of the positive class), pred
// (0/1, optional).
type Predictions struct {
	Label []int     // nil when the file has no label column
	Score []float64 // in [0, 1] for probabilities; any finite value is allowed
	Pred  []int     // nil when the file has no pred column
}

// LoadPredictions reads a predictions file. Labels other than 0/1 are
// mapped with the usual rule (the rarer class positive); pred must be 0 or
// 1; score must be a finite number on every row.
func LoadPredictions(path string) (*Predictions, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadPredictions(bufio.NewReader(f), filepath.Base(path))
}

// ReadPredictions reads a predictions table from r; name prefixes errors.
func ReadPredictions(r io.Reader, name string) (*Predictions, error) {
	opt := Options{Label: "label", LabelOptional: true, AllowOneClass: true}
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
	p := &Predictions{Label: d.Y, Score: make([]float64, n)}
	for i := range n {
		v := d.X.At(i, js)
		if v != v {
			return nil, &Error{File: name, Column: "score", Err: ErrNotNumber, Detail: fmt.Sprintf("missing score in data row %d", i+1)}
		}
		p.Score[i] = v
	}
	if jp, ok := col["pred"]; ok {
		p.Pred = make([]int, n)
		for i := range n {
			v := d.X.At(i, jp)
			if v != 0 && v != 1 {
				return nil, &Error{File: name, Column: "pred", Value: FormatFloat(v), Err: ErrNotNumber, Detail: fmt.Sprintf("pred must be 0 or 1, data row %d", i+1)}
			}
			p.Pred[i] = int(v)
		}
	}
	return p, nil
}

// WritePredictions writes p as CSV: label (when present), score, pred
// (when present). Scores round-trip exactly.
func WritePredictions(w io.Writer, p *Predictions) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	sep := ""
	if p.Label != nil {
		bw.WriteString("label")
		sep = ","
	}
	bw.WriteString(sep + "score")
	if p.Pred != nil {
		bw.WriteString(",pred")
	}
	bw.WriteByte('\n')
	buf := make([]byte, 0, 32)
	for i, s := range p.Score {
		if p.Label != nil {
			bw.WriteByte(byte('0' + p.Label[i]))
			bw.WriteByte(',')
		}
		if math.IsNaN(s) {
			return fmt.Errorf("predictions: row %d: score is NaN", i+1)
		}
		buf = strconv.AppendFloat(buf[:0], s, 'g', -1, 64)
		bw.Write(buf)
		if p.Pred != nil {
			bw.WriteByte(',')
			bw.WriteByte(byte('0' + p.Pred[i]))
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}
