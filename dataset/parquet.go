package dataset

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// parquetMagic opens (and closes) every Parquet file.
const parquetMagic = "PAR1"

// parquetSource reads the rows of a Parquet file as text cells, so they
// go through the one parser CSV rows go through: a Parquet file and a CSV
// file of the same table read to the same Dataset. Columns are the
// top-level fields of the file's schema, in file order, by name; nested
// and repeated fields are refused. A null is a missing cell; a double
// becomes the shortest text that reads back to it, a float (32-bit) the
// shortest text of its float32 value (as a CSV export writes it), an
// integer its decimal digits, a boolean 1 or 0, and a byte array (string)
// its bytes. Errors name row r of the file as line r+1, as if the header
// were line 1.
type parquetSource struct {
	name string
	head []string
	r    *parquet.Reader
	buf  []parquet.Row
	at   int // next row of buf
	n    int // rows in buf
	line int
	rec  []string
	eof  bool
}

// newParquetSource opens the Parquet file in ra (size bytes).
func newParquetSource(ra io.ReaderAt, size int64, name string) (src *parquetSource, err error) {
	defer func() {
		if r := recover(); r != nil {
			src, err = nil, &Error{File: name, Err: ErrUnsupported, Detail: fmt.Sprintf("a Parquet file that does not open: %v", r)}
		}
	}()
	// The footer's length is trusted by parquet-go, which allocates it
	// before reading: check it against the file first (a corrupt length
	// must not allocate gigabytes).
	var tail [8]byte
	if size < 12 {
		return nil, &Error{File: name, Err: ErrUnsupported, Detail: "a Parquet file that does not open: too short"}
	}
	if _, err := ra.ReadAt(tail[:], size-8); err != nil {
		return nil, &Error{File: name, Err: ErrUnsupported, Detail: "a Parquet file that does not open: " + err.Error()}
	}
	footer := int64(binary.LittleEndian.Uint32(tail[:4]))
	if string(tail[4:]) != parquetMagic || footer+12 > size {
		return nil, &Error{File: name, Err: ErrUnsupported, Detail: "a Parquet file that does not open: no valid footer (a truncated file?)"}
	}
	f, err := parquet.OpenFile(ra, size)
	if err != nil {
		return nil, &Error{File: name, Err: ErrUnsupported, Detail: "a Parquet file that does not open: " + err.Error()}
	}
	var head []string
	for _, fl := range f.Schema().Fields() {
		if !fl.Leaf() || fl.Repeated() {
			return nil, &Error{File: name, Column: fl.Name(), Err: ErrUnsupported, Detail: "a nested or repeated Parquet column; aer reads flat tables"}
		}
		head = append(head, fl.Name())
	}
	if len(head) == 0 {
		return nil, &Error{File: name, Err: ErrEmpty}
	}
	return &parquetSource{name: name, head: head, r: parquet.NewReader(f), buf: make([]parquet.Row, 256), line: 1, rec: make([]string, len(head))}, nil
}

func (s *parquetSource) header() []string { return s.head }

func (s *parquetSource) next() (rec []string, line int, err error) {
	defer func() {
		if r := recover(); r != nil {
			rec, line, err = nil, 0, &Error{File: s.name, Line: s.line + 1, Err: ErrUnsupported, Detail: fmt.Sprintf("a corrupt Parquet row: %v", r)}
		}
	}()
	for s.at >= s.n {
		if s.eof {
			return nil, 0, io.EOF
		}
		n, err := s.r.ReadRows(s.buf)
		s.at, s.n = 0, n
		if errors.Is(err, io.EOF) {
			s.eof = true
		} else if err != nil {
			return nil, 0, &Error{File: s.name, Line: s.line + 1, Err: ErrUnsupported, Detail: "reading a Parquet row: " + err.Error()}
		}
	}
	row := s.buf[s.at]
	s.at++
	s.line++
	clear(s.rec)
	for _, v := range row {
		j := v.Column()
		if j < 0 || j >= len(s.rec) || v.IsNull() {
			continue
		}
		s.rec[j] = parquetText(v)
	}
	return s.rec, s.line, nil
}

// parquetText writes a Parquet value as the text a CSV file would hold.
func parquetText(v parquet.Value) string {
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return "1"
		}
		return "0"
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray())
	}
	return v.String()
}

// openSource returns the row source of the table at the start of r:
// Parquet (by its magic bytes), gzip-compressed CSV or CSV. A Parquet
// file is read in place when r is an *os.File, else into memory first.
func openSource(r io.Reader, name string, opt *Options) (rowSource, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(len(parquetMagic)); string(magic) == parquetMagic {
		if f, ok := r.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				return newParquetSource(f, fi.Size(), name)
			}
		}
		b, err := io.ReadAll(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return newParquetSource(bytes.NewReader(b), int64(len(b)), name)
	}
	dr, err := decompress(br, name)
	if err != nil {
		return nil, err
	}
	src, err := newCSVSource(dr, name, opt)
	if err != nil {
		return nil, err
	}
	if f, ok := r.(*os.File); ok && dr == io.Reader(br) {
		// An uncompressed file: its size tells how many rows to expect.
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if off, err := f.Seek(0, io.SeekCurrent); err == nil {
				src.size = fi.Size() - (off - int64(br.Buffered()))
			}
		}
	}
	return src, nil
}
