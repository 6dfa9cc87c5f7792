package dataset

import (
	"bufio"
	"cmp"
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
)

// Options control how a CSV file becomes a Dataset. The zero value reads a
// labelled file with the label in a column named "label" (else the last
// column) and the rarer class as the positive one.
type Options struct {
	// Delimiter is the field separator; 0 means the one the header line
	// uses most of comma, semicolon and tab (comma when it has none).
	Delimiter rune
	// Drop names columns that are neither features nor label: ids, free
	// text, outcomes that would leak. A name the file lacks is skipped
	// (Dataset.Dropped says which it had); the label cannot be dropped.
	Drop []string
	// Format names the registered format (see Format) to read the table
	// in; empty means the one its first bytes, else its name, tell.
	Format string
	// NA lists more cell values that mean "missing", besides the empty
	// cell, ?, NA, NaN, N/A, null, <NA> and #N/A (case-insensitive).
	NA []string
	// Label names the label column. Empty means a column named "label" if
	// there is one, else the last column (the last but the Weight column).
	Label string
	// Positive is the label value of the positive (minority) class. Empty
	// means the rarer class; on a tie, "1" if present, else the value that
	// sorts last.
	Positive string
	// Classes, when set, fixes the label values in class order, as a
	// fitted model's schema does; any other label value is an error. Two
	// values are the negative and the positive class (it overrides
	// Positive); three or more are the classes of a multi-class table (it
	// overrides MultiClass too).
	Classes []string
	// MultiClass reads a label column of three or more values as a
	// multi-class table: Dataset.Classes holds the values, sorted, and Y
	// indices into them. A column of two values is read as a two-class
	// table all the same (the rarer class positive).
	MultiClass bool
	// Unlabeled reads a file without a label column: every column but the
	// split column is a feature.
	Unlabeled bool
	// LabelOptional uses the label column when the file has one (by the
	// rules of Label) and reads the file as unlabelled otherwise; the last
	// column is never taken as the label by default here.
	LabelOptional bool
	// AllowOneClass accepts labelled files with a single class and with
	// fewer than two positive rows (test data, predictions).
	AllowOneClass bool
	// Weight names a column of non-negative row weights, read into
	// Dataset.W instead of the features. Empty means no weights.
	Weight string
	// WeightOptional reads the Weight column when the file has one and
	// no weights otherwise (data to score with a model fitted with
	// weights).
	WeightOptional bool
	// ID names a column of row identifiers: never a feature, its cells
	// are kept as text in Dataset.IDs. A file without it has no IDs
	// (Dataset.IDColumn says whether it had one).
	ID string
	// RefuseLabelLike refuses a feature column named like a label (see
	// LabelLike): a second outcome column would leak into training.
	RefuseLabelLike bool

	// AutoCategorical makes a feature column categorical when one of its
	// cells (not missing) is not a number: its values become categories
	// (numbers in canonical form, so 1 and 1.0 are one), one-hot encoded
	// in sorted order (see Category). Without it such a cell is an
	// ErrNotNumber error.
	AutoCategorical bool
	// Categorical names feature columns read as categorical even when
	// their cells are numbers (codes). A name the file lacks is skipped.
	Categorical []string
	// MaxCategories caps the distinct values of a categorical column read
	// from data (ErrTooManyCategories past it); 0 means
	// DefaultMaxCategories.
	MaxCategories int
	// Categories fixes categorical columns and their values, as a fitted
	// model's schema does: a value not in the list encodes to all zeros
	// and is counted in Dataset.Unseen.
	Categories []Category

	// Text names columns kept as text: never features, their cells
	// (trimmed) kept in Dataset.Text and written back by WriteCSV, for
	// commands that pass a table through (aer split, aer resample). A
	// name the file lacks is skipped; the label cannot be one.
	Text []string
	// AutoText, with AutoCategorical, reads a column with more distinct
	// values than MaxCategories (an id, free text) as a Text column
	// instead of failing with ErrTooManyCategories (but a column of
	// numbers with a few text cells, a typo, still fails): Decode and
	// DecodeProfile read the input again from its start for each such
	// column (a regular file by seeking, any other reader from a copy in
	// memory). A column named in Categorical or Categories still fails.
	AutoText bool
	// KeepDropped keeps the cells of the Drop columns in Dataset.Text
	// (marked Dropped), so that WriteCSV writes them back.
	KeepDropped bool

	// Workers caps the goroutines that parse a large CSV table in
	// parallel chunks; 0 means GOMAXPROCS. The table read is the same
	// for any number.
	Workers int

	// Keep, when not nil, names the feature columns to read (a
	// categorical one by its column name): every other column but the
	// label, split, weight and id columns is left out, as a dropped one
	// is, and listed in Dataset.Ignored. Data to score with a model is
	// read so: columns the model does not know are ignored, whatever
	// they hold.
	Keep []string

	// IDFirstExcept, when not nil, reads the first column as the ID
	// column unless its name is one of these (a predictions file, whose
	// first column is its id column under any name but its own columns').
	IDFirstExcept []string
	// autoText lists the Text columns AutoText added.
	autoText []string
}

// labelNames are the column names LabelLike takes for a label, compared
// without regard to case.
var labelNames = []string{"label", "target", "class", "y", "outcome"}

// LabelLike reports whether a column named name looks like a label when
// the label column is label: the same name but for case, or one of the
// common label names label, target, class, y and outcome (any case).
func LabelLike(name, label string) bool {
	if strings.EqualFold(name, label) {
		return true
	}
	for _, n := range labelNames {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// splitColumn is the name of the optional column assigning rows to splits.
const splitColumn = "split"

// Load reads the data file at path: CSV, gzip-compressed CSV (a .csv.gz
// file), Parquet or another registered format (see Format), told apart
// by their first bytes. See Decode and Read.
func Load(path string, opt Options) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	base := filepath.Base(path)
	d, err := Decode(f, base, opt)
	if err != nil {
		return nil, err
	}
	d.Name = Stem(path)
	return d, nil
}

// Stem is the name of the data file at path as a Dataset gets it: the
// base name without its extension (and without .gz before it).
func Stem(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".gz")
	return strings.TrimSuffix(name, filepath.Ext(name))
}

// Decode reads a table from r as Load reads a file, in the registered
// format (see Format) its first bytes, else its name, tell: Parquet when
// r starts with Parquet's magic bytes (see parquetSource for how its
// values read), gzip-compressed CSV when it starts with gzip's, else CSV.
// See Read.
func Decode(r io.Reader, name string, opt Options) (*Dataset, error) {
	return rereadBuild(r, name, opt, openSource)
}

// rereadBuild builds the dataset of the rows open reads from r, through
// rereading.
func rereadBuild[S RowSource](r io.Reader, name string, opt Options, open func(io.Reader, string, *Options) (S, error)) (*Dataset, error) {
	var d *Dataset
	err := rereading(r, &opt, func(r io.Reader, opt Options) error {
		src, err := open(r, name, &opt)
		if err != nil {
			return err
		}
		d, err = build(src, name, opt)
		return err
	})
	return d, err
}

// rereading runs read on r. With opt.AutoText, while read fails with
// ErrTooManyCategories on a column read as categorical by AutoCategorical
// alone, the column is added to opt.Text and read runs again on the
// input from its start: a regular file seeks back, any other reader is
// copied to memory as it is read, up to rereadCopy bytes (past them, the
// error stands).
func rereading(r io.Reader, opt *Options, read func(io.Reader, Options) error) error {
	if !opt.AutoText || !opt.AutoCategorical {
		return read(r, *opt)
	}
	var copied *cappedBuffer
	in := r
	f, seekable := r.(File)
	start := int64(0)
	if seekable {
		fi, err := f.Stat()
		if err == nil && fi.Mode().IsRegular() {
			start, err = f.Seek(0, io.SeekCurrent)
		}
		seekable = err == nil && fi.Mode().IsRegular()
	}
	if !seekable {
		copied = newCappedBuffer()
		in = io.TeeReader(r, copied)
	}
	for first := true; ; first = false {
		err := read(in, *opt)
		var e *Error
		if err == nil || !errors.Is(err, ErrTooManyCategories) || !errors.As(err, &e) || e.numbers || !opt.autoTextable(e.Column) {
			return err
		}
		if seekable {
			if _, serr := f.Seek(start, io.SeekStart); serr != nil {
				return err
			}
		} else {
			if first {
				// The rest of the input joins the copy.
				if _, cerr := io.Copy(io.Discard, in); cerr != nil {
					return err
				}
			}
			if copied.over {
				return err
			}
			in = copied.buf.Reader()
		}
		opt.Text = append(slices.Clip(opt.Text), e.Column)
		opt.autoText = append(slices.Clip(opt.autoText), e.Column)
	}
}

// rereadCopy is the most bytes of a reader that cannot seek kept to read
// it again (a variable for tests).
var rereadCopy = 256 << 20

// cappedBuffer keeps what is written to it up to max bytes; past them it
// drops it all and reports over.
type cappedBuffer struct {
	buf  pieces
	max  int
	over bool
}

// newCappedBuffer keeps rereadCopy bytes at most, and no more than a
// quarter of the memory a read may take (readMemory): the copy is a
// convenience beside the table read, never a reason to run out of memory
// (a Parquet stream is held twice, here and by its reader).
func newCappedBuffer() *cappedBuffer {
	_, limit := readMemory()
	return &cappedBuffer{max: int(min(int64(rereadCopy), limit/4))}
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.over {
		return len(p), nil
	}
	if c.buf.Len()+int64(len(p)) > int64(c.max) {
		c.over = true
		c.buf = pieces{}
		return len(p), nil
	}
	return c.buf.Write(p)
}

// autoTextable reports whether AutoText may make column a Text column:
// it is neither named categorical nor given fixed categories, nor text
// already.
func (o *Options) autoTextable(column string) bool {
	if column == "" || slices.Contains(o.Categorical, column) || slices.Contains(o.Text, column) {
		return false
	}
	return !slices.ContainsFunc(o.Categories, func(c Category) bool { return c.Column == column })
}

// SniffDelimiter returns the delimiter of the CSV text at the start of
// br, as the file readers choose it: comma, semicolon or tab, by their
// counts on the first two lines; comma when nothing tells. name names
// the input in errors (binary formats are refused by name).
func SniffDelimiter(br *bufio.Reader, name string) (rune, error) { return sniff(br, name) }

// binaryMagics are the magic bytes of the binary formats sniff refuses
// where delimited text was expected, and what each is.
var binaryMagics = []struct{ magic, what string }{
	{"PAR1", "Parquet (Load and Decode read it)"}, {"PK\x03\x04", "zip (an Excel .xlsx or zipped file)"},
	{"\xd0\xcf\x11\xe0", "an old Excel .xls"}, {"\x1f\x8b", "gzip data where text was expected (a file compressed twice, or gzip given to a reader of plain text): decompress it once"},
}

// sniff returns the delimiter of the table at the start of br: of comma,
// semicolon and tab, the one that splits the header line and the first
// data line (blank lines skipped, quotes respected) into the same number
// of fields, more than one, the most fields winning; comma when none
// does. Checking two lines keeps a one-column file whose name holds a
// semicolon one column. It also refuses binary formats by their magic
// bytes.
func sniff(br *bufio.Reader, name string) (rune, error) {
	head, _ := br.Peek(1 << 16)
	for _, f := range binaryMagics {
		if strings.HasPrefix(string(head), f.magic) {
			return 0, &Error{File: name, Err: ErrUnsupported, Detail: f.what + "; aer reads delimited text (CSV)"}
		}
	}
	// counts[k][c] is the number of c outside quotes on non-blank line k.
	var counts [2]map[rune]int
	line, quoted, blank := 0, false, true
	counts[0] = map[rune]int{}
	for _, c := range string(head) {
		switch {
		case c == '"':
			quoted, blank = !quoted, false
		case (c == '\n' || c == '\r') && !quoted:
			if !blank {
				line++
				if line == 2 {
					break
				}
				counts[line] = map[rune]int{}
				blank = true
			}
			continue
		case !quoted && (c == ',' || c == ';' || c == '\t'):
			counts[line][c]++
			blank = false
		default:
			blank = false
		}
		if line == 2 {
			break
		}
	}
	best, most := ',', 0
	for _, c := range []rune{',', ';', '\t'} {
		n := counts[0][c]
		if n == 0 || counts[1] != nil && !blank && counts[1][c] != n {
			continue
		}
		if n > most {
			best, most = c, n
		}
	}
	return best, nil
}

// IsMissing reports whether a cell, spaces trimmed, is one of the tokens
// every reader takes for a missing value: the empty cell, ?, NA, NaN,
// N/A, null, <NA> and #N/A, in any case.
func IsMissing(s string) bool { return isMissing(s, nil) }

// isMissing reports whether a cell denotes a missing value (extra: the
// caller's further tokens).
func isMissing(s string, extra []string) bool {
	switch len(s) {
	case 0:
		return true
	case 1:
		if s == "?" {
			return true
		}
	case 2:
		if strings.EqualFold(s, "NA") {
			return true
		}
	case 3:
		if strings.EqualFold(s, "NaN") || strings.EqualFold(s, "N/A") {
			return true
		}
	case 4:
		if strings.EqualFold(s, "null") || strings.EqualFold(s, "<NA>") || strings.EqualFold(s, "#N/A") {
			return true
		}
	}
	for _, t := range extra {
		if strings.EqualFold(s, t) {
			return true
		}
	}
	return false
}

// Read reads a CSV table from r; name (usually the file name) prefixes
// error messages. Every malformed input is an *Error naming the line and
// column: a missing header, duplicate or empty column names, ragged rows, a
// cell that is not a number, an infinite value, a missing label, more than
// two classes, a single class, fewer than two positive rows, no feature
// columns, no data rows.
func Read(r io.Reader, name string, opt Options) (*Dataset, error) {
	return rereadBuild(r, name, opt, newCSVSource)
}

// CanonicalLabel writes a numeric label in one form, so "1", "1.0" and
// "+1" are the same class; any other label is returned as it is.
func CanonicalLabel(s string) string {
	if v, err := parseFloat(s); err == nil && !math.IsInf(v, 0) && v == v {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return s
}

// setLabels maps label strings to class indices by the rules of opt.
func (d *Dataset) setLabels(labels []string, lines []int, opt Options, name string) error {
	col := d.Label
	line := func(i int) int { return lines[i] }
	var classes []string
	counts := map[string]int{}
	if len(opt.Classes) > 2 {
		return d.setMultiLabels(labels, line, opt.Classes, name, col)
	}
	if opt.MultiClass && countDistinct(labels, 3) >= 3 {
		return d.setMultiLabels(labels, line, nil, name, col)
	}
	if fixedClasses(opt.Classes) {
		classes = []string{CanonicalLabel(opt.Classes[0]), CanonicalLabel(opt.Classes[1])}
		for i, s := range labels {
			if s != classes[0] && s != classes[1] {
				return &Error{File: name, Line: line(i), Column: col, Value: s, Err: ErrUnknownClass,
					Detail: fmt.Sprintf("the model knows %q (negative) and %q (positive)", classes[0], classes[1])}
			}
		}
		d.Classes = classes
	} else {
		for i, s := range labels {
			if _, ok := counts[s]; !ok {
				if len(classes) == 2 {
					return &Error{File: name, Line: line(i), Column: col, Value: s, Err: ErrThirdClass,
						Detail: fmt.Sprintf("already saw %q and %q", classes[0], classes[1])}
				}
				classes = append(classes, s)
			}
			counts[s]++
		}
		pos := ""
		switch {
		case opt.Positive != "":
			pos = CanonicalLabel(opt.Positive)
			if _, ok := counts[pos]; !ok && !(opt.AllowOneClass && len(classes) < 2) {
				return &Error{File: name, Column: col, Value: opt.Positive, Err: ErrUnknownClass,
					Detail: "the positive class given is not in the file, which has " + quoteList(classes)}
			}
		case len(classes) == 1 && classes[0] == "0":
			pos = "1" // a lone 0 class is the negative one, by convention
		case len(classes) == 1:
			pos = classes[0]
		default:
			a, b := classes[0], classes[1]
			switch {
			case counts[a] < counts[b]:
				pos = a
			case counts[b] < counts[a]:
				pos = b
			case a == "1" || b == "1":
				pos = "1"
			default:
				pos = max(a, b)
			}
		}
		if len(classes) < 2 {
			if !opt.AllowOneClass {
				return &Error{File: name, Column: col, Value: classes[0], Err: ErrOneClass,
					Detail: "a binary classifier needs rows of two classes"}
			}
			neg := ""
			if classes[0] != pos {
				neg = classes[0]
			} else if pos == "1" {
				neg = "0"
			}
			d.Classes = []string{neg, pos}
		} else if classes[0] == pos {
			d.Classes = []string{classes[1], pos}
		} else {
			d.Classes = []string{classes[0], pos}
		}
	}
	d.Y = make([]int, len(labels))
	npos := 0
	for i, s := range labels {
		if s == d.Classes[1] {
			d.Y[i] = 1
			npos++
		}
	}
	if npos < 2 && !opt.AllowOneClass {
		return &Error{File: name, Column: col, Value: d.Classes[1], Err: ErrFewMinority,
			Detail: fmt.Sprintf("found %d", npos)}
	}
	return nil
}

// csvError turns an encoding/csv error into an *Error with its line.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: name, Line: pe.StartLine, Err: pe.Err, Detail: fmt.Sprintf("field %d", pe.Column)}
	}
	var de *Error
	if errors.As(err, &de) {
		return err // the reader's own (a line too long), which names the file
	}
	return fmt.Errorf("%s: %w", name, err)
}

// FormatFloat writes v in the shortest form that reads back exactly; NaN is
// written as an empty cell.
func FormatFloat(v float64) string {
	if v != v {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// WriteCSV writes d with a header: the ID column when d has one, the
// features (a categorical column as its text values, in the place of its
// one-hot features), the text columns, the split column when d has one,
// the weight column (named WeightColumn, else "weight") when d has
// weights, then the label column (as written in the source, Classes[y])
// when d is labelled; when d.Columns is set (a table read from a file),
// in the file's column order instead. Values round-trip exactly; missing
// values are empty cells.
func WriteCSV(w io.Writer, d *Dataset) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	cols := outColumns(d)
	header := make([]string, len(cols))
	for k, c := range cols {
		header[k] = c.name
	}
	cw := csv.NewWriter(bw)
	if err := cw.Write(header); err != nil {
		return err
	}
	cw.Flush()
	raw := d.X.RawMatrix()
	buf := make([]byte, 0, 64)
	c := d.Cols()
	lone := len(cols) == 1
	for i := 0; i < d.Rows(); i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for k, col := range cols {
			if k > 0 {
				bw.WriteByte(',')
			}
			switch col.kind {
			case outID:
				bw.WriteString(CSVCell(d.IDs[i]))
			case outText:
				bw.WriteString(CSVCell(d.Text[col.j].Cells[i]))
			case outCategory:
				// Written back as its value (empty when no one-hot
				// feature is set: missing or unseen).
				for v := range col.cat.Values {
					if row[col.j+v] == 1 {
						bw.WriteString(CSVCell(col.cat.Values[v]))
						break
					}
				}
			case outFeature:
				if v := row[col.j]; v == v {
					buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
					bw.Write(buf)
				} else if lone {
					bw.WriteString("NA") // an empty line would be skipped on reading
				}
			case outSplit:
				bw.WriteString(CSVCell(d.Split[i]))
			case outWeight:
				buf = strconv.AppendFloat(buf[:0], d.W[i], 'g', -1, 64)
				bw.Write(buf)
			case outLabel:
				bw.WriteString(CSVCell(d.LabelName(d.Y[i])))
			}
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Kinds of the columns WriteCSV writes.
const (
	outID = iota
	outFeature
	outCategory
	outText
	outSplit
	outWeight
	outLabel
)

// outColumn is one column WriteCSV writes: its name, its kind and where
// its values are (the feature index, the first one-hot feature's of a
// category, or the index in Dataset.Text).
type outColumn struct {
	name string
	kind int
	j    int
	cat  Category
}

// outColumns lists the columns WriteCSV writes for d, in order.
func outColumns(d *Dataset) []outColumn {
	var cols []outColumn
	if d.IDs != nil {
		cols = append(cols, outColumn{name: d.IDColumn, kind: outID})
	}
	groups := categoryGroups(d)
	for j := 0; j < len(d.Features); j++ {
		if g, ok := groups[j]; ok {
			cols = append(cols, outColumn{name: g.Column, kind: outCategory, j: j, cat: g})
			j += len(g.Values) - 1
			continue
		}
		cols = append(cols, outColumn{name: d.Features[j], kind: outFeature, j: j})
	}
	for k, t := range d.Text {
		cols = append(cols, outColumn{name: t.Name, kind: outText, j: k})
	}
	if d.Split != nil {
		cols = append(cols, outColumn{name: splitColumn, kind: outSplit})
	}
	if d.W != nil {
		name := d.WeightColumn
		if name == "" {
			name = "weight"
		}
		cols = append(cols, outColumn{name: name, kind: outWeight})
	}
	if d.Y != nil {
		label := d.Label
		if label == "" {
			label = "label"
		}
		cols = append(cols, outColumn{name: label, kind: outLabel})
	}
	if d.Columns != nil {
		// In the file's order; a column the file lacks (a split column
		// added) goes just before the next one in the default order
		// that it has.
		pos := make(map[string]float64, len(d.Columns))
		for j, c := range d.Columns {
			pos[c] = float64(j)
		}
		at := make(map[string]float64, len(cols))
		next := float64(len(d.Columns))
		for k := len(cols) - 1; k >= 0; k-- {
			if j, ok := pos[cols[k].name]; ok {
				next = j
				at[cols[k].name] = j
			} else {
				at[cols[k].name] = next - 0.5
			}
		}
		slices.SortStableFunc(cols, func(a, b outColumn) int { return cmp.Compare(at[a.name], at[b.name]) })
	}
	return cols
}

// categoryGroups maps the position of each categorical column's first
// one-hot feature to its Category, for the columns whose features stand
// together in d.Features as the reader encodes them.
func categoryGroups(d *Dataset) map[int]Category {
	if len(d.Categories) == 0 {
		return nil
	}
	pos := make(map[string]int, len(d.Features))
	for j, f := range d.Features {
		pos[f] = j
	}
	groups := make(map[int]Category, len(d.Categories))
	for _, c := range d.Categories {
		names := c.Names()
		j, ok := pos[names[0]]
		if !ok || j+len(names) > len(d.Features) || !slices.Equal(d.Features[j:j+len(names)], names) {
			continue // not laid out as encoded: written as numbers
		}
		groups[j] = c
	}
	return groups
}

// CSVCell returns s as a CSV cell, quoted when CSV requires it (a comma,
// quote or line break, or spaces at either end), as WriteCSV writes cells.
func CSVCell(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
