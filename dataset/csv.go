package dataset

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
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
	// Classes, when set, fixes the two label values (negative, positive),
	// as a fitted model's schema does; any other label value is an error.
	// It overrides Positive.
	Classes [2]string
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
}

// splitColumn is the name of the optional column assigning rows to splits.
const splitColumn = "split"

// Load reads the CSV file at path, gzip-compressed when it starts with
// gzip's magic bytes (a .csv.gz file). See Read.
func Load(path string, opt Options) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	base := filepath.Base(path)
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: base, Err: ErrUnsupported, Detail: "a gzip file that does not open: " + err.Error()}
		}
		defer zr.Close()
		r = bufio.NewReaderSize(zr, 1<<16)
	}
	d, err := Read(r, base, opt)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(base, ".gz")
	d.Name = strings.TrimSuffix(name, filepath.Ext(name))
	return d, nil
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
	for _, f := range []struct{ magic, what string }{
		{"PAR1", "Parquet"}, {"PK\x03\x04", "zip (an Excel .xlsx or zipped file)"},
		{"\xd0\xcf\x11\xe0", "an old Excel .xls"}, {"\x1f\x8b", "gzip (read it through a path ending in .gz)"},
	} {
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
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<16)
	}
	comma, err := sniff(br, name)
	if err != nil {
		return nil, err
	}
	if opt.Delimiter != 0 {
		comma = opt.Delimiter
	}
	cr := csv.NewReader(br)
	cr.Comma = comma
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	fail := func(line int, col, val string, err error, detail string) error {
		return &Error{File: name, Line: line, Column: col, Value: val, Err: err, Detail: detail}
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fail(0, "", "", ErrEmpty, "")
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	header = append([]string(nil), header...)
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	seen := make(map[string]int, len(header))
	for j, h := range header {
		h = strings.TrimSpace(h)
		header[j] = h
		if !utf8.ValidString(h) {
			return nil, fail(1, "", strings.ToValidUTF8(h, "\ufffd"), ErrEncoding, fmt.Sprintf("field %d of the header; save the file as UTF-8", j+1))
		}
		if h == "" {
			return nil, fail(1, "", "", ErrEmptyName, fmt.Sprintf("field %d of the header", j+1))
		}
		if k, dup := seen[h]; dup {
			return nil, fail(1, h, "", ErrDuplicate, fmt.Sprintf("fields %d and %d", k+1, j+1))
		}
		seen[h] = j
	}

	labelCol := -1
	if !opt.Unlabeled {
		switch {
		case opt.Label != "":
			j, ok := seen[opt.Label]
			if ok {
				labelCol = j
			} else if !opt.LabelOptional {
				return nil, fail(1, opt.Label, "", ErrNoLabel, "header has "+quoteList(header))
			}
		default:
			if j, ok := seen["label"]; ok {
				labelCol = j
			} else if !opt.LabelOptional {
				labelCol = len(header) - 1
				if header[labelCol] == opt.Weight && labelCol > 0 {
					labelCol-- // the last column but the weights
				}
			}
		}
	}
	splitCol := -1
	if j, ok := seen[splitColumn]; ok && j != labelCol {
		splitCol = j
	}
	weightCol := -1
	if opt.Weight != "" {
		j, ok := seen[opt.Weight]
		switch {
		case ok && (j == labelCol || j == splitCol):
			return nil, fail(1, opt.Weight, "", ErrNoWeight, "the weight column cannot be the label or split column")
		case ok:
			weightCol = j
		case !opt.WeightOptional:
			return nil, fail(1, opt.Weight, "", ErrNoWeight, "header has "+quoteList(header))
		}
	}
	drop := make(map[string]bool, len(opt.Drop))
	for _, name := range opt.Drop {
		if j, ok := seen[name]; ok && j == labelCol {
			return nil, fail(1, name, "", ErrDropLabel, "")
		}
		drop[name] = true
	}
	var features, dropped []string
	var featCols []int
	for j, h := range header {
		switch {
		case j == labelCol || j == splitCol || j == weightCol:
		case drop[h]:
			dropped = append(dropped, h)
		default:
			features = append(features, h)
			featCols = append(featCols, j)
		}
	}
	if len(features) == 0 {
		return nil, fail(1, "", "", ErrNoFeatures, "header has "+quoteList(header))
	}

	c := len(features)
	// Room for 1024 rows, but never more than a few MB up front: a header
	// of millions of columns must not allocate gigabytes before its first
	// row.
	data := make([]float64, 0, min(1024*c, 1<<19))
	missing := make([]int, c)
	var labels []string
	var lines []int // file line of each row, for label errors
	var split []string
	var weights []float64
	rows := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" && len(header) > 1 {
			continue // a blank line with spaces
		}
		if len(rec) != len(header) {
			return nil, fail(line, "", "", ErrRagged, fmt.Sprintf("%d fields, the header has %d", len(rec), len(header)))
		}
		for k, j := range featCols {
			s := strings.TrimSpace(rec[j])
			if isMissing(s, opt.NA) {
				data = append(data, math.NaN())
				missing[k]++
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				var ne *strconv.NumError
				if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
					return nil, fail(line, header[j], s, ErrInfinite, "out of float64 range")
				}
				return nil, fail(line, header[j], s, ErrNotNumber, "")
			}
			if math.IsInf(v, 0) {
				return nil, fail(line, header[j], s, ErrInfinite, "")
			}
			if v != v {
				data = append(data, v)
				missing[k]++
				continue
			}
			data = append(data, v)
		}
		if labelCol >= 0 {
			s := canonicalLabel(strings.TrimSpace(rec[labelCol]))
			if isMissing(s, opt.NA) {
				return nil, fail(line, header[labelCol], s, ErrMissingLabel, "")
			}
			labels = append(labels, s)
			lines = append(lines, line)
		}
		if splitCol >= 0 {
			split = append(split, strings.ToLower(strings.TrimSpace(rec[splitCol])))
		}
		if weightCol >= 0 {
			s := strings.TrimSpace(rec[weightCol])
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || !(v >= 0) || math.IsInf(v, 0) {
				return nil, fail(line, header[weightCol], s, ErrBadWeight, "")
			}
			weights = append(weights, v)
		}
		rows++
	}
	if rows == 0 {
		return nil, fail(0, "", "", ErrNoRows, "")
	}
	d := &Dataset{
		Name:            name,
		Features:        features,
		X:               mat.NewDense(rows, c, data[:rows*c:rows*c]),
		Split:           split,
		W:               weights,
		MissingByColumn: missing,
		Dropped:         dropped,
	}
	if weightCol >= 0 {
		d.WeightColumn = header[weightCol]
	}
	if labelCol >= 0 {
		d.Label = header[labelCol]
		if err := d.setLabels(labels, lines, opt, name); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// canonicalLabel writes numeric labels in one form, so "1", "1.0" and
// "+1" are the same class.
func canonicalLabel(s string) string {
	if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(v, 0) && v == v {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return s
}

// setLabels maps label strings to 0/1 by the rules of opt.
func (d *Dataset) setLabels(labels []string, lines []int, opt Options, name string) error {
	col := d.Label
	line := func(i int) int { return lines[i] }
	var classes []string
	counts := map[string]int{}
	if opt.Classes != [2]string{} {
		classes = []string{canonicalLabel(opt.Classes[0]), canonicalLabel(opt.Classes[1])}
		for i, s := range labels {
			if s != classes[0] && s != classes[1] {
				return &Error{File: name, Line: line(i), Column: col, Value: s, Err: ErrUnknownClass,
					Detail: fmt.Sprintf("the model knows %q (negative) and %q (positive)", classes[0], classes[1])}
			}
		}
		d.Classes = [2]string{classes[0], classes[1]}
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
			pos = canonicalLabel(opt.Positive)
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
			d.Classes = [2]string{neg, pos}
		} else if classes[0] == pos {
			d.Classes = [2]string{classes[1], pos}
		} else {
			d.Classes = [2]string{classes[0], pos}
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

// WriteCSV writes d with a header: the features, the split column when d
// has one, the weight column (named WeightColumn, else "weight") when d has
// weights, then the label column (as written in the source, Classes[y])
// when d is labelled. Values round-trip exactly; missing values are empty
// cells.
func WriteCSV(w io.Writer, d *Dataset) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	header := append([]string(nil), d.Features...)
	if d.Split != nil {
		header = append(header, splitColumn)
	}
	if d.W != nil {
		name := d.WeightColumn
		if name == "" {
			name = "weight"
		}
		header = append(header, name)
	}
	label := d.Label
	if label == "" {
		label = "label"
	}
	if d.Y != nil {
		header = append(header, label)
	}
	cw := csv.NewWriter(bw)
	if err := cw.Write(header); err != nil {
		return err
	}
	cw.Flush()
	raw := d.X.RawMatrix()
	buf := make([]byte, 0, 64)
	c := d.Cols()
	lone := c == 1 && d.Split == nil && d.W == nil && d.Y == nil
	for i := 0; i < d.Rows(); i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if j > 0 {
				bw.WriteByte(',')
			}
			if v == v {
				buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
				bw.Write(buf)
			} else if lone {
				bw.WriteString("NA") // an empty line would be skipped on reading
			}
		}
		if d.Split != nil {
			bw.WriteByte(',')
			bw.WriteString(csvCell(d.Split[i]))
		}
		if d.W != nil {
			bw.WriteByte(',')
			buf = strconv.AppendFloat(buf[:0], d.W[i], 'g', -1, 64)
			bw.Write(buf)
		}
		if d.Y != nil {
			bw.WriteByte(',')
			bw.WriteString(csvCell(d.Classes[d.Y[i]]))
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// csvCell quotes s when CSV requires it.
func csvCell(s string) string {
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
