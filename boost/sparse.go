package boost

import "math/bits"

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

func (sp *sparseHist) reset(nf int) {
	sp.start = append(sp.start[:0], 0)
	sp.bin = sp.bin[:0]
	sp.gh = sp.gh[:0]
	_ = nf
}

// Sparse path selection; tests force it on and off to compare models.
const (
	sparseAuto = iota
	sparseNever
	sparseAlways
)

var sparseMode = sparseAuto

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
		sp.reset(g.m.nf)
		return sp
	}
	sp := &sparseHist{}
	sp.reset(g.m.nf)
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
	gp := g.gp
	var acc [257][2]float64
	for f := 0; f < m.nf; f++ {
		col := m.cols[f*m.n : (f+1)*m.n]
		var mask [5]uint64
		for _, r := range rows {
			b := col[r]
			p := gp[r]
			mask[b>>6] |= 1 << (b & 63)
			a := &acc[b]
			a[0] += float64(p.g)
			a[1] += float64(p.h)
		}
		for w, word := range mask {
			for word != 0 {
				b := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				a := &acc[b]
				sp.bin = append(sp.bin, uint16(b))
				sp.gh = append(sp.gh, a[0], a[1])
				*a = [2]float64{}
			}
		}
		sp.start = append(sp.start, int32(len(sp.bin)))
	}
	nd.sp = sp
}

// subtractSparse returns the sparse histogram parent - small, dropping
// zero slots.
func (g *grower) subtractSparse(p, s *sparseHist) *sparseHist {
	out := g.getSparse()
	for f := 0; f < g.m.nf; f++ {
		i, ie := int(p.start[f]), int(p.start[f+1])
		j, je := int(s.start[f]), int(s.start[f+1])
		for i < ie || j < je {
			var b uint16
			var pg, ph, sg, sh float64
			switch {
			case j >= je || i < ie && p.bin[i] < s.bin[j]:
				b, pg, ph = p.bin[i], p.gh[2*i], p.gh[2*i+1]
				i++
			case i >= ie || s.bin[j] < p.bin[i]:
				b, sg, sh = s.bin[j], s.gh[2*j], s.gh[2*j+1]
				j++
			default:
				b, pg, ph, sg, sh = p.bin[i], p.gh[2*i], p.gh[2*i+1], s.gh[2*j], s.gh[2*j+1]
				i++
				j++
			}
			dg, dh := pg-sg, ph-sh
			if dg != 0 || dh != 0 {
				out.bin = append(out.bin, b)
				out.gh = append(out.gh, dg, dh)
			}
		}
		out.start = append(out.start, int32(len(out.bin)))
	}
	return out
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
	for f := 0; f < m.nf; f++ {
		base := 2 * int(m.off[f])
		for i := 0; i <= int(m.nb[f]); i++ {
			if dg, dh := h[base+2*i], h[base+2*i+1]; dg != 0 || dh != 0 {
				out.bin = append(out.bin, uint16(i))
				out.gh = append(out.gh, dg, dh)
			}
		}
		out.start = append(out.start, int32(len(out.bin)))
	}
	return out
}

// evaluateSparse is evaluate over nd's sparse histogram: the same
// candidates in the same order, less the ones that repeat their
// predecessor (see the top of this file).
func (g *grower) evaluateSparse(nd *gnode) {
	m := g.m
	best := split{}
	root := g.gain(nd.g, nd.h)
	sp := nd.sp
	for f := 0; f < m.nf; f++ {
		if !g.featOK[f] || m.nb[f] == 0 {
			continue
		}
		lo, hi := int(sp.start[f]), int(sp.start[f+1])
		nb := int(m.nb[f])
		var mg, mh float64 // the missing-value slot
		if hi > lo && int(sp.bin[hi-1]) == nb {
			mg, mh = sp.gh[2*(hi-1)], sp.gh[2*(hi-1)+1]
			hi--
		}
		bins := sp.bin[lo:hi]
		gh := sp.gh[2*lo : 2*hi]
		var lg, lh float64
		for e, b := range bins {
			lg += gh[2*e]
			lh += gh[2*e+1]
			rg, rh := nd.g-lg, nd.h-lh
			if lh >= g.mcw && rh >= g.mcw {
				loss := (g.gain(lg, lh) + g.gain(rg, rh)) - root
				if loss > best.loss {
					i := int(b)
					best = split{true, loss, f, i, false, m.cuts[f][i], lg, lh, rg, rh}
				}
			}
		}
		if lg == nd.g && lh == nd.h || mg == 0 && mh == 0 {
			continue
		}
		var ag, ah float64
		for e := len(bins) - 1; e >= 0; e-- {
			ag += gh[2*e]
			ah += gh[2*e+1]
			lg, lh := nd.g-ag, nd.h-ah
			if lh >= g.mcw && ah >= g.mcw {
				loss := (g.gain(lg, lh) + g.gain(ag, ah)) - root
				if loss > best.loss {
					i := int(bins[e])
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
