package fit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// block is a run of rows as they travel between the stages: each row's
// key (a hash of its content, see rowKey), label (0/1), weight and raw
// features (row-major, missing values NaN). Encoded, it is a []byte
// element of the pipeline.
type block struct {
	Keys []uint64
	Y    []int
	W    []float64 // nil: every weight 1
	X    []float64
	Cols int
}

// maxBlockRows bounds the rows of a block read from a file.
var maxBlockRows = 1 << 15

func (b *block) rows() int { return len(b.Keys) }

func (b *block) row(i int) []float64 { return b.X[i*b.Cols : (i+1)*b.Cols] }

func (b *block) weight(i int) float64 {
	if b.W == nil {
		return 1
	}
	return b.W[i]
}

// add appends row i of src.
func (b *block) add(src *block, i int) {
	if b.W == nil && src.W != nil && len(b.Keys) == 0 {
		b.W = []float64{}
	}
	b.Keys = append(b.Keys, src.Keys[i])
	b.Y = append(b.Y, src.Y[i])
	if b.W != nil {
		b.W = append(b.W, src.weight(i))
	}
	b.X = append(b.X, src.row(i)...)
	b.Cols = src.Cols
}

// encode writes b as bytes: rows, columns and whether it has weights,
// then keys, labels, weights and features, little-endian.
func (b *block) encode() []byte {
	n := b.rows()
	size := 12 + n*(8+1+8*b.Cols)
	if b.W != nil {
		size += 8 * n
	}
	out := make([]byte, 0, size)
	hasW := uint32(0)
	if b.W != nil {
		hasW = 1
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = binary.LittleEndian.AppendUint32(out, uint32(b.Cols))
	out = binary.LittleEndian.AppendUint32(out, hasW)
	for _, k := range b.Keys {
		out = binary.LittleEndian.AppendUint64(out, k)
	}
	for _, y := range b.Y {
		out = append(out, byte(y))
	}
	for _, w := range b.W {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(w))
	}
	for _, v := range b.X {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
	}
	return out
}

var errBlock = errors.New("aer-beam: damaged row block")

// decodeBlock reads a block written by encode.
func decodeBlock(p []byte) (*block, error) {
	if len(p) < 12 {
		return nil, errBlock
	}
	n := int(binary.LittleEndian.Uint32(p))
	cols := int(binary.LittleEndian.Uint32(p[4:]))
	hasW := binary.LittleEndian.Uint32(p[8:]) == 1
	per := 8 + 1 + 8*cols
	if hasW {
		per += 8
	}
	if cols < 0 || n < 0 || len(p)-12 != n*per {
		return nil, fmt.Errorf("%w: %d bytes for %d rows of %d columns", errBlock, len(p), n, cols)
	}
	p = p[12:]
	b := &block{Keys: make([]uint64, n), Y: make([]int, n), X: make([]float64, n*cols), Cols: cols}
	for i := range b.Keys {
		b.Keys[i] = binary.LittleEndian.Uint64(p[8*i:])
	}
	p = p[8*n:]
	for i := range b.Y {
		b.Y[i] = int(p[i])
	}
	p = p[n:]
	if hasW {
		b.W = make([]float64, n)
		for i := range b.W {
			b.W[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
		}
		p = p[8*n:]
	}
	for i := range b.X {
		b.X[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return b, nil
}

// rowKey hashes a row's content (FNV-1a, 64 bits): its id when it has
// one, label, weight and features. Rows decide their hold-out, sample
// and subset membership by it, so those do not depend on the files the
// rows come in or their order; equal rows have equal keys and are
// interchangeable.
func rowKey(id string, y int, w float64, x []float64) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	h.Write([]byte(id))
	buf[0] = byte(y)
	h.Write(buf[:1])
	binary.LittleEndian.PutUint64(buf[:], math.Float64bits(w))
	h.Write(buf[:])
	for _, v := range x {
		if v != v {
			v = math.NaN() // one NaN
		}
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		h.Write(buf[:])
	}
	return h.Sum64()
}

// mix hashes a row key with a seed and a stream (SplitMix64's finalizer
// over their combination): the row's pseudo-random draw for that stream.
func mix(key, seed, stream uint64) uint64 {
	z := key ^ (seed * 0x9e3779b97f4a7c15) ^ (stream * 0xbf58476d1ce4e5b9)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// unit maps a draw to [0, 1).
func unit(u uint64) float64 { return float64(u>>11) / (1 << 53) }

// ordered maps a float64 to a uint64 of the same order (-Inf lowest).
func ordered(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// rank is a row's place under one component: higher score first, then
// the smaller key; a larger rank is better.
type rank struct{ Hi, Lo uint64 }

func rankOf(score float64, key uint64) rank { return rank{ordered(score), ^key} }

func (a rank) less(b rank) bool { return a.Hi < b.Hi || a.Hi == b.Hi && a.Lo < b.Lo }

// sortRows returns the rows of the blocks concatenated and sorted by key
// (equal keys by content), as learn.Data: the order every place's rows
// are trained in, whatever order the blocks arrived in.
func sortRows(blocks []*block) (*learn.Data, []uint64) {
	type ref struct {
		b *block
		i int
	}
	var refs []ref
	cols, weighted := 0, false
	for _, b := range blocks {
		for i := range b.rows() {
			refs = append(refs, ref{b, i})
		}
		if b.rows() > 0 {
			cols = b.Cols
		}
		weighted = weighted || b.W != nil
	}
	slices.SortFunc(refs, func(p, q ref) int {
		if c := cmpU(p.b.Keys[p.i], q.b.Keys[q.i]); c != 0 {
			return c
		}
		if c := p.b.Y[p.i] - q.b.Y[q.i]; c != 0 {
			return c
		}
		if c := cmpU(math.Float64bits(p.b.weight(p.i)), math.Float64bits(q.b.weight(q.i))); c != 0 {
			return c
		}
		return slices.CompareFunc(p.b.row(p.i), q.b.row(q.i), func(a, b float64) int { return cmpU(math.Float64bits(a), math.Float64bits(b)) })
	})
	n := len(refs)
	d := &learn.Data{Y: make([]int, n)}
	keys := make([]uint64, n)
	x := make([]float64, n*cols)
	if weighted {
		d.W = make([]float64, n)
	}
	for k, r := range refs {
		keys[k] = r.b.Keys[r.i]
		d.Y[k] = r.b.Y[r.i]
		if weighted {
			d.W[k] = r.b.weight(r.i)
		}
		copy(x[k*cols:], r.b.row(r.i))
	}
	if n > 0 && cols > 0 {
		d.X = mat.NewDense(n, cols, x)
	}
	return d, keys
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
