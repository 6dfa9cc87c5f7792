package quantize

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrFormat says an encoded quantised model is malformed; errors of a
// Reader wrap it.
var ErrFormat = errors.New("malformed quantised model")

// Writer appends a compact encoding to B.
type Writer struct {
	B []byte
}

// Uvarint appends v in a variable number of bytes.
func (w *Writer) Uvarint(v uint64) { w.B = binary.AppendUvarint(w.B, v) }

// Byte appends one byte.
func (w *Writer) Byte(v byte) { w.B = append(w.B, v) }

// Uint16 appends v in two bytes, little-endian.
func (w *Writer) Uint16(v uint16) { w.B = binary.LittleEndian.AppendUint16(w.B, v) }

// Float32 appends v's four bytes, little-endian.
func (w *Writer) Float32(v float32) {
	w.B = binary.LittleEndian.AppendUint32(w.B, math.Float32bits(v))
}

// Float64 appends v's eight bytes, little-endian: exactly.
func (w *Writer) Float64(v float64) {
	w.B = binary.LittleEndian.AppendUint64(w.B, math.Float64bits(v))
}

// Bytes appends b after its length.
func (w *Writer) Bytes(b []byte) {
	w.Uvarint(uint64(len(b)))
	w.B = append(w.B, b...)
}

// Reader reads what a Writer wrote. The first error sticks: later reads
// return zero values, and Err reports it (wrapping ErrFormat), so that a
// decoder checks once per part rather than after every read.
type Reader struct {
	b   []byte
	err error
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err returns the first error, or nil.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes left.
func (r *Reader) Len() int { return len(r.b) }

// Fail records err (wrapped in ErrFormat) unless an error is recorded.
func (r *Reader) Fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))
	}
}

func (r *Reader) short(what string) {
	r.Fail("truncated in %s (%d bytes left)", what, len(r.b))
	r.b = nil
}

// Uvarint reads a value written by Writer.Uvarint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.short("a variable-length integer")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Count reads a count of items that take at least per bytes each (per
// >= 1) and at most limit: a count the bytes left cannot hold, or above
// limit, is an error (what names the items), so that a caller allocating
// count items never allocates more than the input could describe.
func (r *Reader) Count(what string, per, limit int) int {
	v := r.Uvarint()
	if r.err != nil {
		return 0
	}
	if v > uint64(limit) || v > uint64(len(r.b)/max(per, 1)) {
		r.Fail("%d %s in %d bytes (at most %d)", v, what, len(r.b), limit)
		return 0
	}
	return int(v)
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 1 {
		r.short("a byte")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// Uint16 reads two bytes, little-endian.
func (r *Reader) Uint16() uint16 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 2 {
		r.short("a 16-bit integer")
		return 0
	}
	v := binary.LittleEndian.Uint16(r.b)
	r.b = r.b[2:]
	return v
}

// Float32 reads four bytes, little-endian.
func (r *Reader) Float32() float32 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 4 {
		r.short("a float32")
		return 0
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(r.b))
	r.b = r.b[4:]
	return v
}

// Float64 reads eight bytes, little-endian.
func (r *Reader) Float64() float64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 8 {
		r.short("a float64")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

// Bytes reads bytes written by Writer.Bytes; they alias the input.
func (r *Reader) Bytes(what string) []byte {
	n := r.Count(what, 1, math.MaxInt)
	if r.err != nil {
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// Done returns the first error, or an error when bytes are left over.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) > 0 {
		r.Fail("%d unexpected bytes at the end", len(r.b))
	}
	return r.err
}
