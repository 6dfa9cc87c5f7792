package dataset

import "io"

// FromRecords reads a table given as text cells, a header and one record
// per row, exactly as a CSV file holding the same cells is read (with
// opt): the one parser of every format, so a table built from Go values
// reads as the same table written to a file would. Row i is line i+2 in
// error messages, as in a file with a header line. name names the table.
func FromRecords(name string, header []string, records [][]string, opt Options) (*Dataset, error) {
	return build(&recordSource{head: header, recs: records}, name, opt)
}

// recordSource is a RowSource over records in memory.
type recordSource struct {
	head []string
	recs [][]string
	i    int
}

func (s *recordSource) Header() []string { return s.head }

func (s *recordSource) Next() ([]string, int, error) {
	if s.i >= len(s.recs) {
		return nil, 0, io.EOF
	}
	s.i++
	return s.recs[s.i-1], s.i + 1, nil
}
