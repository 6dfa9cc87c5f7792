package treeimport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/aer-go/aer/boost"
)

// MaxBytes bounds the size of a model file ReadAll accepts (1 GiB).
const MaxBytes = 1 << 30

// SniffBytes is how much of a file ReadAll reads before it asks the
// format whether the file can be one of its models.
const SniffBytes = 4096

// Sniffer checks the first bytes of a model file (SniffBytes of them,
// all of a shorter file: then eof is true) and says whether the file is
// text (a NUL byte anywhere in it then ends the read), or why it cannot
// be a model of the format.
type Sniffer func(prefix []byte, eof bool) (text bool, err error)

// chunk is how much ReadAll reads at a time after the first bytes.
const chunk = 1 << 20

// ReadAll reads all of r, at most MaxBytes, asking sniff (when not nil)
// about its first SniffBytes bytes before it reads the rest: a file that
// cannot be a model (/dev/zero, an image) fails after a few KB, not after
// MaxBytes. A text file fails at its first NUL byte with errFormat
// wrapped, a longer file than MaxBytes with errUnsupported.
func ReadAll(r io.Reader, sniff Sniffer, errFormat, errUnsupported error) ([]byte, error) {
	prefix := make([]byte, SniffBytes)
	n, err := io.ReadFull(r, prefix)
	eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
	if err != nil && !eof {
		return nil, err
	}
	prefix = prefix[:n]
	text := false
	if sniff != nil {
		if text, err = sniff(prefix, eof); err != nil {
			if i := bytes.IndexByte(prefix, 0); text && i >= 0 {
				return nil, nulError(errFormat, i) // says more than a line of NULs
			}
			return nil, err
		}
	}
	if text {
		if i := bytes.IndexByte(prefix, 0); i >= 0 {
			return nil, nulError(errFormat, i)
		}
	}
	if eof {
		return prefix, nil
	}
	var buf bytes.Buffer
	buf.Write(prefix)
	lr := io.LimitReader(r, MaxBytes+1-int64(n))
	for {
		at := buf.Len()
		m, err := buf.ReadFrom(io.LimitReader(lr, chunk))
		if text {
			if i := bytes.IndexByte(buf.Bytes()[at:], 0); i >= 0 {
				return nil, nulError(errFormat, at+i)
			}
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			break
		}
	}
	if buf.Len() > MaxBytes {
		return nil, fmt.Errorf("%w: the file is larger than %d bytes", errUnsupported, MaxBytes)
	}
	return buf.Bytes(), nil
}

// nulError is the error about a text model's NUL byte at offset i.
func nulError(errFormat error, i int) error {
	return fmt.Errorf("%w: byte %d is NUL, which a text model never holds (a binary file?)", errFormat, i+1)
}

// Limits on the category codes of a model's categorical splits, which
// the file gives as bitsets (LightGBM: 32 codes a word) or as segments
// of one array that several splits may share (XGBoost): each code costs
// 4 bytes in memory and about 10 in the model file aer writes, however
// few bytes it took in the model file read.
const (
	// MaxSplitCodes bounds the codes of one split (LightGBM's
	// max_cat_threshold and XGBoost's are 32 and 64 by default).
	MaxSplitCodes = 1 << 16
	// MaxCodes bounds the codes of all of a model's splits.
	MaxCodes = 1 << 22
)

// ErrLimit is wrapped by the errors of Codes.Add.
var ErrLimit = errors.New("too many category codes")

// Codes counts the category codes of a model's splits against the
// limits, before they are allocated.
type Codes struct {
	// Split and Total are the limits: MaxSplitCodes and MaxCodes when 0.
	Split, Total int
	n            int
}

// Add counts a split's n codes, or says which limit they pass.
func (c *Codes) Add(n int) error {
	split, total := c.Split, c.Total
	if split <= 0 {
		split = MaxSplitCodes
	}
	if total <= 0 {
		total = MaxCodes
	}
	if n > split {
		return fmt.Errorf("%w: %d in one split, more than the %d aer imports", ErrLimit, n, split)
	}
	if n > total-c.n {
		return fmt.Errorf("%w: %d in the splits so far, more than the %d aer imports in a model", ErrLimit, c.n+n, total)
	}
	c.n += n
	return nil
}

// SplitValues sets each split node's Value, children first, to the
// cover-weighted mean of its two children's (their plain mean when both
// covers are 0). A node's children are Left[k] and Left[k]+1, numbered
// after it. A mean whose products overflow is computed from the
// children's shares instead, so that finite children give a finite
// value.
func SplitValues(b *boost.Tree) {
	for k := len(b.Left) - 1; k >= 0; k-- {
		if l := b.Left[k]; l >= 0 {
			cl, cr := b.Cover[l], b.Cover[l+1]
			vl, vr := b.Value[l], b.Value[l+1]
			var v float64
			if cl+cr > 0 {
				v = (cl*vl + cr*vr) / (cl + cr)
				if !finite(v) {
					s := cl / (cl + cr)
					v = s*vl + (1-s)*vr
				}
			} else {
				v = (vl + vr) / 2
				if !finite(v) {
					v = vl/2 + vr/2
				}
			}
			b.Value[k] = v
		}
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Finite finds the first value of b that is not finite (a model file
// aer writes holds none): its node, which field ("value", "threshold",
// "gain" or "cover") and the value; ok is true when there is none.
// Leaves come first (a split's value is its leaves'), and a categorical
// split's threshold is not read.
func Finite(b *boost.Tree) (node int, field string, v float64, ok bool) {
	for k := range b.Left {
		switch {
		case b.Left[k] >= 0:
		case !finite(b.Value[k]):
			return k, "value", b.Value[k], false
		case !finite(b.Cover[k]):
			return k, "cover", b.Cover[k], false
		}
	}
	for k := range b.Left {
		switch {
		case b.Left[k] < 0:
		case !finite(b.Value[k]):
			return k, "value", b.Value[k], false
		case !finite(b.Cover[k]):
			return k, "cover", b.Cover[k], false
		case !finite(b.Gain[k]):
			return k, "gain", b.Gain[k], false
		case !finite(b.Threshold[k]) && (b.Categories == nil || b.Categories[k] == nil):
			return k, "threshold", b.Threshold[k], false
		}
	}
	return 0, "", 0, true
}
