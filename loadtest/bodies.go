package loadtest

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
)

// MaxBodies caps the distinct request bodies CSVBodies prepares.
const MaxBodies = 1000

// CSVBodies cuts the CSV table read from r into request bodies of rows
// rows each (rows >= 1), the header first in every body, cycling through
// the table's rows: at most MaxBodies bodies, from the first
// MaxBodies*rows data rows. name prefixes errors.
func CSVBodies(r io.Reader, name string, rows int) ([][]byte, error) {
	if rows < 1 {
		return nil, fmt.Errorf("%s: %d rows per body: want at least 1", name, rows)
	}
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var recs [][]string
	for len(recs) < MaxBodies*rows {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no data rows", name)
	}
	n := min(MaxBodies, max(1, len(recs)/rows))
	bodies := make([][]byte, n)
	for b := range n {
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Write(header)
		for k := range rows {
			w.Write(recs[(b*rows+k)%len(recs)])
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		bodies[b] = buf.Bytes()
	}
	return bodies, nil
}
