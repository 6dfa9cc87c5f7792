package dataset

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// pageAt returns the page header at off in file b and its length.
func pageAt(t *testing.T, b []byte, off int64) (format.PageHeader, int) {
	t.Helper()
	cr := &countingReader{r: io.NewSectionReader(bytes.NewReader(b), off, int64(len(b))-off)}
	var h format.PageHeader
	if err := thrift.NewDecoder((&thrift.CompactProtocol{}).NewReader(cr)).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h, int(cr.n)
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
	// An empty dictionary page, patched in place: the values read as 0.
	h, n = pageAt(t, b, dictAt)
	emptyDict := patchPage(t, b, dictAt, n, func(h *format.PageHeader) bool {
		d, ok := h.DictionaryPageHeader.Get()
		return ok && d.NumValues == 0
	})
	_, err = Decode(bytes.NewReader(emptyDict), "dict0.parquet", Options{AutoCategorical: true})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "an empty dictionary page") {
		t.Errorf("an empty dictionary: %v", err)
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
		cr := &countingReader{r: io.NewSectionReader(bytes.NewReader(c), off, int64(len(c))-off)}
		var h format.PageHeader
		if thrift.NewDecoder((&thrift.CompactProtocol{}).NewReader(cr)).Decode(&h) == nil && cr.n == int64(n) && want(&h) {
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

// TestParquetManyPages: column chunks of many pages (each header read
// and stepped over) and several row groups pass the check and read back.
func TestParquetManyPages(t *testing.T) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqRow](&buf, parquet.PageBufferSize(256), parquet.MaxRowsPerRowGroup(700))
	var rows []pqRow
	for i := range 3000 {
		rows = append(rows, pqRow{A: float32(i), Color: []string{"red", "blue", "green"}[i%3], Label: int32(i % 9 / 8)})
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if g := len(f.Metadata().RowGroups); g < 4 {
		t.Fatalf("%d row groups", g)
	}
	if _, err := checkPages(bytes.NewReader(b), int64(len(b)), f.Metadata()); err != nil {
		t.Fatal(err)
	}
	d, err := Decode(bytes.NewReader(b), "many.parquet", Options{AutoCategorical: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != 3000 || d.X.At(2999, 0) != 2999 {
		t.Errorf("%d rows, last a %v", d.Rows(), d.X.At(d.Rows()-1, 0))
	}
}
