package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
)

// maxQuantNodes bounds the nodes of one decoded quantised tree.
const maxQuantNodes = 1 << 24

// QuantCuts returns the table of the trees' split thresholds per feature
// (quantize.Cuts) for AppendQuant, the trees on nf features.
func QuantCuts(trees []*Tree, nf int) (*quantize.Cuts, error) {
	cuts := quantize.NewCuts(nf)
	for _, t := range trees {
		if t.NumFeatures != nf {
			return nil, fmt.Errorf("tree: a tree of %d features in a model of %d", t.NumFeatures, nf)
		}
		for i, f := range t.Feature {
			if f >= 0 {
				cuts.Add(int(f), t.Threshold[i])
			}
		}
	}
	if err := cuts.Finish(); err != nil {
		return nil, fmt.Errorf("%w: tree: %v", learn.ErrNotQuantizable, err)
	}
	return cuts, nil
}

// AppendQuant writes the quantised tree: its number of nodes and classes
// (0 for a tree of labels 0 and 1), the scales of its leaf values (the
// class-1 shares, or every class's), leaf weights and impurities; per
// node 0 for a leaf or its children's distances; per split its feature,
// missing direction and threshold's index into cuts; per leaf its
// value(s) at leaf's precision, clipped to [0, 1], its weight (16-bit)
// and its number of rows; per node its impurity (16-bit). A split's
// weight, rows and value(s) are its children's sums and weighted mean
// (ReadQuant). It returns the largest change of a leaf value.
func (t *Tree) AppendQuant(w *quantize.Writer, cuts *quantize.Cuts, leaf quantize.Ints) (float64, error) {
	k := t.Classes
	var maxV, maxW, maxI float64
	for i, f := range t.Feature {
		maxI = math.Max(maxI, math.Abs(t.Impurity[i]))
		if f >= 0 {
			continue
		}
		maxW = math.Max(maxW, math.Abs(t.Weight[i]))
		for _, v := range t.leafValues(i) {
			maxV = math.Max(maxV, math.Abs(v))
		}
	}
	s, err := quantize.Scales(quantize.Quantity{Name: "leaf values", Max: maxV, Ints: leaf},
		quantize.Quantity{Name: "leaf weights", Max: maxW, Ints: quantize.Wide}, quantize.Quantity{Name: "impurities", Max: maxI, Ints: quantize.Wide})
	if err != nil {
		return 0, err
	}
	sv, sw, si := s[0], s[1], s[2]
	w.Uvarint(uint64(len(t.Feature)))
	w.Uvarint(uint64(k))
	w.Float32(sv)
	w.Float32(sw)
	w.Float32(si)
	for i, f := range t.Feature {
		if f < 0 {
			w.Uvarint(0)
			continue
		}
		w.Uvarint(uint64(int(t.Left[i]) - i))
		w.Uvarint(uint64(int(t.Right[i]) - i))
	}
	for i, f := range t.Feature {
		if f >= 0 {
			dl := uint64(0)
			if t.DefaultLeft[i] {
				dl = 1
			}
			w.Uvarint(uint64(f)<<1 | dl)
			cuts.Put(w, int(f), t.Threshold[i])
		}
	}
	var e float64
	for i, f := range t.Feature {
		if f >= 0 {
			continue
		}
		for _, v := range t.leafValues(i) {
			e = math.Max(e, math.Abs(clip01(leaf.Put(w, v, sv))-v))
		}
		quantize.Wide.Put(w, t.Weight[i], sw)
		w.Uvarint(uint64(max(t.Samples[i], 0)))
	}
	for i := range t.Feature {
		quantize.Wide.Put(w, t.Impurity[i], si)
	}
	return e, nil
}

// leafValues are the values node i predicts: its class-1 share, or its
// class shares.
func (t *Tree) leafValues(i int) []float64 {
	if t.Classes > 0 {
		return t.Dist[i*t.Classes : (i+1)*t.Classes]
	}
	return t.Value[i : i+1]
}

func clip01(v float64) float64 { return math.Min(1, math.Max(0, v)) }

// ReadQuant reads a tree written by AppendQuant, on nf features with the
// same cut table and leaf precision, and checks it.
func ReadQuant(r *quantize.Reader, cuts *quantize.Cuts, nf int, leaf quantize.Ints) (*Tree, error) {
	n := r.Count("nodes", 1, maxQuantNodes)
	k := r.Uvarint()
	sv, sw, si := quantize.GetScale(r), quantize.GetScale(r), quantize.GetScale(r)
	if err := r.Err(); err != nil {
		return nil, err
	}
	if n == 0 || k == 1 || k > MaxClasses || uint64(n)*k > uint64(r.Len()) {
		return nil, fmt.Errorf("%w: %d nodes of %d classes", quantize.ErrFormat, n, k)
	}
	t := &Tree{NumFeatures: nf, Classes: int(k), Feature: make([]int32, n), Threshold: make([]float64, n), DefaultLeft: make([]bool, n),
		Left: make([]int32, n), Right: make([]int32, n), Value: make([]float64, n), Weight: make([]float64, n),
		Samples: make([]int32, n), Impurity: make([]float64, n)}
	if k > 0 {
		t.Dist = make([]float64, n*int(k))
	}
	for i := range n {
		t.Left[i], t.Right[i], t.Feature[i] = -1, -1, -1
		if d := r.Uvarint(); d > 0 {
			t.Left[i], t.Right[i], t.Feature[i] = int32(min(uint64(n), uint64(i)+d)), int32(min(uint64(n), uint64(i)+r.Uvarint())), 0
		}
	}
	for i := range n {
		if t.Feature[i] < 0 {
			continue
		}
		fd := r.Uvarint()
		if fd>>1 >= uint64(nf) {
			r.Fail("node %d: feature %d of %d", i, fd>>1, nf)
			return nil, r.Err()
		}
		t.Feature[i], t.DefaultLeft[i] = int32(fd>>1), fd&1 == 1
		t.Threshold[i] = cuts.Get(r, int(fd>>1))
	}
	for i := range n {
		if t.Feature[i] >= 0 {
			continue
		}
		vals := t.Value[i : i+1]
		if k > 0 {
			vals = t.Dist[i*int(k) : (i+1)*int(k)]
		}
		for j := range vals {
			vals[j] = clip01(leaf.Get(r, sv))
		}
		t.Weight[i] = quantize.Wide.Get(r, sw)
		s := r.Uvarint()
		if s > math.MaxInt32 {
			r.Fail("node %d: %d rows", i, s)
		}
		t.Samples[i] = int32(s)
	}
	for i := range n {
		t.Impurity[i] = quantize.Wide.Get(r, si)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if err := t.validate(); err != nil {
		return nil, fmt.Errorf("tree: %w", err)
	}
	t.fillInner()
	if err := t.validate(); err != nil {
		return nil, fmt.Errorf("tree: %w", err)
	}
	return t, nil
}

// fillInner sets a split's weight and rows to its children's sums and
// its value(s) to their weighted mean (their mean when both weigh 0),
// children first (validate checked they come after their parent).
func (t *Tree) fillInner() {
	k := t.Classes
	for i := len(t.Feature) - 1; i >= 0; i-- {
		if t.Feature[i] < 0 {
			continue
		}
		l, r := t.Left[i], t.Right[i]
		wl, wr := t.Weight[l], t.Weight[r]
		t.Weight[i] = wl + wr
		t.Samples[i] = int32(min(int64(t.Samples[l])+int64(t.Samples[r]), math.MaxInt32))
		mean := func(a, b float64) float64 {
			if wl+wr > 0 {
				return clip01((wl*a + wr*b) / (wl + wr))
			}
			return (a + b) / 2
		}
		if k == 0 {
			t.Value[i] = mean(t.Value[l], t.Value[r])
			continue
		}
		for c := range k {
			t.Dist[i*k+c] = mean(t.Dist[int(l)*k+c], t.Dist[int(r)*k+c])
		}
	}
}

// QuantMeta is what a quantised tree model's payload keeps beside its
// trees.
type QuantMeta struct {
	NumFeatures  int                `json:"num_features"`
	Features     []string           `json:"features,omitempty"`
	Quantization learn.Quantization `json:"quantization"`
}

// EncodeQuant encodes trees on nf features at precision: their cut
// table, their number, then each tree (AppendQuant); it returns the
// bytes and each tree's largest change of a leaf value.
func EncodeQuant(trees []*Tree, nf int, precision string) ([]byte, []float64, error) {
	levels, err := quantize.Levels(precision)
	if err != nil {
		return nil, nil, err
	}
	cuts, err := QuantCuts(trees, nf)
	if err != nil {
		return nil, nil, err
	}
	var w quantize.Writer
	cuts.Append(&w)
	w.Uvarint(uint64(len(trees)))
	errs := make([]float64, len(trees))
	for i, t := range trees {
		if errs[i], err = t.AppendQuant(&w, cuts, quantize.Ints{Levels: levels}); err != nil {
			return nil, nil, fmt.Errorf("%w: tree %d: %v", learn.ErrNotQuantizable, i, err)
		}
	}
	return w.B, errs, nil
}

// QuantPayload returns magic, meta (JSON) and body (EncodeQuant's): a
// quantised model's payload.
func QuantPayload(magic []byte, meta QuantMeta, body []byte) ([]byte, error) {
	js, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("tree: encoding quantised model: %w", err)
	}
	w := quantize.Writer{B: bytes.Clone(magic)}
	w.Bytes(js)
	w.B = append(w.B, body...)
	return w.B, nil
}

// DecodeQuantPayload reads a payload written by QuantPayload after magic
// (which the caller checked): its meta and trees, each checked; a tree
// of classes other than classes (0: labels 0 and 1; -1: any number from
// 2, the same for every tree) is an error.
func DecodeQuantPayload(payload, magic []byte, classes int) (*QuantMeta, []*Tree, error) {
	r := quantize.NewReader(payload[len(magic):])
	js := r.Bytes("meta bytes")
	if err := r.Err(); err != nil {
		return nil, nil, fmt.Errorf("tree: decoding quantised model: %w", err)
	}
	var meta QuantMeta
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&meta); err != nil {
		return nil, nil, fmt.Errorf("tree: decoding quantised model: %w", err)
	}
	q := meta.Quantization
	if _, err := quantize.Levels(q.Precision); err != nil || q.Precision == "" || !(q.Bound >= 0 && q.Bound <= 1) || !(q.LogitBound >= 0) || math.IsInf(q.LogitBound, 0) {
		return nil, nil, fmt.Errorf("tree: quantised model states %+v", q)
	}
	nf := meta.NumFeatures
	if nf <= 0 || nf > r.Len() || (meta.Features != nil && len(meta.Features) != nf) {
		return nil, nil, fmt.Errorf("tree: quantised model of %d features (%d names)", nf, len(meta.Features))
	}
	trees, err := ReadQuantBody(r, nf, q, classes)
	if err != nil {
		return nil, nil, err
	}
	if err := r.Done(); err != nil {
		return nil, nil, fmt.Errorf("tree: decoding quantised model: %w", err)
	}
	return &meta, trees, nil
}

// ReadQuantBody reads what EncodeQuant wrote, q.Trees trees on nf
// features at q.Precision, each of classes classes (as DecodeQuantPayload
// says), from r; bytes may follow.
func ReadQuantBody(r *quantize.Reader, nf int, q learn.Quantization, classes int) ([]*Tree, error) {
	levels, err := quantize.Levels(q.Precision)
	if err != nil {
		return nil, err
	}
	cuts := quantize.ReadCuts(r, nf)
	n := r.Count("trees", 8, math.MaxInt32)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("tree: decoding quantised model: %w", err)
	}
	if n == 0 || n != q.Trees {
		return nil, fmt.Errorf("tree: quantised model of %d trees states %d", n, q.Trees)
	}
	trees := make([]*Tree, n)
	for i := range trees {
		t, err := ReadQuant(r, cuts, nf, quantize.Ints{Levels: levels})
		if err != nil {
			return nil, fmt.Errorf("tree: decoding quantised tree %d: %w", i, err)
		}
		if classes < 0 && t.Classes >= 2 && (i == 0 || t.Classes == trees[0].Classes) {
			trees[i] = t
			continue
		}
		if t.Classes != classes {
			return nil, fmt.Errorf("tree: quantised tree %d has %d classes, want %d", i, t.Classes, classes)
		}
		trees[i] = t
	}
	return trees, nil
}
