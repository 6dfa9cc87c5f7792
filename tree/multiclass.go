package tree

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// MaxClasses is the most classes a multi-class tree takes.
const MaxClasses = 255

// NewMultiGrower is NewGrower for multi-class labels y in 0..k-1
// (2 <= k <= MaxClasses): its trees split on the impurity of all k
// classes, as scikit-learn's DecisionTreeClassifier does for k classes,
// and hold each node's class shares (Tree.Dist).
func NewMultiGrower(ctx context.Context, x *mat.Dense, y []int, k, workers int) (*Grower, error) {
	if k < 2 || k > MaxClasses {
		return nil, fmt.Errorf("%w: %d classes, want 2 to %d", learn.ErrData, k, MaxClasses)
	}
	for i, c := range y {
		if c < 0 || c >= k {
			return nil, fmt.Errorf("%w: row %d: label %d is not a class of 0..%d", learn.ErrData, i+1, c, k-1)
		}
	}
	g, err := NewGrower(ctx, x, y, workers)
	if err != nil {
		return nil, err
	}
	g.k = k
	return g, nil
}

// Classes returns the number of classes of a multi-class Grower, 0 for
// one of labels 0 and 1.
func (g *Grower) Classes() int { return g.k }

// OfMulti returns the weight of each of k classes for labels y (0..k-1)
// and row weights w (nil: 1 each): 1 each for "none"; for "balanced",
// w_c = n / (m n_c), m being the number of classes present and n and n_c
// sums of row weights (counts when w is nil), scikit-learn's
// compute_class_weight (a class absent weighs 1). Explicit weights name
// two classes and are refused.
func (c ClassWeight) OfMulti(y []int, w []float64, k int) ([]float64, error) {
	out := make([]float64, k)
	for i := range out {
		out[i] = 1
	}
	switch {
	case c.explicit:
		if c.IsNone() {
			return out, nil
		}
		return nil, fmt.Errorf("%w: class_weight %s names two classes; multi-class labels take none or balanced", learn.ErrParam, c)
	case c.balanced:
		n := make([]float64, k)
		for i, yi := range y {
			if w == nil {
				n[yi]++
			} else {
				n[yi] += w[i]
			}
		}
		total, present := 0.0, 0
		for _, v := range n {
			if v > 0 {
				total += v
				present++
			}
		}
		for i, v := range n {
			if v > 0 {
				out[i] = total / (float64(present) * v)
			}
		}
	}
	return out, nil
}

// appendDist appends class weights ms as shares of their sum to d.
func appendDist(d, ms []float64) []float64 {
	s := 0.0
	for _, v := range ms {
		s += v
	}
	for _, v := range ms {
		d = append(d, v/s)
	}
	return d
}

// impurityMulti is scikit-learn's impurity of a node of class weights
// ms summing to w: gini, or entropy in bits.
func (b *builder) impurityMulti(ms []float64, w float64) float64 {
	if b.entropy {
		e := 0.0
		for _, v := range ms {
			if v > 0 {
				c := v / w
				e -= c * (math.Log(c) / math.Ln2)
			}
		}
		return e
	}
	sq := 0.0
	for _, v := range ms {
		sq += v * v
	}
	return 1 - sq/(w*w)
}

// scanMulti is evalFeature's scan of the thresholds of feature f for k
// classes: keys are the node's rows by rank, the first np of them
// present.
func (b *builder) scanMulti(f int, fr *frame, keys []uint64, np int, best *split) {
	nan, sl, c := b.mnan, b.msl, b.mc
	clear(nan)
	clear(sl)
	var nw float64
	var nc int64
	for _, key := range keys[np:] {
		i := int32(uint32(key))
		nan[b.y[i]] += b.w[i]
		nw += b.w[i]
		nc += b.count(i)
	}
	present := fr.weight - nw
	var wl float64
	var cl int64
	for t := 1; t < np; t++ {
		i := int32(uint32(keys[t-1]))
		w := b.w[i]
		sl[b.y[i]] += w
		wl += w
		cl += b.count(i)
		if keys[t]>>32 == keys[t-1]>>32 {
			continue
		}
		left, cw, cc := sl, wl, cl
		defLeft := wl >= present-wl
		if nc > 0 && defLeft {
			for j := range c {
				c[j] = sl[j] + nan[j]
			}
			left, cw, cc = c, cw+nw, cc+nc
		}
		if cc < b.minLeaf || fr.count-cc < b.minLeaf {
			continue
		}
		wr := fr.weight - cw
		if cw < b.minWeightLeaf || wr < b.minWeightLeaf {
			continue
		}
		// scikit-learn's proxy: -w_r I_r - w_l I_l, the right child's
		// class weights the node's minus the left's.
		var proxy float64
		if b.entropy {
			var el, er float64
			for j, v := range left {
				if v > 0 {
					p := v / cw
					el -= p * (math.Log(p) / math.Ln2)
				}
				if r := fr.ms[j] - v; r > 0 {
					p := r / wr
					er -= p * (math.Log(p) / math.Ln2)
				}
			}
			proxy = -wr*er - cw*el
		} else {
			var sqL, sqR float64
			for j, v := range left {
				r := fr.ms[j] - v
				sqL += v * v
				sqR += r * r
			}
			proxy = -wr*(1-sqR/(wr*wr)) - cw*(1-sqL/(cw*cw))
		}
		if proxy > best.proxy {
			lo := b.g.value(b.rows[i], f)
			hi := b.g.value(b.rows[int32(uint32(keys[t]))], f)
			th := lo/2 + hi/2
			if th == hi || math.IsInf(th, 0) {
				th = lo
			}
			copy(b.mbest, left)
			*best = split{feature: f, rank: uint32(keys[t-1] >> 32), threshold: th, defLeft: defLeft,
				proxy: proxy, lm: b.mbest, wl: cw, found: true}
		}
	}
}

// DistRow returns the class probabilities of a multi-class tree for one
// row: the class shares of the leaf it reaches (the tree's storage, not
// to be changed).
func (t *Tree) DistRow(row []float64) []float64 {
	l := t.Leaf(row)
	return t.Dist[l*t.Classes : (l+1)*t.Classes]
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

// CheckMulti is learn.Data.Check for labels 0..k-1 (rows numbered from
// 1, errors wrapping learn.ErrData), with a positive, finite total row
// weight: the checks of the multi-class fits built on trees.
func CheckMulti(d *learn.Data, what string, k int) error {
	if k < 2 || k > MaxClasses {
		return fmt.Errorf("%w: %d classes, want 2 to %d", learn.ErrData, k, MaxClasses)
	}
	if d.Rows() == 0 {
		return fmt.Errorf("%w: %s has no rows", learn.ErrData, what)
	}
	if len(d.Y) != d.Rows() {
		return fmt.Errorf("%w: %s has %d rows but %d labels", learn.ErrData, what, d.Rows(), len(d.Y))
	}
	for i, y := range d.Y {
		if y < 0 || y >= k {
			return fmt.Errorf("%w: %s row %d: label %d is not a class of 0..%d", learn.ErrData, what, i+1, y, k-1)
		}
	}
	// The rest as for two classes.
	tmp := *d
	tmp.Y = make([]int, len(d.Y))
	if err := tmp.Check(what); err != nil {
		return err
	}
	total := 0.0
	for i := range d.Y {
		total += d.Weight(i)
	}
	if !(total > 0) || math.IsInf(total, 0) || total > 1e300 {
		return fmt.Errorf("%w: %s: the row weights sum to %v; want a positive total below 1e300 (only their ratios matter)", learn.ErrData, what, total)
	}
	return nil
}

// FitMulti grows one tree on train, whose labels are 0..k-1, splitting
// on the impurity of all k classes (valid is not used); its leaves
// predict their weighted class shares, as scikit-learn's
// DecisionTreeClassifier's predict_proba. A balanced class_weight is
// n / (k n_c); explicit class weights are refused. The learn.MultiFitter
// contract.
func (m *Method) FitMulti(ctx context.Context, train, _ *learn.Data, k int, env learn.Env) (learn.Model, error) {
	t, err := m.grow(ctx, train, env, CheckMulti(train, "training data", k), func() (*Grower, error) {
		return NewMultiGrower(ctx, train.X, train.Y, k, env.Threads())
	})
	if err != nil {
		return nil, err
	}
	return &MultiModel{tree: t, features: train.Features}, nil
}

// magicMulti starts a multi-class decision-tree payload; its last byte
// is the format version.
var magicMulti = []byte("aer.tree.multi\x01")

// LoadMulti decodes a model written by MultiModel.MarshalBinary (the
// learn.MultiFitter contract).
func (m *Method) LoadMulti(payload []byte) (learn.Model, error) {
	t, names, err := decodePayload(payload, magicMulti, "multi-class decision-tree", DecodeTreeMulti)
	if err != nil {
		return nil, err
	}
	return &MultiModel{tree: t, features: names}, nil
}

var _ learn.MultiFitter = (*Method)(nil)

// MultiModel is a fitted multi-class decision tree (learn.MultiModel).
type MultiModel struct {
	tree     *Tree
	features []string
}

// Tree returns the fitted tree.
func (m *MultiModel) Tree() *Tree { return m.tree }

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return m.tree.Classes }

// NumFeatures returns the number of input features.
func (m *MultiModel) NumFeatures() int { return m.tree.NumFeatures }

// NumParams is the number of leaves.
func (m *MultiModel) NumParams() int { return m.tree.NumLeaves() }

// PredictProba writes the class shares of the leaf each row
// reaches, Classes() per row.
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	n, c := x.Dims()
	if c != m.tree.NumFeatures {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.tree.NumFeatures)
	}
	k := m.tree.Classes
	if len(dst) < n*k {
		dst = make([]float64, n*k)
	}
	raw := x.RawMatrix()
	for i := range n {
		copy(dst[i*k:(i+1)*k], m.tree.DistRow(raw.Data[i*raw.Stride:i*raw.Stride+c]))
	}
	return dst[:n*k], nil
}

// MarshalBinary encodes the tree and the feature names.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	b, err := m.tree.AppendBinaryMulti(bytes.Clone(magicMulti))
	if err != nil {
		return nil, err
	}
	return AppendNames(b, m.features), nil
}

// Summary reports the tree's size and its feature importances.
func (m *MultiModel) Summary() any {
	imp := make([]float64, m.tree.NumFeatures)
	m.tree.Importance(imp)
	Normalize(imp)
	return &Summary{Depth: m.tree.Depth(), Leaves: m.tree.NumLeaves(), Nodes: m.tree.NumNodes(),
		Importance: Importances(imp, m.features)}
}
