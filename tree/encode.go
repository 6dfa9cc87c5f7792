package tree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// errShort is the error of a payload that ends too early.
var errShort = errors.New("tree: payload is truncated")

// AppendBinary appends the tree's encoding to b: the number of features and
// of nodes, then each node array in turn, little-endian (missing-value
// directions packed 8 to a byte). Every float64 survives exactly.
func (t *Tree) AppendBinary(b []byte) ([]byte, error) {
	n := len(t.Feature)
	b = binary.LittleEndian.AppendUint32(b, uint32(t.NumFeatures))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	for _, a := range [][]int32{t.Feature, t.Left, t.Right, t.Samples} {
		for _, v := range a {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
	}
	for _, a := range [][]float64{t.Threshold, t.Value, t.Weight, t.Impurity} {
		for _, v := range a {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	for k := 0; k < n; k += 8 {
		var c byte
		for j := k; j < min(n, k+8); j++ {
			if t.DefaultLeft[j] {
				c |= 1 << (j - k)
			}
		}
		b = append(b, c)
	}
	return b, nil
}

// DecodeTree reads a tree written by AppendBinary from the start of b,
// checks that it is well formed, and returns it with the rest of b.
func DecodeTree(b []byte) (*Tree, []byte, error) {
	if len(b) < 8 {
		return nil, nil, errShort
	}
	t := &Tree{NumFeatures: int(binary.LittleEndian.Uint32(b))}
	n := int(binary.LittleEndian.Uint32(b[4:]))
	b = b[8:]
	if n == 0 || uint64(n)*(4*4+8*4)+uint64((n+7)/8) > uint64(len(b)) {
		return nil, nil, errShort
	}
	ints := func() []int32 {
		a := make([]int32, n)
		for i := range a {
			a[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		}
		b = b[4*n:]
		return a
	}
	floats := func() []float64 {
		a := make([]float64, n)
		for i := range a {
			a[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
		b = b[8*n:]
		return a
	}
	t.Feature, t.Left, t.Right, t.Samples = ints(), ints(), ints(), ints()
	t.Threshold, t.Value, t.Weight, t.Impurity = floats(), floats(), floats(), floats()
	t.DefaultLeft = make([]bool, n)
	for i := range t.DefaultLeft {
		t.DefaultLeft[i] = b[i/8]&(1<<(i%8)) != 0
	}
	b = b[(n+7)/8:]
	if err := t.validate(); err != nil {
		return nil, nil, fmt.Errorf("tree: %w", err)
	}
	return t, b, nil
}

// AppendBinaryMulti appends the encoding of a multi-class tree to b:
// AppendBinary's, then the number of classes and the class shares.
func (t *Tree) AppendBinaryMulti(b []byte) ([]byte, error) {
	if t.Classes < 2 || len(t.Dist) != t.Classes*len(t.Feature) {
		return nil, fmt.Errorf("tree: not a multi-class tree")
	}
	b, err := t.AppendBinary(b)
	if err != nil {
		return nil, err
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(t.Classes))
	for _, v := range t.Dist {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b, nil
}

// DecodeTreeMulti reads a tree written by AppendBinaryMulti from the
// start of b, checks it, and returns it with the rest of b.
func DecodeTreeMulti(b []byte) (*Tree, []byte, error) {
	t, b, err := DecodeTree(b)
	if err != nil {
		return nil, nil, err
	}
	if len(b) < 4 {
		return nil, nil, errShort
	}
	k := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	if k < 2 || k > MaxClasses {
		return nil, nil, fmt.Errorf("tree: %d classes", k)
	}
	n := len(t.Feature)
	if uint64(n)*uint64(k)*8 > uint64(len(b)) {
		return nil, nil, errShort
	}
	t.Classes, t.Dist = k, make([]float64, n*k)
	for i := range t.Dist {
		t.Dist[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	b = b[8*n*k:]
	if err := t.validate(); err != nil {
		return nil, nil, fmt.Errorf("tree: %w", err)
	}
	return t, b, nil
}
