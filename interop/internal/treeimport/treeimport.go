package treeimport

import (
	"fmt"
	"io"

	"github.com/aer-go/aer/boost"
)

// MaxBytes bounds the size of a model file ReadAll accepts (1 GiB).
const MaxBytes = 1 << 30

// ReadAll reads all of r, at most MaxBytes: a longer file fails with
// unsupported wrapped (the importer's ErrUnsupported).
func ReadAll(r io.Reader, unsupported error) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%w: the file is larger than %d bytes", unsupported, MaxBytes)
	}
	return data, nil
}

// SplitValues sets each split node's Value, children first, to the
// cover-weighted mean of its two children's (their plain mean when both
// covers are 0). A node's children are Left[k] and Left[k]+1, numbered
// after it.
func SplitValues(b *boost.Tree) {
	for k := len(b.Left) - 1; k >= 0; k-- {
		if l := b.Left[k]; l >= 0 {
			cl, cr := b.Cover[l], b.Cover[l+1]
			if cl+cr > 0 {
				b.Value[k] = (cl*b.Value[l] + cr*b.Value[l+1]) / (cl + cr)
			} else {
				b.Value[k] = (b.Value[l] + b.Value[l+1]) / 2
			}
		}
	}
}
