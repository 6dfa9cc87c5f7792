package neighbors

import (
	"cmp"
	"math"
	"slices"

	"github.com/aer-go/aer/internal/par"
)

// Tree search: a k-d tree over the reference rows with a tight bounding box
// per node. A query descends to the nearer child first and skips every node
// whose box lies farther than its current k-th best. Distances are the
// direct sums of sqDist (the brute-force scan's final decision), ties go to
// the smaller position, and a node is skipped only when every distance
// inside it is certainly larger than the k-th best, so the answer is the
// brute-force answer exactly.

const (
	// treeLeaf is the most rows of a leaf.
	treeLeaf = 48
	// treeMin is the fewest reference rows for which SearchSelf tries the
	// tree: below it the blocked scan is as fast.
	treeMin = 4096
	// treeMaxDim is the most columns for which SearchSelf tries the tree.
	treeMaxDim = 64
	// treeProbe is the number of queries searched in the tree before
	// deciding whether it prunes enough to continue; the probe stops as
	// soon as it has visited more rows than the tree may, so a fallback
	// costs at most a few percent of the scan.
	treeProbe = 64
	// treeMinQueries is the fewest queries for which a search tries the
	// tree: building it costs about as much as scanning for 40 queries.
	treeMinQueries = 256
	// treeWorthIt is the largest share of reference rows a probe query may
	// visit on average for the tree to stay in use: on 20-column data a
	// distance in a leaf (bounds, cache misses included) costs about ten
	// times one of the blocked scan in Go, forty times one of the panel
	// kernel (treeWorth).
	treeWorthIt = 0.1
)

// treePreStride thins the reference rows for the pre-probe: before
// building the tree over n rows (at least treePreStride*treeMin), the
// search builds one over every treePreStride-th row and probes it. A tree
// visits at best about as many rows whatever n (a few leaves), so at best
// treePreStride times the share of the rows on the thinned set as on all
// rows: when the thinned tree's probe visits more than treePreStride *
// treeWorth() of its rows the full tree cannot pass its probe, and the
// search scans without building it. On standardised make_classification
// data with 20 columns the full tree visits over half the rows, and
// building it cost 14% of the Tomek links of 300k rows.
const treePreStride = 16

// treeWorth is treeWorthIt for the scan in use: a quarter of it when the
// AVX2 panel kernel makes the scan four times faster.
func treeWorth() float64 {
	if useAVX2 {
		return treeWorthIt / 4
	}
	return treeWorthIt
}

// kdNode is one node of the tree: rows lo..hi-1 of the tree order, its box
// at boxes[2*d*id:], children (or -1 for a leaf).
type kdNode struct {
	lo, hi      int32
	left, right int32
}

type kdTree struct {
	d     int
	perm  []int32   // tree order -> reference position
	data  []float64 // rows in tree order
	nodes []kdNode
	boxes []float64 // per node: d lower bounds, then d upper bounds
	keys  []float64 // scratch of build: the split column's values
}

// buildTree builds the tree over all reference rows. A node splits at the
// median of its widest column, judged on at most treeSample of its rows
// (evenly spaced in its current order); the boxes are then computed
// exactly, leaves from their rows and inner nodes as the union of their
// children. The construction depends on the data only.
func (ix *Index) buildTree() *kdTree {
	n, d := ix.n, ix.d
	t := &kdTree{d: d, perm: make([]int32, n)}
	for i := range t.perm {
		t.perm[i] = int32(i)
	}
	t.nodes = make([]kdNode, 0, 4*(n/treeLeaf+1))
	t.keys = make([]float64, n)
	t.build(ix, 0, n)
	t.keys = nil
	t.data = make([]float64, n*d)
	for i, p := range t.perm {
		copy(t.data[i*d:(i+1)*d], ix.data[int(p)*d:(int(p)+1)*d])
	}
	t.boxes = make([]float64, 2*d*len(t.nodes))
	t.fillBox(0)
	return t
}

// treeSample is the most rows whose spread chooses a node's split column.
const treeSample = 256

// build adds the node over perm[lo:hi] (and its subtree) and returns its id.
func (t *kdTree) build(ix *Index, lo, hi int) int32 {
	d := t.d
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, kdNode{lo: int32(lo), hi: int32(hi), left: -1, right: -1})
	m := hi - lo
	if m <= treeLeaf {
		return id
	}
	dim := t.widest(ix, lo, hi, min(m, treeSample))
	if dim < 0 && m > treeSample {
		dim = t.widest(ix, lo, hi, m) // the sample coincides; do all rows?
	}
	if dim < 0 {
		return id // all rows coincide: a leaf, however large
	}
	mid := lo + m/2
	keys := t.keys[lo:hi]
	for i, p := range t.perm[lo:hi] {
		keys[i] = ix.data[int(p)*d+dim]
	}
	selectNth(keys, t.perm[lo:hi], mid-lo)
	l := t.build(ix, lo, mid)
	r := t.build(ix, mid, hi)
	t.nodes[id].left, t.nodes[id].right = l, r
	return id
}

// widest returns the column of largest spread among s rows of perm[lo:hi]
// evenly spaced, or -1 when they all coincide.
func (t *kdTree) widest(ix *Index, lo, hi, s int) int {
	d, m := t.d, hi-lo
	box := make([]float64, 2*d)
	for j := range d {
		box[j], box[d+j] = math.Inf(1), math.Inf(-1)
	}
	for i := range s {
		p := int(t.perm[lo+i*m/s])
		for j, v := range ix.data[p*d : (p+1)*d] {
			box[j] = min(box[j], v)
			box[d+j] = max(box[d+j], v)
		}
	}
	dim, wide := -1, 0.0
	for j := range d {
		if w := box[d+j] - box[j]; w > wide {
			dim, wide = j, w
		}
	}
	return dim
}

// fillBox computes the box of node id and its subtree.
func (t *kdTree) fillBox(id int32) {
	d := t.d
	box := t.boxes[2*d*int(id) : 2*d*int(id)+2*d]
	nd := t.nodes[id]
	if nd.left < 0 {
		for j := range d {
			box[j], box[d+j] = math.Inf(1), math.Inf(-1)
		}
		for i := int(nd.lo); i < int(nd.hi); i++ {
			for j, v := range t.data[i*d : (i+1)*d] {
				box[j] = min(box[j], v)
				box[d+j] = max(box[d+j], v)
			}
		}
		return
	}
	t.fillBox(nd.left)
	t.fillBox(nd.right)
	l := t.boxes[2*d*int(nd.left) : 2*d*int(nd.left)+2*d]
	r := t.boxes[2*d*int(nd.right) : 2*d*int(nd.right)+2*d]
	for j := range d {
		box[j] = min(l[j], r[j])
		box[d+j] = max(l[d+j], r[d+j])
	}
}

// selectNth reorders keys and a together so that keys[k] is the k-th
// smallest key, keys[:k] are <= it and keys[k+1:] are >= it (Hoare's
// selection with a median-of-three pivot; ties keep it linear on average).
func selectNth(keys []float64, a []int32, k int) {
	swap := func(i, j int) {
		keys[i], keys[j] = keys[j], keys[i]
		a[i], a[j] = a[j], a[i]
	}
	lo, hi := 0, len(a)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if keys[mid] < keys[lo] {
			swap(mid, lo)
		}
		if keys[hi] < keys[lo] {
			swap(hi, lo)
		}
		if keys[hi] < keys[mid] {
			swap(hi, mid)
		}
		pv := keys[mid]
		i, j := lo, hi
		for i <= j {
			for keys[i] < pv {
				i++
			}
			for keys[j] > pv {
				j--
			}
			if i <= j {
				swap(i, j)
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// boxBound is a lower bound of sqDist(q, r) for every r in the box: the
// summed squared gaps, each no larger than the corresponding term of
// sqDist, shrunk by a relative 2^-40 so that no rounding or fused
// multiply-add can make it exceed a computed distance.
func boxBound(q, box []float64) float64 {
	d := len(q)
	lo, hi := box[:d], box[d:2*d]
	var s float64
	for j, v := range q {
		var g float64
		if v < lo[j] {
			g = lo[j] - v
		} else if v > hi[j] {
			g = v - hi[j]
		}
		s += g * g
	}
	return s - s*0x1p-40
}

// pending is a node waiting on the search stack with its box bound.
type pending struct {
	id    int32
	bound float64
}

// treeSearcher is one worker's scratch space for tree searches.
type treeSearcher struct {
	t     *kdTree
	k     int
	best  []cand // k best, ascending by (distance, position)
	stack []pending
	evals int // distances computed, for the probe
}

// better reports whether (s, p) ranks before (bs, bp).
func better(s float64, p int, bs float64, bp int) bool {
	return s < bs || (s == bs && p < bp)
}

// query finds the k nearest rows of q, skipping position excl (or none
// when excl < 0), and writes them to idx and dist.
func (s *treeSearcher) query(q []float64, excl int, idx []int, dist []float64) {
	t, d, k := s.t, s.t.d, s.k
	best := s.best[:0]
	for range k {
		best = append(best, cand{pos: math.MaxInt, s: math.Inf(1)})
	}
	thr := math.Inf(1)
	stack := append(s.stack[:0], pending{0, boxBound(q, t.boxes[:2*d])})
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := top.id
		if top.bound > thr {
			continue
		}
		nd := t.nodes[id]
		if nd.left >= 0 {
			l, r := nd.left, nd.right
			bl := boxBound(q, t.boxes[2*d*int(l):2*d*int(l)+2*d])
			br := boxBound(q, t.boxes[2*d*int(r):2*d*int(r)+2*d])
			// Nearer child on top of the stack, so it is searched first.
			if bl <= br {
				stack = append(stack, pending{r, br}, pending{l, bl})
			} else {
				stack = append(stack, pending{l, bl}, pending{r, br})
			}
			continue
		}
		s.evals += int(nd.hi - nd.lo)
		i := int(nd.lo)
		for ; i+4 <= int(nd.hi); i += 4 {
			s0, s1, s2, s3 := sqDist4(q, t.data[i*d:(i+4)*d])
			for u, sd := range [4]float64{s0, s1, s2, s3} {
				if sd <= thr {
					thr = s.offer(best, sd, int(t.perm[i+u]), excl)
				}
			}
		}
		for ; i < int(nd.hi); i++ {
			if sd := sqDist(q, t.data[i*d:(i+1)*d]); sd <= thr {
				thr = s.offer(best, sd, int(t.perm[i]), excl)
			}
		}
	}
	s.stack = stack
	for j, c := range best {
		idx[j] = c.pos
		dist[j] = math.Sqrt(c.s)
	}
	s.best = best
}

// offer puts row p at squared distance sd into best when it ranks there,
// and returns the new k-th best distance.
func (s *treeSearcher) offer(best []cand, sd float64, p, excl int) float64 {
	k := len(best)
	if p == excl || !better(sd, p, best[k-1].s, best[k-1].pos) {
		return best[k-1].s
	}
	j := k - 1
	for j > 0 && better(sd, p, best[j-1].s, best[j-1].pos) {
		best[j] = best[j-1]
		j--
	}
	best[j] = cand{pos: p, s: sd}
	return best[k-1].s
}

// sqDist4 is sqDist of q and each of the four consecutive rows in r, with
// the four sums interleaved for speed; each is summed in feature order,
// so each equals sqDist exactly.
func sqDist4(q, r []float64) (s0, s1, s2, s3 float64) {
	d := len(q)
	r0, r1, r2, r3 := r[:d], r[d:2*d], r[2*d:3*d], r[3*d:4*d]
	for t, v := range q {
		x0, x1, x2, x3 := v-r0[t], v-r1[t], v-r2[t], v-r3[t]
		s0 += x0 * x0
		s1 += x1 * x1
		s2 += x2 * x2
		s3 += x3 * x3
	}
	return
}

// searchTree answers the queries of ix.search (same arguments) with the
// tree, after a probe of treeProbe queries spread over them shows that the
// tree prunes; otherwise it returns false and the caller scans. Answers
// are exact either way.
func (ix *Index) searchTree(nq int, row func(int) []float64, k int, exclude []int, opt *Options, res *Result) bool {
	// The tree and the probe's verdict are kept for later searches of
	// the index (Tomek links search it twice).
	ix.treeMu.Lock()
	if ix.treeBad {
		ix.treeMu.Unlock()
		return false
	}
	if ix.tree == nil {
		if !ix.preProbe(nq, row, k, exclude) {
			ix.treeBad = true
			ix.treeMu.Unlock()
			return false
		}
		ix.tree = ix.buildTree()
	}
	t := ix.tree
	ix.treeMu.Unlock()
	excl := func(q int) int {
		if exclude == nil {
			return -1
		}
		return exclude[q]
	}
	// Queries that are reference rows go in tree order: consecutive
	// queries then visit mostly the same leaves, which stay in cache.
	order := make([]int, nq)
	for q := range order {
		order[q] = q
	}
	if exclude != nil {
		at := make([]int32, ix.n)
		for i, p := range t.perm {
			at[p] = int32(i)
		}
		key := func(q int) int32 {
			if e := exclude[q]; e >= 0 {
				return at[e]
			}
			return -1
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a, b)) })
	}
	// The probe takes queries spread over the order, not one corner.
	probe := min(nq, treeProbe)
	budget := treeWorth() * float64(probe) * float64(ix.n)
	s := &treeSearcher{t: t, k: k}
	done := make([]bool, nq)
	for i := range probe {
		q := order[i*nq/probe]
		done[q] = true
		s.query(row(q), excl(q), res.Index[q*k:(q+1)*k], res.Dist[q*k:(q+1)*k])
		if float64(s.evals) > budget {
			ix.treeMu.Lock()
			ix.treeBad, ix.tree = true, nil
			ix.treeMu.Unlock()
			return false
		}
	}
	const block = 64
	nblocks := (nq + block - 1) / block
	searchers := make([]*treeSearcher, min(opt.workers(), nblocks))
	par.ForWorker(len(searchers), nblocks, func(w, b int) {
		if searchers[w] == nil {
			searchers[w] = &treeSearcher{t: t, k: k}
		}
		for _, q := range order[b*block : min((b+1)*block, nq)] {
			if !done[q] {
				searchers[w].query(row(q), excl(q), res.Index[q*k:(q+1)*k], res.Dist[q*k:(q+1)*k])
			}
		}
	})
	return true
}

// preProbe reports whether the tree may prune enough to pass the probe of
// searchTree, judged on a tree over every treePreStride-th reference row
// (see treePreStride); true when there are too few rows to judge.
func (ix *Index) preProbe(nq int, row func(int) []float64, k int, exclude []int) bool {
	n, d := ix.n, ix.d
	if n < treePreStride*treeMin || k >= treeMin {
		return true
	}
	m := (n + treePreStride - 1) / treePreStride
	data := make([]float64, 0, m*d)
	for p := 0; p < n; p += treePreStride {
		data = append(data, ix.data[p*d:(p+1)*d]...)
	}
	sub := &Index{n: m, d: d, data: data}
	s := &treeSearcher{t: sub.buildTree(), k: k}
	idx, dist := make([]int, k), make([]float64, k)
	probe := min(nq, treeProbe)
	budget := treePreStride * treeWorth() * float64(probe) * float64(m)
	for i := range probe {
		q := i * nq / probe
		e := -1
		if exclude != nil && exclude[q] >= 0 && exclude[q]%treePreStride == 0 {
			e = exclude[q] / treePreStride
		}
		s.query(row(q), e, idx, dist)
		if float64(s.evals) > budget {
			return false
		}
	}
	return true
}
