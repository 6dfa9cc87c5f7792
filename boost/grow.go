package boost

import (
	"container/heap"
	"sync"
	"unsafe"

	"github.com/aer-go/aer/internal/par"
)

// block is the number of rows in one unit of parallel work. Block
// boundaries depend only on the node, never on the number of threads, and
// partial histograms are summed in block order, so results do not depend
// on the number of threads.
const block = 16384

// rangeChunk is the number of consecutive rows the amd64 accumulate
// takes through every group of features before the next rows: their
// codes and pairs (28 to 36 bytes a row with 20 features) stay in cache
// for the next group.
const rangeChunk = 1024

// useRange selects, on amd64, the kernels that add rows by groups of
// four features (accumulateRange, accumulateGather); tests turn it off
// to compare with the row-by-row kernel. Other platforms ignore it.
var useRange = true

// rtEps is the smallest loss change XGBoost accepts for a split (kRtEps).
const rtEps = 1e-6

// gpair is a row's gradient and hessian, kept in single precision like
// XGBoost's; histograms accumulate them in double precision. A row weight
// is applied in double precision as the pair is added (see grower.w).
type gpair struct{ g, h float32 }

// matrix is the binned training data: one byte per cell, row-major, so
// building a histogram reads each row's bins once, contiguously.
type matrix struct {
	n, nf   int
	bins    []uint8     // n*nf bin codes, row-major; code nb[f] marks a missing value
	cols    []uint8     // the same codes column-major, for partitioning rows
	cuts    [][]float64 // per feature, see cutsFor
	minVal  []float64
	nb      []int32 // value bins per feature
	off     []int32 // first histogram slot of each feature
	histLen int     // histogram slots (value bins + one missing slot per feature)
	dense   bool    // no missing value at all
	// The layout histograms are built in: bins holds bcols codes a row,
	// column c's slots start at boff[c], bLen slots in all. Without
	// bundling (bundle.go) the columns are the features (bcols = nf,
	// boff = off, bLen = histLen); with it, bundles[c] describes column c.
	bcols   int
	boff    []int32
	bLen    int
	bundles []bundleCol
}

// split is the best split found for a node.
type split struct {
	found          bool
	loss           float32
	feat           int
	bin            int // value bins <= bin go left
	defaultLeft    bool
	thr            float64
	gl, hl, gr, hr float64
}

// gnode is a node being grown: its rows are idx[begin:end].
type gnode struct {
	id         int32
	begin, end int
	depth      int
	g, h       float64
	hist       []float64   // 2*histLen: gradient, hessian per slot
	sp         *sparseHist // instead of hist for nodes with few rows
	best       split
	nl         int // rows sent left by the split
	seq        int // creation order, to break ties in leaf-wise growth
}

// grower grows one tree at a time over a matrix.
type grower struct {
	m       *matrix
	s       *Settings
	threads int
	gp      []gpair
	// w holds the row weights (scale_pos_weight folded in), nil when every
	// row weighs 1. A row adds w*float64(g), w*float64(h) to a histogram:
	// the product is exact for small integer weights, so a row of weight k
	// adds exactly what k copies of it add. (XGBoost rounds the weighted
	// pair to single precision instead, which breaks that equivalence.)
	w    []float64
	off2 []int32 // 2*m.boff[c]: the float64 index of column c's first slot
	// rootGrad, when not nil, computes the gradient pairs of rows lo..hi-1
	// (a block: lo is a multiple of block, hi = min(n, lo+block)) when the
	// root's rows are all rows in order: grow calls it for each block just
	// before adding the block to the root's histogram, while its pairs are
	// in cache, instead of the caller computing every pair first.
	rootGrad func(lo, hi int)
	idx      []int32
	tmp      []int32
	tmpR     []int32 // partition: a block's right rows
	featOK   []bool

	// split-finding constants in XGBoost's single precision
	lambda, alpha, mcw float64
	gamma              float32

	mu     sync.Mutex
	free   [][]float64
	freeB  [][]float64 // bundled-column histograms (bundle.go)
	freeSp []*sparseHist
	seq    int
}

func newGrower(m *matrix, s *Settings) *grower {
	g := &grower{
		m:       m,
		s:       s,
		threads: s.Threads,
		gp:      make([]gpair, m.n),
		idx:     make([]int32, m.n),
		tmp:     make([]int32, m.n),
		tmpR:    make([]int32, m.n),
		featOK:  make([]bool, m.nf),
		lambda:  float64(float32(s.Lambda)),
		alpha:   float64(float32(s.Alpha)),
		mcw:     float64(float32(s.MinChildWeight)),
		gamma:   float32(s.Gamma),
	}
	g.off2 = make([]int32, m.bcols)
	for c := range g.off2 {
		g.off2[c] = 2 * m.boff[c]
	}
	return g
}

func (g *grower) getHist() []float64 {
	h := g.getHistDirty()
	clear(h)
	return h
}

// getHistDirty is getHist without clearing the buffer.
func (g *grower) getHistDirty() []float64 { return g.pop(&g.free, 2*g.m.histLen) }

func (g *grower) putHist(h []float64) {
	if h != nil {
		g.push(&g.free, h)
	}
}

// getBuild returns a buffer to build a histogram in, not cleared: a
// histogram without bundling, a bundled-column one with it.
func (g *grower) getBuild() []float64 {
	if g.m.bundles == nil {
		return g.getHistDirty()
	}
	return g.pop(&g.freeB, 2*g.m.bLen)
}

func (g *grower) putBuild(h []float64) {
	if g.m.bundles == nil {
		g.putHist(h)
		return
	}
	g.push(&g.freeB, h)
}

// pop takes a buffer from the free list, or makes one of n floats.
func (g *grower) pop(free *[][]float64, n int) []float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if k := len(*free); k > 0 {
		h := (*free)[k-1]
		*free = (*free)[:k-1]
		return h
	}
	return make([]float64, n)
}

// push returns h to the free list.
func (g *grower) push(free *[][]float64, h []float64) {
	g.mu.Lock()
	*free = append(*free, h)
	g.mu.Unlock()
}

// accumulateGo adds the gradient pairs of rows to hist. It is the hot loop
// of training: the slot address is computed without bounds checks, which
// is safe because every code of feature f is at most nb[f] and
// off[f]+nb[f] < histLen by construction (newMatrix).
func (g *grower) accumulateGo(hist []float64, rows []int32) {
	nf := g.m.bcols
	bins := g.m.bins
	off := g.m.boff[:nf]
	_ = hist[2*g.m.bLen-1]
	base := unsafe.Pointer(unsafe.SliceData(hist))
	for _, r := range rows {
		gr, hs := g.pair(r)
		row := bins[int(r)*nf : int(r)*nf+nf]
		for f, b := range row {
			h := (*[2]float64)(unsafe.Add(base, uintptr(int(off[f])+int(b))*16))
			h[0] += gr
			h[1] += hs
		}
	}
}

// pair returns row r's weighted gradient and hessian in double precision.
func (g *grower) pair(r int32) (gr, hs float64) {
	p := g.gp[r]
	gr, hs = float64(p.g), float64(p.h)
	if g.w != nil {
		w := g.w[r]
		gr, hs = gr*w, hs*w
	}
	return gr, hs
}

type buildJob struct {
	nd     *gnode
	lo, hi int
	buf    []float64
}

// buildHists builds the histograms of nodes from their rows; pre, when
// not nil, is called with each block's rows range of g.idx before the
// block is added.
func (g *grower) buildHists(nodes []*gnode, pre func(lo, hi int)) {
	var jobs []buildJob
	for _, nd := range nodes {
		for lo := nd.begin; lo < nd.end || lo == nd.begin; lo += block {
			hi := min(lo+block, nd.end)
			jobs = append(jobs, buildJob{nd, lo, hi, g.getBuild()})
			if hi >= nd.end {
				break
			}
		}
	}
	par.For(g.threads, len(jobs), func(i int) {
		j := &jobs[i]
		clear(j.buf)
		if pre != nil {
			pre(j.lo, j.hi)
		}
		g.accumulate(j.buf, g.idx[j.lo:j.hi])
	})
	// Each node's histogram is the sum of its blocks' partial histograms
	// in block order, slot by slot, in its first block's buffer: the
	// slots are split among the threads (the order of the sum within a
	// slot is the same).
	type sumJob struct {
		first  int // the node's first job
		end    int // after its last job
		lo, hi int // slots
	}
	const chunk = 2048
	var sums []sumJob
	var firsts []int
	for k := 0; k < len(jobs); {
		firsts = append(firsts, k)
		e := k + 1
		for e < len(jobs) && jobs[e].nd == jobs[k].nd {
			e++
		}
		if e-k > 1 {
			for lo := 0; lo < len(jobs[k].buf); lo += chunk {
				sums = append(sums, sumJob{k, e, lo, min(lo+chunk, len(jobs[k].buf))})
			}
		}
		k = e
	}
	par.For(g.threads, len(sums), func(i int) {
		sj := &sums[i]
		h := jobs[sj.first].buf[sj.lo:sj.hi]
		for _, j := range jobs[sj.first+1 : sj.end] {
			for k, v := range j.buf[sj.lo:sj.hi] {
				h[k] += v
			}
		}
	})
	for _, j := range jobs {
		if j.lo != j.nd.begin {
			g.putBuild(j.buf)
		}
	}
	if g.m.bundles == nil {
		for _, k := range firsts {
			jobs[k].nd.hist = jobs[k].buf
		}
		return
	}
	par.For(g.threads, len(firsts), func(i int) {
		j := &jobs[firsts[i]]
		j.nd.hist = g.getHistDirty()
		g.m.expand(j.nd.hist, j.buf)
		g.putBuild(j.buf)
	})
}

// gain is XGBoost's CalcGainGivenWeight without constraints:
// T_alpha(G)^2 / (H + lambda), in single precision.
func (g *grower) gain(G, H float64) float32 {
	if H <= 0 {
		return 0
	}
	t := thresholdL1(G, g.alpha)
	return float32(t * t / (H + g.lambda))
}

// weight is XGBoost's CalcWeight: -T_alpha(G)/(H+lambda), 0 when the
// hessian sum is below min_child_weight.
func (g *grower) weight(G, H float64) float64 {
	if H < g.mcw || H <= 0 {
		return 0
	}
	return -thresholdL1(G, g.alpha) / (H + g.lambda)
}

func thresholdL1(w, alpha float64) float64 {
	switch {
	case w > alpha:
		return w - alpha
	case w < -alpha:
		return w + alpha
	}
	return 0
}

// evaluate finds the best split of nd from its histogram, enumerating
// as XGBoost 1.7's hist evaluator does: for each feature, a forward pass
// (missing values right, split after each bin), then, if the feature has
// missing values in the node, a backward pass (missing values left, split
// before each bin). A candidate replaces the best only with a strictly
// larger loss change, so ties go to the lower feature, the forward pass
// and the lower bin.
//
// The loop below is the reference; training uses evaluateSparse and
// evaluateDense (sparse.go), which find the same split faster
// (TestSparseExact compares the models).
func (g *grower) evaluate(nd *gnode) {
	if nd.sp != nil {
		g.evaluateSparse(nd)
		return
	}
	if sparseMode != sparseNever {
		g.evaluateDense(nd)
		return
	}
	m := g.m
	best := split{}
	root := g.gain(nd.g, nd.h)
	h := nd.hist
	for f := 0; f < m.nf; f++ {
		if !g.featOK[f] || m.nb[f] == 0 {
			continue
		}
		base := 2 * int(m.off[f])
		nb := int(m.nb[f])
		var lg, lh float64
		for i := 0; i < nb; i++ {
			lg += h[base+2*i]
			lh += h[base+2*i+1]
			rg, rh := nd.g-lg, nd.h-lh
			if lh >= g.mcw && rh >= g.mcw {
				loss := (g.gain(lg, lh) + g.gain(rg, rh)) - root
				if loss > best.loss {
					best = split{true, loss, f, i, false, m.cuts[f][i], lg, lh, rg, rh}
				}
			}
		}
		if lg == nd.g && lh == nd.h || h[base+2*nb] == 0 && h[base+2*nb+1] == 0 {
			// No missing value in this node: the backward pass would
			// repeat the forward candidates (XGBoost runs it when the sums
			// differ only by rounding, and float32 gains keep the forward
			// winner; the parity test checks this).
			continue
		}
		var ag, ah float64
		for i := nb - 1; i >= 0; i-- {
			ag += h[base+2*i]
			ah += h[base+2*i+1]
			lg, lh := nd.g-ag, nd.h-ah // bins below i and the missing values
			if lh >= g.mcw && ah >= g.mcw {
				loss := (g.gain(lg, lh) + g.gain(ag, ah)) - root
				if loss > best.loss {
					thr := m.minVal[f]
					if i > 0 {
						thr = m.cuts[f][i-1]
					}
					best = split{true, loss, f, i - 1, true, thr, lg, lh, ag, ah}
				}
			}
		}
	}
	nd.best = best
}

// splittable reports whether nd's best split may be applied
// (XGBoost's CPUExpandEntry::IsValid).
func (g *grower) splittable(nd *gnode, leaves int) bool {
	b := &nd.best
	switch {
	case !b.found, b.loss <= rtEps, b.hl == 0, b.hr == 0, b.loss < g.gamma:
		return false
	case g.s.MaxDepth > 0 && nd.depth >= g.s.MaxDepth:
		return false
	case g.s.MaxLeaves > 0 && leaves >= g.s.MaxLeaves:
		return false
	}
	return true
}

// canGrow reports whether a node at depth could ever be split, so that
// its histogram is worth building.
func (g *grower) canGrow(depth int) bool {
	return g.s.MaxDepth <= 0 || depth < g.s.MaxDepth
}

// leftTable tells, for every bin code of the split's feature, whether the
// split sends it left.
func leftTable(m *matrix, b *split) *[257]bool {
	var left [257]bool
	for c := range left {
		left[c] = c <= b.bin
	}
	left[m.nb[b.feat]] = b.defaultLeft
	return &left
}

type partJob struct {
	nd     *gnode
	lo, hi int
	nl     int
}

// partition reorders the rows of every node in nodes so that the rows
// its split sends left come first, keeping row order on each side.
func (g *grower) partition(nodes []*gnode) {
	var jobs []partJob
	for _, nd := range nodes {
		for lo := nd.begin; lo < nd.end; lo += block {
			jobs = append(jobs, partJob{nd: nd, lo: lo, hi: min(lo+block, nd.end)})
		}
	}
	m := g.m
	par.For(g.threads, len(jobs), func(i int) {
		j := &jobs[i]
		b := &j.nd.best
		left := leftTable(m, b)
		// Branch-free: every row is written both after the left rows (in
		// tmp) and after the right rows (in tmpR), and only one of the
		// two counts advances: a split's direction is unpredictable.
		nl, nr := 0, 0
		col := m.cols[b.feat*m.n : (b.feat+1)*m.n]
		rows := g.idx[j.lo:j.hi]
		outL := g.tmp[j.lo:j.hi]
		outR := g.tmpR[j.lo:j.hi]
		// Without bounds checks (they were half the loop): every row r is
		// below m.n = len(col), and nl, nr < len(rows).
		_, _ = outL[len(rows)-1], outR[len(rows)-1]
		colp := unsafe.Pointer(unsafe.SliceData(col))
		lp := unsafe.Pointer(unsafe.SliceData(outL))
		rp := unsafe.Pointer(unsafe.SliceData(outR))
		for _, r := range rows {
			isLeft := int(b2i(left[*(*uint8)(unsafe.Add(colp, int(r)))]))
			*(*int32)(unsafe.Add(lp, 4*nl)) = r
			*(*int32)(unsafe.Add(rp, 4*nr)) = r
			nl += isLeft
			nr += 1 - isLeft
		}
		j.nl = nl
	})
	// Offsets of each block's rows in the node's final order.
	type place struct{ l, r int }
	places := make([]place, len(jobs))
	for k := 0; k < len(jobs); {
		nd := jobs[k].nd
		total := 0
		e := k
		for ; e < len(jobs) && jobs[e].nd == nd; e++ {
			total += jobs[e].nl
		}
		l, r := nd.begin, nd.begin+total
		for ; k < e; k++ {
			places[k] = place{l, r}
			l += jobs[k].nl
			r += jobs[k].hi - jobs[k].lo - jobs[k].nl
		}
		nd.nl = total
	}
	par.For(g.threads, len(jobs), func(i int) {
		j := &jobs[i]
		p := places[i]
		copy(g.idx[p.l:p.l+j.nl], g.tmp[j.lo:j.lo+j.nl])
		nr := j.hi - j.lo - j.nl
		copy(g.idx[p.r:p.r+nr], g.tmpR[j.lo:j.lo+nr])
	})
}

// apply records nd's split in t and returns its two children.
func (g *grower) apply(t *Tree, nd *gnode) (l, r *gnode) {
	b := &nd.best
	eta := g.s.Eta
	li := t.addNode(eta*g.weight(b.gl, b.hl), b.hl)
	t.addNode(eta*g.weight(b.gr, b.hr), b.hr)
	t.Feature[nd.id] = int32(b.feat)
	t.Threshold[nd.id] = b.thr
	t.DefaultLeft[nd.id] = b.defaultLeft
	t.Left[nd.id] = li
	t.Gain[nd.id] = float64(b.loss)
	l = &gnode{id: li, depth: nd.depth + 1, g: b.gl, h: b.hl, seq: g.nextSeq()}
	r = &gnode{id: li + 1, depth: nd.depth + 1, g: b.gr, h: b.hr, seq: g.nextSeq()}
	return l, r
}

func (g *grower) nextSeq() int { g.seq++; return g.seq }

// childHists gives each pair of children its histogram: the child with
// fewer rows is built from its rows, its sibling is the parent's
// histogram minus it (computed in the parent's buffer when dense). Nodes
// with few rows get sparse histograms (see sparse.go).
func (g *grower) childHists(parents []*gnode, children []*gnode) {
	var small, smallSp []*gnode
	smalls := make([]*gnode, len(parents))
	for i := range parents {
		s := children[2*i]
		if r := children[2*i+1]; s.end-s.begin > r.end-r.begin {
			s = r
		}
		smalls[i] = s
		if g.sparseOK(s.end - s.begin) {
			smallSp = append(smallSp, s)
		} else {
			small = append(small, s)
		}
	}
	g.buildHists(small, nil)
	par.For(g.threads, len(smallSp), func(i int) { g.buildSparse(smallSp[i]) })
	par.For(g.threads, len(parents), func(i int) {
		p := parents[i]
		s, big := smalls[i], children[2*i]
		if big == s {
			big = children[2*i+1]
		}
		if p.sp != nil {
			big.sp = g.subtractSparse(p.sp, s.sp)
			g.release(p)
			return
		}
		h := p.hist
		p.hist = nil
		if s.sp != nil {
			g.subtractFromDense(h, s.sp)
		} else {
			for k, v := range s.hist {
				h[k] -= v
			}
		}
		if g.sparseOK(big.end - big.begin) {
			big.sp = g.sparseFromDense(h)
			g.putHist(h)
		} else {
			big.hist = h
		}
	})
}

// grow grows one tree from the current gradients over the rows in
// g.idx[0:n] and returns it with its leaves whose rows are idx[begin:end],
// and the split nodes whose children are leaves but whose rows were left
// unpartitioned (the caller routes them by the split).
func (g *grower) grow(n int) (t *Tree, leaves, last []*gnode) {
	t = &Tree{}
	root := &gnode{id: t.addNode(0, 0), begin: 0, end: n, seq: g.nextSeq()}
	m := g.m
	if g.sparseOK(n) {
		if g.rootGrad != nil {
			par.For(g.threads, (n+block-1)/block, func(b int) { g.rootGrad(b*block, min(n, (b+1)*block)) })
		}
		g.buildSparse(root)
	} else {
		g.buildHists([]*gnode{root}, g.rootGrad)
	}
	if m.dense && root.sp != nil {
		// As below; the skipped slots are zeros.
		sp := root.sp
		for e := sp.start[0]; e < sp.start[1] && int(sp.bin[e]) < int(m.nb[0]); e++ {
			root.g += sp.gh[2*e]
			root.h += sp.gh[2*e+1]
		}
	} else if m.dense {
		// XGBoost sums the root from the first feature's histogram on dense data.
		for i := 0; i < int(m.nb[0]); i++ {
			root.g += root.hist[2*i]
			root.h += root.hist[2*i+1]
		}
	} else {
		for _, r := range g.idx[:n] {
			gr, hs := g.pair(r)
			root.g += gr
			root.h += hs
		}
	}
	t.Value[0] = g.s.Eta * g.weight(root.g, root.h)
	t.Cover[0] = root.h
	g.evaluate(root)
	if g.s.GrowPolicy == LeafWise {
		leaves, last = g.growLeafWise(t, root)
	} else {
		leaves, last = g.growDepthWise(t, root)
	}
	return t, leaves, last
}

func (g *grower) growDepthWise(t *Tree, root *gnode) (leaves, last []*gnode) {
	level := []*gnode{root}
	nleaves := 1
	for len(level) > 0 {
		var parents []*gnode
		for _, nd := range level {
			if g.splittable(nd, nleaves) {
				parents = append(parents, nd)
				nleaves++
			} else {
				leaves = append(leaves, nd)
				g.release(nd)
			}
		}
		if len(parents) == 0 {
			break
		}
		if !g.canGrow(level[0].depth+1) || (g.s.MaxLeaves > 0 && nleaves >= g.s.MaxLeaves) {
			// The children will be leaves: no partition, no histograms.
			for _, p := range parents {
				g.apply(t, p)
				g.release(p)
			}
			last = parents
			break
		}
		g.partition(parents)
		children := make([]*gnode, 0, 2*len(parents))
		for _, p := range parents {
			l, r := g.apply(t, p)
			l.begin, l.end = p.begin, p.begin+p.nl
			r.begin, r.end = p.begin+p.nl, p.end
			children = append(children, l, r)
		}
		g.childHists(parents, children)
		par.For(g.threads, len(children), func(i int) { g.evaluate(children[i]) })
		level = children
	}
	return leaves, last
}

// nodeHeap orders candidates by loss change, earlier nodes first on ties
// (XGBoost's loss-guided driver).
type nodeHeap []*gnode

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].best.loss == h[j].best.loss {
		return h[i].seq < h[j].seq
	}
	return h[i].best.loss > h[j].best.loss
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(*gnode)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (g *grower) growLeafWise(t *Tree, root *gnode) (leaves, last []*gnode) {
	pq := &nodeHeap{root}
	nleaves := 1
	for pq.Len() > 0 {
		nd := heap.Pop(pq).(*gnode)
		if !g.splittable(nd, nleaves) {
			leaves = append(leaves, nd)
			g.release(nd)
			continue
		}
		nleaves++
		if !g.canGrow(nd.depth+1) || (g.s.MaxLeaves > 0 && nleaves >= g.s.MaxLeaves) {
			g.apply(t, nd)
			g.release(nd)
			last = append(last, nd)
			continue
		}
		g.partition([]*gnode{nd})
		l, r := g.apply(t, nd)
		l.begin, l.end = nd.begin, nd.begin+nd.nl
		r.begin, r.end = nd.begin+nd.nl, nd.end
		g.childHists([]*gnode{nd}, []*gnode{l, r})
		g.evaluate(l)
		g.evaluate(r)
		heap.Push(pq, l)
		heap.Push(pq, r)
	}
	return leaves, last
}
