package predfile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/ctxio"
)

// ErrWeight is wrapped by the *dataset.Error of a weight that is missing or
// negative (a weight that is not a number or is infinite fails as any
// other cell does, with dataset.ErrNotNumber or dataset.ErrInfinite).
var ErrWeight = errors.New("invalid weight")

// ErrPredClass is wrapped by the *dataset.Error of a pred value that is not one of
// the classes of a predictions file (see LoadPredictionsWith).
var ErrPredClass = errors.New("pred is not a class of the file")

// ErrPositive is wrapped by the *dataset.Error of a predictions file whose
// positive class cannot be told, or is not one of its classes.
var ErrPositive = errors.New("positive class unknown")

// Predictions are one method's outputs on labelled or unlabelled rows: the
// file format of aer predict, read by aer eval and aer compare. Columns:
// label (the true class, optional), score (probability of the positive
// class), pred (the predicted class, optional), weight (the row's weight,
// optional). Label and pred hold class names, the label values of the
// training file as aer predict writes them (Classes), or 0 and 1; in
// memory they are 0 (negative) and 1 (positive).
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
	// Classes are the names of the classes in the label and pred
	// columns: [0] the negative class, [1] the positive one, as a model
	// schema's Classes. The zero value means 0 and 1. The negative name
	// may be empty when the file holds only the positive class.
	Classes [2]string
	// OOD and OODFlag hold each row's out-of-distribution score and
	// flag, written as the last columns ood_score and ood (0 or 1) by a
	// PredictionsWriter made WithOOD; nil otherwise.
	OOD     []float64
	OODFlag []bool
}

// PredictionsOptions say how a predictions file is read.
type PredictionsOptions struct {
	// Positive names the positive class among the label and pred values
	// (aer eval --positive). Empty infers it: see LoadPredictionsWith.
	Positive string
}

// LoadPredictions reads a predictions file, inferring its positive class
// (LoadPredictionsWith with no options).
func LoadPredictions(path string) (*Predictions, error) {
	return LoadPredictionsWith(path, PredictionsOptions{})
}

// LoadPredictionsWith reads a predictions file. Score must be a finite
// number on every row, and weight, when there is a weight column, a
// finite number >= 0 on every row.
//
// The label and pred columns name at most two classes between them, pred
// only classes of the label column when it has two; labels 0/1 take
// predictions 0/1. The positive class is, in this order:
//
//  1. opt.Positive, when given;
//  2. 1, when every label and pred value is 0 or 1;
//  3. the pred value whose rows have the higher mean score, when pred
//     holds two values (a row is predicted positive when its score
//     reaches the threshold);
//  4. the rarer label, when label holds two values (on a tie, 1 if it is
//     one, else the value that sorts last, as dataset.Options.Positive);
//
// else the file is refused: name the positive class.
func LoadPredictionsWith(path string, opt PredictionsOptions) (*Predictions, error) {
	return LoadPredictionsContext(context.Background(), path, opt)
}

// LoadPredictionsContext is LoadPredictionsWith whose reading stops with
// ctx's error when ctx is done.
func LoadPredictionsContext(ctx context.Context, path string, opt PredictionsOptions) (*Predictions, error) {
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
	return readPredictions(bufio.NewReader(ctxio.NewFile(ctx, f)), filepath.Base(path), opt, locate)
}

// ReadPredictions reads a predictions table from r, inferring its positive
// class; name prefixes errors. See LoadPredictionsWith.
func ReadPredictions(r io.Reader, name string) (*Predictions, error) {
	return ReadPredictionsWith(r, name, PredictionsOptions{})
}

// ReadPredictionsWith reads a predictions table from r; name prefixes
// errors. See LoadPredictionsWith.
func ReadPredictionsWith(r io.Reader, name string, opt PredictionsOptions) (*Predictions, error) {
	// Keep the text, to name the line of a bad cell found after parsing.
	var buf bytes.Buffer
	locate := func(row int, col string) (int, string) {
		return locateCell(bytes.NewReader(buf.Bytes()), row, col)
	}
	return readPredictions(io.TeeReader(r, &buf), name, opt, locate)
}

// readPredictions reads a predictions table; locate finds the line and the
// cell of data row row (from 0) in column col, or 0 and "".
func readPredictions(r io.Reader, name string, popt PredictionsOptions, locate func(row int, col string) (int, string)) (*Predictions, error) {
	opt := dataset.Options{Label: "label", LabelOptional: true, AllowOneClass: true, Categorical: []string{"pred"},
		IDFirstExcept: []string{"label", "score", "pred", "weight", "split"}}
	d, err := dataset.Read(r, name, opt)
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for j, f := range d.Features {
		col[f] = j
	}
	js, ok := col["score"]
	if !ok {
		return nil, &dataset.Error{File: name, Line: 1, Column: "score", Err: dataset.ErrColumns, Detail: "a predictions file needs a score column"}
	}
	n := d.Rows()
	p := &Predictions{Score: make([]float64, n), ID: d.IDs, IDColumn: d.IDColumn}
	for i := range n {
		v := d.X.At(i, js)
		if v != v {
			line, cell := locate(i, "score")
			return nil, &dataset.Error{File: name, Line: line, Column: "score", Value: cell, Err: dataset.ErrNotNumber, Detail: fmt.Sprintf("missing score in data row %d", i+1)}
		}
		p.Score[i] = v
	}
	pred, predNames, err := predColumn(d, name, locate)
	if err != nil {
		return nil, err
	}
	if err := p.setClasses(d, pred, predNames, name, popt.Positive, locate); err != nil {
		return nil, err
	}
	if jw, ok := col["weight"]; ok {
		p.Weight = make([]float64, n)
		for i := range n {
			v := d.X.At(i, jw) // finite or NaN: dataset.Read refuses infinities
			if !(v >= 0) {
				line, cell := locate(i, "weight")
				detail := "weights must be finite and not negative"
				if v != v {
					detail = "missing; " + detail
				}
				return nil, &dataset.Error{File: name, Line: line, Column: "weight", Value: cell, Err: ErrWeight, Detail: detail}
			}
			p.Weight[i] = v + 0 // -0 becomes 0
		}
	}
	return p, nil
}

// predColumn returns the pred column of d, read as a categorical column:
// each row's index into names (its values, sorted), or nil without one.
func predColumn(d *dataset.Dataset, name string, locate func(row int, col string) (int, string)) ([]int, []string, error) {
	var c *dataset.Category
	for k := range d.Categories {
		if d.Categories[k].Column == "pred" {
			c = &d.Categories[k]
		}
	}
	if c == nil {
		return nil, nil, nil
	}
	first := -1 // no values: every cell missing
	if len(c.Values) > 0 {
		first = slices.Index(d.Features, "pred="+c.Values[0])
	}
	pred := make([]int, d.Rows())
	for i := range pred {
		pred[i] = -1
		for v := range c.Values {
			if d.X.At(i, first+v) == 1 {
				pred[i] = v
			}
		}
		if pred[i] < 0 {
			line, cell := locate(i, "pred")
			return nil, nil, &dataset.Error{File: name, Line: line, Column: "pred", Value: cell, Err: dataset.ErrNotNumber, Detail: fmt.Sprintf("missing pred in data row %d", i+1)}
		}
	}
	return pred, c.Values, nil
}

// setClasses settles the two classes of the label column of d and of pred
// (indices into predNames) by the rules of LoadPredictionsWith, and sets
// p.Classes, p.Label and p.Pred.
func (p *Predictions) setClasses(d *dataset.Dataset, pred []int, predNames []string, name, positive string, locate func(row int, col string) (int, string)) error {
	var labelNames []string // the label values present
	if d.Y != nil {
		for _, y := range []int{0, 1} {
			if slices.Contains(d.Y, y) {
				labelNames = append(labelNames, d.Classes[y])
			}
		}
	}
	zeroOne := func(names []string) bool {
		return !slices.ContainsFunc(names, func(s string) bool { return s != "0" && s != "1" })
	}
	names := slices.Clone(labelNames)
	for k, v := range predNames {
		detail := ""
		switch {
		case len(labelNames) > 0 && zeroOne(labelNames) && v != "0" && v != "1":
			detail = "the labels are 0/1: pred must be 0 or 1"
		case len(labelNames) == 2 && !slices.Contains(labelNames, v):
			detail = "pred must be a class of the label column, " + quoteList(labelNames)
		case !slices.Contains(names, v):
			names = append(names, v)
		}
		if len(names) > 2 {
			detail = "the label and pred columns name more than two classes: " + quoteList(names)
		}
		if detail != "" {
			i := slices.Index(pred, k)
			line, cell := locate(i, "pred")
			return &dataset.Error{File: name, Line: line, Column: "pred", Value: cell, Err: ErrPredClass, Detail: fmt.Sprintf("%s, data row %d", detail, i+1)}
		}
	}
	pos, err := positiveClass(d, pred, predNames, labelNames, names, positive, p.Score)
	if err != nil {
		return &dataset.Error{File: name, Value: positive, Err: ErrPositive, Detail: err.Error()}
	}
	neg := ""
	for _, s := range names {
		if s != pos {
			neg = s
		}
	}
	if neg == "" && pos == "1" {
		neg = "0"
	}
	if [2]string{neg, pos} != [2]string{"0", "1"} {
		p.Classes = [2]string{neg, pos}
	}
	if d.Y != nil {
		p.Label = make([]int, len(d.Y))
		for i, y := range d.Y {
			if d.Classes[y] == pos {
				p.Label[i] = 1
			}
		}
	}
	if pred != nil {
		p.Pred = make([]int, len(pred))
		for i, v := range pred {
			if predNames[v] == pos {
				p.Pred[i] = 1
			}
		}
	}
	return nil
}

// positiveClass is the name of the positive class by the rules of
// LoadPredictionsWith; names are the classes named by the label column
// (labelNames) and the pred column (predNames, pred the rows' indices).
func positiveClass(d *dataset.Dataset, pred []int, predNames, labelNames, names []string, positive string, score []float64) (string, error) {
	if positive != "" {
		positive = dataset.CanonicalLabel(positive)
		if len(names) == 2 && !slices.Contains(names, positive) {
			return "", fmt.Errorf("the positive class given is none of the file's classes, %s", quoteList(names))
		}
		return positive, nil
	}
	if !slices.ContainsFunc(names, func(s string) bool { return s != "0" && s != "1" }) {
		return "1", nil
	}
	if len(predNames) == 2 {
		var sum [2]float64
		var count [2]int
		for i, v := range pred {
			sum[v] += score[i]
			count[v]++
		}
		m0, m1 := sum[0]/float64(count[0]), sum[1]/float64(count[1])
		switch {
		case m0 > m1:
			return predNames[0], nil
		case m1 > m0:
			return predNames[1], nil
		}
	}
	if len(labelNames) == 2 {
		return d.Classes[1], nil // the rarer label, as dataset.Read chose it
	}
	if len(names) == 1 {
		return "", fmt.Errorf("cannot tell whether %q is the positive or the negative class: name the positive class", names[0])
	}
	return "", fmt.Errorf("cannot tell which of %s is the positive class: name it", quoteList(names))
}

// locateCell reads a CSV table as dataset.Read does and returns the line of data
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
			continue // skipped by dataset.Read
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
// label (when present), score, pred (when present), weight (when
// present). Label and pred are written as the names in p.Classes (0 and
// 1 when it is the zero value). Scores and weights round-trip exactly.
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
	ood                 bool
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

// WithOOD adds the last columns ood_score and ood (Predictions.OOD and
// OODFlag) and returns pw; call it before the first Write.
func (pw *PredictionsWriter) WithOOD() *PredictionsWriter {
	pw.ood = true
	return pw
}

func (pw *PredictionsWriter) header() {
	if pw.headerDone {
		return
	}
	pw.headerDone = true
	bw := pw.bw
	sep := ""
	if pw.id != "" {
		bw.WriteString(dataset.CSVCell(pw.id))
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
	if pw.ood {
		bw.WriteString(",ood_score,ood")
	}
	bw.WriteByte('\n')
}

// Write appends the rows of p (a batch), label and pred as the names in
// p.Classes (0 and 1 when it is the zero value); errors count rows from
// the start of the file.
func (pw *PredictionsWriter) Write(p *Predictions) error {
	pw.header()
	bw, buf := pw.bw, pw.buf
	if pw.id != "" && len(p.ID) != len(p.Score) || pw.label && len(p.Label) != len(p.Score) || pw.pred && len(p.Pred) != len(p.Score) || pw.weight && len(p.Weight) != len(p.Score) ||
		pw.ood && (len(p.OOD) != len(p.Score) || len(p.OODFlag) != len(p.Score)) {
		return fmt.Errorf("predictions: a batch of %d scores lacks a column the file has", len(p.Score))
	}
	cells := [2]string{"0", "1"}
	if p.Classes != [2]string{} {
		for _, c := range p.Classes {
			if err := checkClassName(c); err != nil {
				return err
			}
		}
		cells = [2]string{dataset.CSVCell(p.Classes[0]), dataset.CSVCell(p.Classes[1])}
	}
	for i, s := range p.Score {
		pw.rows++
		if pw.id != "" {
			bw.WriteString(dataset.CSVCell(p.ID[i]))
			bw.WriteByte(',')
		}
		if pw.label {
			if err := classCell(p, p.Label[i], pw.rows, "label"); err != nil {
				return err
			}
			bw.WriteString(cells[p.Label[i]])
			bw.WriteByte(',')
		}
		if math.IsNaN(s) {
			return fmt.Errorf("predictions: row %d: score is NaN", pw.rows)
		}
		buf = strconv.AppendFloat(buf[:0], s, 'g', -1, 64)
		bw.Write(buf)
		if pw.pred {
			if err := classCell(p, p.Pred[i], pw.rows, "pred"); err != nil {
				return err
			}
			bw.WriteByte(',')
			bw.WriteString(cells[p.Pred[i]])
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
		if pw.ood {
			if math.IsNaN(p.OOD[i]) {
				return fmt.Errorf("predictions: row %d: out-of-distribution score is NaN", pw.rows)
			}
			bw.WriteByte(',')
			buf = strconv.AppendFloat(buf[:0], p.OOD[i], 'g', -1, 64)
			bw.Write(buf)
			if p.OODFlag[i] {
				bw.WriteString(",1")
			} else {
				bw.WriteString(",0")
			}
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	pw.buf = buf
	return nil
}

// checkClassName refuses a class name that a predictions file cannot
// give back as written: the readers trim cells and read a quoted CR LF as
// a line feed. Any other name (a comma, a quote, a line break) is quoted
// and reads back.
func checkClassName(name string) error {
	switch {
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("predictions: class %q begins or ends with white space, which a predictions file does not keep", name)
	case strings.Contains(name, "\r\n"):
		return fmt.Errorf("predictions: class %q holds a CR LF line break, which a predictions file reads back as LF", name)
	}
	return nil
}

// classCell checks that class y (the label or pred of row) is 0 or 1 and
// has a name in p.Classes.
func classCell(p *Predictions, y, row int, col string) error {
	switch {
	case y != 0 && y != 1:
		return fmt.Errorf("predictions: row %d: %s %d is not 0 or 1", row, col, y)
	case p.Classes != [2]string{} && p.Classes[y] == "":
		return fmt.Errorf("predictions: row %d: %s: class %d has no name in Classes %q", row, col, y, p.Classes)
	}
	return nil
}

// Flush writes the header if no batch came, and what is buffered.
func (pw *PredictionsWriter) Flush() error {
	pw.header()
	return pw.bw.Flush()
}

// quoteList quotes names for a message, comma-separated: the first
// eight, then how many more.
func quoteList(names []string) string {
	const show = 8
	var b strings.Builder
	for i, v := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == show {
			fmt.Fprintf(&b, "and %d more", len(names)-show)
			break
		}
		b.WriteString(strconv.Quote(v))
	}
	return b.String()
}

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
	// OOD and OODFlag, when not nil, hold each row's out-of-distribution
	// score and flag, written as the last columns ood_score and ood (as
	// PredictionsWriter.WithOOD writes them); readers ignore them.
	OOD     []float64
	OODFlag []bool
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

// IsMultiPredictionsFile says whether the predictions file at path has a
// multi-class header (IsMultiPredictions). The header is read as one CSV
// record, as the readers read it, so a class name holding a comma, a
// quote or a line break (quoted, as the writers quote it) is one column.
// A file that cannot be opened or whose header is not CSV is an error
// naming path.
func IsMultiPredictionsFile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head, err := csv.NewReader(bufio.NewReader(f)).Read()
	if err != nil {
		return false, fmt.Errorf("%s: reading the header: %w", path, err)
	}
	return IsMultiPredictions(head), nil
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
	for _, c := range p.Classes {
		if err := checkClassName(c); err != nil {
			return err
		}
	}
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
	if p.OOD != nil {
		if len(p.OOD) != len(p.Pred) || len(p.OODFlag) != len(p.Pred) {
			return fmt.Errorf("predictions: %d out-of-distribution scores and %d flags for %d rows", len(p.OOD), len(p.OODFlag), len(p.Pred))
		}
		head = append(head, "ood_score", "ood")
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
		if p.OOD != nil {
			if math.IsNaN(p.OOD[i]) {
				return fmt.Errorf("predictions: row %d: out-of-distribution score is NaN", i+1)
			}
			flag := "0"
			if p.OODFlag[i] {
				flag = "1"
			}
			row = append(row, strconv.FormatFloat(p.OOD[i], 'g', -1, 64), flag)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
