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
// a column of missing cells). It returns the column and the problem.
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
		r := (&thrift.CompactProtocol{}).NewReader(io.NewSectionReader(ra, pos, end-pos))
		var h format.PageHeader
		if err := thrift.NewDecoder(r).Decode(&h); err != nil {
			return fmt.Errorf("a page header at byte %d: %v", pos, err)
		}
		if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
			return fmt.Errorf("a page at byte %d of negative size", pos)
		}
		switch h.Type {
		case format.DictionaryPage:
			// At least one bit a value, whatever its encoding.
			if d, ok := h.DictionaryPageHeader.Get(); !ok || d.NumValues < 0 || int64(d.NumValues) > 8*int64(h.UncompressedPageSize)+8 {
				return fmt.Errorf("a dictionary page at byte %d declaring %d values in %d bytes", pos, d.NumValues, h.UncompressedPageSize)
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
		pos += int64(r.BytesRead()) + int64(h.CompressedPageSize)
	}
	if values != m.NumValues {
		return fmt.Errorf("its pages hold %d values, the column chunk %d (a damaged page)", values, m.NumValues)
	}
	return nil
}
