package mixture

import (
	"math"

	"github.com/aer-go/aer/internal/par"
)

// The EM iterations of the Diag covariance type on diagMinFeatures or more
// features run on the data shifted by its column means, x' = x - c, with x'^2 stored beside it, so that both
// steps become products with the components in vector lanes (eight at a
// time):
//
//	E-step: (x-mu)^T P (x-mu) = sum_j P_j x'_j^2 - 2 sum_j P_j mu'_j x'_j + sum_j P_j mu'_j^2
//	M-step: S1 = sum_i r_i x'_i, S2 = sum_i r_i x'_i^2 in one pass over the rows,
//	        mu = c + S1/nk, var = S2/nk - (S1/nk)^2.
//
// Each loaded x'_ij serves all eight components. Centring on c keeps the
// cancellation in both formulas at the scale of the data's spread, not of
// its offset; variances where the cancellation could still cost more than
// about 1e-12 relative are recomputed about the new mean (diagExactVars),
// and the (component, feature) pairs whose expansion could err most are
// computed exactly, or, when there are too many, the iteration takes the
// exact path (prepDiag). The final score of a restart uses the exact
// per-component path, as Model.Score does.

// diagMinFeatures is the number of features from which the Diag
// iterations take this path. Measured on 100k rows, 8 components, one
// core, it is 1.3-1.45x faster per iteration than the per-component
// kernels at 8, 12, 16 and 20 features (with fewer, the per-row costs,
// responsibilities and calls, dominate); fits of the shared datasets with
// 8 to 21 features agree with the per-component path to 6e-13 relative
// (values that are zero in exact arithmetic differ at 1e-16 absolute).
const diagMinFeatures = 8

// useDiagFast reports whether a fit of type typ on d features takes it.
func useDiagFast(typ CovarianceType, d int) bool { return typ == Diag && d >= diagMinFeatures }

// diagMaxErr bounds the rounding error of the expanded squared distances
// (absolute, in log densities, so relative in responsibilities), at the
// tolerance of the golden tests (see prepDiag). (Features nearly
// constant within a component but far from the data mean make the
// expansion cancel; the bound, from the largest |x'_j| of each feature, is
// pessimistic by orders of magnitude.)
const diagMaxErr = 1e-9

// diagCancel bounds mean'^2 / (var + reg) for the one-pass variance: beyond
// it the variance is recomputed by a centred pass.
const diagCancel = 1e4

// diagData is the data prepared for the Diag iterations; shared read-only
// by restarts.
type diagData struct {
	c       []float64 // column means, d
	xmax    []float64 // per feature, max_i |x_ij - c_j|
	xs, xs2 []float64 // n+6 rows of d: x - c and (x - c)^2, padding rows zero
}

func newDiagData(x []float64, stride, n, d int) *diagData {
	c := columnMeans(x, stride, n, d)
	xs, xs2 := make([]float64, (n+6)*d), make([]float64, (n+6)*d)
	xmax := make([]float64, d)
	for i := 0; i < n; i++ {
		row := x[i*stride : i*stride+d]
		for j, v := range row {
			z := v - c[j]
			xs[i*d+j] = z
			xs2[i*d+j] = z * z
			xmax[j] = max(xmax[j], math.Abs(z))
		}
	}
	return &diagData{c: c, xmax: xmax, xs: xs, xs2: xs2}
}

// diagChunks is the number of 8-component chunks of k components.
func diagChunks(k int) int { return (k + 7) / 8 }

// initDiag allocates the buffers of the Diag iterations.
func (e *em) initDiag(dd *diagData) {
	K, d := e.k, e.d
	nch := diagChunks(K)
	nb := numBlocks(e.n)
	e.dd = dd
	e.pt = make([]float64, nch*d*8)
	e.bt = make([]float64, nch*d*8)
	e.cst = make([]float64, nch*8)
	e.bS1 = make([]float64, nb*nch*d*8)
	e.bS2 = make([]float64, nb*nch*d*8)
	if K != 8 {
		e.rp = make([][]float64, e.workers)
		for w := range e.rp {
			e.rp[w] = make([]float64, diagChunk*8)
		}
	}
}

// illPair is a (component, feature) pair whose squared distance is
// computed exactly beside the expansion: precision P, shifted mean m.
type illPair struct {
	l, j int
	P, m float64
}

// prepDiag lays out the current parameters for ediag6: per chunk and
// feature the precisions P and -2 P mu' of its eight components, and per
// component the constant c0 + log det - sum_j P mu'^2 / 2. The rounding
// error of the expansion is bounded per component by 2 eps sum_j P_j
// (max|x'_j| + |mu'_j|)^2; the pairs with the largest terms are taken out
// of the expansion and computed exactly (e.ill) until the rest is within
// diagMaxErr. If that would take more than max(8, kd/16) pairs, exactDens
// is set and the iteration takes the exact path.
func (e *em) prepDiag() {
	K, d := e.k, e.d
	p, dd := e.p, e.dd
	c := dd.c
	c0 := -0.5 * float64(d) * ln2pi
	clear(e.pt)
	clear(e.bt)
	clear(e.cst)
	e.ill = e.ill[:0]
	e.exactDens = false
	budget := max(8, K*d/16)
	terms := make([]float64, d)
	for l := 0; l < K; l++ {
		tot := 0.0
		for j := 0; j < d; j++ {
			t := dd.xmax[j] + math.Abs(p.mean[l*d+j]-c[j])
			terms[j] = 2 * 2.220446049250313e-16 * t * t / p.cov[l*d+j]
			tot += terms[j]
		}
		for tot > diagMaxErr && !e.exactDens {
			if len(e.ill) >= budget {
				e.exactDens = true
				break
			}
			jm := 0
			for j, t := range terms {
				if t > terms[jm] {
					jm = j
				}
			}
			e.ill = append(e.ill, illPair{l: l, j: jm, P: 1 / p.cov[l*d+jm], m: p.mean[l*d+jm] - c[jm]})
			terms[jm] = -1 // taken out
			tot = 0
			for _, t := range terms {
				tot += max(t, 0)
			}
		}
		ch, ll := l/8, l%8
		pt, bt := e.pt[ch*d*8:(ch+1)*d*8], e.bt[ch*d*8:(ch+1)*d*8]
		s := 0.0
		for j := 0; j < d; j++ {
			if terms[j] < 0 {
				continue
			}
			P := 1 / p.cov[l*d+j]
			m := p.mean[l*d+j] - c[j]
			pt[j*8+ll] = P
			bt[j*8+ll] = -2 * m * P
			s += P * m * m
		}
		e.cst[l] = c0 + p.logdet[l] - 0.5*s
	}
}

// logDensityDiag writes the log densities of rows r0..r1 into out (rows
// of k), six rows at a time (the padding rows of diagData cover the last).
func (e *em) logDensityDiag(r0, r1 int, out []float64) {
	K, d := e.k, e.d
	xs, xs2 := e.dd.xs, e.dd.xs2
	var acc [48]float64
	for i := r0; i < r1; i += 6 {
		nr := min(6, r1-i)
		for ch := 0; ch*8 < K; ch++ {
			ediag6(xs[i*d:(i+6)*d], xs2[i*d:(i+6)*d], d, e.pt[ch*d*8:(ch+1)*d*8], e.bt[ch*d*8:(ch+1)*d*8], &acc)
			nl := min(8, K-ch*8)
			for t := 0; t < nr; t++ {
				o := out[(i+t-r0)*K+ch*8 : (i+t-r0)*K+ch*8+nl]
				for ll := range o {
					o[ll] = e.cst[ch*8+ll] - 0.5*acc[t*8+ll]
				}
			}
		}
	}
	if len(e.ill) == 0 {
		return
	}
	for i := r0; i < r1; i++ {
		row, o := xs[i*d:(i+1)*d], out[(i-r0)*K:(i-r0+1)*K]
		for _, q := range e.ill {
			z := row[q.j] - q.m
			o[q.l] -= 0.5 * q.P * (z * z)
		}
	}
}

// diagChunk is the number of rows whose densities, responsibilities and
// statistics are computed together (a multiple of 6 for ediag6): their
// shifted rows and squares stay in the core's cache between the steps.
const diagChunk = 96

// estepDiagBlock is the fast E-step of block b with the statistics of the
// next M-step, row chunk by row chunk; it returns the block's summed
// log-likelihood (in row order, as respBlock sums).
func (e *em) estepDiagBlock(w, b int) float64 {
	K := e.k
	r0, r1, nk, s1, s2 := e.diagBlockBufs(b)
	for c0 := r0; c0 < r1; c0 += diagChunk {
		c1 := min(c0+diagChunk, r1)
		a := e.resp[c0*K : c1*K]
		e.logDensityDiag(c0, c1, a)
		respBlock(a, K, e.p.logw, e.ll[c0:c1])
		e.diagStats(w, c0, c1, nk, s1, s2)
	}
	sum := 0.0
	for _, v := range e.ll[r0:r1] {
		sum += v
	}
	return sum
}

// diagBlockBufs returns block b's row range and its statistics buffers,
// cleared.
func (e *em) diagBlockBufs(b int) (r0, r1 int, nk, s1, s2 []float64) {
	K, d := e.k, e.d
	nch := diagChunks(K)
	r0, r1 = b*blockRows, min((b+1)*blockRows, e.n)
	nk = e.bNk[b*K : (b+1)*K]
	s1 = e.bS1[b*nch*d*8 : (b+1)*nch*d*8]
	s2 = e.bS2[b*nch*d*8 : (b+1)*nch*d*8]
	clear(nk)
	clear(s1)
	clear(s2)
	return r0, r1, nk, s1, s2
}

// diagBlockStats computes block b's statistics from the current
// responsibilities (the M-step that follows the initialisation).
func (e *em) diagBlockStats(w, b int) {
	r0, r1, nk, s1, s2 := e.diagBlockBufs(b)
	for c0 := r0; c0 < r1; c0 += diagChunk {
		e.diagStats(w, c0, min(c0+diagChunk, r1), nk, s1, s2)
	}
}

// diagStats adds the responsibilities of rows r0..r1 to nk and their
// weighted shifted rows and squares to s1 and s2 (chunk, feature, lane).
func (e *em) diagStats(w, r0, r1 int, nk, s1, s2 []float64) {
	K, d := e.k, e.d
	nch := diagChunks(K)
	rows := r1 - r0
	for i := r0; i < r1; i++ {
		for l, r := range e.resp[i*K : (i+1)*K] {
			nk[l] += r
		}
	}
	xs, xs2 := e.dd.xs[r0*d:r1*d], e.dd.xs2[r0*d:r1*d]
	for ch := 0; ch < nch; ch++ {
		var r []float64
		if K == 8 {
			r = e.resp[r0*8 : r1*8]
		} else {
			r = e.rp[w][:rows*8]
			clear(r)
			nl := min(8, K-ch*8)
			for i := 0; i < rows; i++ {
				copy(r[i*8:i*8+nl], e.resp[(r0+i)*K+ch*8:(r0+i)*K+ch*8+nl])
			}
		}
		mdiag8(xs, xs2, d, rows, r, s1[ch*d*8:(ch+1)*d*8], s2[ch*d*8:(ch+1)*d*8])
	}
}

// mstepDiagSums sums the block statistics of diagStats in block order
// into raw (k), s1 and s2 (chunk, feature, lane).
func (e *em) mstepDiagSums(raw []float64) (s1, s2 []float64) {
	K, d, nb := e.k, e.d, numBlocks(e.n)
	nch := diagChunks(K)
	s1, s2 = make([]float64, nch*d*8), make([]float64, nch*d*8)
	for b := 0; b < nb; b++ {
		for l := 0; l < K; l++ {
			raw[l] += e.bNk[b*K+l]
		}
		for t, v := range e.bS1[b*nch*d*8 : (b+1)*nch*d*8] {
			s1[t] += v
		}
		for t, v := range e.bS2[b*nch*d*8 : (b+1)*nch*d*8] {
			s2[t] += v
		}
	}
	return s1, s2
}

// diagVariances returns the variances (k*d, without the ridge) from the
// one-pass sums, recomputing about the means those where the cancellation
// in S2/nk - m^2 could exceed rounding level (diagExactVars).
func (e *em) diagVariances(s1, s2 []float64) []float64 {
	K, d := e.k, e.d
	v := make([]float64, K*d)
	var pairs []int
	var ms []float64
	for l := 0; l < K; l++ {
		ch, ll := l/8, l%8
		inv := 1 / e.nk[l]
		for j := 0; j < d; j++ {
			m := s1[(ch*d+j)*8+ll] * inv
			x := max(s2[(ch*d+j)*8+ll]*inv-m*m, 0)
			if m*m > diagCancel*(x+e.cfg.reg) {
				pairs = append(pairs, l*d+j)
				ms = append(ms, m)
			}
			v[l*d+j] = x
		}
	}
	if len(pairs) > 0 {
		e.diagExactVars(pairs, ms, v)
		e.exactVars += len(pairs)
	}
	return v
}

// diagExactVars sets v[l*d+j] = sum_i r_il (x'_ij - m)^2 / nk_l for the
// listed pairs l*d+j with shifted means ms, in one pass over the rows:
// per block in row order, then over blocks in order.
func (e *em) diagExactVars(pairs []int, ms, v []float64) {
	K, d, np := e.k, e.d, len(pairs)
	nb := numBlocks(e.n)
	part := make([]float64, nb*np)
	pl, pj := make([]int, np), make([]int, np)
	for p, lj := range pairs {
		pl[p], pj[p] = lj/d, lj%d
	}
	xs := e.dd.xs
	par.ForWorker(e.workers, nb, func(_, b int) {
		ps := part[b*np : (b+1)*np]
		for i := b * blockRows; i < min((b+1)*blockRows, e.n); i++ {
			row, rr := xs[i*d:(i+1)*d], e.resp[i*K:(i+1)*K]
			for p, m := range ms {
				z := row[pj[p]] - m
				ps[p] += rr[pl[p]] * (z * z)
			}
		}
	})
	for p, lj := range pairs {
		s := 0.0
		for b := 0; b < nb; b++ {
			s += part[b*np+p]
		}
		v[lj] = s / e.nk[lj/d]
	}
}

// mstepDiagFast is the M-step of the Diag iterations, from the statistics
// of diagStats; the result matches mstep's at rounding level.
func (e *em) mstepDiagFast() {
	K, d := e.k, e.d
	p := e.p
	raw := make([]float64, K)
	s1, s2 := e.mstepDiagSums(raw)
	eps10 := 10 * 2.220446049250313e-16
	c := e.dd.c
	for l := 0; l < K; l++ {
		e.nk[l] = raw[l] + eps10
		inv := 1 / e.nk[l]
		ch, ll := l/8, l%8
		for j := 0; j < d; j++ {
			p.mean[l*d+j] = c[j] + s1[(ch*d+j)*8+ll]*inv
		}
	}
	v := e.diagVariances(s1, s2)
	reseed := e.reseedEmpty(raw)
	e.finishDiag(v, reseed)
	e.factorWithRidge()
}
