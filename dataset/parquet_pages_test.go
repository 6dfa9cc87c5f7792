package dataset

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// pageAt returns the page header at off in file b and its length.
func pageAt(t *testing.T, b []byte, off int64) (format.PageHeader, int) {
	t.Helper()
	r := (&thrift.CompactProtocol{}).NewReader(bytes.NewReader(b[off:]))
	var h format.PageHeader
	if err := thrift.NewDecoder(r).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h, r.BytesRead()
}

// patchLast returns b with the last occurrence of old within
// b[from:to] replaced by new (of the same length): a page header's field
// rewritten in place, so that no offset of the file moves.
func patchLast(t *testing.T, b []byte, from, to int, old, new []byte) []byte {
	t.Helper()
	k := bytes.LastIndex(b[from:to], old)
	if k < 0 || len(old) != len(new) {
		t.Fatalf("no %x in the header", old)
	}
	out := bytes.Clone(b)
	copy(out[from+k:], new)
	return out
}

// zigzag is the compact protocol's encoding of a small i32 (< 64).
func zigzag(v int) byte { return byte(v << 1) }

// TestParquetCorruptPages: page headers parquet-go would trust are
// checked first. A dictionary page declaring 2^31-1 values in a few
// bytes asked for 16 GiB (beyond recover's reach); a data page declaring
// no values read as a column of missing cells, with exit 0.
func TestParquetCorruptPages(t *testing.T) {
	type dictRow struct {
		A     float32 `parquet:"a"`
		Color string  `parquet:"color,dict"`
		Label int32   `parquet:"label"`
	}
	var rows []dictRow
	for i := range 40 {
		rows = append(rows, dictRow{A: float32(i), Color: []string{"red", "blue"}[i%2], Label: int32(i % 4 / 3)})
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[dictRow](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if _, err := Decode(bytes.NewReader(b), "ok.parquet", Options{AutoCategorical: true}); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var dictAt, dataAt int64
	for _, cc := range f.Metadata().RowGroups[0].Columns {
		m := cc.MetaData
		switch m.PathInSchema[len(m.PathInSchema)-1] {
		case "color":
			dictAt = m.DictionaryPageOffset
		case "a":
			dataAt = m.DataPageOffset
		}
	}
	if dictAt == 0 || dataAt == 0 {
		t.Fatalf("no dictionary (%d) or data page (%d) to corrupt", dictAt, dataAt)
	}
	// A dictionary page declaring 2^31-1 values (its header grows by a
	// few bytes; the offsets of the pages after it no longer hold, but
	// nothing reads them once the header is refused).
	h, n := pageAt(t, b, dictAt)
	d, _ := h.DictionaryPageHeader.Get()
	d.NumValues = 1<<31 - 1
	h.DictionaryPageHeader.Set(d)
	huge := rewritePage(t, b, dictAt, n, h)
	_, err = Decode(bytes.NewReader(huge), "dict.parquet", Options{AutoCategorical: true})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "declaring 2147483647 values") || !strings.Contains(err.Error(), `column "color"`) {
		t.Errorf("a huge dictionary: %v", err)
	}
	// A data page declaring no values, its header patched in place (the
	// same length, the page and its checksum untouched): parquet-go reads
	// the column as missing cells.
	h, n = pageAt(t, b, dataAt)
	empty := patchPage(t, b, dataAt, n, func(h *format.PageHeader) bool {
		if dp, ok := h.DataPageHeader.Get(); ok {
			return dp.NumValues == 0
		}
		dp, ok := h.DataPageHeaderV2.Get()
		return ok && dp.NumValues == 0
	})
	_, err = Decode(bytes.NewReader(empty), "empty.parquet", Options{AutoCategorical: true})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "its pages hold 0 values, the column chunk 40") {
		t.Errorf("a data page of no values: %v", err)
	}
}

// patchPage returns b with one byte of the page header at off (n bytes)
// changed to 0 such that the header decodes as want says (every other
// field as it was): a field rewritten in place, no offset moved.
func patchPage(t *testing.T, b []byte, off int64, n int, want func(*format.PageHeader) bool) []byte {
	t.Helper()
	for p := int(off); p < int(off)+n; p++ {
		c := bytes.Clone(b)
		c[p] = 0
		r := (&thrift.CompactProtocol{}).NewReader(bytes.NewReader(c[off:]))
		var h format.PageHeader
		if thrift.NewDecoder(r).Decode(&h) == nil && r.BytesRead() == n && want(&h) {
			return c
		}
	}
	t.Fatal("no byte of the header gives the wanted field")
	return nil
}

// rewritePage returns b with the page header at off (n bytes) replaced
// by h.
func rewritePage(t *testing.T, b []byte, off int64, n int, h format.PageHeader) []byte {
	t.Helper()
	enc, err := thrift.Marshal(&thrift.CompactProtocol{}, &h)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(append([]byte(nil), b[:off]...), enc...), b[off+int64(n):]...)
}
