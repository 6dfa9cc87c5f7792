package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/aer-go/aer/internal/hugepage"
)

// RowSource yields the rows of a table as text cells, whatever the file
// format: every format (see Format) hands its rows to one parser, so a
// table reads to the same Dataset from any of them.
type RowSource interface {
	// Header returns the column names as written (before trimming).
	Header() []string
	// Next returns the cells of the next row and its 1-based line (the
	// header is line 1), or io.EOF after the last row. The slice and its
	// strings may be reused by the following call. Errors should be
	// *Error values naming the table, the line and the column.
	Next() (rec []string, line int, err error)
}

// csvSource reads delimited text. Lines without a double quote, nearly
// every line of a numeric table, are split on the delimiter directly;
// from the first line holding a quote on, encoding/csv reads the rest, so
// quoted fields (and the errors of malformed ones) are exactly its. Both
// paths give the same fields and line numbers as encoding/csv alone.
type csvSource struct {
	br    *bufio.Reader
	comma byte // the delimiter; 0 when it is not one byte (csv only)
	cr    *csv.Reader
	// fallback is set once cr reads the rest of the table; its line
	// numbers then count from lineBase.
	fallback bool
	lineBase int
	name     string
	head     []string
	line     int   // the line last read
	offset   int64 // bytes read by the fast path
	headLen  int64
	rec      []string
	long     []byte // a line longer than br's buffer
	arena    []byte // see keep
	// size is the bytes of the table from its start, when known (an
	// uncompressed file), else 0.
	size int64
}

// MaxLineBytes is the longest line a CSV table may have, 64 MiB: a line
// past it (a decompressed file of one 3 GB line, /dev/zero) is an error,
// not memory exhausted. A table a million columns wide takes about 10 MB
// a line.
const MaxLineBytes = 64 << 20

// maxLine is MaxLineBytes; tests lower it.
var maxLine int64 = MaxLineBytes

// lineLimit reads r and fails once a line, the bytes since the last
// newline, grows past max: every reader of the text (the line splitter,
// the chunked reader, encoding/csv) holds at most a line.
type lineLimit struct {
	r    io.Reader
	max  int64
	run  int64 // bytes since the last newline
	line int   // newlines seen
	name string
}

func (l *lineLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	b := p[:n]
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.run += int64(len(b))
			break
		}
		if l.run+int64(i) > l.max {
			l.run += int64(i)
			break
		}
		l.run = 0
		l.line++
		b = b[i+1:]
	}
	if l.run > l.max {
		return 0, &Error{File: l.name, Line: l.line + 1, Err: ErrLineTooLong,
			Detail: fmt.Sprintf("more than %d MiB without a line end: is it a text table?", l.max>>20)}
	}
	return n, err
}

// rowEstimator is a RowSource that can tell about how many rows the
// table holds once it has read some, so the reader sizes its buffer
// once instead of growing it.
type rowEstimator interface {
	// estimateRows returns the expected number of data rows, given that
	// read have been read so far, or 0 when it cannot tell.
	estimateRows(read int) int
}

// estimateRows extrapolates the rows read so far over the file's size.
func (s *csvSource) estimateRows(read int) int {
	if s.size <= 0 || read == 0 || s.fallback || s.offset <= 0 {
		return 0
	}
	perRow := float64(s.offset) / float64(read)
	return int(float64(s.size-s.headLen)/perRow) + 1
}

// newCSVSource sniffs the delimiter (opt.Delimiter overrides it) and reads
// the header of the table at the start of r.
func newCSVSource(r io.Reader, name string, opt *Options) (*csvSource, error) {
	br := bufio.NewReaderSize(&lineLimit{r: r, max: maxLine, name: name}, 1<<16)
	comma, err := sniff(br, name)
	if err != nil {
		return nil, err
	}
	if opt.Delimiter != 0 {
		comma = opt.Delimiter
	}
	// csv.NewReader reads br itself (bufio.NewReader returns a large
	// enough *bufio.Reader as it is), a line at a time, so after the
	// header the data lines are still in br.
	cr := csv.NewReader(br)
	cr.Comma = comma
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	before := br.Buffered()
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
	s := &csvSource{br: br, cr: cr, name: name, head: header, rec: make([]string, 0, len(header))}
	line, _ := cr.FieldPos(len(header) - 1)
	multiline := false
	for _, h := range header {
		multiline = multiline || strings.ContainsAny(h, "\n\r")
	}
	s.line = line
	if comma < utf8.RuneSelf && !multiline && comma != '"' && comma != '\r' && comma != '\n' {
		s.comma = byte(comma)
		s.headLen = int64(before - br.Buffered())
		if s.headLen < 0 {
			s.headLen = 0
		}
	} else {
		s.fallback = true
	}
	return s, nil
}

func (s *csvSource) Header() []string { return s.head }

func (s *csvSource) Next() ([]string, int, error) {
	if s.fallback {
		return s.nextCSV()
	}
	for {
		b, err := s.readLine()
		if err != nil && (err != io.EOF || len(b) == 0) {
			// A read error (a truncated gzip stream, a line too long)
			// wins over the partial line before it.
			if err == io.EOF {
				return nil, 0, io.EOF
			}
			return nil, 0, csvError(s.name, err)
		}
		s.line++
		s.offset += int64(len(b))
		if bytes.IndexByte(b, '"') >= 0 {
			// Quotes: encoding/csv reads from this line on.
			s.fallback = true
			s.lineBase = s.line - 1
			s.cr = csv.NewReader(io.MultiReader(bytes.NewReader(bytes.Clone(b)), s.br))
			s.cr.Comma = rune(s.comma)
			s.cr.ReuseRecord = true
			s.cr.FieldsPerRecord = -1
			return s.nextCSV()
		}
		// encoding/csv's line ends: \n, and \r\n read as \n; an empty
		// line is skipped.
		n := len(b)
		if n > 0 && b[n-1] == '\n' {
			n--
			if n > 0 && b[n-1] == '\r' {
				n--
			}
		} else if n > 0 && b[n-1] == '\r' && err == io.EOF {
			n-- // as encoding/csv: a \r before the end of the file is dropped
		}
		if n == 0 {
			if err != nil {
				if err == io.EOF {
					return nil, 0, io.EOF
				}
				return nil, 0, csvError(s.name, err)
			}
			continue
		}
		str := s.keep(b[:n])
		s.rec = s.rec[:0]
		for {
			k := strings.IndexByte(str, s.comma)
			if k < 0 {
				s.rec = append(s.rec, str)
				break
			}
			s.rec = append(s.rec, str[:k])
			str = str[k+1:]
		}
		return s.rec, s.line, nil
	}
}

// arenaChunk is the size of keep's chunks: large enough for the kernel
// to back them with huge pages (see package hugepage).
const arenaChunk = hugepage.Threshold

// keep returns a string of the bytes b. Strings are cut from 4 MB
// chunks that are never written again once cut, so a row costs no
// allocation and a string kept by the caller stays valid (it keeps its
// chunk alive).
func (s *csvSource) keep(b []byte) string {
	if cap(s.arena)-len(s.arena) < len(b) {
		s.arena = hugepage.Bytes(max(arenaChunk, len(b)))[:0]
	}
	k := len(s.arena)
	s.arena = append(s.arena, b...)
	return unsafe.String(unsafe.SliceData(s.arena[k:]), len(b))
}

// readLine returns the next line with its end, valid until the next call;
// the error is io.EOF (or a read error) after a last line without one.
func (s *csvSource) readLine() ([]byte, error) {
	b, err := s.br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return b, err
	}
	s.long = append(s.long[:0], b...)
	for err == bufio.ErrBufferFull {
		b, err = s.br.ReadSlice('\n')
		s.long = append(s.long, b...)
	}
	return s.long, err
}

// nextCSV reads a record with encoding/csv.
func (s *csvSource) nextCSV() ([]string, int, error) {
	rec, err := s.cr.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			pe.StartLine += s.lineBase
			pe.Line += s.lineBase
		}
		return nil, 0, csvError(s.name, err)
	}
	line, _ := s.cr.FieldPos(0)
	return rec, line + s.lineBase, nil
}
