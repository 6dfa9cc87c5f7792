package dataset

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
)

// TestPieces: a stream kept in pieces reads back whole and at any offset
// across piece boundaries, and readPieces stops at its limit.
func TestPieces(t *testing.T) {
	src := make([]byte, 2*pieceSize+12345)
	for i := range src {
		src[i] = byte(i * 7)
	}
	p, over, err := readPieces(iotest.HalfReader(bytes.NewReader(src)), int64(len(src)))
	if err != nil || over || p.Len() != int64(len(src)) {
		t.Fatalf("readPieces: %v, over %v, %d bytes", err, over, p.Len())
	}
	if got, _ := io.ReadAll(p.Reader()); !bytes.Equal(got, src) {
		t.Error("the pieces read back differ")
	}
	for _, off := range []int64{0, pieceSize - 3, pieceSize, 2*pieceSize - 1, int64(len(src)) - 5} {
		buf := make([]byte, 10)
		n, err := p.ReadAt(buf, off)
		want := src[off:min(off+10, int64(len(src)))]
		if !bytes.Equal(buf[:n], want) || (n < 10) != (err == io.EOF) {
			t.Errorf("ReadAt(%d): %d bytes, %v", off, n, err)
		}
	}
	if _, over, _ := readPieces(bytes.NewReader(src), int64(len(src))-1); !over {
		t.Error("readPieces past its limit: not over")
	}
}
