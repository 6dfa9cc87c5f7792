package neighbors

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/aer-go/aer/internal/par"
)

// searchAll answers SearchSelf for every reference row. The dot product
// q·r serves both directions (r as a neighbour of q and q of r), so each
// pair of row blocks (I, J), I < J, is computed once and updates both
// blocks' rows; a diagonal block is scanned one way. Each worker keeps its
// own per-row state and the states are merged at the end. A worker's
// threshold for a row is never below the final one, so the union of the
// workers' candidates holds every row that can be in the answer, which is
// then decided on direct distances as in the ordinary scan. The result is
// therefore identical for any worker count.
func (ix *Index) searchAll(k int, opt *Options) (*Result, error) {
	n, d := ix.n, ix.d
	if k < 1 || k > n-1 {
		return nil, fmt.Errorf("%w: k = %d but each row may use only %d other reference rows", ErrK, k, n-1)
	}
	qb, _ := blockSizes(d)
	nb := (n + qb - 1) / qb
	states := make([][]qstate, min(opt.workers(), nb))
	par.ForWorker(len(states), nb, func(w, I int) {
		if states[w] == nil {
			states[w] = ix.newStates(k)
		}
		st := states[w]
		i0, i1 := I*qb, min((I+1)*qb, n)
		ix.diagonal(st, i0, i1)
		for j0 := i1; j0 < n; j0 += qb {
			ix.offDiagonal(st, i0, i1, j0, min(j0+qb, n))
		}
	})

	res := &Result{K: k, Index: make([]int, n*k), Dist: make([]float64, n*k)}
	var all []cand
	for p := range n {
		all = all[:0]
		for w := range states {
			if states[w] == nil {
				continue // a worker that took no block
			}
			st := &states[w][p]
			st.compact()
			all = append(all, st.cand...)
		}
		row := ix.data[p*d : (p+1)*d]
		for j := range all {
			q := all[j].pos
			all[j].s = sqDist(row, ix.data[q*d:(q+1)*d])
		}
		slices.SortFunc(all, func(a, b cand) int {
			if c := cmp.Compare(a.s, b.s); c != 0 {
				return c
			}
			return cmp.Compare(a.pos, b.pos)
		})
		for j := range k {
			res.Index[p*k+j] = all[j].pos
			res.Dist[p*k+j] = math.Sqrt(all[j].s)
		}
	}
	return res, nil
}

// newStates returns a fresh search state for every reference row.
func (ix *Index) newStates(k int) []qstate {
	st := make([]qstate, ix.n)
	best := make([]float64, ix.n*k)
	// One backing array for the candidate lists: k+2 entries each, which
	// is enough for nearly every row once its thresholds settle.
	c := k + 2
	cands := make([]cand, ix.n*c)
	for p := range st {
		s := &st[p]
		s.best = best[p*k : (p+1)*k]
		for j := range s.best {
			s.best[j] = math.Inf(1)
		}
		s.thr = math.Inf(1)
		s.margin = 2 * ix.roundingBound(ix.norms[p])
		s.excl = p
		s.limit = c
		s.cand = cands[p*c : p*c : (p+1)*c]
	}
	return st
}

// diagonal scans rows i0..i1-1 against themselves, one way.
func (ix *Index) diagonal(st []qstate, i0, i1 int) {
	d := ix.d
	data, norms := ix.data, ix.norms
	for q := i0; q < i1; q++ {
		row := data[q*d : (q+1)*d]
		s := &st[q]
		t := s.thr
		for j := i0; j < i1; j++ {
			if v := norms[j] - 2*dot(row, data[j*d:(j+1)*d]); v <= t {
				t = s.add(j, v)
			}
		}
	}
}

// offDiagonal scans rows i0..i1-1 against rows j0..j1-1 (disjoint) both
// ways: each dot product gives the score of j for q and of q for j.
func (ix *Index) offDiagonal(st []qstate, i0, i1, j0, j1 int) {
	d := ix.d
	data, norms := ix.data, ix.norms
	q := i0
	for ; q+3 <= i1; q += 3 {
		q0 := data[q*d : (q+1)*d]
		q1 := data[(q+1)*d : (q+2)*d]
		q2 := data[(q+2)*d : (q+3)*d]
		n0, n1, n2 := norms[q], norms[q+1], norms[q+2]
		s0, s1, s2 := &st[q], &st[q+1], &st[q+2]
		j := j0
		for ; j+2 <= j1; j += 2 {
			a0, b0, a1, b1, a2, b2 := dot3x2(q0, q1, q2, data[j*d:(j+1)*d], data[(j+1)*d:(j+2)*d])
			na, nb := norms[j], norms[j+1]
			sa, sb := &st[j], &st[j+1]
			if v := na - 2*a0; v <= s0.thr {
				s0.add(j, v)
			}
			if v := nb - 2*b0; v <= s0.thr {
				s0.add(j+1, v)
			}
			if v := na - 2*a1; v <= s1.thr {
				s1.add(j, v)
			}
			if v := nb - 2*b1; v <= s1.thr {
				s1.add(j+1, v)
			}
			if v := na - 2*a2; v <= s2.thr {
				s2.add(j, v)
			}
			if v := nb - 2*b2; v <= s2.thr {
				s2.add(j+1, v)
			}
			if v := n0 - 2*a0; v <= sa.thr {
				sa.add(q, v)
			}
			if v := n1 - 2*a1; v <= sa.thr {
				sa.add(q+1, v)
			}
			if v := n2 - 2*a2; v <= sa.thr {
				sa.add(q+2, v)
			}
			if v := n0 - 2*b0; v <= sb.thr {
				sb.add(q, v)
			}
			if v := n1 - 2*b1; v <= sb.thr {
				sb.add(q+1, v)
			}
			if v := n2 - 2*b2; v <= sb.thr {
				sb.add(q+2, v)
			}
		}
		for ; j < j1; j++ {
			ix.pair(st, q, j)
			ix.pair(st, q+1, j)
			ix.pair(st, q+2, j)
		}
	}
	for ; q < i1; q++ {
		for j := j0; j < j1; j++ {
			ix.pair(st, q, j)
		}
	}
}

// pair offers rows q and j to each other.
func (ix *Index) pair(st []qstate, q, j int) {
	d := ix.d
	a := dot(ix.data[q*d:(q+1)*d], ix.data[j*d:(j+1)*d])
	if v := ix.norms[j] - 2*a; v <= st[q].thr {
		st[q].add(j, v)
	}
	if v := ix.norms[q] - 2*a; v <= st[j].thr {
		st[j].add(q, v)
	}
}
