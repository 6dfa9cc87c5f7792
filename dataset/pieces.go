package dataset

import (
	"io"
)

// pieceSize is the size of a pieces' parts: large enough that their
// count stays small, small enough that the last one's waste does not
// matter next to a stream worth keeping.
const pieceSize int64 = 4 << 20

// pieces holds a stream's bytes in fixed pieces, so that keeping n bytes
// takes n bytes (and at most one piece more) of memory at every moment:
// a growing slice (io.ReadAll, bytes.Buffer) needs its old and its new
// backing array at once, up to twice (or, when it doubles, three times)
// the bytes kept, which under an address-space limit (ulimit -v) is the
// difference between a clear error and "fatal error: out of memory".
type pieces struct {
	parts [][]byte
	n     int64
}

// Write appends p.
func (c *pieces) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(c.parts) == 0 || int64(len(c.parts[len(c.parts)-1])) == pieceSize {
			c.parts = append(c.parts, make([]byte, 0, pieceSize))
		}
		last := &c.parts[len(c.parts)-1]
		k := min(len(p), int(pieceSize)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
	c.n += int64(n)
	return n, nil
}

// Len is the bytes held.
func (c *pieces) Len() int64 { return c.n }

// ReadAt reads the bytes at off, as io.ReaderAt.
func (c *pieces) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := 0
	for len(p) > 0 {
		if off >= c.n {
			return n, io.EOF
		}
		part := c.parts[off/pieceSize][off%pieceSize:]
		k := copy(p, part)
		p, off, n = p[k:], off+int64(k), n+k
	}
	return n, nil
}

// Reader reads the bytes held from the first.
func (c *pieces) Reader() io.Reader { return io.NewSectionReader(c, 0, c.n) }

// readPieces reads r to its end into pieces, failing with over true as
// soon as it holds more than limit bytes (what it held then is dropped).
func readPieces(r io.Reader, limit int64) (c *pieces, over bool, err error) {
	c = &pieces{}
	buf := make([]byte, 256<<10)
	for {
		k, err := r.Read(buf)
		if k > 0 {
			if c.n+int64(k) > limit {
				return nil, true, nil
			}
			c.Write(buf[:k])
		}
		if err == io.EOF {
			return c, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
}
