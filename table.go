package aer

import (
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// ReadOptions say how a table is read: the options of aer fit's data
// flags. The zero value (and a nil *ReadOptions) reads a labelled table
// whose label is the column named "label", else the last column, the
// rarer class positive, every other column a feature: numeric, or
// categorical (one-hot encoded) when it holds text.
type ReadOptions struct {
	// Label names the label column (aer fit --label).
	Label string
	// Positive is the label value of the positive (minority) class; empty
	// means the rarer class (--positive).
	Positive string
	// Unlabeled reads a table without a label: every column but the id,
	// weight and dropped ones is a feature (data to score).
	Unlabeled bool
	// ID names a row-identifier column: never a feature, kept as text
	// and written back beside each prediction (--id).
	ID string
	// Weight names a column of non-negative row weights (--weight).
	Weight string
	// Drop names columns that are neither features nor label (--drop).
	Drop []string
	// Categorical names feature columns read as categorical even when
	// their cells are numbers (codes) (--categorical).
	Categorical []string
	// MaxCategories caps the distinct values of a categorical column; 0
	// means dataset.DefaultMaxCategories (--max-categories).
	MaxCategories int
	// Delimiter is the CSV field separator; 0 means the one the header
	// line uses most of comma, semicolon and tab (--delimiter).
	Delimiter rune
	// NA lists more cell values that mean missing, besides the empty
	// cell, ?, NA, NaN, N/A, null, <NA> and #N/A (--na).
	NA []string
	// Workers caps the goroutines that parse a large CSV table; 0 means
	// every core. The table is the same for any number.
	Workers int
}

// Options returns the options of package dataset that o stands for: text
// columns read as categorical, a label of three or more values read as
// multi-class labels and, in a labelled table, a feature named like the
// label refused (a second outcome would leak into training), as aer fit
// reads its training data.
func (o *ReadOptions) Options() dataset.Options {
	if o == nil {
		o = &ReadOptions{}
	}
	return dataset.Options{
		Label: o.Label, Positive: o.Positive, Unlabeled: o.Unlabeled, ID: o.ID, Weight: o.Weight,
		Drop: o.Drop, Categorical: o.Categorical, MaxCategories: o.MaxCategories, Delimiter: o.Delimiter,
		NA: o.NA, Workers: o.Workers, AutoCategorical: true, RefuseLabelLike: !o.Unlabeled,
		MultiClass: true,
	}
}

// Table is a table of named columns: numeric and categorical features, a
// label of two or more classes (optional), row identifiers, row weights,
// and the columns left out. A Model scores a Table by column name. There
// are four ways to get one, all through the one parser of package
// dataset, all with ReadOptions:
//
//   - ReadTable reads a file: CSV, gzip-compressed CSV, Parquet or a
//     format registered with dataset.RegisterFormat;
//   - DecodeTable reads the same formats from an io.Reader (a request
//     body, the standard input);
//   - NewTable builds one from columns of Go values;
//   - TableFromRows builds one from a slice of structs or maps.
//
// Model.ReadTable reads data to score with a model's own options, and
// TableOf wraps a table that package dataset read with options of its own.
type Table struct {
	d *dataset.Dataset
}

// TableOf returns the table of a dataset read by package dataset, for
// reads that ReadOptions does not cover (dataset.Options fixing the
// classes or the categories, say).
func TableOf(d *dataset.Dataset) *Table { return &Table{d: d} }

// ReadTable reads the table in the file at path: CSV, gzip-compressed
// CSV, Parquet, or a format registered with dataset.RegisterFormat, told
// apart by their first bytes. The table is named after the file, without
// its extension. Errors name the file, line, column and value.
func ReadTable(path string, opt *ReadOptions) (*Table, error) {
	return readTable(path, opt.Options())
}

// readTable reads the table at path with the options of package dataset.
func readTable(path string, opt dataset.Options) (*Table, error) {
	d, err := dataset.Load(path, opt)
	if err != nil {
		return nil, err
	}
	return &Table{d: d}, nil
}

// DecodeTable reads a table from r, in any of the formats ReadTable
// reads; name names it in error messages.
func DecodeTable(r io.Reader, name string, opt *ReadOptions) (*Table, error) {
	if err := readerGiven(r, name); err != nil {
		return nil, err
	}
	d, err := dataset.Decode(r, name, opt.Options())
	if err != nil {
		return nil, err
	}
	return &Table{d: d}, nil
}

// Column is one column of a table built from Go values (NewTable): its
// name and its cells, one per row, as a slice of float64, float32, int,
// int64, int32, bool or string. NaN and the empty string are missing
// cells; strings are read as a file's cells are (a column with text is
// categorical, numbers in text are numbers).
type Column struct {
	Name   string
	Values any
}

// NewTable builds a table from columns of Go values, read with opt exactly
// as a CSV file holding the same cells: the label is the column opt.Label
// names (else "label", else the last), and so on.
func NewTable(cols []Column, opt *ReadOptions) (*Table, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("%w: no columns", learn.ErrData)
	}
	header := make([]string, len(cols))
	cells := make([][]string, len(cols))
	n := -1
	for j, c := range cols {
		header[j] = c.Name
		v, err := columnCells(c)
		if err != nil {
			return nil, err
		}
		if n >= 0 && len(v) != n {
			return nil, fmt.Errorf("%w: column %q has %d values, column %q %d", learn.ErrData, c.Name, len(v), cols[0].Name, n)
		}
		n, cells[j] = len(v), v
	}
	recs := make([][]string, n)
	for i := range recs {
		recs[i] = make([]string, len(cols))
		for j := range cols {
			recs[i][j] = cells[j][i]
		}
	}
	d, err := dataset.FromRecords("table", header, recs, opt.Options())
	if err != nil {
		return nil, err
	}
	return &Table{d: d}, nil
}

// columnCells returns the cells of c as text.
func columnCells(c Column) ([]string, error) {
	switch v := c.Values.(type) {
	case []float64:
		return textOf(v, func(x float64) string { return floatText(x) }), nil
	case []float32:
		return textOf(v, func(x float32) string { return floatText(float64(x)) }), nil
	case []int:
		return textOf(v, strconv.Itoa), nil
	case []int64:
		return textOf(v, func(x int64) string { return strconv.FormatInt(x, 10) }), nil
	case []int32:
		return textOf(v, func(x int32) string { return strconv.FormatInt(int64(x), 10) }), nil
	case []bool:
		return textOf(v, strconv.FormatBool), nil
	case []string:
		return v, nil
	}
	return nil, fmt.Errorf("%w: column %q: values of type %T (want a slice of float64, float32, int, int64, int32, bool or string)", learn.ErrData, c.Name, c.Values)
}

func textOf[T any](v []T, f func(T) string) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

// floatText writes x so that it reads back exactly; NaN is a missing
// cell, and an infinite value stays infinite (refused by the parser).
func floatText(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// TableFromRows builds a table from a slice of structs (or of pointers to
// structs) or of maps with string keys, one element per row, read with
// opt as NewTable reads columns. A struct's exported fields are its
// columns, named by their `aer:"name"` tag, else by the field's name
// (`aer:"-"` leaves a field out); a map's keys are its columns, in sorted
// order, a key absent from a row a missing cell. Cells are numbers,
// bools, strings, or nil pointers and nil (missing).
func TableFromRows(rows any, opt *ReadOptions) (*Table, error) {
	rv := reflect.ValueOf(rows)
	if rv.Kind() != reflect.Slice {
		return nil, fmt.Errorf("%w: TableFromRows wants a slice of structs or maps, not %T", learn.ErrData, rows)
	}
	et := rv.Type().Elem()
	for i := 0; et.Kind() == reflect.Pointer; i++ {
		if i == maxIndirect {
			return nil, fmt.Errorf("%w: TableFromRows: the rows' type %s is more than %d pointers deep (a type that points to itself?)", learn.ErrData, rv.Type().Elem(), maxIndirect)
		}
		et = et.Elem()
	}
	var header []string
	var cell func(row reflect.Value, j int) (string, error)
	switch et.Kind() {
	case reflect.Struct:
		var fields []int
		for i := range et.NumField() {
			f := et.Field(i)
			name := f.Name
			if tag, ok := f.Tag.Lookup("aer"); ok {
				if tag == "-" {
					continue
				}
				name = strings.Split(tag, ",")[0]
			}
			if !f.IsExported() || name == "" {
				continue
			}
			header = append(header, name)
			fields = append(fields, i)
		}
		cell = func(row reflect.Value, j int) (string, error) { return cellText(row.Field(fields[j])) }
	case reflect.Map:
		if et.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%w: TableFromRows: map keys must be strings, not %s", learn.ErrData, et.Key())
		}
		seen := map[string]bool{}
		for i := range rv.Len() {
			row, err := deref(rv.Index(i))
			if err != nil {
				return nil, fmt.Errorf("%w: TableFromRows: row %d: %v", learn.ErrData, i, err)
			}
			if !row.IsValid() {
				continue // a nil row, refused below
			}
			for _, k := range row.MapKeys() {
				if !seen[k.String()] {
					seen[k.String()] = true
					header = append(header, k.String())
				}
			}
		}
		sort.Strings(header)
		cell = func(row reflect.Value, j int) (string, error) {
			v := row.MapIndex(reflect.ValueOf(header[j]).Convert(et.Key()))
			if !v.IsValid() {
				return "", nil
			}
			return cellText(v)
		}
	default:
		return nil, fmt.Errorf("%w: TableFromRows wants a slice of structs or maps, not %T", learn.ErrData, rows)
	}
	if len(header) == 0 {
		return nil, fmt.Errorf("%w: TableFromRows: the rows have no columns", learn.ErrData)
	}
	recs := make([][]string, rv.Len())
	for i := range recs {
		row, err := deref(rv.Index(i))
		if err != nil {
			return nil, fmt.Errorf("%w: TableFromRows: row %d: %v", learn.ErrData, i, err)
		}
		if !row.IsValid() {
			return nil, fmt.Errorf("%w: TableFromRows: row %d is nil", learn.ErrData, i)
		}
		recs[i] = make([]string, len(header))
		for j := range header {
			s, err := cell(row, j)
			if err != nil {
				return nil, fmt.Errorf("%w: row %d, column %q: %v", learn.ErrData, i, header[j], err)
			}
			recs[i][j] = s
		}
	}
	d, err := dataset.FromRecords("table", header, recs, opt.Options())
	if err != nil {
		return nil, err
	}
	return &Table{d: d}, nil
}

// maxIndirect bounds the pointers and interfaces deref follows (and the
// pointers of the rows' type): no cell is that deep, and a value that
// refers to itself (var a any; a = &a) would otherwise be followed
// forever.
const maxIndirect = 64

// deref follows pointers and interfaces, at most maxIndirect of them; the
// zero Value for nil.
func deref(v reflect.Value) (reflect.Value, error) {
	for range maxIndirect + 1 {
		if v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface {
			return v, nil
		}
		if v.IsNil() {
			return reflect.Value{}, nil
		}
		v = v.Elem()
	}
	return reflect.Value{}, fmt.Errorf("a value more than %d pointers or interfaces deep (one that refers to itself?)", maxIndirect)
}

// cellText returns the text of one cell value.
func cellText(v reflect.Value) (string, error) {
	v, err := deref(v)
	if err != nil {
		return "", err
	}
	if !v.IsValid() {
		return "", nil
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return floatText(v.Float()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.String:
		return v.String(), nil
	}
	return "", fmt.Errorf("a value of type %s", v.Type())
}

// Dataset returns the table as package dataset holds it: features
// (categorical ones one-hot encoded), labels, ids, weights.
func (t *Table) Dataset() *dataset.Dataset {
	if t == nil {
		return nil
	}
	return t.d
}

// Name is the table's name: its file's base name without extension.
func (t *Table) Name() string {
	if t.usable("") != nil {
		return ""
	}
	return t.d.Name
}

// Rows is the number of rows.
func (t *Table) Rows() int {
	if t.usable("") != nil {
		return 0
	}
	return t.d.Rows()
}

// Features are the feature names in table order, a categorical column as
// one feature per value, named column=value.
func (t *Table) Features() []string {
	if t.usable("") != nil {
		return nil
	}
	return slices.Clone(t.d.Features)
}

// Labelled tells whether the table has a label column.
func (t *Table) Labelled() bool { return t.usable("") == nil && t.d.Y != nil }

// Classes lists every class of the label, as written in the table, in
// class order: a two-class table's negative then positive (minority)
// class, a multi-class table's classes sorted (numbers by value, before
// text). Nil for a table without a label.
func (t *Table) Classes() []string {
	if t.usable("") != nil {
		return nil
	}
	return slices.Clone(t.d.Classes)
}

// ClassCounts returns the rows of each class, in the order of Classes.
func (t *Table) ClassCounts() []int {
	if t.usable("") != nil {
		return nil
	}
	return t.d.ClassCounts()
}

// IDs are the cells of the id column, nil without one.
func (t *Table) IDs() []string {
	if t.usable("") != nil {
		return nil
	}
	return t.d.IDs
}

// Schema describes the table's columns as a model fitted on it records
// them.
func (t *Table) Schema() dataset.Schema {
	if t.usable("") != nil {
		return dataset.Schema{}
	}
	return t.d.Schema()
}

// Subset returns the rows idx of the table, in that order; nil for a nil
// table or an index out of range.
func (t *Table) Subset(idx []int) *Table {
	if t.usable("") != nil {
		return nil
	}
	for _, i := range idx {
		if i < 0 || i >= t.d.Rows() {
			return nil
		}
	}
	return &Table{d: t.d.Subset(idx)}
}

// Parts splits a table with a split column into its train, valid and
// test rows (a part without rows is nil); without a split column, the
// whole table is train.
func (t *Table) Parts() (train, valid, test *Table, err error) {
	if err := t.usable("the table"); err != nil {
		return nil, nil, nil, err
	}
	if t.d.Split == nil {
		return t, nil, nil, nil
	}
	tr, va, te, err := t.d.SplitIndices()
	if err != nil {
		return nil, nil, nil, err
	}
	part := func(idx []int) *Table {
		if len(idx) == 0 {
			return nil
		}
		return t.Subset(idx)
	}
	return part(tr), part(va), part(te), nil
}
