package dataset

import "io"

// CSV: delimited text (comma, semicolon or tab, sniffed; see
// SniffDelimiter), the format of any table no other format claims.
func init() {
	RegisterFormat(Format{Name: DefaultFormat, Extensions: []string{".csv", ".tsv", ".txt"}, Open: openCSV})
}

// openCSV reads in as CSV text; an uncompressed file's size tells how
// many rows to expect.
func openCSV(in Input) (RowSource, error) {
	src, err := newCSVSource(in.R, in.Name, in.Options)
	if err != nil {
		return nil, err
	}
	if in.File != nil {
		if fi, err := in.File.Stat(); err == nil && fi.Mode().IsRegular() {
			if off, err := in.File.Seek(0, io.SeekCurrent); err == nil {
				src.size = fi.Size() - (off - int64(in.R.Buffered()))
			}
		}
	}
	return src, nil
}
