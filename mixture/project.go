package mixture

import (
	"fmt"
	"math"

	"github.com/aer-go/aer/internal/rng"
	"gonum.org/v1/gonum/mat"
)

// Choosing L on principal components (Settings.SelectProjection).
//
// On wide data the BIC comparison of a pool of sizes is most of a
// mixture's cost (every L of the pool is fitted, each iteration
// rows x L x features), and with diagonal covariances on many features
// it is also a poor judge: components collapse onto binary or constant
// features, whose densities grow without bound at the covariance ridge,
// so the largest L wins. Comparing the pool on the data's first few
// principal components with full covariances costs little and looks at
// the directions that hold the variance; the chosen L is then fitted on
// the features, one EM run started from the projected fit's
// responsibilities.

// projectStream is the random stream of the projection's test matrix,
// apart from the restarts' and the subsample's.
const projectStream = 1<<40 + 1

// projection maps rows onto principal directions: (x - mean) basis.
type projection struct {
	mean  []float64  // d
	basis *mat.Dense // d x k, orthonormal columns
}

// principal returns the first k principal directions of the rows of x,
// by randomised subspace iteration (Halko, Martinsson and Tropp 2011,
// algorithm 4.4 with two power iterations and 8 extra columns): it costs
// a few passes of rows x features x (k+8), where the covariance matrix
// would cost rows x features^2. The test matrix is drawn from seed.
func principal(x *mat.Dense, k int, seed uint64) (*projection, error) {
	n, d := x.Dims()
	if k <= 0 || k >= d || n < 2 {
		return nil, fmt.Errorf("mixture: %d principal components of %d rows x %d features", k, n, d)
	}
	mean := make([]float64, d)
	for i := range n {
		for j, v := range x.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	l := min(d, k+8)
	rnd := rng.Derive(seed, projectStream)
	omega := mat.NewDense(d, l, nil)
	for i := range d {
		for j := range l {
			omega.Set(i, j, rnd.NormFloat64())
		}
	}
	// times returns (x - 1 mean') a (n x l) and timesT (x - 1 mean')' b
	// (d x l), without forming the centred rows.
	times := func(a *mat.Dense) *mat.Dense {
		var y mat.Dense
		y.Mul(x, a)
		var ma mat.VecDense
		ma.MulVec(a.T(), mat.NewVecDense(d, mean))
		for i := range n {
			row := y.RawRowView(i)
			for j := range row {
				row[j] -= ma.AtVec(j)
			}
		}
		return &y
	}
	timesT := func(b *mat.Dense) *mat.Dense {
		var z mat.Dense
		z.Mul(x.T(), b)
		_, c := b.Dims()
		colSum := make([]float64, c)
		for i := range n {
			for j, v := range b.RawRowView(i) {
				colSum[j] += v
			}
		}
		for i := range d {
			row := z.RawRowView(i)
			for j := range row {
				row[j] -= mean[i] * colSum[j]
			}
		}
		return &z
	}
	q := orthonormal(times(omega))
	for range 2 {
		q = orthonormal(times(orthonormal(timesT(q))))
	}
	// The small matrix B' = (x - 1 mean')' q (d x l): its left singular
	// vectors are the principal directions.
	bt := timesT(q)
	var svd mat.SVD
	if !svd.Factorize(bt, mat.SVDThin) {
		return nil, fmt.Errorf("mixture: principal components: SVD did not converge")
	}
	var u mat.Dense
	svd.UTo(&u)
	basis := mat.DenseCopyOf(u.Slice(0, d, 0, k))
	// Fix each direction's sign (its largest entry positive), so the
	// basis does not depend on the factorisation's choice.
	for j := range k {
		big := 0.0
		for i := range d {
			if v := basis.At(i, j); math.Abs(v) > math.Abs(big) {
				big = v
			}
		}
		if big < 0 {
			for i := range d {
				basis.Set(i, j, -basis.At(i, j))
			}
		}
	}
	return &projection{mean: mean, basis: basis}, nil
}

// orthonormal returns an orthonormal basis of a's columns (n x c, thin):
// modified Gram-Schmidt, twice (one pass loses orthogonality when the
// columns are nearly dependent, as power iterations make them). A
// column with nothing left after the others (rank deficiency) becomes
// zero.
func orthonormal(a *mat.Dense) *mat.Dense {
	n, c := a.Dims()
	cols := make([][]float64, c) // column j, contiguous
	for j := range c {
		cols[j] = make([]float64, n)
		for i := range n {
			cols[j][i] = a.At(i, j)
		}
	}
	for range 2 {
		for j := range c {
			v := cols[j]
			for p := range j {
				u := cols[p]
				dot := 0.0
				for i, x := range v {
					dot += x * u[i]
				}
				for i := range v {
					v[i] -= dot * u[i]
				}
			}
			norm := 0.0
			for _, x := range v {
				norm += x * x
			}
			norm = math.Sqrt(norm)
			if norm < 1e-12 {
				clear(v)
				continue
			}
			for i := range v {
				v[i] /= norm
			}
		}
	}
	q := mat.NewDense(n, c, nil)
	for j := range c {
		for i := range n {
			q.Set(i, j, cols[j][i])
		}
	}
	return q
}

// apply returns the rows of x projected: (x - 1 mean') basis.
func (p *projection) apply(x *mat.Dense) *mat.Dense {
	n, _ := x.Dims()
	_, k := p.basis.Dims()
	var z mat.Dense
	z.Mul(x, p.basis)
	var mb mat.VecDense
	mb.MulVec(p.basis.T(), mat.NewVecDense(len(p.mean), p.mean))
	for i := range n {
		row := z.RawRowView(i)
		for j := range k {
			row[j] -= mb.AtVec(j)
		}
	}
	return &z
}
