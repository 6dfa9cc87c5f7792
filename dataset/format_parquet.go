package dataset

import (
	"fmt"

	"github.com/aer-go/aer/internal/memlimit"
)

// Parquet (see parquetSource for how its values read), told by its magic
// bytes.
func init() {
	RegisterFormat(Format{Name: "parquet", Magic: []byte(parquetMagic), Extensions: []string{".parquet"}, Open: openParquet})
}

// openParquet reads in as a Parquet file: in place when it is a regular
// file, else into memory first, as much of it as half the memory
// available allows (Parquet is read at offsets).
func openParquet(in Input) (RowSource, error) {
	if in.File != nil {
		if fi, err := in.File.Stat(); err == nil && fi.Mode().IsRegular() {
			return newParquetSource(in.File, fi.Size(), in.Name)
		}
	}
	// In pieces: a growing slice would need twice the stream at once.
	limit := parquetStreamLimit()
	b, over, err := readPieces(in.R, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	if over {
		return nil, &Error{File: in.Name, Err: ErrTooLarge, Detail: fmt.Sprintf("a Parquet stream is read into memory, and it holds more than %s (half the memory available): give the file's path instead", memlimit.Format(limit))}
	}
	return newParquetSource(b, b.Len(), in.Name)
}
