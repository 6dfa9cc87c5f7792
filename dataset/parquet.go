package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
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
// its bytes. Logical types: unsigned integers read as unsigned, decimals
// with their scale (DECIMAL(9,2) holding 56 reads 0.56), strings, enums
// and JSON as text; dates, times, timestamps and the other logical types
// are refused by name (convert them to numbers first), never read as
// their storage's integers. Errors name row r of the file as line r+1,
// as if the header were line 1.
type parquetSource struct {
	name string
	head []string
	cols []pqColumn
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
	// Rows are read in order: the page indexes and bloom filters (more
	// structures a damaged file could make parquet-go trust) are not
	// needed.
	f, err := parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, &Error{File: name, Err: ErrUnsupported, Detail: "a Parquet file that does not open: " + err.Error()}
	}
	if col, err := checkPages(ra, size, f.Metadata()); err != nil {
		return nil, &Error{File: name, Column: col, Err: ErrUnsupported, Detail: "a corrupt Parquet file: " + err.Error()}
	}
	var head []string
	var cols []pqColumn
	for _, fl := range f.Schema().Fields() {
		if !fl.Leaf() || fl.Repeated() {
			return nil, &Error{File: name, Column: fl.Name(), Err: ErrUnsupported, Detail: "a nested or repeated Parquet column; aer reads flat tables"}
		}
		c, err := pqColumnOf(fl)
		if err != nil {
			return nil, &Error{File: name, Column: fl.Name(), Err: ErrUnsupported, Detail: err.Error()}
		}
		head = append(head, fl.Name())
		cols = append(cols, c)
	}
	if len(head) == 0 {
		return nil, &Error{File: name, Err: ErrEmpty}
	}
	return &parquetSource{name: name, head: head, cols: cols, r: parquet.NewReader(f), buf: make([]parquet.Row, 256), line: 1, rec: make([]string, len(head))}, nil
}

// pqColumn is how a column's values read: as their physical type says,
// as unsigned integers, or as decimals of a scale.
type pqColumn struct {
	unsigned bool
	decimal  bool
	scale    int
}

// pqColumnOf reads a leaf field's logical type.
func pqColumnOf(fl parquet.Field) (pqColumn, error) {
	lt := fl.Type().LogicalType()
	if lt == nil || lt.Value == nil {
		return pqColumn{}, nil
	}
	switch t := lt.Value.(type) {
	case *format.IntType:
		return pqColumn{unsigned: !t.IsSigned}, nil
	case *format.DecimalType:
		if t.Scale < 0 || t.Scale > 76 {
			return pqColumn{}, fmt.Errorf("a Parquet DECIMAL of scale %d", t.Scale)
		}
		return pqColumn{decimal: true, scale: int(t.Scale)}, nil
	case *format.StringType, *format.EnumType, *format.JsonType:
		return pqColumn{}, nil
	}
	return pqColumn{}, fmt.Errorf("a Parquet %s column: aer reads numbers and text; convert it to numbers first", lt)
}

func (s *parquetSource) Header() []string { return s.head }

func (s *parquetSource) Next() (rec []string, line int, err error) {
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
		s.rec[j] = s.cols[j].text(v)
	}
	return s.rec, s.line, nil
}

// text writes v as the text a CSV file would hold for its column.
func (c pqColumn) text(v parquet.Value) string {
	switch {
	case c.unsigned && v.Kind() == parquet.Int32:
		return strconv.FormatUint(uint64(v.Uint32()), 10)
	case c.unsigned && v.Kind() == parquet.Int64:
		return strconv.FormatUint(v.Uint64(), 10)
	case c.decimal:
		var n big.Int
		switch v.Kind() {
		case parquet.Int32:
			n.SetInt64(int64(v.Int32()))
		case parquet.Int64:
			n.SetInt64(v.Int64())
		case parquet.ByteArray, parquet.FixedLenByteArray:
			b := v.ByteArray() // big-endian two's complement
			n.SetBytes(b)
			if len(b) > 0 && b[0]&0x80 != 0 {
				n.Sub(&n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
			}
		default:
			return parquetText(v)
		}
		return scaled(n.String(), c.scale)
	}
	return parquetText(v)
}

// scaled places a decimal point scale digits from the right of the
// integer digits (a leading minus kept): "56", 2 -> "0.56".
func scaled(digits string, scale int) string {
	if scale == 0 {
		return digits
	}
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	out := digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	if neg {
		out = "-" + out
	}
	return out
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

// parquetStreamLimit is the most bytes of a Parquet stream read into
// memory: half the memory available. Tests lower it.
var parquetStreamLimit = func() int64 {
	_, limit := readMemory()
	return limit
}

// File is what the readers use of an open file beyond reading it (an
// *os.File, or one whose reads stop with a context): its size and
// position, to read a Parquet file at offsets or a table again.
type File interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	Stat() (os.FileInfo, error)
}
