package boost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/aer-go/aer/internal/catsplit"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/quantize"
)

// The magic bytes that open a quantised model's encoding (a full one is
// JSON and opens with '{'); the last byte is the format's version.
const (
	quantMagic      = "AERQGB\x00\x01"
	quantMagicMulti = "AERQGM\x00\x01"
)

// maxQuantNodes bounds the nodes of one decoded tree.
const maxQuantNodes = 1 << 24

// quantMeta is what a quantised encoding keeps as JSON: everything but
// the trees, and how they were quantised.
type quantMeta struct {
	Settings     Settings           `json:"settings"`
	NumFeatures  int                `json:"num_features"`
	BaseMargin   float64            `json:"base_margin,omitempty"`
	Base         []float64          `json:"base_margins,omitempty"`
	Eval         *EvalResult        `json:"eval,omitempty"`
	Quantization learn.Quantization `json:"quantization"`
}

// Quantization says how m was quantised, and whether it was
// (learn.Quantized).
func (m *Model) Quantization() (learn.Quantization, bool) { return m.quant.Held() }

// Quantize returns a quantised copy of m: each split's threshold an
// index into its feature's table of m's thresholds (routing is exact),
// each leaf value an integer of opt.Precision times a scale of its tree,
// covers and gains (explanations and importances) 16-bit integers the
// same way, a split node's value the cover-weighted mean of its
// children's. Its margin differs from m's by at most the sum over trees
// of the largest change of a leaf; its Quantization states it, and the
// probability's bound, tanh of a quarter of it. The copy is what its
// encoding (MarshalBinary) decodes to. Trees with categorical or
// zero-as-missing splits (imported) have no quantised form.
func (m *Model) Quantize(opt learn.QuantizeOptions) (*Model, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	body, errs, err := quantTrees(m.NumFeatures, oneByOne(m.Trees), opt.Precision)
	if err != nil {
		return nil, err
	}
	b := quantize.MarginBound(errs)
	q := learn.Quantization{Precision: opt.Precision, Bound: quantize.SigmoidBound(b), LogitBound: b, Trees: len(m.Trees)}
	if m.quant != nil {
		// Rounding again adds to the first rounding's bound.
		q.LogitBound += m.quant.LogitBound
		q.Bound = quantize.SigmoidBound(q.LogitBound)
	}
	enc, err := m.encodeQuant(q, body)
	if err != nil {
		return nil, err
	}
	out := new(Model)
	if err := out.UnmarshalBinary(enc); err != nil {
		return nil, fmt.Errorf("boost: the quantised model does not decode: %w", err)
	}
	out.Settings.Threads = m.Settings.Threads
	return out, nil
}

func (m *Model) encodeQuant(q learn.Quantization, body []byte) ([]byte, error) {
	meta, err := json.Marshal(quantMeta{Settings: m.Settings, NumFeatures: m.NumFeatures, BaseMargin: m.BaseMargin, Eval: m.Eval, Quantization: q})
	if err != nil {
		return nil, fmt.Errorf("boost: encoding quantised model: %w", err)
	}
	w := quantize.Writer{B: []byte(quantMagic)}
	w.Bytes(meta)
	w.B = append(w.B, body...)
	return w.B, nil
}

// marshalQuant encodes a quantised model again (its values are already
// on their scales, so they encode to the same integers).
func (m *Model) marshalQuant() ([]byte, error) {
	body, _, err := quantTrees(m.NumFeatures, oneByOne(m.Trees), m.quant.Precision)
	if err != nil {
		return nil, err
	}
	return m.encodeQuant(*m.quant, body)
}

// unmarshalQuant decodes a quantised model's encoding into m.
func (m *Model) unmarshalQuant(data []byte) error {
	r := quantize.NewReader(data[len(quantMagic):])
	var meta quantMeta
	if err := decodeMeta(r, &meta); err != nil {
		return err
	}
	rounds, err := readQuantTrees(r, meta.NumFeatures, 1, meta.Quantization)
	if err != nil {
		return err
	}
	tmp := Model{Settings: meta.Settings, NumFeatures: meta.NumFeatures, BaseMargin: meta.BaseMargin, Eval: meta.Eval}
	for _, round := range rounds {
		tmp.Trees = append(tmp.Trees, round[0])
	}
	if err := tmp.validate(); err != nil {
		return err
	}
	for i := range tmp.Trees {
		fillInner(&tmp.Trees[i])
	}
	q := meta.Quantization
	m.Settings, m.NumFeatures, m.BaseMargin, m.Trees, m.Eval, m.quant = tmp.Settings, tmp.NumFeatures, tmp.BaseMargin, tmp.Trees, tmp.Eval, &q
	m.once = sync.Once{}
	m.forest = forest{}
	m.shapOnce = sync.Once{}
	m.shap = nil
	m.compile()
	return nil
}

// decodeMeta reads and checks the JSON part of a quantised encoding.
func decodeMeta(r *quantize.Reader, meta *quantMeta) error {
	mb := r.Bytes("meta bytes")
	if err := r.Err(); err != nil {
		return fmt.Errorf("boost: decoding quantised model: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(mb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(meta); err != nil {
		return fmt.Errorf("boost: decoding quantised model: %w", err)
	}
	q := meta.Quantization
	if _, err := quantize.Levels(q.Precision); err != nil || q.Precision == "" {
		return fmt.Errorf("boost: quantised model: leaf precision %q", q.Precision)
	}
	if !(q.Bound >= 0 && q.Bound <= 1) || !(q.LogitBound >= 0) || math.IsInf(q.LogitBound, 0) {
		return fmt.Errorf("boost: quantised model: bound %v (log-odds %v)", q.Bound, q.LogitBound)
	}
	if meta.NumFeatures <= 0 || meta.NumFeatures > r.Len() {
		return fmt.Errorf("boost: quantised model has %d features", meta.NumFeatures)
	}
	return nil
}

// oneByOne is trees as rounds of one tree.
func oneByOne(trees []Tree) [][]Tree {
	out := make([][]Tree, len(trees))
	for i := range trees {
		out[i] = trees[i : i+1]
	}
	return out
}

// quantTrees encodes the rounds of trees (each of the same number of
// trees) on nf features: the cut table, the number of rounds, then each
// tree; it returns the bytes and, per tree of the first round's order
// flattened round by round, the largest change of a leaf value.
func quantTrees(nf int, rounds [][]Tree, precision string) ([]byte, []float64, error) {
	levels, err := quantize.Levels(precision)
	if err != nil {
		return nil, nil, err
	}
	cuts := quantize.NewCuts(nf)
	for r, round := range rounds {
		for c := range round {
			t := &round[c]
			if t.Categories != nil || t.ZeroMissing != nil {
				return nil, nil, fmt.Errorf("%w: boost: tree %d has categorical or zero-as-missing splits", learn.ErrNotQuantizable, r*len(round)+c)
			}
			for i, f := range t.Feature {
				if f >= 0 {
					cuts.Add(int(f), t.Threshold[i])
				}
			}
		}
	}
	if err := cuts.Finish(); err != nil {
		return nil, nil, fmt.Errorf("%w: boost: %v", learn.ErrNotQuantizable, err)
	}
	var w quantize.Writer
	cuts.Append(&w)
	w.Uvarint(uint64(len(rounds)))
	var errs []float64
	for r, round := range rounds {
		for c := range round {
			e, err := quantTree(&w, &round[c], cuts, quantize.Ints{Levels: levels})
			if err != nil {
				return nil, nil, fmt.Errorf("%w: boost: tree %d: %v", learn.ErrNotQuantizable, r*len(round)+c, err)
			}
			errs = append(errs, e)
		}
	}
	return w.B, errs, nil
}

// quantTree writes one tree: its number of nodes, category rule and three
// scales (leaf values, leaf covers, split gains); per node 0 for a leaf or
// its left child's distance; per split its feature and missing direction,
// and its threshold's index; per leaf its value and cover; per split its
// gain. It returns the largest change of a leaf value.
func quantTree(w *quantize.Writer, t *Tree, cuts *quantize.Cuts, leaf quantize.Ints) (float64, error) {
	var maxV, maxC, maxG float64
	for i, f := range t.Feature {
		if f < 0 {
			maxV, maxC = math.Max(maxV, math.Abs(t.Value[i])), math.Max(maxC, math.Abs(t.Cover[i]))
		} else {
			maxG = math.Max(maxG, math.Abs(t.Gain[i]))
		}
	}
	s, err := quantize.Scales(quantize.Quantity{Name: "leaf values", Max: maxV, Ints: leaf},
		quantize.Quantity{Name: "covers", Max: maxC, Ints: quantize.Wide}, quantize.Quantity{Name: "gains", Max: maxG, Ints: quantize.Wide})
	if err != nil {
		return 0, err
	}
	sv, sc, sg := s[0], s[1], s[2]
	w.Uvarint(uint64(len(t.Feature)))
	w.Byte(map[catsplit.Rule]byte{catsplit.XGBoost: 0, catsplit.LightGBM: 1}[t.CategoryRule])
	w.Float32(sv)
	w.Float32(sc)
	w.Float32(sg)
	for i, f := range t.Feature {
		if f < 0 {
			w.Uvarint(0)
		} else {
			w.Uvarint(uint64(int(t.Left[i]) - i))
		}
	}
	var e float64
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
	for i, f := range t.Feature {
		if f < 0 {
			e = math.Max(e, math.Abs(leaf.Put(w, t.Value[i], sv)-t.Value[i]))
			quantize.Wide.Put(w, t.Cover[i], sc)
		}
	}
	for i, f := range t.Feature {
		if f >= 0 {
			quantize.Wide.Put(w, t.Gain[i], sg)
		}
	}
	return e, nil
}

// readQuantTrees reads what quantTrees wrote: rounds of k trees each on nf
// features.
func readQuantTrees(r *quantize.Reader, nf, k int, q learn.Quantization) ([][]Tree, error) {
	levels, _ := quantize.Levels(q.Precision)
	cuts := quantize.ReadCuts(r, nf)
	// A tree takes at least 14 bytes.
	n := r.Count("rounds", 14*k, math.MaxInt32)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("boost: decoding quantised model: %w", err)
	}
	rounds := make([][]Tree, n)
	for i := range rounds {
		rounds[i] = make([]Tree, k)
		for c := range rounds[i] {
			if err := readQuantTree(r, &rounds[i][c], cuts, nf, quantize.Ints{Levels: levels}); err != nil {
				return nil, fmt.Errorf("boost: decoding quantised tree %d: %w", i*k+c, err)
			}
		}
	}
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("boost: decoding quantised model: %w", err)
	}
	return rounds, nil
}

func readQuantTree(r *quantize.Reader, t *Tree, cuts *quantize.Cuts, nf int, leaf quantize.Ints) error {
	n := r.Count("nodes", 1, maxQuantNodes)
	rule := r.Byte()
	sv, sc, sg := quantize.GetScale(r), quantize.GetScale(r), quantize.GetScale(r)
	if err := r.Err(); err != nil {
		return err
	}
	if n == 0 || rule > 1 {
		return fmt.Errorf("%w: %d nodes, category rule %d", quantize.ErrFormat, n, rule)
	}
	t.CategoryRule = [2]catsplit.Rule{catsplit.XGBoost, catsplit.LightGBM}[rule]
	t.Feature, t.Threshold, t.DefaultLeft = make([]int32, n), make([]float64, n), make([]bool, n)
	t.Left, t.Value, t.Gain, t.Cover = make([]int32, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		d := r.Uvarint()
		if d > uint64(n) {
			r.Fail("node %d: child at distance %d of %d nodes", i, d, n)
		}
		t.Left[i], t.Feature[i] = int32(i+int(d)), 0
		if d == 0 {
			t.Left[i], t.Feature[i] = -1, -1
		}
	}
	for i := range n {
		if t.Feature[i] < 0 {
			continue
		}
		fd := r.Uvarint()
		if fd>>1 >= uint64(nf) {
			r.Fail("node %d: feature %d of %d", i, fd>>1, nf)
			return r.Err()
		}
		t.Feature[i], t.DefaultLeft[i] = int32(fd>>1), fd&1 == 1
		t.Threshold[i] = cuts.Get(r, int(fd>>1))
	}
	for i := range n {
		if t.Feature[i] < 0 {
			t.Value[i], t.Cover[i] = leaf.Get(r, sv), quantize.Wide.Get(r, sc)
		}
	}
	for i := range n {
		if t.Feature[i] >= 0 {
			t.Gain[i] = quantize.Wide.Get(r, sg)
		}
	}
	return r.Err()
}

// fillInner sets a split node's cover to the sum of its children's and
// its value to their cover-weighted mean (their mean when both covers
// are 0), children first; the tree is checked (children after parents).
func fillInner(t *Tree) {
	for i := len(t.Feature) - 1; i >= 0; i-- {
		if t.Feature[i] < 0 {
			continue
		}
		l, r := t.Left[i], t.Left[i]+1
		c := t.Cover[l] + t.Cover[r]
		t.Cover[i] = c
		if c > 0 {
			t.Value[i] = (t.Cover[l]*t.Value[l] + t.Cover[r]*t.Value[r]) / c
		} else {
			t.Value[i] = (t.Value[l] + t.Value[r]) / 2
		}
	}
}

// Quantize returns the quantised copy of f's model (Model.Quantize) on
// the learn contract (learn.Quantizer).
func (f *Fitted) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	q, err := f.Model.Quantize(opt)
	if err != nil {
		return nil, err
	}
	return &Fitted{Model: q}, nil
}

// Quantization says how m was quantised, and whether it was
// (learn.Quantized).
func (m *MultiModel) Quantization() (learn.Quantization, bool) { return m.quant.Held() }

// Quantize returns a quantised copy of m, as Model.Quantize quantises a
// binary model: its class probabilities differ from m's by at most half
// the largest of the classes' margin bounds (a softmax moves no more).
func (m *MultiModel) Quantize(opt learn.QuantizeOptions) (learn.Model, error) {
	opt, err := opt.Resolved()
	if err != nil {
		return nil, err
	}
	body, errs, err := quantTrees(m.nf, m.Trees, opt.Precision)
	if err != nil {
		return nil, err
	}
	k := m.NumClasses()
	per := make([][]float64, k)
	for i, e := range errs {
		per[i%k] = append(per[i%k], e)
	}
	var b float64
	for _, es := range per {
		b = math.Max(b, quantize.MarginBound(es))
	}
	q := learn.Quantization{Precision: opt.Precision, Bound: quantize.SoftmaxBound(b), Trees: len(errs)}
	if m.quant != nil {
		// Rounding again adds to the first rounding's bound.
		q.Bound = math.Min(1, q.Bound+m.quant.Bound)
	}
	enc, err := m.encodeQuant(q, body)
	if err != nil {
		return nil, err
	}
	out := new(MultiModel)
	if err := out.UnmarshalBinary(enc); err != nil {
		return nil, fmt.Errorf("boost: the quantised model does not decode: %w", err)
	}
	out.SetThreads(m.Settings.Threads)
	return out, nil
}

func (m *MultiModel) encodeQuant(q learn.Quantization, body []byte) ([]byte, error) {
	meta, err := json.Marshal(quantMeta{Settings: m.Settings, NumFeatures: m.nf, Base: m.Base, Eval: m.Eval, Quantization: q})
	if err != nil {
		return nil, fmt.Errorf("boost: encoding quantised model: %w", err)
	}
	w := quantize.Writer{B: []byte(quantMagicMulti)}
	w.Bytes(meta)
	w.B = append(w.B, body...)
	return w.B, nil
}

func (m *MultiModel) marshalQuant() ([]byte, error) {
	body, _, err := quantTrees(m.nf, m.Trees, m.quant.Precision)
	if err != nil {
		return nil, err
	}
	return m.encodeQuant(*m.quant, body)
}

func (m *MultiModel) unmarshalQuant(data []byte) error {
	r := quantize.NewReader(data[len(quantMagicMulti):])
	var meta quantMeta
	if err := decodeMeta(r, &meta); err != nil {
		return err
	}
	k := len(meta.Base)
	if k < 2 || k > MaxClasses {
		return fmt.Errorf("boost: multi-class model has %d classes, want 2 to %d", k, MaxClasses)
	}
	rounds, err := readQuantTrees(r, meta.NumFeatures, k, meta.Quantization)
	if err != nil {
		return err
	}
	nm := MultiModel{Settings: meta.Settings, Base: meta.Base, Trees: rounds, Eval: meta.Eval, nf: meta.NumFeatures}
	for c, cm := range nm.classes() {
		if err := cm.validate(); err != nil {
			return fmt.Errorf("boost: class %d: %w", c, err)
		}
	}
	for _, round := range rounds {
		for c := range round {
			fillInner(&round[c])
		}
	}
	q := meta.Quantization
	m.Settings, m.Base, m.Trees, m.Eval, m.nf, m.quant = nm.Settings, nm.Base, nm.Trees, nm.Eval, nm.nf, &q
	m.once = sync.Once{}
	m.class = nil
	m.SetThreads(m.Settings.Threads)
	return nil
}
