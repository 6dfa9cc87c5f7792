package dataset

import (
	"bufio"
	"encoding/csv"
	"io"
	"strings"
)

// rowSource yields the rows of a table as text cells, whatever the file
// format: the CSV reader and the Parquet reader both feed one parser, so
// a table reads to the same Dataset from either.
type rowSource interface {
	// header returns the column names as written (before trimming).
	header() []string
	// next returns the cells of the next row and its 1-based line (the
	// header is line 1), or io.EOF after the last row. The slice and its
	// strings may be reused by the following call.
	next() (rec []string, line int, err error)
}

// csvSource reads delimited text.
type csvSource struct {
	cr   *csv.Reader
	name string
	head []string
}

// newCSVSource sniffs the delimiter (opt.Delimiter overrides it) and reads
// the header of the table at the start of r.
func newCSVSource(r io.Reader, name string, opt *Options) (*csvSource, error) {
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
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &Error{File: name, Err: ErrEmpty}
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	header = append([]string(nil), header...)
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	return &csvSource{cr: cr, name: name, head: header}, nil
}

func (s *csvSource) header() []string { return s.head }

func (s *csvSource) next() ([]string, int, error) {
	rec, err := s.cr.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		return nil, 0, csvError(s.name, err)
	}
	line, _ := s.cr.FieldPos(0)
	return rec, line, nil
}
