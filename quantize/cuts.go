package quantize

import (
	"fmt"
	"math"
	"slices"
)

// MaxCuts is the most cut values a feature's table holds (indices are
// 16-bit at most).
const MaxCuts = 1 << 16

// narrow is the most cuts a feature's table holds with 8-bit indices.
const narrow = 1 << 8

// Cuts is a table of cut values per feature: the distinct thresholds of
// the splits on the feature, ascending, each kept exactly (float64 bits).
// A split stores its threshold's index into its feature's table, in one
// byte when the table has at most 256 values and in two otherwise.
type Cuts struct {
	// Values are the features' cut values, ascending.
	Values [][]float64
	index  []map[uint64]int
}

// NewCuts returns an empty table for nf features; Add the thresholds,
// then Finish.
func NewCuts(nf int) *Cuts {
	return &Cuts{Values: make([][]float64, nf), index: make([]map[uint64]int, nf)}
}

// Add adds v to feature f's cut values.
func (c *Cuts) Add(f int, v float64) {
	if c.index[f] == nil {
		c.index[f] = map[uint64]int{}
	}
	c.index[f][math.Float64bits(v)] = 0
}

// Finish sorts every feature's values and numbers them; a feature of more
// than MaxCuts values is an error.
func (c *Cuts) Finish() error {
	for f, idx := range c.index {
		vals := make([]float64, 0, len(idx))
		for b := range idx {
			vals = append(vals, math.Float64frombits(b))
		}
		if len(vals) > MaxCuts {
			return fmt.Errorf("feature %d has %d distinct thresholds, more than %d", f, len(vals), MaxCuts)
		}
		slices.SortFunc(vals, func(a, b float64) int {
			if c := compareFloat(a, b); c != 0 {
				return c
			}
			return compareBits(a, b)
		})
		for i, v := range vals {
			idx[math.Float64bits(v)] = i
		}
		c.Values[f] = vals
	}
	return nil
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareBits(a, b float64) int {
	x, y := math.Float64bits(a), math.Float64bits(b)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Put writes the index of threshold v of a split on feature f (added
// before Finish).
func (c *Cuts) Put(w *Writer, f int, v float64) {
	i := c.index[f][math.Float64bits(v)]
	if len(c.Values[f]) > narrow {
		w.Uint16(uint16(i))
		return
	}
	w.Byte(byte(i))
}

// Get reads the index of a split's threshold on feature f and returns
// the threshold; an index out of the table is an error of r.
func (c *Cuts) Get(r *Reader, f int) float64 {
	var i int
	if len(c.Values[f]) > narrow {
		i = int(r.Uint16())
	} else {
		i = int(r.Byte())
	}
	if r.Err() != nil {
		return 0
	}
	if i >= len(c.Values[f]) {
		r.Fail("threshold index %d of feature %d, whose table has %d values", i, f, len(c.Values[f]))
		return 0
	}
	return c.Values[f][i]
}

// Append writes the table: each feature's number of values, then the
// values.
func (c *Cuts) Append(w *Writer) {
	for _, vals := range c.Values {
		w.Uvarint(uint64(len(vals)))
		for _, v := range vals {
			w.Float64(v)
		}
	}
}

// ReadCuts reads a table of nf features written by Append.
func ReadCuts(r *Reader, nf int) *Cuts {
	c := &Cuts{Values: make([][]float64, nf)}
	for f := range c.Values {
		n := r.Count("cut values", 8, MaxCuts)
		if r.Err() != nil {
			return c
		}
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = r.Float64()
		}
		c.Values[f] = vals
	}
	return c
}
