package serve

import (
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

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/modelfile"
)

// request is a decoded scoring request.
type request struct {
	// x holds the rows, features in model order; NaN marks a missing
	// value.
	x       *mat.Dense
	explain bool
}

// decodeRows reads a scoring request for a model of schema s from body,
// a JSON or CSV document as contentType says, with at most maxRows rows.
// Every refusal is an *Error naming the row and field.
func decodeRows(body io.Reader, contentType string, s *modelfile.Schema, maxRows int, maxBody int64) (*request, error) {
	mt := "application/json"
	if contentType != "" {
		var err error
		if mt, _, err = mime.ParseMediaType(contentType); err != nil {
			return nil, errorf(http.StatusUnsupportedMediaType, kindMediaType, 0, "", "Content-Type %s: %v (send application/json or text/csv)", quote(contentType), err)
		}
	}
	d := &rowDecoder{schema: s, maxRows: maxRows, col: make(map[string]int, len(s.Features))}
	for j, f := range s.Features {
		d.col[f] = j
	}
	var err error
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		err = d.readJSON(body)
	case mt == "text/csv":
		err = d.readCSV(body)
	default:
		return nil, errorf(http.StatusUnsupportedMediaType, kindMediaType, 0, "", "Content-Type %s is not supported (send application/json or text/csv)", quote(mt))
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
	return &request{x: mat.NewDense(d.rows, len(s.Features), d.data), explain: d.explain}, nil
}

type rowDecoder struct {
	schema  *modelfile.Schema
	maxRows int
	col     map[string]int // feature name -> model column
	data    []float64      // rows so far, row-major
	rows    int
	explain bool
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

// readJSON reads {"rows": [...], "explain": bool}, a token at a time so
// that limits apply as the body streams in.
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
	seenRows, seenExplain := false, false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(err)
		}
		key, _ := tok.(string)
		switch key {
		case "rows":
			if seenRows {
				return malformedJSON("\"rows\" appears twice")
			}
			seenRows = true
			if err := d.jsonRows(dec); err != nil {
				return err
			}
		case "explain":
			if seenExplain {
				return malformedJSON("\"explain\" appears twice")
			}
			seenExplain = true
			tok, err := dec.Token()
			if err != nil {
				return jsonError(err)
			}
			b, ok := tok.(bool)
			if !ok {
				return malformedJSON("\"explain\" must be true or false")
			}
			d.explain = b
		default:
			return malformedJSON("unknown key %s (want \"rows\" and optionally \"explain\")", quote(key))
		}
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
	if !seenRows {
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
	nf := len(d.schema.Features)
	n := 0
	for dec.More() {
		if n == nf {
			return rowErrorf(kindFeatureCount, i, "", "more than %d values; the model expects %d features, in order: %s", nf, nf, quoteList(d.schema.Features))
		}
		if err := d.jsonValue(dec, i, d.schema.Features[n], &row[n]); err != nil {
			return err
		}
		n++
	}
	if _, err := dec.Token(); err != nil { // ']'
		return jsonError(err)
	}
	if n != nf {
		return rowErrorf(kindFeatureCount, i, "", "%d values; the model expects %d features, in order: %s", n, nf, quoteList(d.schema.Features))
	}
	return nil
}

func (d *rowDecoder) jsonObjectRow(dec *json.Decoder, i int, row []float64) error {
	nf := len(d.schema.Features)
	seen := make([]bool, nf)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(err)
		}
		name, _ := tok.(string)
		j, ok := d.col[name]
		switch {
		case ok && seen[j]:
			return rowErrorf(kindMalformedJSON, i, name, "the feature appears twice")
		case ok:
			seen[j] = true
			if err := d.jsonValue(dec, i, name, &row[j]); err != nil {
				return err
			}
		case d.ignored(name):
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return jsonError(err)
			}
		default:
			return rowErrorf(kindUnknownFeature, i, name, "the model has no such feature (its features: %s)", quoteList(d.schema.Features))
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return jsonError(err)
	}
	var missing []string
	for j, ok := range seen {
		if !ok {
			missing = append(missing, d.schema.Features[j])
		}
	}
	if len(missing) > 0 {
		return rowErrorf(kindMissingFeature, i, missing[0], "missing feature(s) %s (send null for a missing value)", quoteList(missing))
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
			return rowErrorf(kindNotFinite, i, field, "%s is out of the range of a float64", quote(string(t)))
		}
		*v = f
		return nil
	case string:
		return rowErrorf(kindNotNumber, i, field, "%s is not a number (send a JSON number, or null for a missing value)", quote(t))
	case bool:
		return rowErrorf(kindNotNumber, i, field, "%v is not a number", t)
	}
	return rowErrorf(kindNotNumber, i, field, "an array or object is not a number")
}

// readCSV reads a header row of column names and rows of numbers; an
// empty cell, "?", "NA", "N/A" or "NaN" is a missing value, as in the
// files aer reads.
func (d *rowDecoder) readCSV(r io.Reader) error {
	cr := csv.NewReader(r)
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
	idx := make([]int, len(header)) // model column of each CSV column, -1 when ignored
	seen := make([]bool, nf)
	for k, h := range header {
		h = strings.TrimSpace(h)
		if k == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		header[k] = h
		j, ok := d.col[h]
		switch {
		case ok && seen[j]:
			return rowErrorf(kindMalformedCSV, 0, h, "the header names the column twice")
		case ok:
			seen[j], idx[k] = true, j
		case d.ignored(h):
			idx[k] = -1
		default:
			return rowErrorf(kindUnknownFeature, 0, h, "the model has no such feature (its features: %s)", quoteList(d.schema.Features))
		}
	}
	var missing []string
	for j, ok := range seen {
		if !ok {
			missing = append(missing, d.schema.Features[j])
		}
	}
	if len(missing) > 0 {
		return rowErrorf(kindMissingFeature, 0, missing[0], "the header lacks feature(s) %s", quoteList(missing))
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
				return rowErrorf(kindNotNumber, d.rows, header[k], "%s is not a number", quote(cell))
			case err != nil || math.IsInf(f, 0):
				return rowErrorf(kindNotFinite, d.rows, header[k], "%s is not a finite number", quote(cell))
			}
			row[j] = f
		}
	}
}

// missingCell tells whether a CSV cell denotes a missing value.
func missingCell(s string) bool {
	return s == "" || s == "?" || strings.EqualFold(s, "NA") || strings.EqualFold(s, "N/A") || strings.EqualFold(s, "NaN")
}

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

// quoteList quotes names for a message, listing at most 20.
func quoteList(names []string) string {
	const most = 20
	q := make([]string, 0, min(len(names), most))
	for _, n := range names[:min(len(names), most)] {
		q = append(q, quote(n))
	}
	s := strings.Join(q, ", ")
	if len(names) > most {
		s += fmt.Sprintf(" and %d more", len(names)-most)
	}
	return s
}
