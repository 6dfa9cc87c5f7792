package serve

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/internal/quote"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
)

// request is a decoded scoring request.
type request struct {
	// x holds the rows, features in model order; NaN marks a missing
	// value.
	x       *mat.Dense
	explain bool
	// top is the number of feature attributions a row's answer lists
	// ("top"); 0 when the request does not say.
	top int
	// ids holds the id column's value of each row (nil: the row has
	// none), or is nil when no row has one.
	ids []any
	// unseen lists, per row, the categorical columns whose value the
	// model did not see in training; nil when no row has one.
	unseen [][]string
	// unused names the fields (JSON) or columns (CSV) of the request
	// that the model does not use, ignored as aer predict ignores them,
	// in the order first met; nil when there are none.
	unused []string
}

// defaultTop is the number of feature attributions a row's answer lists
// when the request does not say ("top").
const defaultTop = 10

// decodeRows reads a scoring request for a model of layout l from body,
// a JSON or CSV document as contentType says, with at most maxRows rows.
// A field or column the model does not use is ignored and listed in the
// request's unused, unless strict, when it is refused. Every refusal is
// an *Error naming the row and field.
func decodeRows(body io.Reader, contentType string, l *layout, maxRows int, maxBody int64, strict bool) (*request, error) {
	mt := "application/json"
	if contentType != "" {
		var err error
		if mt, _, err = mime.ParseMediaType(contentType); err != nil {
			return nil, errorf(http.StatusUnsupportedMediaType, kindMediaType, 0, "", "Content-Type %s: %v (send application/json or text/csv)", quote.Name(contentType), err)
		}
	}
	s := l.schema
	d := &rowDecoder{schema: s, lay: l, maxRows: maxRows, strict: strict}
	var err error
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		err = d.readJSON(body)
	case mt == "text/csv" && l.categorical:
		err = d.readCSVDataset(body)
	case mt == "text/csv":
		err = d.readCSV(body)
	default:
		return nil, errorf(http.StatusUnsupportedMediaType, kindMediaType, 0, "", "Content-Type %s is not supported (send application/json or text/csv)", quote.Name(mt))
	}
	if err != nil {
		if e := bodyError(err, maxBody); e != nil {
			return nil, e
		}
		if _, ok := err.(*Error); ok {
			return nil, err
		}
		return nil, &Error{Status: http.StatusBadRequest, Kind: kindBodyRead, Err: err, Msg: fmt.Sprintf("reading the request body: %v", err)}
	}
	if d.rows == 0 {
		return nil, errorf(http.StatusBadRequest, kindNoRows, 0, "", "the request has no rows to score")
	}
	return &request{x: mat.NewDense(d.rows, len(s.Features), d.data), explain: d.explain, top: d.top, ids: d.ids, unseen: d.unseen, unused: d.unused}, nil
}

type rowDecoder struct {
	schema  *dataset.Schema
	lay     *layout
	maxRows int
	data    []float64 // rows so far, row-major
	rows    int
	explain bool
	top     int
	ids     []any
	unseen  [][]string
	// strict refuses a field or column the model does not use; else it
	// is ignored and listed in unused.
	strict bool
	unused []string
}

// addUnused records a field or column the model does not use, once.
func (d *rowDecoder) addUnused(name string) {
	if !slices.Contains(d.unused, name) {
		d.unused = append(d.unused, name)
	}
}

// setID records the id of row i (1-based).
func (d *rowDecoder) setID(i int, v any) {
	for len(d.ids) < i {
		d.ids = append(d.ids, nil)
	}
	d.ids[i-1] = v
}

// addUnseen records that row i (1-based) has a value of categorical
// column col that the model did not see.
func (d *rowDecoder) addUnseen(i int, col string) {
	for len(d.unseen) < i {
		d.unseen = append(d.unseen, nil)
	}
	d.unseen[i-1] = append(d.unseen[i-1], col)
}

// ignored tells whether a column name is the label or weight column of
// the training data, which a request may carry and scoring ignores (as
// aer predict does).
func (d *rowDecoder) ignored(name string) bool {
	return name == d.schema.Label || (d.schema.Weight != "" && name == d.schema.Weight) || slices.Contains(d.schema.Drop, name)
}

// newRow starts a row of missing values and returns it.
func (d *rowDecoder) newRow() ([]float64, error) {
	if d.rows >= d.maxRows {
		return nil, errorf(http.StatusRequestEntityTooLarge, kindTooManyRows, d.rows+1, "", "the request has more than %d rows, the limit of one request", d.maxRows)
	}
	d.rows++
	n := len(d.data)
	for range d.schema.Features {
		d.data = append(d.data, math.NaN())
	}
	return d.data[n:], nil
}

// jsonError describes a JSON decoding error.
func jsonError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &Error{Status: http.StatusBadRequest, Kind: kindMalformedJSON, Err: err, Msg: "malformed JSON: the body ends early"}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		msg := fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, err)
		if strings.Contains(se.Error(), "'N'") || strings.Contains(se.Error(), "'I'") {
			msg += " (JSON has no NaN or Infinity: send null for a missing value)"
		}
		return &Error{Status: http.StatusBadRequest, Kind: kindMalformedJSON, Err: err, Msg: msg}
	}
	if _, ok := err.(*Error); ok {
		return err
	}
	return err // a read error: the caller maps it
}

func malformedJSON(format string, a ...any) *Error {
	return errorf(http.StatusBadRequest, kindMalformedJSON, 0, "", "malformed request: "+format, a...)
}

// readJSON reads {"rows": [...], "explain": bool, "top": K}, a token at a
// time so that limits apply as the body streams in.
func (d *rowDecoder) readJSON(r io.Reader) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return malformedJSON("the body is empty; send {\"rows\": [[...], ...]}")
		}
		return jsonError(err)
	}
	if tok != json.Delim('{') {
		return malformedJSON("the body must be a JSON object {\"rows\": [...]}")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(err)
		}
		key, _ := tok.(string)
		switch key {
		case "rows", "explain", "top":
		default:
			return malformedJSON("unknown key %s (want \"rows\" and optionally \"explain\" and \"top\")", quote.Name(key))
		}
		if seen[key] {
			return malformedJSON("\"%s\" appears twice", key)
		}
		seen[key] = true
		if key == "rows" {
			if err := d.jsonRows(dec); err != nil {
				return err
			}
			continue
		}
		// "explain" and "top" hold one value each.
		if tok, err = dec.Token(); err != nil {
			return jsonError(err)
		}
		if key == "explain" {
			b, ok := tok.(bool)
			if !ok {
				return malformedJSON("\"explain\" must be true or false")
			}
			d.explain = b
			continue
		}
		num, _ := tok.(json.Number)
		k, err := strconv.Atoi(string(num))
		if err != nil || k < 1 {
			return malformedJSON("\"top\" must be a whole number of at least 1 (the feature attributions listed per row)")
		}
		d.top = k
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return jsonError(err)
		}
		return malformedJSON("unexpected data after the JSON object")
	}
	if !seen["rows"] {
		return malformedJSON("no \"rows\" key; send {\"rows\": [[...], ...]}")
	}
	return nil
}

func (d *rowDecoder) jsonRows(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonError(err)
	}
	if tok != json.Delim('[') {
		return malformedJSON("\"rows\" must be an array of rows (arrays of numbers or objects keyed by feature name)")
	}
	for dec.More() {
		row, err := d.newRow()
		if err != nil {
			return err
		}
		i := d.rows
		tok, err := dec.Token()
		if err != nil {
			return jsonError(err)
		}
		switch tok {
		case json.Delim('['):
			err = d.jsonArrayRow(dec, i, row)
		case json.Delim('{'):
			err = d.jsonObjectRow(dec, i, row)
		default:
			err = rowErrorf(kindMalformedJSON, i, "", "a row must be an array of numbers or an object keyed by feature name")
		}
		if err != nil {
			return err
		}
	}
	_, err = dec.Token() // ']'
	return jsonError(err)
}

func (d *rowDecoder) jsonArrayRow(dec *json.Decoder, i int, row []float64) error {
	cols := d.lay.cols
	nc := len(cols)
	n := 0
	for dec.More() {
		if n == nc {
			return rowErrorf(kindFeatureCount, i, "", "more than %d values; the model expects %d %s, in order: %s", nc, nc, d.lay.what(), quoteList(d.lay.names))
		}
		if err := d.jsonCell(dec, i, &cols[n], row); err != nil {
			return err
		}
		n++
	}
	if _, err := dec.Token(); err != nil { // ']'
		return jsonError(err)
	}
	if n != nc {
		return rowErrorf(kindFeatureCount, i, "", "%d values; the model expects %d %s, in order: %s", n, nc, d.lay.what(), quoteList(d.lay.names))
	}
	return nil
}

func (d *rowDecoder) jsonObjectRow(dec *json.Decoder, i int, row []float64) error {
	cols := d.lay.cols
	var seenBuf [64]bool
	seen := seenBuf[:0]
	if len(cols) > len(seenBuf) {
		seen = make([]bool, len(cols))
	} else {
		seen = seenBuf[:len(cols)]
	}
	seenID := false
	var unused []string // this row's fields the model does not use
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(err)
		}
		name, _ := tok.(string)
		j, ok := d.lay.byName[name]
		switch {
		case ok && seen[j]:
			return rowErrorf(kindMalformedJSON, i, name, "the %s appears twice", strings.TrimSuffix(d.lay.what(), "s"))
		case ok:
			seen[j] = true
			if err := d.jsonCell(dec, i, &cols[j], row); err != nil {
				return err
			}
		case d.schema.ID != "" && name == d.schema.ID:
			if seenID {
				return rowErrorf(kindMalformedJSON, i, name, "the id column appears twice")
			}
			seenID = true
			if err := d.jsonID(dec, i, name); err != nil {
				return err
			}
		case d.ignored(name):
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return jsonError(err)
			}
		case d.lay.oneHot[name] != "":
			c := d.lay.oneHot[name]
			return rowErrorf(kindUnknownFeature, i, name, "%s is a one-hot feature of the categorical column %s: send the column's value, e.g. {%s: %s}", quote.Name(name), quote.Name(c), quote.Name(c), quote.Name(strings.TrimPrefix(name, c+"=")))
		case d.strict:
			return rowErrorf(kindUnknownFeature, i, name, "the model has no such %s (its %s: %s)", strings.TrimSuffix(d.lay.what(), "s"), d.lay.what(), quoteList(d.lay.names))
		default:
			// A field the model does not use is ignored, whatever it
			// holds, as aer predict ignores such a column.
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return jsonError(err)
			}
			d.addUnused(name)
			unused = append(unused, name)
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return jsonError(err)
	}
	var missing []string
	for j, ok := range seen {
		if !ok {
			missing = append(missing, cols[j].name)
		}
	}
	if len(missing) > 0 {
		what := "feature(s)"
		if d.lay.categorical {
			what = "column(s)"
		}
		return rowErrorf(kindMissingFeature, i, missing[0], "missing %s %s (send null for a missing value)%s", what, quoteList(missing), unusedHint("fields", unused))
	}
	return nil
}

// jsonID reads the id column's value of row i: a string or a number,
// echoed in the row's answer, or null (none).
func (d *rowDecoder) jsonID(dec *json.Decoder, i int, field string) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonError(err)
	}
	switch t := tok.(type) {
	case nil:
		return nil
	case string, json.Number:
		d.setID(i, t)
		return nil
	}
	return rowErrorf(kindMalformedJSON, i, field, "the row's id must be a string or a number")
}

// jsonCell reads the value of column c into row: a number (or null) for
// a numeric column; for a categorical one a string, number or boolean
// (compared in canonical form, as aer predict reads a CSV cell) or null,
// one-hot encoded, a value the model did not see recorded.
func (d *rowDecoder) jsonCell(dec *json.Decoder, i int, c *rawColumn, row []float64) error {
	if c.cat == nil {
		return d.jsonValue(dec, i, c.name, &row[c.feat])
	}
	tok, err := dec.Token()
	if err != nil {
		return jsonError(err)
	}
	dst := row[c.feat : c.feat+len(c.cat.Values)]
	var v string
	switch t := tok.(type) {
	case nil:
		clear(dst)
		return nil
	case string:
		v = t
	case json.Number:
		v = string(t)
	case bool:
		v = strconv.FormatBool(t)
	default:
		return rowErrorf(kindNotNumber, i, c.name, "an array or object is not a value of a categorical column (send a string, a number, or null for a missing value)")
	}
	if !c.cat.Encode(v, dst) {
		d.addUnseen(i, c.name)
	}
	return nil
}

// jsonValue reads one feature value: a number, or null for missing.
func (d *rowDecoder) jsonValue(dec *json.Decoder, i int, field string, v *float64) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonError(err)
	}
	switch t := tok.(type) {
	case nil:
		*v = math.NaN()
		return nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) {
			return rowErrorf(kindNotFinite, i, field, "%s is out of the range of a float64", quote.Name(string(t)))
		}
		*v = f
		return nil
	case string:
		return rowErrorf(kindNotNumber, i, field, "%s is not a number (send a JSON number, or null for a missing value)", quote.Name(t))
	case bool:
		return rowErrorf(kindNotNumber, i, field, "%v is not a number", t)
	}
	return rowErrorf(kindNotNumber, i, field, "an array or object is not a number")
}

// readCSV reads a header row of column names and rows of numbers; a
// missing-value token of the files aer reads (dataset.IsMissing: the
// empty cell, ?, NA, NaN, N/A, null, <NA>, #N/A) is a missing value.
func (d *rowDecoder) readCSV(r io.Reader) error {
	// The delimiter as aer predict finds it: comma, semicolon or tab.
	br := bufio.NewReader(r)
	comma, err := dataset.SniffDelimiter(br, "body")
	if err != nil {
		return errorf(http.StatusBadRequest, kindMalformedCSV, 0, "", "%v", err)
	}
	cr := csv.NewReader(br)
	cr.Comma = comma
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return errorf(http.StatusBadRequest, kindNoRows, 0, "", "the CSV body is empty: it needs a header row of feature names and rows to score")
	}
	if err != nil {
		return csvError(err)
	}
	header = append([]string(nil), header...) // the reader reuses its record
	nf := len(d.schema.Features)
	idx := make([]int, len(header)) // model column of each CSV column, -1 when ignored, -2 the id
	seen := make([]bool, nf)
	seenID := false
	for k, h := range header {
		h = strings.TrimSpace(h)
		if k == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		header[k] = h
		j, ok := d.lay.byName[h]
		switch {
		case ok && seen[j]:
			return rowErrorf(kindMalformedCSV, 0, h, "the header names the column twice")
		case ok:
			seen[j], idx[k] = true, j
		case d.schema.ID != "" && h == d.schema.ID:
			if seenID {
				return rowErrorf(kindMalformedCSV, 0, h, "the header names the column twice")
			}
			seenID, idx[k] = true, -2
		case d.ignored(h):
			idx[k] = -1
		case d.strict:
			return rowErrorf(kindUnknownFeature, 0, h, "the model has no such feature (its features: %s)", quoteList(d.schema.Features))
		default:
			idx[k] = -1 // ignored whatever it holds, as aer predict does
			d.addUnused(h)
		}
	}
	var missing []string
	for j, ok := range seen {
		if !ok {
			missing = append(missing, d.schema.Features[j])
		}
	}
	if len(missing) > 0 {
		return rowErrorf(kindMissingFeature, 0, missing[0], "the header lacks feature(s) %s%s", quoteList(missing), unusedHint("columns", d.unused))
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(err)
		}
		row, err := d.newRow()
		if err != nil {
			return err
		}
		for k, cell := range rec {
			j := idx[k]
			if j == -2 {
				d.setID(d.rows, strings.Clone(cell))
				continue
			}
			if j < 0 {
				continue
			}
			cell = strings.TrimSpace(cell)
			if missingCell(cell) {
				continue // row starts as NaN
			}
			f, err := strconv.ParseFloat(cell, 64)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return rowErrorf(kindNotNumber, d.rows, header[k], "%s is not a number", quote.Name(cell))
			case err != nil || math.IsInf(f, 0):
				return rowErrorf(kindNotFinite, d.rows, header[k], "%s is not a finite number", quote.Name(cell))
			}
			row[j] = f
		}
	}
}

// readCSVDataset reads a CSV body for a model with categorical columns
// with the dataset package, exactly as aer predict reads a file to score
// (the same cells give the same features and the same errors): a header
// row of the raw column names, categorical cells one-hot encoded through
// the model's schema. Rows are read one at a time, so that each row's
// unseen categorical values are known.
func (d *rowDecoder) readCSVDataset(r io.Reader) error {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(4); len(magic) >= 2 && (magic[0] == 0x1f && magic[1] == 0x8b || string(magic) == "PAR1") {
		return errorf(http.StatusBadRequest, kindMalformedCSV, 0, "", "the body is gzip-compressed or Parquet, not CSV: send plain CSV text")
	}
	opt := d.schema.ReadOptions()
	if !d.strict {
		// Columns the model does not use are left out whatever they hold
		// (and listed in each batch's Ignored), as aer predict reads a
		// file; a one-hot feature's name is still read, to be refused
		// with a hint below.
		opt.Keep = d.schema.RawColumns()
		for name := range d.lay.oneHot {
			opt.Keep = append(opt.Keep, name)
		}
	}
	st, err := dataset.NewStream(br, "body", opt)
	if err != nil {
		return d.datasetError(err, 0)
	}
	// Where each feature of the stream goes in the model's order.
	have := st.Features()
	col := make(map[string]int, len(d.schema.Features))
	for j, f := range d.schema.Features {
		col[f] = j
	}
	perm := make([]int, len(have))
	seen := make([]bool, len(d.schema.Features))
	for k, f := range have {
		j, ok := col[f]
		if !ok {
			if c := d.lay.oneHot[f]; c != "" {
				return rowErrorf(kindUnknownFeature, 0, f, "%s is a one-hot feature of the categorical column %s: send the column's values under %s", quote.Name(f), quote.Name(c), quote.Name(c))
			}
			return rowErrorf(kindUnknownFeature, 0, f, "the model has no such column (its columns: %s)", quoteList(d.lay.names))
		}
		perm[k], seen[j] = j, true
	}
	var missing []string
	for _, c := range d.lay.cols {
		for v := range c.width() {
			if !seen[c.feat+v] {
				missing = append(missing, c.name)
				break
			}
		}
	}
	if len(missing) > 0 {
		return rowErrorf(kindMissingFeature, 0, missing[0], "the header lacks column(s) %s", quoteList(missing))
	}
	cats := st.Categories()
	prev := make([]int, len(cats))
	for {
		b, err := st.Next(1)
		if err == io.EOF || errors.Is(err, dataset.ErrNoRows) {
			return nil
		}
		if err != nil {
			return d.datasetError(err, d.rows+1)
		}
		row, err := d.newRow()
		if err != nil {
			return err
		}
		for k, v := range b.X.RawRowView(0) {
			row[perm[k]] = v
		}
		if b.IDs != nil {
			d.setID(d.rows, strings.Clone(b.IDs[0]))
		}
		if d.rows == 1 {
			for _, name := range b.Ignored {
				d.addUnused(name)
			}
		}
		for k, n := range st.Unseen() {
			if n != prev[k] {
				prev[k] = n
				d.addUnseen(d.rows, cats[k].Column)
			}
		}
	}
}

// datasetError turns an error of the dataset package reading row (0:
// the header) of a CSV body into an *Error naming the row and column.
func (d *rowDecoder) datasetError(err error, row int) error {
	var de *dataset.Error
	if !errors.As(err, &de) {
		return err // a read error: the caller maps it
	}
	if bodyError(err, 0) != nil {
		return err
	}
	kind := kindMalformedCSV
	switch {
	case errors.Is(err, dataset.ErrNotNumber):
		kind = kindNotNumber
	case errors.Is(err, dataset.ErrInfinite):
		kind = kindNotFinite
	case errors.Is(err, dataset.ErrRagged):
		kind = kindFeatureCount
	case errors.Is(err, dataset.ErrEmpty), errors.Is(err, dataset.ErrNoRows):
		return errorf(http.StatusBadRequest, kindNoRows, 0, "", "the CSV body is empty: it needs a header row of column names and rows to score")
	}
	e := rowErrorf(kind, row, de.Column, "%v", err)
	e.Err = err
	return e
}

// missingCell tells whether a CSV cell denotes a missing value.
func missingCell(s string) bool { return dataset.IsMissing(s) }

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		row := max(pe.StartLine-1, 0)
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			return rowErrorf(kindFeatureCount, row, "", "wrong number of fields (line %d of the body; every row has one value per header column)", pe.Line)
		}
		return &Error{Status: http.StatusBadRequest, Kind: kindMalformedCSV, Row: row, Err: err, Msg: fmt.Sprintf("malformed CSV: %v", err)}
	}
	return err
}

// unusedHint is what a missing-feature message adds when the row (or
// header) also has names the model does not use, ignored: a misspelt
// feature is both.
func unusedHint(what string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	// A few names say it; the request chose them, so they are bounded.
	return fmt.Sprintf("; its %s the model does not use, ignored: %s", what, quoteN(names, 5))
}

// quoteList quotes names for a message, listing at most 20.
func quoteList(names []string) string { return quoteN(names, 20) }

// quoteN quotes names for a message, listing at most most of them.
func quoteN(names []string, most int) string {
	q := make([]string, 0, min(len(names), most))
	for _, n := range names[:min(len(names), most)] {
		q = append(q, quote.Name(n))
	}
	s := strings.Join(q, ", ")
	if len(names) > most {
		s += fmt.Sprintf(" and %d more", len(names)-most)
	}
	return s
}
