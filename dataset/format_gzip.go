package dataset

import (
	"bufio"
	"compress/gzip"
	"errors"
	"io"
)

// gzipMagic starts every gzip stream.
const gzipMagic = "\x1f\x8b"

// gzip-compressed CSV (a .csv.gz file), told by gzip's magic bytes.
func init() {
	RegisterFormat(Format{Name: "csv.gz", Magic: []byte(gzipMagic), Extensions: []string{".csv.gz", ".gz"}, Open: openGzipCSV})
}

// openGzipCSV reads in as gzip-compressed CSV text.
func openGzipCSV(in Input) (RowSource, error) {
	zr, err := gzip.NewReader(in.R)
	if err != nil {
		return nil, &Error{File: in.Name, Err: ErrUnsupported, Detail: "a gzip file that does not open: " + err.Error()}
	}
	return newCSVSource(bufio.NewReaderSize(gzipErrors{zr, in.Name}, 1<<16), in.Name, in.Options)
}

// gzipErrors says what a gzip stream's failures mean: a stream that
// ends early is a truncated file, not a table whose last line is short.
type gzipErrors struct {
	r    io.Reader
	name string
}

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	switch {
	case err == nil || err == io.EOF:
		return n, err
	case errors.Is(err, io.ErrUnexpectedEOF):
		return n, &Error{File: g.name, Err: ErrTruncated, Detail: "the gzip stream ends before its end marker"}
	}
	return n, &Error{File: g.name, Err: ErrUnsupported, Detail: "a damaged gzip stream: " + err.Error()}
}
