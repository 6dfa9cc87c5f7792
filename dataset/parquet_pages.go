package dataset

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// checkPages reads the page headers of every column chunk of the file in
// ra (size bytes) with metadata md, before any page is decoded, and
// refuses what parquet-go would trust: a dictionary page declaring more
// values than its bytes can hold (2^31-1 values in a 4 KB file asked for
// 16 GiB, beyond what recover can catch), and data pages whose values do
// not add up to the column chunk's (a page declaring no values read as
// a column of missing cells), and an empty dictionary for values that
// are not all null (they read as zeros). It returns the column and the
// problem.
func checkPages(ra io.ReaderAt, size int64, md *format.FileMetaData) (column string, err error) {
	for _, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			m := &cc.MetaData
			column = "?"
			if len(m.PathInSchema) > 0 {
				column = m.PathInSchema[len(m.PathInSchema)-1]
			}
			if err := checkChunk(ra, size, m); err != nil {
				return column, err
			}
		}
	}
	return "", nil
}

// checkChunk checks the pages of one column chunk.
func checkChunk(ra io.ReaderAt, size int64, m *format.ColumnMetaData) error {
	start := m.DataPageOffset
	if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
		start = m.DictionaryPageOffset
	}
	end := start + m.TotalCompressedSize
	if start < 4 || m.TotalCompressedSize < 0 || end > size || end < start {
		return fmt.Errorf("a column chunk at bytes %d-%d of a %d-byte file", start, end, size)
	}
	var values int64
	for pos := start; pos < end; {
		cr := &countingReader{r: io.NewSectionReader(ra, pos, end-pos)}
		var h format.PageHeader
		if err := thrift.NewDecoder((&thrift.CompactProtocol{}).NewReader(cr)).Decode(&h); err != nil {
			return fmt.Errorf("a page header at byte %d: %v", pos, err)
		}
		if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
			return fmt.Errorf("a page at byte %d of negative size", pos)
		}
		switch h.Type {
		case format.DictionaryPage:
			// At least one bit a value, whatever its encoding.
			d, ok := h.DictionaryPageHeader.Get()
			if !ok || d.NumValues < 0 || int64(d.NumValues) > 8*int64(h.UncompressedPageSize)+8 {
				return fmt.Errorf("a dictionary page at byte %d declaring %d values in %d bytes", pos, d.NumValues, h.UncompressedPageSize)
			}
			// An empty dictionary for values that are not all null: every
			// value would read as 0.
			if d.NumValues == 0 && m.NumValues > 0 && m.Statistics.NullCount < m.NumValues {
				return fmt.Errorf("an empty dictionary page at byte %d for %d values, %d of them null", pos, m.NumValues, m.Statistics.NullCount)
			}
		case format.DataPage:
			d, ok := h.DataPageHeader.Get()
			if !ok || d.NumValues < 0 {
				return fmt.Errorf("a data page at byte %d without a valid header", pos)
			}
			values += int64(d.NumValues)
		case format.DataPageV2:
			d, ok := h.DataPageHeaderV2.Get()
			if !ok || d.NumValues < 0 {
				return fmt.Errorf("a data page at byte %d without a valid header", pos)
			}
			values += int64(d.NumValues)
		}
		pos += cr.n + int64(h.CompressedPageSize)
	}
	if values != m.NumValues {
		return fmt.Errorf("its pages hold %d values, the column chunk %d (a damaged page)", values, m.NumValues)
	}
	return nil
}

// countingReader counts the bytes read through it, a byte at a time
// where the decoder asks for one (the thrift reader's own count misses
// some).
type countingReader struct {
	r *io.SectionReader
	n int64
	b [1]byte
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	if _, err := io.ReadFull(c.r, c.b[:]); err != nil {
		return 0, err
	}
	c.n++
	return c.b[0], nil
}
