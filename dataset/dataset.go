package dataset

import (
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/hugepage"
	"github.com/aer-go/aer/internal/quote"
)

// Dataset is a table of numeric features with an optional label of two
// or more classes.
type Dataset struct {
	Name     string     // base name of the file without extension
	Features []string   // feature column names, in file order
	X        *mat.Dense // rows x features; NaN marks a missing value
	Y        []int      // 1 = positive (minority), 0 = negative; nil when unlabelled
	Split    []string   // values of the optional "split" column, nil when absent
	// W holds the row weights of the Options.Weight column; nil without.
	W []float64
	// WeightColumn names the weight column; "" without weights.
	WeightColumn string
	// Dropped names the Options.Drop columns the file had (and that are
	// not features), in file order.
	Dropped []string
	// Ignored names the columns Options.Keep left out, in file order.
	Ignored []string
	// IDs holds the cells of the Options.ID column, one per row; nil
	// when the file has none. IDColumn names it.
	IDs      []string
	IDColumn string
	// Text holds the text columns (Options.Text and AutoText, and the
	// dropped columns with Options.KeepDropped), in file order: never
	// features, written back by WriteCSV.
	Text []TextColumn
	// Columns is the header of the file the table was read from, in file
	// order; WriteCSV writes its columns in this order. Nil for a table
	// built otherwise (WriteCSV's own order then).
	Columns []string
	// Categories lists the categorical feature columns, one-hot encoded
	// in Features as column=value (see Category), in file order.
	Categories []Category
	// Unseen counts, per entry of Categories, the cells whose value the
	// fixed list of Options.Categories lacked (encoded as all zeros).
	Unseen []int
	// Mixed lists the columns AutoCategorical made categorical although
	// some of their cells were numbers.
	Mixed []MixedColumn
	Label string // label column name ("" when unlabelled)
	// Classes are the label values as written in the file (numbers in
	// canonical form), one per class, in class order: Y holds indices
	// into it. A two-class table has [0] the negative class and [1] the
	// positive (minority) one; a table of three or more classes (read
	// with Options.MultiClass) lists them sorted, numbers by value
	// before text (SortLabels). Nil when unlabelled.
	Classes         []string
	MissingByColumn []int // missing cells per feature
}

// NumClasses returns the number of classes: len(Classes), and 2 for an
// unlabelled table (scored by a two-class model unless its schema says
// otherwise).
func (d *Dataset) NumClasses() int {
	return max(len(d.Classes), 2)
}

// LabelName returns the name of class y, Classes[y]; "" for a class the
// table does not name.
func (d *Dataset) LabelName(y int) string {
	if y < 0 || y >= len(d.Classes) {
		return ""
	}
	return d.Classes[y]
}

// ClassCounts returns the number of rows of each class (NumClasses
// entries, in class order: negative then positive for two classes).
func (d *Dataset) ClassCounts() []int {
	n := make([]int, d.NumClasses())
	for _, y := range d.Y {
		n[y]++
	}
	return n
}

// TextColumn is a column kept as text: its cells, one per row, trimmed.
type TextColumn struct {
	Name  string
	Cells []string
	// Dropped marks a column of Options.Drop (kept by KeepDropped);
	// Auto one that Options.AutoText made text (too many distinct
	// values to be categorical).
	Dropped, Auto bool
}

// Rows returns the number of rows.
func (d *Dataset) Rows() int {
	if d.X == nil {
		return 0
	}
	r, _ := d.X.Dims()
	return r
}

// Cols returns the number of features.
func (d *Dataset) Cols() int { return len(d.Features) }

// Missing returns the total number of missing cells.
func (d *Dataset) Missing() int {
	n := 0
	for _, m := range d.MissingByColumn {
		n += m
	}
	return n
}

// Subset returns a new dataset holding the given rows, in the given order.
// Feature values are copied; names and classes are shared.
func (d *Dataset) Subset(idx []int) *Dataset {
	c := d.Cols()
	s := &Dataset{
		Name:     d.Name,
		Features: d.Features,
		Label:    d.Label,
		Classes:  d.Classes,

		WeightColumn: d.WeightColumn,
		Dropped:      d.Dropped,
		IDColumn:     d.IDColumn,
		Categories:   d.Categories,
		Columns:      d.Columns,
	}
	if d.IDs != nil {
		s.IDs = make([]string, len(idx))
		for k, i := range idx {
			s.IDs[k] = d.IDs[i]
		}
	}
	for _, t := range d.Text {
		cells := make([]string, len(idx))
		for k, i := range idx {
			cells[k] = t.Cells[i]
		}
		t.Cells = cells
		s.Text = append(s.Text, t)
	}
	if d.W != nil {
		s.W = make([]float64, len(idx))
		for k, i := range idx {
			s.W[k] = d.W[i]
		}
	}
	data := hugepage.Float64s(len(idx) * c)
	raw := d.X.RawMatrix()
	for k, i := range idx {
		copy(data[k*c:(k+1)*c], raw.Data[i*raw.Stride:i*raw.Stride+c])
	}
	if len(idx) > 0 && c > 0 {
		s.X = mat.NewDense(len(idx), c, data)
	} else {
		s.X = &mat.Dense{}
	}
	if d.Y != nil {
		s.Y = make([]int, len(idx))
		for k, i := range idx {
			s.Y[k] = d.Y[i]
		}
	}
	if d.Split != nil {
		s.Split = make([]string, len(idx))
		for k, i := range idx {
			s.Split[k] = d.Split[i]
		}
	}
	s.MissingByColumn = countMissing(s.X, c)
	return s
}

// Matrix returns the feature matrix in the order of names, which must all be
// columns of d. Columns of d not in names are an error too, so data for a
// model has exactly the model's features (in any order).
func (d *Dataset) Matrix(names []string) (*mat.Dense, error) {
	if err := MatchColumns(d.Name, d.Features, names); err != nil {
		return nil, err
	}
	pos := make(map[string]int, len(d.Features))
	for j, f := range d.Features {
		pos[f] = j
	}
	if slices.Equal(names, d.Features) {
		return d.X, nil
	}
	r := d.Rows()
	out := mat.NewDense(max(r, 1), len(names), nil)
	if r == 0 {
		return &mat.Dense{}, nil
	}
	for k, n := range names {
		out.SetCol(k, mat.Col(nil, pos[n], d.X))
	}
	return out, nil
}

// MatchColumns checks that the feature columns have (of the file named
// file) are exactly the names want, in any order: an ErrColumns *Error
// names every missing and every unexpected column.
func MatchColumns(file string, have, want []string) error {
	in := make(map[string]bool, len(have))
	for _, f := range have {
		in[f] = true
	}
	wanted := make(map[string]bool, len(want))
	var missing, extra []string
	for _, n := range want {
		wanted[n] = true
		if !in[n] {
			missing = append(missing, n)
		}
	}
	for _, f := range have {
		if !wanted[f] {
			extra = append(extra, f)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return nil
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+quoteList(missing))
	}
	if len(extra) > 0 {
		parts = append(parts, "unexpected "+quoteList(extra))
	}
	return &Error{File: file, Err: ErrColumns, Detail: strings.Join(parts, "; ")}
}

func quoteList(s []string) string { return quote.List(s) }

// quoteName quotes a column name for a message, cut at 64 bytes (on a
// rune boundary) with its length said: a header line is the data's, and
// a message that echoes it whole can be any size.
func quoteName(v string) string { return quote.Name(v) }

// SplitIndices returns the rows whose split column says train, valid
// (or validation) and test. It fails when the dataset has no split column or
// a value is none of these.
func (d *Dataset) SplitIndices() (train, valid, test []int, err error) {
	if d.Split == nil {
		return nil, nil, nil, &Error{File: d.Name, Column: "split", Err: ErrBadSplitValue, Detail: "the file has no split column"}
	}
	for i, s := range d.Split {
		switch strings.ToLower(s) {
		case "train":
			train = append(train, i)
		case "valid", "validation", "val":
			valid = append(valid, i)
		case "test":
			test = append(test, i)
		default:
			return nil, nil, nil, &Error{File: d.Name, Line: i + 2, Column: "split", Value: s, Err: ErrBadSplitValue, Detail: "want train, valid or test"}
		}
	}
	return train, valid, test, nil
}

func countMissing(x *mat.Dense, c int) []int {
	m := make([]int, c)
	if c == 0 || x.IsEmpty() {
		return m
	}
	raw := x.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if v != v {
				m[j]++
			}
		}
	}
	return m
}
