package tree

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// epsilon is scikit-learn's EPSILON (the float64 machine epsilon): a node
// whose impurity is at most epsilon is pure.
const epsilon = 0x1p-52

// Grower grows trees on one training set, which it ranks once: every
// feature's values are replaced by their rank among the feature's distinct
// values, so that trees sort integers and compare ranks, and read the
// values themselves only for thresholds. The trees of a forest share one
// Grower; it is safe for concurrent use.
type Grower struct {
	n, p   int
	raw    []float64 // the caller's matrix, row-major with stride
	stride int
	y      []int
	// rank[j*n+i] is the rank of row i's value of feature j among the
	// distinct values of the feature (0: smallest), distinct[j] for a
	// missing value.
	rank     []uint32
	distinct []uint32
	// k is the number of classes of a multi-class Grower
	// (NewMultiGrower), 0 for labels 0 or 1.
	k int
}

// NewGrower ranks the features of x (rows by features, NaN = missing),
// feature by feature on up to workers goroutines, with labels y (0 or 1).
// x is not copied and must not change while the Grower is in use. Data
// is not checked: use learn.Data.Check first. The error is ctx's, when
// it is cancelled first.
func NewGrower(ctx context.Context, x *mat.Dense, y []int, workers int) (*Grower, error) {
	n, p := x.Dims()
	raw := x.RawMatrix()
	g := &Grower{n: n, p: p, raw: raw.Data, stride: raw.Stride, y: y}
	if err := g.computeRanks(ctx, workers); err != nil {
		return nil, err
	}
	return g, nil
}

// value returns feature j of row i.
func (g *Grower) value(i int32, j int) float64 { return g.raw[int(i)*g.stride+j] }

// NumRows returns the number of rows of the training set.
func (g *Grower) NumRows() int { return g.n }

// NumFeatures returns the number of features of the training set.
func (g *Grower) NumFeatures() int { return g.p }

// Sample is the rows one tree is grown from.
type Sample struct {
	// Rows are indices of the Grower's rows (a row listed twice is two
	// rows of the tree); nil means every row.
	Rows []int
	// Weight is the weight of each listed row (nil: 1 each), before class
	// weights. A row drawn k times should weigh k times its weight.
	Weight []float64
	// Count is how many times each listed row was drawn (nil: once), the
	// number min_samples_split and min_samples_leaf count.
	Count []int32
}

// Fit grows one tree on train with settings s; r draws the features of
// each split when s.MaxFeatures is below the number of features, and may
// be nil otherwise.
func Fit(ctx context.Context, train *learn.Data, s Settings, r *rand.Rand) (*Tree, error) {
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	g, err := NewGrower(ctx, train.X, train.Y, 1)
	if err != nil {
		return nil, err
	}
	return g.Grow(ctx, Sample{Weight: train.W}, s, r)
}

// Grow grows one tree on a sample of the Grower's rows. Rows of zero
// weight (after class weights) are left out, as scikit-learn does.
func (g *Grower) Grow(ctx context.Context, smp Sample, s Settings, r *rand.Rand) (*Tree, error) {
	return g.grow(ctx, smp, s, r, automatic, nil)
}

// Presorted is a sample of a Grower's rows whose features are put in
// order once, for growing many trees on the same rows with other weights
// (each round of boosting): a tree grown from it skips the sorting. It is
// safe for concurrent use.
type Presorted struct {
	g    *Grower
	rows []int // nil: every row
	n    int   // number of rows
	rk   []uint32
	ord  []int32
}

// Presort puts the features of the given rows (each at most once,
// increasing; nil: every row) in order. The error is ctx's, when it is
// cancelled first.
func (g *Grower) Presort(ctx context.Context, rows []int) (*Presorted, error) {
	for k, i := range rows {
		if i < 0 || i >= g.n || (k > 0 && i <= rows[k-1]) {
			return nil, fmt.Errorf("tree: presorted rows must increase within [0, %d); row %d is %d", g.n, k, i)
		}
	}
	n := len(rows)
	if rows == nil {
		n = g.n
	}
	p := &Presorted{g: g, rows: rows, n: n}
	if rows == nil {
		p.rk = g.rank
	} else {
		p.rk = make([]uint32, n*g.p)
		for j := range g.p {
			src, dst := g.rank[j*g.n:(j+1)*g.n], p.rk[j*n:(j+1)*n]
			for k, i := range rows {
				dst[k] = src[i]
			}
		}
	}
	p.ord = make([]int32, n*g.p)
	if err := g.sortFeatures(ctx, p.rk, p.ord, n, make([]uint64, n), make([]uint64, n)); err != nil {
		return nil, err
	}
	return p, nil
}

// Grow grows one tree on the presorted rows with the given weights and
// counts (as Sample's; nil: 1 each): the tree Grower.Grow gives on the
// same Sample. Rows of zero weight (after class weights) are left out,
// which undoes the presorting.
func (p *Presorted) Grow(ctx context.Context, weight []float64, count []int32, s Settings, r *rand.Rand) (*Tree, error) {
	if (weight != nil && len(weight) != p.n) || (count != nil && len(count) != p.n) {
		return nil, fmt.Errorf("tree: %d presorted rows with %d weights and %d counts", p.n, len(weight), len(count))
	}
	return p.g.grow(ctx, Sample{Rows: p.rows, Weight: weight, Count: count}, s, r, automatic, p)
}

// searchMode is how a builder orders rows: presorted once per feature,
// sorted at each node, or chosen by the cost of each.
type searchMode int

const (
	automatic searchMode = iota
	presorted
	nodeSorted
)

func (g *Grower) grow(ctx context.Context, smp Sample, s Settings, r *rand.Rand, mode searchMode, pre *Presorted) (*Tree, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	s = s.Resolved()
	mtry, err := s.MaxFeaturesOf(g.p)
	if err != nil {
		return nil, fmt.Errorf("%w: max_features: %v", learn.ErrParam, err)
	}
	nrows := len(smp.Rows)
	if smp.Rows == nil {
		nrows = g.n
	}
	if (smp.Weight != nil && len(smp.Weight) != nrows) || (smp.Count != nil && len(smp.Count) != nrows) {
		return nil, fmt.Errorf("tree: %d rows with %d weights and %d counts", nrows, len(smp.Weight), len(smp.Count))
	}
	bufs := bufferPool.Get().(*buffers)
	defer bufferPool.Put(bufs)
	bufs.ys = bufs.ys[:0]
	for k := range nrows {
		i := k
		if smp.Rows != nil {
			i = smp.Rows[k]
		}
		if i < 0 || i >= g.n {
			return nil, fmt.Errorf("tree: sample row %d is not a row of the %d", i, g.n)
		}
		bufs.ys = append(bufs.ys, g.y[i])
	}
	cw0, cw1 := 1.0, 1.0
	var cws []float64
	if g.k > 0 {
		if cws, err = s.ClassWeight.OfMulti(bufs.ys, smp.Weight, g.k); err != nil {
			return nil, err
		}
	} else {
		cw0, cw1 = s.ClassWeight.Of(bufs.ys, smp.Weight)
	}

	b := &builder{g: g, mtry: mtry, entropy: s.Criterion == "entropy", r: r, mode: mode, pre: pre, buffers: bufs, k: g.k}
	b.reset()
	b.maxDepth = s.MaxDepth
	if b.maxDepth == 0 {
		b.maxDepth = math.MaxInt32
	}
	b.minLeaf = int64(s.MinSamplesLeaf)
	b.minSplit = max(int64(s.MinSamplesSplit), 2*b.minLeaf)
	b.minDecrease = s.MinImpurityDecrease
	for k := range nrows {
		i := k
		if smp.Rows != nil {
			i = smp.Rows[k]
		}
		w := 1.0
		if smp.Weight != nil {
			w = smp.Weight[k]
		}
		switch {
		case cws != nil:
			w *= cws[g.y[i]]
		case g.y[i] == 1:
			w *= cw1
		default:
			w *= cw0
		}
		if !(w > 0) {
			continue
		}
		b.rows = append(b.rows, int32(i))
		b.w = append(b.w, w)
		b.y = append(b.y, uint8(g.y[i]))
		if smp.Count != nil {
			b.cnt = append(b.cnt, smp.Count[k])
		}
		b.total += w
	}
	if len(b.rows) == 0 {
		return nil, fmt.Errorf("%w: no training row has a positive weight", learn.ErrData)
	}
	if mtry < g.p && r == nil {
		return nil, fmt.Errorf("tree: max_features %d of %d features needs a random source", mtry, g.p)
	}
	b.minWeightLeaf = s.MinWeightFractionLeaf * b.total
	if err := b.grow(ctx); err != nil {
		return nil, err
	}
	return b.t.clone(), nil
}

// bufferPool holds builders' working storage between trees, so that a
// forest, or one fit after another, allocates little per tree.
var bufferPool = sync.Pool{New: func() any { return new(buffers) }}

// buffers are a builder's working storage.
type buffers struct {
	ys               []int
	rows             []int32 // local row -> Grower row
	w                []float64
	y                []uint8
	cnt              []int32 // empty: 1 each
	left             []uint8 // per local row: 1 if it goes left in the split being made
	tmp              []int32
	sorted           []int32 // node-sorted: the node's rows in split-feature order
	keys, tmpKeys    []uint64
	ordOwn           []int32
	rkOwn            []uint32
	features, consts []int32 // scikit-learn's features and constant_features arrays
	known            []bool  // the features known constant at a node
	gathered         []bool  // the features whose ranks rk holds
	stack            []frame
	t                Tree // node arrays, cloned to their length at the end
	// multi-class scratch: the left class weights at a threshold, with
	// the missing rows, of the missing rows, of the best split, and the
	// right child's
	msl, mc, mnan, mbest, mright []float64
}

// reset empties the buffers for a new tree.
func (b *buffers) reset() {
	b.rows, b.w, b.y, b.cnt = b.rows[:0], b.w[:0], b.y[:0], b.cnt[:0]
	t := &b.t
	t.Feature, t.Threshold, t.DefaultLeft = t.Feature[:0], t.Threshold[:0], t.DefaultLeft[:0]
	t.Left, t.Right, t.Value, t.Weight = t.Left[:0], t.Right[:0], t.Value[:0], t.Weight[:0]
	t.Samples, t.Impurity = t.Samples[:0], t.Impurity[:0]
	t.Dist, t.Classes = t.Dist[:0], 0
}

// resize returns s with length n, reusing its storage when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// clone returns a copy of t whose arrays hold just its nodes.
func (t *Tree) clone() *Tree {
	return &Tree{NumFeatures: t.NumFeatures, Feature: slices.Clone(t.Feature), Threshold: slices.Clone(t.Threshold),
		DefaultLeft: slices.Clone(t.DefaultLeft), Left: slices.Clone(t.Left), Right: slices.Clone(t.Right),
		Value: slices.Clone(t.Value), Weight: slices.Clone(t.Weight), Samples: slices.Clone(t.Samples),
		Impurity: slices.Clone(t.Impurity), Classes: t.Classes, Dist: cloneDist(t.Dist)}
}

// cloneDist copies a tree's class shares; none (a tree of two classes)
// is nil.
func cloneDist(d []float64) []float64 {
	if len(d) == 0 {
		return nil
	}
	return slices.Clone(d)
}

// builder grows one tree.
type builder struct {
	*buffers
	g       *Grower
	mtry    int
	entropy bool
	r       *rand.Rand
	k       int // number of classes when multi-class, else 0

	maxDepth      int
	minLeaf       int64
	minSplit      int64
	minWeightLeaf float64
	minDecrease   float64
	total         float64 // weight of all rows
	m             int     // number of local rows

	// presort: every feature is sorted once and ord holds, per feature,
	// the local rows by rank (missing last) in node ranges, partitioned
	// at every split. Otherwise ord is one
	// list of local rows in node ranges, in increasing order, sorted into
	// keys at each node by the feature searched.
	mode     searchMode
	pre      *Presorted // when not nil, b.rows may be its rows
	presort  bool
	sortedBy int      // node-sorted: the feature keys hold the current node's rows by
	rk       []uint32 // rk[j*m+i]: rank of local row i's value of feature j
	ord      []int32  // b.ordOwn, or a presorted sample's orders read in place
}

// frame is a node waiting on the stack.
type frame struct {
	start, end int
	depth      int
	parent     int32
	isLeft     bool
	nConst     int
	impurity   float64
	s          [2]float64 // weight of each class (of y&1 when multi-class)
	ms         []float64  // multi-class: weight of each class
	weight     float64
	count      int64
}

// split is the best split found at a node.
type split struct {
	feature    int
	rank       uint32 // rows of rank <= rank go left
	threshold  float64
	defLeft    bool
	proxy      float64
	l0, l1, wl float64   // left child's class weights and weight
	lm         []float64 // multi-class: the left child's class weights
	found      bool
}

func (b *builder) count(i int32) int64 {
	if len(b.cnt) == 0 {
		return 1
	}
	return int64(b.cnt[i])
}

// setup chooses how to sort and orders the rows.
func (b *builder) setup(ctx context.Context) error {
	g, m, p := b.g, len(b.rows), b.g.p
	b.m = m
	identity := m == g.n
	for k, i := range b.rows {
		if int(i) != k {
			identity = false
			break
		}
	}
	// Presorting costs a sort per feature and a partition of every
	// feature at every split; sorting at each node costs a sort of the
	// features drawn there. The first wins when most features are drawn.
	b.presort = b.mode == presorted || (b.mode == automatic && 2*b.mtry >= p)
	// A presorted sample is used whole, whatever the search: both give
	// the same trees.
	usePre := b.pre != nil && m == b.pre.n
	b.presort = b.presort || usePre
	b.left = resize(b.left, m)
	b.tmp = resize(b.tmp, m)
	if !b.presort {
		b.sorted = resize(b.sorted, m)
	}
	b.keys = resize(b.keys, m)
	b.tmpKeys = resize(b.tmpKeys, m)
	// The tree's rows' ranks, feature by feature: the Grower's when the
	// tree has every row, a presorted sample's, else gathered, all at once
	// when presorting, else when a feature is first drawn.
	b.gathered = resize(b.gathered, p)
	switch {
	case usePre:
		b.rk = b.pre.rk
		for j := range b.gathered {
			b.gathered[j] = true
		}
	case identity:
		b.rk = g.rank
		for j := range b.gathered {
			b.gathered[j] = true
		}
	default:
		b.rkOwn = resize(b.rkOwn, m*p)
		b.rk = b.rkOwn
		clear(b.gathered)
	}
	switch {
	case usePre:
		// Only the partitions below a split whose children may split
		// again write to the orders: a stump reads them in place.
		b.ord = b.pre.ord
		if b.maxDepth > 1 {
			b.ordOwn = resize(b.ordOwn, m*p)
			copy(b.ordOwn, b.pre.ord)
			b.ord = b.ordOwn
		}
	case b.presort:
		for j := range p {
			b.gather(j)
		}
		b.ordOwn = resize(b.ordOwn, m*p)
		b.ord = b.ordOwn
		if err := g.sortFeatures(ctx, b.rk, b.ord, m, b.keys, b.tmpKeys); err != nil {
			return err
		}
	default:
		b.ordOwn = resize(b.ordOwn, m)
		b.ord = b.ordOwn
		for k := range b.ord {
			b.ord[k] = int32(k)
		}
	}
	b.features = resize(b.features, p)
	for j := range b.features {
		b.features[j] = int32(j)
	}
	b.consts = resize(b.consts, p)
	b.known = resize(b.known, p)
	clear(b.known)
	return nil
}

// sortFeatures fills ord (m rows by feature) with, per feature, the
// local rows 0..m-1 ordered by their ranks in rk (m rows by feature),
// rows of equal rank in index order. keys and tmpKeys are scratch of
// length m. The error is ctx's, when it is cancelled first.
func (g *Grower) sortFeatures(ctx context.Context, rk []uint32, ord []int32, m int, keys, tmpKeys []uint64) error {
	for j := range g.p {
		if err := learn.Interrupted(ctx); err != nil {
			return err
		}
		for i, r := range rk[j*m : (j+1)*m] {
			keys[i] = uint64(r)<<32 | uint64(i)
		}
		sortPacked(keys, tmpKeys, rankBits(g.distinct[j]))
		o := ord[j*m : (j+1)*m]
		for t, k := range keys {
			o[t] = int32(uint32(k))
		}
	}
	return nil
}

// gather copies the ranks of feature j of the tree's rows into b.rk, once.
func (b *builder) gather(j int) {
	if b.gathered[j] {
		return
	}
	src, dst := b.g.rank[j*b.g.n:(j+1)*b.g.n], b.rk[j*b.m:(j+1)*b.m]
	for k, i := range b.rows {
		dst[k] = src[i]
	}
	b.gathered[j] = true
}

// rankOf returns the rank of local row i's value of feature j (gathered).
func (b *builder) rankOf(i int32, j int) uint32 { return b.rk[j*b.m+int(i)] }

// grow builds the tree depth first, left child first, numbering nodes as
// they are taken from the stack: scikit-learn's DepthFirstTreeBuilder.
func (b *builder) grow(ctx context.Context) error {
	if err := b.setup(ctx); err != nil {
		return err
	}
	b.t.NumFeatures = b.g.p
	root := frame{start: 0, end: b.m, parent: -1}
	if b.k > 0 {
		b.t.Classes = b.k
		root.ms = make([]float64, b.k)
		b.msl, b.mc, b.mnan = resize(b.msl, b.k), resize(b.mc, b.k), resize(b.mnan, b.k)
		b.mbest, b.mright = resize(b.mbest, b.k), resize(b.mright, b.k)
	}
	for i := range int32(b.m) {
		b.add(&root, i)
	}
	root.impurity = b.frameImpurity(&root)
	stack := append(b.stack[:0], root)
	defer func() { b.stack = stack[:0] }()
	for popped := 0; len(stack) > 0; popped++ {
		if popped%64 == 0 {
			if err := learn.Interrupted(ctx); err != nil {
				return err
			}
		}
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := b.addNode(&fr)
		leaf := fr.depth >= b.maxDepth || fr.count < b.minSplit || fr.count < 2*b.minLeaf ||
			fr.weight < 2*b.minWeightLeaf || fr.impurity <= epsilon
		var sp split
		var nConst int
		if !leaf {
			sp, nConst = b.findSplit(&fr)
			leaf = !sp.found
		}
		if !leaf {
			var impL, impR float64
			if b.k > 0 {
				for c, v := range fr.ms {
					b.mright[c] = v - sp.lm[c]
				}
				impL = b.impurityMulti(sp.lm, sp.wl)
				impR = b.impurityMulti(b.mright, fr.weight-sp.wl)
			} else {
				impL = b.impurity(sp.l0, sp.l1, sp.wl)
				impR = b.impurity(fr.s[0]-sp.l0, fr.s[1]-sp.l1, fr.weight-sp.wl)
			}
			wr := fr.weight - sp.wl
			improvement := fr.weight / b.total * (fr.impurity - wr/fr.weight*impR - sp.wl/fr.weight*impL)
			leaf = improvement+epsilon < b.minDecrease
		}
		if leaf {
			continue
		}
		b.t.Feature[id] = int32(sp.feature)
		b.t.Threshold[id] = sp.threshold
		b.t.DefaultLeft[id] = sp.defLeft
		l, r := b.partition(&fr, &sp, nConst)
		l.parent, r.parent = id, id
		l.isLeft = true
		// From the children's own sums, not the parent's minus the other
		// child's: a pure child then has impurity 0 exactly. (scikit-learn
		// subtracts, and splits pure nodes whose rounding error exceeds
		// epsilon; those splits change no prediction.)
		l.impurity = b.frameImpurity(&l)
		r.impurity = b.frameImpurity(&r)
		stack = append(stack, r, l)
	}
	return nil
}

func (f *frame) add(y uint8, w float64, c int64) {
	f.s[y&1] += w
	f.weight += w
	f.count += c
}

// add adds local row i to the frame's sums.
func (b *builder) add(f *frame, i int32) {
	f.add(b.y[i], b.w[i], b.count(i))
	if f.ms != nil {
		f.ms[b.y[i]] += b.w[i]
	}
}

// frameImpurity is the impurity of the frame's rows.
func (b *builder) frameImpurity(f *frame) float64 {
	if f.ms != nil {
		return b.impurityMulti(f.ms, f.weight)
	}
	return b.impurity(f.s[0], f.s[1], f.weight)
}

// impurity is scikit-learn's node impurity of class weights s0, s1 summing
// to w: gini, or entropy in bits.
func (b *builder) impurity(s0, s1, w float64) float64 {
	if b.entropy {
		return entropy(s0, s1, w)
	}
	return gini(s0, s1, w)
}

func gini(s0, s1, w float64) float64 { return 1 - (s0*s0+s1*s1)/(w*w) }

func entropy(s0, s1, w float64) float64 {
	e := 0.0
	if s0 > 0 {
		c := s0 / w
		e -= c * (math.Log(c) / math.Ln2)
	}
	if s1 > 0 {
		c := s1 / w
		e -= c * (math.Log(c) / math.Ln2)
	}
	return e
}

func (b *builder) addNode(fr *frame) int32 {
	t := &b.t
	id := int32(len(t.Feature))
	t.Feature = append(t.Feature, -1)
	t.Threshold = append(t.Threshold, 0)
	t.DefaultLeft = append(t.DefaultLeft, false)
	t.Left = append(t.Left, -1)
	t.Right = append(t.Right, -1)
	if fr.ms != nil {
		t.Value = append(t.Value, 0)
		t.Dist = appendDist(t.Dist, fr.ms)
	} else {
		t.Value = append(t.Value, fr.s[1]/(fr.s[0]+fr.s[1]))
	}
	t.Weight = append(t.Weight, fr.weight)
	t.Samples = append(t.Samples, int32(min(fr.count, math.MaxInt32)))
	t.Impurity = append(t.Impurity, fr.impurity)
	if fr.parent >= 0 {
		if fr.isLeft {
			t.Left[fr.parent] = id
		} else {
			t.Right[fr.parent] = id
		}
	}
	return id
}

// findSplit searches the node's features as scikit-learn's BestSplitter:
// features are drawn at random until max_features have been (more while
// every one drawn was constant), features constant in an ancestor are
// skipped, and the first strictly best split is kept. When every feature
// is searched they are searched in order, except in a multi-class tree
// given a random source, which draws them in scikit-learn's random order
// so that exactly tied splits are broken at random (in ensembles of
// fully grown trees, always taking the first feature makes the trees
// alike: balanced bagging on glass lost 0.035 balanced accuracy). It
// returns the split and the
// number of features known constant for the children (b.consts[:n]).
func (b *builder) findSplit(fr *frame) (split, int) {
	best := split{proxy: math.Inf(-1)}
	b.sortedBy = -1
	nKnown := fr.nConst
	nTotal := nKnown
	p := b.g.p
	if b.mtry >= p && (b.k == 0 || b.r == nil) {
		for _, f := range b.consts[:nKnown] {
			b.known[f] = true
		}
		for f := range p {
			if !b.known[f] && b.evalFeature(f, fr, &best) {
				b.consts[nTotal] = int32(f)
				nTotal++
			}
		}
		for _, f := range b.consts[:nKnown] {
			b.known[f] = false
		}
		return best, nTotal
	}
	feats := b.features
	fi := p
	var visited, foundConst, drawnConst int
	for fi > nTotal && (visited < b.mtry || visited <= foundConst+drawnConst) {
		visited++
		fj := drawnConst + b.r.IntN(fi-foundConst-drawnConst)
		if fj < nKnown {
			feats[drawnConst], feats[fj] = feats[fj], feats[drawnConst]
			drawnConst++
			continue
		}
		fj += foundConst
		if b.evalFeature(int(feats[fj]), fr, &best) {
			feats[fj], feats[nTotal] = feats[nTotal], feats[fj]
			foundConst++
			nTotal++
		} else {
			fi--
			feats[fi], feats[fj] = feats[fj], feats[fi]
		}
	}
	copy(feats[:nKnown], b.consts[:nKnown])
	copy(b.consts[nKnown:nTotal], feats[nKnown:nTotal])
	return best, nTotal
}

// evalFeature scans the thresholds of feature f at the node, updating best,
// and reports whether f is constant there (its non-missing values all
// equal).
func (b *builder) evalFeature(f int, fr *frame, best *split) bool {
	n := fr.end - fr.start
	keys := b.keys[:n]
	nd := uint64(b.g.distinct[f])
	if b.presort {
		o, rk := b.ord[f*b.m+fr.start:f*b.m+fr.end], b.rk[f*b.m:(f+1)*b.m]
		// Constant unless the first and last present values differ.
		if r0 := rk[o[0]]; uint64(r0) == nd || (uint64(rk[o[n-1]]) != nd && rk[o[n-1]] == r0) {
			return true
		}
		for t, i := range o {
			keys[t] = uint64(rk[i])<<32 | uint64(i)
		}
	} else {
		b.sortNode(f, fr)
	}
	k := n
	for k > 0 && keys[k-1]>>32 == nd {
		k--
	}
	if k == 0 || keys[0]>>32 == keys[k-1]>>32 {
		return true
	}
	if b.k > 0 {
		b.scanMulti(f, fr, keys, k, best)
		return false
	}
	// The missing rows go with the heavier side of each threshold.
	var nan [2]float64
	var nw float64
	var nc int64
	for _, key := range keys[k:] {
		i := int32(uint32(key))
		nan[b.y[i]&1] += b.w[i]
		nw += b.w[i]
		nc += b.count(i)
	}
	n0, n1 := nan[0], nan[1]
	present := fr.weight - nw
	var sl [2]float64
	var wl float64
	var cl int64
	for t := 1; t < k; t++ {
		i := int32(uint32(keys[t-1]))
		w := b.w[i]
		sl[b.y[i]&1] += w
		wl += w
		cl += b.count(i)
		if keys[t]>>32 == keys[t-1]>>32 {
			continue
		}
		c0, c1, cw, cc := sl[0], sl[1], wl, cl
		defLeft := wl >= present-wl
		if nc > 0 && defLeft {
			c0, c1, cw, cc = c0+n0, c1+n1, cw+nw, cc+nc
		}
		wr, ok := b.children(fr, cw, cc)
		if !ok {
			continue
		}
		// scikit-learn's proxy: -w_r I_r - w_l I_l.
		var proxy float64
		if b.entropy {
			proxy = -wr*entropy(fr.s[0]-c0, fr.s[1]-c1, wr) - cw*entropy(c0, c1, cw)
		} else {
			r0, r1 := fr.s[0]-c0, fr.s[1]-c1
			proxy = -wr*(1-(r0*r0+r1*r1)/(wr*wr)) - cw*(1-(c0*c0+c1*c1)/(cw*cw))
		}
		if proxy > best.proxy {
			th := b.threshold(f, i, keys[t])
			*best = split{feature: f, rank: uint32(keys[t-1] >> 32), threshold: th, defLeft: defLeft,
				proxy: proxy, l0: c0, l1: c1, wl: cw, found: true}
		}
	}
	return false
}

// children tells whether a left child of weight cw and cc rows leaves
// both children of node fr their minimum rows and weight, and gives the
// right child's weight.
func (b *builder) children(fr *frame, cw float64, cc int64) (float64, bool) {
	if cc < b.minLeaf || fr.count-cc < b.minLeaf {
		return 0, false
	}
	wr := fr.weight - cw
	if cw < b.minWeightLeaf || wr < b.minWeightLeaf {
		return 0, false
	}
	return wr, true
}

// threshold is the threshold between row i's value of feature f and
// the next row's (key next): their midpoint, or row i's value where the
// midpoint rounds to the next value or overflows.
func (b *builder) threshold(f int, i int32, next uint64) float64 {
	lo := b.g.value(b.rows[i], f)
	hi := b.g.value(b.rows[int32(uint32(next))], f)
	th := lo/2 + hi/2
	if th == hi || math.IsInf(th, 0) {
		th = lo
	}
	return th
}

// sortNode orders the node's rows by feature f into b.keys (rank<<32 |
// row). The node's range of b.ord stays in increasing row order, so that
// rows of equal rank come in row order, as when presorted.
func (b *builder) sortNode(f int, fr *frame) {
	n := fr.end - fr.start
	keys := b.keys[:n]
	b.gather(f)
	o, rk := b.ord[fr.start:fr.end], b.rk[f*b.m:(f+1)*b.m]
	for t, i := range o {
		keys[t] = uint64(rk[i])<<32 | uint64(i)
	}
	sortPacked(keys, b.tmpKeys[:n], rankBits(b.g.distinct[f]))
	b.sortedBy = f
}

// partition sends the node's rows to its children and returns their
// frames; nConst features are known constant in the children.
func (b *builder) partition(fr *frame, sp *split, nConst int) (l, r frame) {
	var rows []int32
	if b.presort {
		rows = b.ord[sp.feature*b.m+fr.start : sp.feature*b.m+fr.end]
	} else {
		// The children's sums are added in the order of the split
		// feature, as when presorted, so that both searches give the same
		// numbers to the last bit.
		if b.sortedBy != sp.feature {
			b.sortNode(sp.feature, fr)
		}
		rows = b.sorted[:fr.end-fr.start]
		for t, k := range b.keys[:len(rows)] {
			rows[t] = int32(uint32(k))
		}
	}
	missing := b.g.distinct[sp.feature]
	l = frame{depth: fr.depth + 1, nConst: nConst}
	r = l
	if b.k > 0 {
		l.ms, r.ms = make([]float64, b.k), make([]float64, b.k)
	}
	for _, i := range rows {
		rk := b.rankOf(i, sp.feature)
		if rk <= sp.rank || (rk == missing && sp.defLeft) {
			b.left[i] = 1
			b.add(&l, i)
		} else {
			b.left[i] = 0
			b.add(&r, i)
		}
	}
	// Children at the largest depth are leaves: no split will search
	// their rows, so the orders need no partition (a stump's case).
	final := fr.depth+1 >= b.maxDepth
	if b.presort && !final {
		for _, f := range b.consts[:nConst] {
			b.known[f] = true
		}
		for f := range b.g.p {
			if !b.known[f] {
				b.stablePartition(b.ord[f*b.m+fr.start : f*b.m+fr.end])
			}
		}
		for _, f := range b.consts[:nConst] {
			b.known[f] = false
		}
	}
	nl := 0
	for _, i := range rows {
		nl += int(b.left[i])
	}
	if !b.presort && !final {
		b.stablePartition(b.ord[fr.start:fr.end])
	}
	l.start, l.end = fr.start, fr.start+nl
	r.start, r.end = fr.start+nl, fr.end
	return l, r
}

// stablePartition moves the rows going left before the others, keeping
// the order within each side.
func (b *builder) stablePartition(o []int32) {
	// Branch-free: each row is written to both sides and the count of
	// the side it belongs to advances. Writes to o stay at or behind the
	// read.
	nl, nr := 0, 0
	tmp := b.tmp[:len(o)]
	for _, i := range o {
		l := int(b.left[i])
		o[nl] = i
		tmp[nr] = i
		nl += l
		nr += 1 - l
	}
	copy(o[nl:], tmp[:nr])
}

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
		wr, ok := b.children(fr, cw, cc)
		if !ok {
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
			th := b.threshold(f, i, keys[t])
			copy(b.mbest, left)
			*best = split{feature: f, rank: uint32(keys[t-1] >> 32), threshold: th, defLeft: defLeft,
				proxy: proxy, lm: b.mbest, wl: cw, found: true}
		}
	}
}
