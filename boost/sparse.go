package boost

import (
	"math"
	"math/bits"
	"slices"
)

// Sparse histograms for nodes with few rows.
//
// A node with n rows has at most n occupied bins per feature, so when
// n*features is small next to the histogram length most of a dense
// histogram is zeros: clearing, subtracting and scanning them dominated
// training on small, wide data (a few hundred rows, hundreds of features).
// A sparse histogram keeps, per feature, only the slots that may be
// non-zero, in ascending bin order, and split finding visits only those.
//
// The results are bit-identical to the dense path:
//   - a slot built from rows is summed from +0 in row order, as the dense
//     accumulation does for a node of at most one block;
//   - a subtracted slot is parent - sibling with an absent slot read as
//     +0, which is what the dense buffers hold there (no slot value is
//     ever -0: sums start at +0, and x-x is +0), so every kept value is
//     the dense value, and a dropped slot is exactly zero in the dense
//     histogram too;
//   - a zero slot adds nothing to the running sums of evaluate (which
//     are never -0), so its candidate repeats the previous one and, as a
//     candidate replaces the best only with a strictly larger loss
//     change, it can never win: skipping it changes nothing. Leading zero
//     slots give a zero loss change, which never beats the initial 0.

// sparseHist is a node's histogram restricted to the slots that may be
// non-zero: entries start[f]:start[f+1] belong to feature f, in ascending
// bin order (bin nb[f] is the missing-value slot).
type sparseHist struct {
	start []int32
	bin   []uint16
	gh    []float64 // gradient, hessian per entry
}

func (sp *sparseHist) reset() {
	sp.start = append(sp.start[:0], 0)
	sp.bin = sp.bin[:0]
	sp.gh = sp.gh[:0]
}

// Sparse path selection; tests force it on and off to compare models.
// sparseNever also selects the reference evaluate for every node.
const (
	sparseAuto = iota
	sparseNever
	sparseAlways
)

var sparseMode = sparseAuto

// sparseDiv: a node is sparse when rows*features*sparseDiv <= histLen
// (tuned on scene members: 270 rows, 294 features).
var sparseDiv = 4

// sparseOK reports whether a node with rows rows gets a sparse
// histogram. It is monotone in rows, so the children of a sparse node
// are sparse. Nodes of more than one block keep dense histograms, whose
// slots are sums of per-block partial sums.
func (g *grower) sparseOK(rows int) bool {
	switch {
	case rows > block || sparseMode == sparseNever:
		return false
	case sparseMode == sparseAlways:
		return true
	}
	return rows*g.m.nf*sparseDiv <= g.m.histLen
}

func (g *grower) getSparse() *sparseHist {
	g.mu.Lock()
	defer g.mu.Unlock()
	if k := len(g.freeSp); k > 0 {
		sp := g.freeSp[k-1]
		g.freeSp = g.freeSp[:k-1]
		sp.reset()
		return sp
	}
	sp := &sparseHist{}
	sp.reset()
	return sp
}

func (g *grower) putSparse(sp *sparseHist) {
	if sp == nil {
		return
	}
	g.mu.Lock()
	g.freeSp = append(g.freeSp, sp)
	g.mu.Unlock()
}

// release returns nd's histogram, dense or sparse, to the pools.
func (g *grower) release(nd *gnode) {
	g.putHist(nd.hist)
	g.putSparse(nd.sp)
	nd.hist, nd.sp = nil, nil
}

// buildSparse builds nd's sparse histogram from its rows, feature by
// feature: each slot is summed in row order from +0, like accumulate.
func (g *grower) buildSparse(nd *gnode) {
	m := g.m
	rows := g.idx[nd.begin:nd.end]
	sp := g.getSparse()
	sp.grow(m.nf, min(len(rows), 257)*m.nf)
	var acc [257][2]float64
	k := 0
	for f := 0; f < m.nf; f++ {
		col := m.cols[f*m.n : (f+1)*m.n]
		var mask [5]uint64
		for _, r := range rows {
			b := col[r]
			gr, hs := g.pair(r)
			mask[b>>6] |= 1 << (b & 63)
			a := &acc[b]
			a[0] += gr
			a[1] += hs
		}
		k = sp.emit(k, &mask, &acc, false)
		sp.start[f+1] = int32(k)
	}
	sp.bin, sp.gh = sp.bin[:k], sp.gh[:2*k]
	nd.sp = sp
}

// grow sizes sp for nf features and up to n entries.
func (sp *sparseHist) grow(nf, n int) {
	sp.start = slices.Grow(sp.start[:0], nf+1)[:nf+1]
	sp.start[0] = 0
	sp.bin = slices.Grow(sp.bin[:0], n)[:n]
	sp.gh = slices.Grow(sp.gh[:0], 2*n)[:2*n]
}

// emit writes the slots of acc marked in mask from entry k on, in
// ascending bin order, clears them, and returns the next entry; with
// dropZero it skips exactly zero slots (without branching).
func (sp *sparseHist) emit(k int, mask *[5]uint64, acc *[257][2]float64, dropZero bool) int {
	bin, gh := sp.bin, sp.gh
	for w, word := range mask {
		for word != 0 {
			b := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			a := &acc[b]
			dg, dh := a[0], a[1]
			*a = [2]float64{}
			bin[k] = uint16(b)
			gh[2*k] = dg
			gh[2*k+1] = dh
			if dropZero {
				nz := (math.Float64bits(dg) | math.Float64bits(dh)) << 1 // ±0 -> 0
				k += int((nz | -nz) >> 63)
			} else {
				k++
			}
		}
	}
	return k
}

// subtractSparse returns the sparse histogram parent - small, dropping
// zero slots: an absent slot reads +0, as in the dense histograms.
func (g *grower) subtractSparse(p, s *sparseHist) *sparseHist {
	out := g.getSparse()
	out.grow(g.m.nf, len(p.bin)+len(s.bin))
	var acc [257][2]float64
	var pos [257]int32
	k := 0
	for f := 0; f < g.m.nf; f++ {
		k0 := k
		if k = subtractSubset(out, k, p, s, f, &pos); k < 0 {
			// A slot of small is missing in parent (parent's value there
			// was exactly zero and dropped): merge by scattering.
			k = k0
			var mask [5]uint64
			for e := p.start[f]; e < p.start[f+1]; e++ {
				b := p.bin[e]
				mask[b>>6] |= 1 << (b & 63)
				acc[b] = [2]float64{p.gh[2*e], p.gh[2*e+1]}
			}
			for e := s.start[f]; e < s.start[f+1]; e++ {
				b := s.bin[e]
				mask[b>>6] |= 1 << (b & 63)
				a := &acc[b]
				a[0] -= s.gh[2*e]
				a[1] -= s.gh[2*e+1]
			}
			k = out.emit(k, &mask, &acc, true)
		}
		out.start[f+1] = int32(k)
	}
	out.bin, out.gh = out.bin[:k], out.gh[:2*k]
	return out
}

// subtractSubset writes feature f of p - s from entry k of out when s's
// slots are among p's (the usual case: small's rows are among parent's)
// and returns the next entry; it returns -1 if a slot of s is not in p.
// pos is scratch (bin -> index in p's entries).
func subtractSubset(out *sparseHist, k int, p, s *sparseHist, f int, pos *[257]int32) int {
	pb, pgh := p.bin[p.start[f]:p.start[f+1]], p.gh[2*p.start[f]:2*p.start[f+1]]
	sb, sgh := s.bin[s.start[f]:s.start[f+1]], s.gh[2*s.start[f]:2*s.start[f+1]]
	n := len(pb)
	bin, gh := out.bin[k:k+n], out.gh[2*k:2*k+2*n]
	copy(bin, pb)
	copy(gh, pgh)
	for i, b := range pb {
		pos[b] = int32(i)
	}
	bad := false
	for j, b := range sb {
		i := int(pos[b])
		if i >= n || pb[i] != b {
			bad = true
			break
		}
		gh[2*i] -= sgh[2*j]
		gh[2*i+1] -= sgh[2*j+1]
	}
	if bad {
		return -1
	}
	// Drop the zero slots, without branches.
	w := 0
	for i := range n {
		dg, dh := gh[2*i], gh[2*i+1]
		bin[w] = bin[i]
		gh[2*w] = dg
		gh[2*w+1] = dh
		nz := (math.Float64bits(dg) | math.Float64bits(dh)) << 1 // ±0 -> 0
		w += int((nz | -nz) >> 63)
	}
	return k + w
}

// subtractFromDense subtracts the sparse histogram s from the dense h; the
// dense subtraction of s's zero slots would leave h unchanged.
func (g *grower) subtractFromDense(h []float64, s *sparseHist) {
	m := g.m
	for f := 0; f < m.nf; f++ {
		base := 2 * int(m.off[f])
		for e := s.start[f]; e < s.start[f+1]; e++ {
			k := base + 2*int(s.bin[e])
			h[k] -= s.gh[2*e]
			h[k+1] -= s.gh[2*e+1]
		}
	}
}

// sparseFromDense returns the non-zero slots of the dense histogram h.
func (g *grower) sparseFromDense(h []float64) *sparseHist {
	m := g.m
	out := g.getSparse()
	out.grow(m.nf, m.histLen)
	bin, gh := out.bin, out.gh
	k := 0
	for f := 0; f < m.nf; f++ {
		base := 2 * int(m.off[f])
		nb := int(m.nb[f])
		fh := h[base : base+2*nb+2]
		for i := 0; i <= nb; i++ {
			dg, dh := fh[2*i], fh[2*i+1]
			bin[k] = uint16(i)
			gh[2*k] = dg
			gh[2*k+1] = dh
			nz := (math.Float64bits(dg) | math.Float64bits(dh)) << 1 // ±0 -> 0
			k += int((nz | -nz) >> 63)
		}
		out.start[f+1] = int32(k)
	}
	out.bin, out.gh = bin[:k], gh[:2*k]
	return out
}

// evaluateSparse is evaluate over nd's sparse histogram: the same
// candidates in the same order, less the ones that repeat their
// predecessor (see the top of this file).
func (g *grower) evaluateSparse(nd *gnode) {
	m := g.m
	var best split
	root := g.gain(nd.g, nd.h)
	sp := nd.sp
	for f := 0; f < m.nf; f++ {
		if !g.featOK[f] || m.nb[f] == 0 {
			continue
		}
		lo, hi := int(sp.start[f]), int(sp.start[f+1])
		var mg, mh float64 // the missing-value slot
		if hi > lo && int(sp.bin[hi-1]) == int(m.nb[f]) {
			mg, mh = sp.gh[2*(hi-1)], sp.gh[2*(hi-1)+1]
			hi--
		}
		g.evalFeature(nd, f, root, sp.bin[lo:hi], sp.gh[2*lo:2*hi], mg, mh, &best)
	}
	nd.best = best
}

// scanGo adds gh[2i], gh[2i+1] to st's running sums lg, lh (st = lg, lh,
// ng, nh, lambda, bound) for i = 0, 1, ... < n and returns the first i
// whose candidate survives evalFeature's pruning test, with the sums
// through i in st; or n with the full sums. The test,
// lg²·B < A·(bound·B - rg²), is GL²·B + GR²·A < bound·A·B rearranged
// with fewer operations; its float64 rounding is as negligible next to
// pruneMargin (when it prunes, every term is below about 2·bound·A·B).
func scanGo(gh []float64, n int, st *[6]float64) int {
	lg, lh := st[0], st[1]
	ng, nhl, lambda, bound := st[2], st[3]+st[4], st[4], st[5]
	i := 0
	for ; i < n; i++ {
		lg += gh[2*i]
		lh += gh[2*i+1]
		if survives(lg, lh, ng, nhl, lambda, bound) {
			break
		}
	}
	st[0], st[1] = lg, lh
	return i
}

// survives is the pruning test of scanGo (and of the assembly kernels,
// operation for operation) on a candidate whose left sums are lg, lh in a
// node of sums ng, nhl-lambda: false when it cannot beat bound.
func survives(lg, lh, ng, nhl, lambda, bound float64) bool {
	rg := ng - lg
	B := nhl - lh
	t := (bound*B - rg*rg) * (lh + lambda)
	return !(lg*lg*B < t)
}

// identity holds the bins 0..255, to evaluate dense histograms with
// evalFeature.
var identity = func() (b [256]uint16) {
	for i := range b {
		b[i] = uint16(i)
	}
	return b
}()

// pruneMargin makes the pruning test of evalFeature conservative: a
// candidate is skipped only when its exact gains are below
// (1 - pruneMargin) times what it needs to win, far outside the
// rounding of the float32 loss change (a few units of 2^-24).
const pruneMargin = 4e-6

// evalFeature runs evaluate's two passes over feature f's non-zero value
// slots, bins in ascending order with their gradient, hessian pairs gh,
// and the missing slot (mg, mh), updating best.
//
// With alpha 0, min_child_weight > 0 and lambda >= 0 (the defaults), a
// candidate's loss change is (GL²/A + GR²/B) - root with A = HL+lambda,
// B = HR+lambda > 0, so it can only beat best if GL²·B + GR²·A >=
// (best+root)·A·B; the two divisions of the exact float32 computation
// are done only for candidates within pruneMargin of that bound. The
// choice is unchanged: a pruned candidate's float32 loss change is
// below best.loss (its real value is below best+root by far more than
// the float32 rounding of the gains and their sum), so it would not
// have replaced it.
func (g *grower) evalFeature(nd *gnode, f int, root float32, bins []uint16, gh []float64, mg, mh float64, best *split) {
	gh = gh[:2*len(bins)]
	if g.prunable() {
		lg, lh := g.forward(nd, f, root, bins, gh, 0, [2]float64{}, best)
		g.backward(nd, f, root, bins, gh, lg, lh, mg, mh, best)
		return
	}
	m, mcw := g.m, g.mcw
	var lg, lh float64
	for e, b := range bins {
		lg += gh[2*e]
		lh += gh[2*e+1]
		rg, rh := nd.g-lg, nd.h-lh
		if lh >= mcw && rh >= mcw {
			loss := (g.gain(lg, lh) + g.gain(rg, rh)) - root
			if loss > best.loss {
				i := int(b)
				*best = split{true, loss, f, i, false, m.cuts[f][i], lg, lh, rg, rh}
			}
		}
	}
	if lg == nd.g && lh == nd.h || mg == 0 && mh == 0 {
		return // no missing value in this node (see evaluate)
	}
	var ag, ah float64
	for e := len(bins) - 1; e >= 0; e-- {
		ag += gh[2*e]
		ah += gh[2*e+1]
		lg, lh := nd.g-ag, nd.h-ah
		if lh >= mcw && ah >= mcw {
			loss := (g.gain(lg, lh) + g.gain(ag, ah)) - root
			if loss > best.loss {
				i := int(bins[e])
				thr := m.minVal[f]
				if i > 0 {
					thr = m.cuts[f][i-1]
				}
				*best = split{true, loss, f, i - 1, true, thr, lg, lh, ag, ah}
			}
		}
	}
}

// prunable reports whether evalFeature's pruning test applies: alpha 0,
// min_child_weight > 0 and lambda >= 0 (thresholdL1(w, 0)^2 == w*w, and
// H >= mcw > 0).
func (g *grower) prunable() bool { return g.alpha == 0 && g.mcw > 0 && g.lambda >= 0 }

// pgain is the gain of a prunable grower.
func (g *grower) pgain(G, H float64) float32 { return float32(G * G / (H + g.lambda)) }

// pruneBound is the pruning bound of evalFeature for best.
func pruneBound(best *split, root float32) float64 {
	return (float64(best.loss) + float64(root)) * (1 - pruneMargin)
}

// replaces reports whether candidate c replaces best: a larger loss
// change, or, as the pairs of evaluateDense meet candidates out of
// evaluate's order, an equal one that evaluate meets first (lower
// feature, then the forward pass, in ascending bins, then the backward
// pass, in descending bins). Met in evaluate's order, that is evaluate's
// rule: a strictly larger loss change.
func replaces(c, best *split) bool {
	if c.loss != best.loss || !best.found {
		return c.loss > best.loss
	}
	switch {
	case c.feat != best.feat:
		return c.feat < best.feat
	case c.defaultLeft != best.defaultLeft:
		return !c.defaultLeft
	case !c.defaultLeft:
		return c.bin < best.bin
	}
	return c.bin > best.bin
}

// forward runs evalFeature's forward pass (missing values right) over
// bins e0 on, from the sums s of the bins before, and returns the sums
// of every bin.
func (g *grower) forward(nd *gnode, f int, root float32, bins []uint16, gh []float64, e0 int, s [2]float64, best *split) (float64, float64) {
	// scan runs the sums and the pruning test up to the next candidate
	// that survives it.
	n := len(bins)
	st := [6]float64{s[0], s[1], nd.g, nd.h, g.lambda, pruneBound(best, root)}
	for e := e0; ; e++ {
		e += scan(gh[2*e:], n-e, &st)
		if e >= n {
			break
		}
		if g.forwardCandidate(nd, f, root, int(bins[e]), st[0], st[1], best) {
			st[5] = pruneBound(best, root)
		}
	}
	return st[0], st[1]
}

// forwardCandidate tests the forward candidate after bin i, whose sums
// are lg, lh, against best and reports whether it replaced it.
func (g *grower) forwardCandidate(nd *gnode, f int, root float32, i int, lg, lh float64, best *split) bool {
	// If lh or rh is below mcw the candidate is out, pruned or not;
	// otherwise A, B > 0 and the pruning test is sound.
	rg, rh := nd.g-lg, nd.h-lh
	if lh < g.mcw || rh < g.mcw {
		return false
	}
	c := split{true, (g.pgain(lg, lh) + g.pgain(rg, rh)) - root, f, i, false, g.m.cuts[f][i], lg, lh, rg, rh}
	if !replaces(&c, best) {
		return false
	}
	*best = c
	return true
}

// backward runs evalFeature's backward pass (missing values left) when
// the node has missing values of f: lg, lh are the sums of every bin,
// mg, mh the missing slot's.
func (g *grower) backward(nd *gnode, f int, root float32, bins []uint16, gh []float64, lg, lh, mg, mh float64, best *split) {
	if lg == nd.g && lh == nd.h || mg == 0 && mh == 0 {
		return // no missing value in this node (see evaluate)
	}
	m, mcw, lambda := g.m, g.mcw, g.lambda
	bd := pruneBound(best, root)
	var ag, ah float64
	for e := len(bins) - 1; e >= 0; e-- {
		ag += gh[2*e]
		ah += gh[2*e+1]
		lg, lh := nd.g-ag, nd.h-ah
		if lh >= mcw && ah >= mcw {
			A, B := lh+lambda, ah+lambda
			if lg*lg*B+ag*ag*A < bd*A*B {
				continue
			}
			i := int(bins[e])
			thr := m.minVal[f]
			if i > 0 {
				thr = m.cuts[f][i-1]
			}
			c := split{true, (g.pgain(lg, lh) + g.pgain(ag, ah)) - root, f, i - 1, true, thr, lg, lh, ag, ah}
			if replaces(&c, best) {
				*best = c
				bd = pruneBound(best, root)
			}
		}
	}
}

// evalPair is evalFeature of two features a < b of a dense histogram
// (fa, fb: their slots, the missing slot last), their forward passes
// run side by side (scan2: two chains of sums, each in its order, at
// once), then the rest of the longer one and the backward passes. The
// candidates are met out of evaluate's order, which replaces accounts for,
// and the same candidates survive pruning (a pruned one is below the
// best met so far, so below the final best), so the split is evaluate's.
func (g *grower) evalPair(nd *gnode, a, b int, root float32, fa, fb []float64, best *split) {
	na, nb := len(fa)/2-1, len(fb)/2-1
	n := min(na, nb)
	st := [8]float64{0, 0, 0, 0, nd.g, nd.h, g.lambda, pruneBound(best, root)}
	for e := 0; ; e++ {
		k, mask := scan2(fa[2*e:], fb[2*e:], n-e, &st)
		e += k
		if e >= n {
			break
		}
		found := false
		if mask&1 != 0 {
			found = g.forwardCandidate(nd, a, root, e, st[0], st[1], best)
		}
		if mask&2 != 0 {
			found = g.forwardCandidate(nd, b, root, e, st[2], st[3], best) || found
		}
		if found {
			st[7] = pruneBound(best, root)
		}
	}
	la, ha := g.forward(nd, a, root, identity[:na], fa[:2*na], n, [2]float64{st[0], st[1]}, best)
	lb, hb := g.forward(nd, b, root, identity[:nb], fb[:2*nb], n, [2]float64{st[2], st[3]}, best)
	g.backward(nd, a, root, identity[:na], fa[:2*na], la, ha, fa[2*na], fa[2*na+1], best)
	g.backward(nd, b, root, identity[:nb], fb[:2*nb], lb, hb, fb[2*nb], fb[2*nb+1], best)
}

// tinyBins is the fewest bins of a feature evaluateDense scans with the
// kernels: shorter ones (binary and few-valued features, the one-hot
// columns of categorical tables) take evalTiny, which runs scanGo's test
// inline rather than set up a kernel call for a slot or two.
const tinyBins = 8

// evalTiny is evalFeature of a dense feature of few bins (gh its slots,
// mg, mh the missing slot), with the pruning test of scanGo inline.
func (g *grower) evalTiny(nd *gnode, f int, root float32, gh []float64, mg, mh float64, best *split) {
	nb := len(gh) / 2
	ng, nhl, lambda := nd.g, nd.h+g.lambda, g.lambda
	bd := pruneBound(best, root)
	var lg, lh float64
	for e := range nb {
		lg += gh[2*e]
		lh += gh[2*e+1]
		if !survives(lg, lh, ng, nhl, lambda, bd) {
			continue // pruned, as scan would
		}
		if g.forwardCandidate(nd, f, root, e, lg, lh, best) {
			bd = pruneBound(best, root)
		}
	}
	g.backward(nd, f, root, identity[:nb], gh, lg, lh, mg, mh, best)
}

// scan2Go is scanGo over two features' slots side by side: for i = 0,
// 1, ... < n it adds gha[2i], gha[2i+1] to st's sums lga, lha and ghb's
// to lgb, lhb (st = lga, lha, lgb, lhb, ng, nh, lambda, bound), tests
// both candidates, and returns the first i where one survives, with the
// sums through i and a mask of the survivors (1: a, 2: b); or n, 0 with
// the full sums.
func scan2Go(gha, ghb []float64, n int, st *[8]float64) (int, int) {
	lga, lha, lgb, lhb := st[0], st[1], st[2], st[3]
	ng, nhl, lambda, bd := st[4], st[5]+st[6], st[6], st[7]
	i, mask := 0, 0
	for ; i < n; i++ {
		lga += gha[2*i]
		lha += gha[2*i+1]
		lgb += ghb[2*i]
		lhb += ghb[2*i+1]
		if survives(lga, lha, ng, nhl, lambda, bd) {
			mask |= 1
		}
		if survives(lgb, lhb, ng, nhl, lambda, bd) {
			mask |= 2
		}
		if mask != 0 {
			break
		}
	}
	st[0], st[1], st[2], st[3] = lga, lha, lgb, lhb
	return i, mask
}

// evaluateDense is evaluate over a dense histogram, with evalFeature.
func (g *grower) evaluateDense(nd *gnode) {
	m := g.m
	var best split
	root := g.gain(nd.g, nd.h)
	h := nd.hist
	slots := func(f int) []float64 {
		base, nb := 2*int(m.off[f]), int(m.nb[f])
		return h[base : base+2*nb+2]
	}
	pair := g.prunable()
	held := -1 // a feature waiting for its pair
	for f := 0; f < m.nf; f++ {
		if !g.featOK[f] || m.nb[f] == 0 {
			continue
		}
		if !pair {
			fh, nb := slots(f), int(m.nb[f])
			g.evalFeature(nd, f, root, identity[:nb], fh[:2*nb], fh[2*nb], fh[2*nb+1], &best)
			continue
		}
		if nb := int(m.nb[f]); nb < tinyBins {
			fh := slots(f)
			g.evalTiny(nd, f, root, fh[:2*nb], fh[2*nb], fh[2*nb+1], &best)
			continue
		}
		if held < 0 {
			held = f
			continue
		}
		g.evalPair(nd, held, f, root, slots(held), slots(f), &best)
		held = -1
	}
	if held >= 0 {
		fh, nb := slots(held), int(m.nb[held])
		g.evalFeature(nd, held, root, identity[:nb], fh[:2*nb], fh[2*nb], fh[2*nb+1], &best)
	}
	nd.best = best
}
