package logreg

import (
	"context"
	"math"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/learn"
)

// Block sizes. They depend on nothing but constants, so every sum has the
// same terms in the same order whatever the number of workers.
const (
	// zBlock is the number of rows whose margins one task computes, and
	// over which the loss is summed before the blocks are added in order.
	zBlock = 4096
	// hessChunk is the number of rows a Hessian entry accumulates at a
	// time: a chunk of every feature column stays in cache while one
	// group of Hessian rows uses it.
	hessChunk = 256
	// mulChunk is the fewest rows whose margins one task computes.
	mulChunk = 256
	// parallelMin is the fewest values (rows x coefficients) for which
	// the passes over the data run on several workers.
	parallelMin = 1 << 17
)

// objective is the fitting problem, scaled by 1/(C S) where S = sum_i s_i:
//
//	F(theta) = lambda/2 ||w||^2 + sum_i a_i log(1 + exp(-t_i z_i)),
//	z_i = w.x_i + b, lambda = 1/(C S), a_i = s_i/S,
//
// which has the minimiser of 0.5||w||^2 + C sum_i s_i log(1+exp(-t_i z_i))
// and a gradient on the scale of a mean, so that one tolerance fits every
// data size. theta holds w then, with an intercept, b.
//
// The data are stored feature-major (xt[j*ld+i] is feature j of row i, with
// a last column of ones for the intercept): margins, the gradient and the
// Hessian then all run over contiguous columns. Func, Grad and Hess called
// at the same theta (as gonum's optimize does) share one pass over the
// rows.
type objective struct {
	ctx     context.Context
	workers int
	n       int // rows
	p       int // penalised coefficients (features)
	dim     int // p, plus 1 with an intercept
	// xt holds dim columns, then zero columns up to a multiple of
	// kernelCols, each of ld values: the n rows, then zeros up to a
	// multiple of 4 (the Hessian kernel's step).
	xt     []float64
	ld     int
	y      []float64 // labels, 0 or 1
	a      []float64 // normalised weights s_i/S
	lambda float64

	// Cached at theta: margins z, loss, r_i = a_i (sigma(z_i) - y_i) (the
	// loss gradient by z_i) and d_i = a_i sigma(z_i)(1 - sigma(z_i)) (its
	// second derivative).
	theta   []float64
	cached  bool
	z, r, d []float64
	loss    float64
	blocks  []float64 // per-block loss partial sums

	// err is ctx's error once it is done; the computations stop early
	// and the optimiser's Recorder ends the run with it.
	err atomic.Pointer[error]
}

// newObjective copies x feature-major, mapping every value by cm when it
// is not nil; it returns ctx's error if ctx is done before the copy is.
func newObjective(ctx context.Context, x *mat.Dense, cm *learn.ColumnMap, y []int, s []float64, c float64, intercept bool, workers int) (*objective, error) {
	n, p := x.Dims()
	dim := p
	if intercept {
		dim++
	}
	ld := roundUp(n, 4)
	if n*dim < parallelMin {
		// A pass over the data takes microseconds: waking a second
		// goroutine for it costs more than it saves, and much more when
		// another process holds the other core.
		workers = 1
	}
	o := &objective{ctx: ctx, workers: max(workers, 1), n: n, p: p, dim: dim,
		xt: make([]float64, roundUp(dim, kernelCols)*ld), ld: ld, y: make([]float64, n), a: make([]float64, n),
		theta: make([]float64, dim), z: make([]float64, n), r: make([]float64, n), d: make([]float64, ld),
		blocks: make([]float64, (n+zBlock-1)/zBlock)}
	raw := x.RawMatrix()
	// In blocks of 512 rows, column by column: each column is written
	// a page at a time while the block's rows stay in cache. (Row by
	// row, writes touch p pages per row and run ten times slower.)
	const block = 512
	for i0 := 0; i0 < n; i0 += block {
		// First writes to fresh memory fault pages in, which some
		// systems make slow: check ctx as the copy goes.
		if err := learn.Interrupted(ctx); err != nil {
			return nil, err
		}
		i1 := min(n, i0+block)
		for j := range p {
			col := o.xt[j*ld+i0 : j*ld+i1]
			if cm != nil {
				for k := range col {
					col[k] = cm.Apply(j, raw.Data[(i0+k)*raw.Stride+j])
				}
				continue
			}
			for k := range col {
				col[k] = raw.Data[(i0+k)*raw.Stride+j]
			}
		}
	}
	if intercept {
		ones := o.col(p)
		for i := range ones {
			ones[i] = 1
		}
	}
	total := 0.0
	for _, v := range s {
		total += v
	}
	for i := range n {
		o.y[i] = float64(y[i])
		o.a[i] = s[i] / total
	}
	o.lambda = 1 / (c * total)
	return o, nil
}

// col returns the n values of column j.
func (o *objective) col(j int) []float64 { return o.xt[j*o.ld : j*o.ld+o.n] }

func roundUp(n, k int) int { return (n + k - 1) / k * k }

// stopped records ctx's error when ctx is done and tells whether it is.
func (o *objective) stopped() bool {
	if o.err.Load() != nil {
		return true
	}
	if err := o.ctx.Err(); err != nil {
		o.err.CompareAndSwap(nil, &err)
		return true
	}
	return false
}

// Err returns ctx's error if a computation saw it done.
func (o *objective) Err() error {
	if e := o.err.Load(); e != nil {
		return *e
	}
	return nil
}

// at computes the margins, the loss and its derivatives by the margins at
// theta, unless they are cached for it.
func (o *objective) at(theta []float64) {
	if o.cached && floats.Same(theta, o.theta) {
		return
	}
	copy(o.theta, theta)
	o.cached = false
	o.mul(o.z, theta)
	o.terms()
}

// mul writes X~ v (the margins of the coefficients v) into dst, n values,
// in row chunks over the workers. Each value sums over the columns in
// order, so the chunks do not change it.
func (o *objective) mul(dst, v []float64) {
	chunk := max(mulChunk, roundUp((o.n+o.workers-1)/o.workers, mulChunk))
	par.For(o.workers, (o.n+chunk-1)/chunk, func(b int) {
		if o.stopped() {
			return
		}
		r0, r1 := b*chunk, min(o.n, (b+1)*chunk)
		z := dst[r0:r1]
		clear(z)
		for j, t := range v {
			if t != 0 {
				floats.AddScaled(z, t, o.col(j)[r0:r1])
			}
		}
	})
}

// terms computes the loss at the margins z and coefficients o.theta, and
// the loss's first and second derivatives by the margins.
func (o *objective) terms() {
	par.For(o.workers, len(o.blocks), func(b int) {
		if o.stopped() {
			return
		}
		r0, r1 := b*zBlock, min(o.n, (b+1)*zBlock)
		sum := 0.0
		for i := r0; i < r1; i++ {
			zi, yi, ai := o.z[i], o.y[i], o.a[i]
			// With e = exp(-|z|): log(1+exp(-m)) = log1p(e) + max(-m, 0)
			// for m = +-z, and sigma(z) = 1/(1+e) or e/(1+e); nothing
			// overflows.
			e := math.Exp(-math.Abs(zi))
			sig := 1 / (1 + e)
			if zi < 0 {
				sig = e / (1 + e)
			}
			l := math.Log1p(e)
			if m := zi * (2*yi - 1); m < 0 {
				l -= m
			}
			sum += ai * l
			o.r[i] = ai * (sig - yi)
			o.d[i] = ai * sig * (1 - sig)
		}
		o.blocks[b] = sum
	})
	o.loss = o.sumBlocks() + o.penalty(o.theta, 0, nil)
	o.cached = !o.stopped()
}

// lossAlong returns the objective at theta + alpha dir, given u = X~ dir
// and the margins z at theta; it changes nothing.
func (o *objective) lossAlong(theta, dir, u []float64, alpha float64) float64 {
	par.For(o.workers, len(o.blocks), func(b int) {
		r0, r1 := b*zBlock, min(o.n, (b+1)*zBlock)
		sum := 0.0
		for i := r0; i < r1; i++ {
			sum += o.a[i] * logLoss(o.z[i]+alpha*u[i], o.y[i])
		}
		o.blocks[b] = sum
	})
	return o.sumBlocks() + o.penalty(theta, alpha, dir)
}

// sumBlocks adds the per-block loss sums in block order.
func (o *objective) sumBlocks() float64 {
	loss := 0.0
	for _, v := range o.blocks {
		loss += v
	}
	return loss
}

// penalty is lambda/2 ||w + alpha dw||^2 over the penalised coefficients
// (dir may be nil when alpha is 0).
func (o *objective) penalty(theta []float64, alpha float64, dir []float64) float64 {
	pen := 0.0
	for j, w := range theta[:o.p] {
		if alpha != 0 {
			w += alpha * dir[j]
		}
		pen += w * w
	}
	return o.lambda / 2 * pen
}

// logLoss is log(1+exp(-m)) for the margin m = z(2y-1), computed as in
// terms.
func logLoss(z, y float64) float64 {
	l := math.Log1p(math.Exp(-math.Abs(z)))
	if m := z * (2*y - 1); m < 0 {
		l -= m
	}
	return l
}

// Func is the objective at theta.
func (o *objective) Func(theta []float64) float64 {
	o.at(theta)
	return o.loss
}

// Grad writes the gradient at theta into grad.
func (o *objective) Grad(grad, theta []float64) {
	o.at(theta)
	par.For(o.workers, o.dim, func(j int) {
		if o.stopped() {
			return
		}
		g := floats.Dot(o.col(j), o.r)
		if j < o.p {
			g += o.lambda * theta[j]
		}
		grad[j] = g
	})
}

// Hess writes the Hessian at theta, X~' diag(d) X~ + lambda I (no penalty
// on the intercept), into hess.
func (o *objective) Hess(hess *mat.SymDense, theta []float64) {
	o.at(theta)
	raw := hess.RawSymmetric()
	dim, ld := o.dim, o.ld
	// Each goroutine fills a band of rows of the upper triangle, of equal
	// area. Every entry is summed over the same row chunks in the same
	// order whatever the bands are, so the result does not depend on the
	// workers.
	bands := bandsOf(dim, o.workers)
	par.For(o.workers, len(bands)-1, func(g int) {
		j0, j1 := bands[g], bands[g+1]
		for j := j0; j < j1; j++ {
			clear(raw.Data[j*raw.Stride+j : j*raw.Stride+dim])
		}
		// u holds d * x_j for the band's rows j, in whole kernel
		// groups (rows past the band stay zero).
		rows := roundUp(j1-j0, kernelRows)
		u := make([]float64, rows*hessChunk)
		var out [kernelRows * kernelCols]float64
		for r0 := 0; r0 < ld; r0 += hessChunk {
			if o.stopped() {
				return
			}
			m := min(ld, r0+hessChunk) - r0
			for j := j0; j < j1; j++ {
				floats.MulTo(u[(j-j0)*hessChunk:(j-j0)*hessChunk+m], o.d[r0:r0+m], o.xt[j*ld+r0:j*ld+r0+m])
			}
			for ja := j0; ja < j1; ja += kernelRows {
				for kb := ja / kernelCols * kernelCols; kb < dim; kb += kernelCols {
					hessKernel(u[(ja-j0)*hessChunk:], hessChunk, o.xt[kb*ld+r0:], ld, m, &out)
					for a := range kernelRows {
						j := ja + a
						if j >= j1 {
							break
						}
						row := raw.Data[j*raw.Stride:]
						for b := range kernelCols {
							if k := kb + b; k >= j && k < dim {
								row[k] += out[a*kernelCols+b]
							}
						}
					}
				}
			}
		}
		for j := j0; j < min(j1, o.p); j++ {
			raw.Data[j*raw.Stride+j] += o.lambda
		}
	})
	if o.stopped() {
		// A half-filled Hessian might not factorise and send gonum's
		// Newton into trial shifts; the run ends at the next record.
		for j := range dim {
			clear(raw.Data[j*raw.Stride+j : j*raw.Stride+dim])
			raw.Data[j*raw.Stride+j] = 1
		}
	}
}

// bandsOf splits rows 0..dim of an upper triangle into at most parts
// bands of about equal area; band g is rows bands[g] to bands[g+1].
func bandsOf(dim, parts int) []int {
	parts = max(1, min(parts, dim))
	bands := []int{0}
	total := float64(dim) * float64(dim+1) / 2
	area := 0.0
	for j := range dim {
		area += float64(dim - j)
		if len(bands) < parts && area >= total*float64(len(bands))/float64(parts) {
			bands = append(bands, j+1)
		}
	}
	if bands[len(bands)-1] != dim {
		bands = append(bands, dim)
	}
	return bands
}
