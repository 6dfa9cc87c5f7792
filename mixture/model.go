package mixture

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/aer-go/aer/internal/par"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted mixture (Gaussian, or t with Family T). Its exported fields are the
// parameters; derived quantities (precision Cholesky factors) are computed
// from them by NewModel and the unmarshalling methods, deterministically,
// so a saved and reloaded model gives bit-identical outputs.
type Model struct {
	// Covariance is the parameterisation (never Auto).
	Covariance CovarianceType `json:"covariance"`
	// Weights are the mixing proportions, one per component, summing to 1.
	Weights []float64 `json:"weights"`
	// Means holds one mean vector per component.
	Means [][]float64 `json:"means"`
	// Covariances holds, per component, the covariance flattened
	// row-major: Full has one d*d matrix per component, Diag one vector of
	// d variances per component, Tied a single d*d matrix shared by all,
	// Spherical one variance per component (a slice of length 1).
	Covariances [][]float64 `json:"covariances"`
	// Family is the component distribution; Gaussian (the zero value) is
	// omitted from JSON, so Gaussian models read and write as before.
	Family Family `json:"family,omitempty"`
	// Nu holds, for the T family, each component's degrees of freedom.
	Nu []float64 `json:"nu,omitempty"`
	// NuFixed says Nu was fixed by the settings rather than estimated
	// (it then counts no free parameters).
	NuFixed bool `json:"nu_fixed,omitempty"`

	p *params
}

// NewModel builds a model from its parameters (shapes as documented on the
// Model fields; weights are used as given) and factors its covariances. It
// returns an error when shapes disagree, a value is not finite, a weight is
// not positive, or a covariance is not positive definite.
func NewModel(typ CovarianceType, weights []float64, means, covariances [][]float64) (*Model, error) {
	m := &Model{Covariance: typ, Weights: weights, Means: means, Covariances: covariances}
	if err := m.prepare(); err != nil {
		return nil, err
	}
	return m, nil
}

// prepare validates the exported fields and computes the derived ones.
func (m *Model) prepare() error {
	typ := m.Covariance
	if typ < Full || typ > Spherical {
		return fmt.Errorf("mixture: model covariance type %v is not full, diag, tied or spherical", typ)
	}
	k := len(m.Weights)
	if k == 0 {
		return errors.New("mixture: model has no components")
	}
	if len(m.Means) != k {
		return fmt.Errorf("mixture: model has %d weights but %d means", k, len(m.Means))
	}
	d := len(m.Means[0])
	if d == 0 {
		return errors.New("mixture: model has no features")
	}
	for l, mu := range m.Means {
		if len(mu) != d {
			return fmt.Errorf("mixture: mean %d has %d values, want %d", l, len(mu), d)
		}
	}
	for l, w := range m.Weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("mixture: weight %d is %v, want a positive finite number", l, w)
		}
	}
	var wantN, wantLen int
	switch typ {
	case Full:
		wantN, wantLen = k, d*d
	case Diag:
		wantN, wantLen = k, d
	case Tied:
		wantN, wantLen = 1, d*d
	case Spherical:
		wantN, wantLen = k, 1
	}
	// Shapes are checked before anything of size d*d is allocated.
	if len(m.Covariances) != wantN {
		return fmt.Errorf("mixture: %v model needs %d covariance entries, has %d", typ, wantN, len(m.Covariances))
	}
	for l, c := range m.Covariances {
		if len(c) != wantLen {
			return fmt.Errorf("mixture: covariance %d has %d values, want %d", l, len(c), wantLen)
		}
	}
	p := newParams(typ, k, d)
	p.setWeights(m.Weights)
	for l, mu := range m.Means {
		copy(p.mean[l*d:], mu)
	}
	for l, c := range m.Covariances {
		copy(p.cov[l*wantLen:], c)
	}
	for _, v := range p.mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("mixture: model mean is not finite")
		}
	}
	for _, v := range p.cov {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("mixture: model covariance is not finite")
		}
	}
	var scratch []float64 // Cholesky's, for the d x d covariances only
	if typ == Full || typ == Tied {
		scratch = make([]float64, d*d)
	}
	if bad := p.factor(scratch); bad >= 0 {
		return fmt.Errorf("mixture: covariance of component %d is not positive definite", bad)
	}
	switch m.Family {
	case Gaussian:
		if len(m.Nu) != 0 || m.NuFixed {
			return errors.New("mixture: Gaussian model has degrees of freedom")
		}
	case T:
		if len(m.Nu) != k {
			return fmt.Errorf("mixture: t model has %d components but %d degrees of freedom", k, len(m.Nu))
		}
		for l, v := range m.Nu {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("mixture: degrees of freedom %d is %v, want a positive finite number", l, v)
			}
		}
		p.nu, p.nuFixed = slices.Clone(m.Nu), m.NuFixed
	default:
		return fmt.Errorf("mixture: model family %v is not gaussian or t", m.Family)
	}
	m.p = p
	return nil
}

// modelFromParams exports p as a Model. The covariances are copied and
// factored again by prepare, the same code path as loading, so a model
// and its saved copy agree bit for bit.
func modelFromParams(p *params) *Model {
	m := modelFromFlat(p)
	if err := m.prepare(); err != nil {
		// p was factored successfully during fitting from the same values.
		panic("mixture: internal error: " + err.Error())
	}
	return m
}

// errNotPrepared is returned by the methods of a Model literal that was
// neither built by NewModel nor unmarshalled (its factors are missing).
var errNotPrepared = errors.New("mixture: model not prepared: build it with NewModel or unmarshal it")

// K returns the number of components.
func (m *Model) K() int { return len(m.Weights) }

// Dim returns the number of features.
func (m *Model) Dim() int {
	if len(m.Means) == 0 {
		return 0
	}
	return len(m.Means[0])
}

// NParameters returns the number of free parameters, counted as
// scikit-learn does: covariance parameters + K*d means + K-1 weights.
func (m *Model) NParameters() int {
	np := nParameters(m.Covariance, m.K(), m.Dim())
	if m.Family == T && !m.NuFixed {
		np += m.K()
	}
	return np
}

// PrecisionCholesky returns, per component, the factor the densities are
// computed with and its log-determinant: for Full and Tied the
// lower-triangular W = chol(Sigma)^-1, row-major d*d (|W(x-mu)|^2 is the
// Mahalanobis distance); for Diag the d values 1/sqrt(var); for
// Spherical the one value 1/sqrt(var). logDet[k] is log det W_k, so that
// ComponentLogDensity is -d/2 log(2 pi) + logDet[k] - |W_k(x-mu_k)|^2/2.
// The slices are copies.
func (m *Model) PrecisionCholesky() (prec [][]float64, logDet []float64) {
	if m.p == nil {
		return nil, nil
	}
	d, k := m.p.d, m.p.k
	prec = make([][]float64, k)
	for c := range k {
		switch m.p.typ {
		case Full:
			prec[c] = slices.Clone(m.p.prec[c*d*d : (c+1)*d*d])
		case Tied:
			prec[c] = slices.Clone(m.p.prec)
		case Diag:
			prec[c] = slices.Clone(m.p.prec[c*d : (c+1)*d])
		case Spherical:
			prec[c] = []float64{m.p.prec[c]}
		}
	}
	return prec, slices.Clone(m.p.logdet)
}

// evalBlocks runs f over fixed row blocks of x in parallel, giving each
// call the log densities (rows*K) of its block or, with resp, the
// responsibilities, the rows' log-likelihoods and their sum (computed by
// respBlock, exactly as during fitting).
func (m *Model) evalBlocks(x *mat.Dense, resp bool, f func(b, r0, r1 int, dens, ll []float64, sum float64)) (int, error) {
	if m.p == nil {
		return 0, errNotPrepared
	}
	data, stride, n, _, err := rawRows(x, m.p.d)
	if err != nil {
		return 0, err
	}
	workers := workerCount(0)
	type buf struct{ dens, scratch, ll []float64 }
	bufs := make([]buf, workers)
	par.ForWorker(workers, numBlocks(n), func(w, b int) {
		if bufs[w].dens == nil {
			rows := min(blockRows, n) // a one-row request needs one row of room
			bufs[w] = buf{make([]float64, rows*m.p.k), make([]float64, scratchLen(m.p.d)), make([]float64, rows)}
		}
		r0, r1 := b*blockRows, min((b+1)*blockRows, n)
		dens := bufs[w].dens[:(r1-r0)*m.p.k]
		ll := bufs[w].ll[:r1-r0]
		m.p.logDensityBlock(data, stride, r0, r1, dens, bufs[w].scratch, nil)
		sum := 0.0
		if resp {
			sum = respBlock(dens, m.p.k, m.p.logw, ll)
		}
		f(b, r0, r1, dens, ll, sum)
	})
	return n, nil
}

func denseDst(dst *mat.Dense, r, c int) *mat.Dense {
	if dst == nil {
		return mat.NewDense(r, c, nil)
	}
	if rr, cc := dst.Dims(); rr != r || cc != c {
		panic(mat.ErrShape)
	}
	return dst
}

// checkRows returns the number of rows of x after checking that m is
// prepared and x has m's features, all finite.
func (m *Model) checkRows(x *mat.Dense) (int, error) {
	if m.p == nil {
		return 0, errNotPrepared
	}
	_, _, n, _, err := rawRows(x, m.p.d)
	return n, err
}

// ComponentLogDensity returns log N(x_i | mu_l, Sigma_l) for every row i
// and component l (without the weights), in dst when it is not nil (it
// must be rows x K, else it panics with mat.ErrShape).
func (m *Model) ComponentLogDensity(x, dst *mat.Dense) (*mat.Dense, error) {
	r, err := m.checkRows(x)
	if err != nil {
		return nil, err
	}
	dst = denseDst(dst, r, m.p.k)
	out := dst.RawMatrix()
	_, err = m.evalBlocks(x, false, func(_, r0, r1 int, dens, _ []float64, _ float64) {
		for i := r0; i < r1; i++ {
			copy(out.Data[i*out.Stride:i*out.Stride+m.p.k], dens[(i-r0)*m.p.k:])
		}
	})
	return dst, err
}

// ScoreSamples returns the mixture log-likelihood log p(x_i) of every row,
// in dst when it has the right length.
func (m *Model) ScoreSamples(x *mat.Dense, dst []float64) ([]float64, error) {
	r, err := m.checkRows(x)
	if err != nil {
		return nil, err
	}
	if len(dst) != r {
		dst = make([]float64, r)
	}
	_, err = m.evalBlocks(x, true, func(_, r0, r1 int, _, ll []float64, _ float64) {
		copy(dst[r0:r1], ll)
	})
	return dst, err
}

// Responsibilities returns the posterior probability of each component
// for every row (rows x K, each row summing to 1), in dst when not nil.
func (m *Model) Responsibilities(x, dst *mat.Dense) (*mat.Dense, error) {
	r, err := m.checkRows(x)
	if err != nil {
		return nil, err
	}
	K := m.p.k
	dst = denseDst(dst, r, K)
	out := dst.RawMatrix()
	_, err = m.evalBlocks(x, true, func(_, r0, r1 int, resp, _ []float64, _ float64) {
		for i := r0; i < r1; i++ {
			copy(out.Data[i*out.Stride:i*out.Stride+K], resp[(i-r0)*K:(i-r0+1)*K])
		}
	})
	return dst, err
}

// Score returns the mean log-likelihood per row of x.
func (m *Model) Score(x *mat.Dense) (float64, error) {
	nb := 0
	if x != nil && !x.IsEmpty() {
		r, _ := x.Dims()
		nb = numBlocks(r)
	}
	part := make([]float64, nb)
	n, err := m.evalBlocks(x, true, func(b, _, _ int, _, _ []float64, sum float64) {
		part[b] = sum
	})
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, s := range part {
		total += s
	}
	return total / float64(n), nil
}

// BIC returns the Bayesian information criterion on x as scikit-learn
// defines it: -2 * total log-likelihood + NParameters * log(rows).
func (m *Model) BIC(x *mat.Dense) (float64, error) {
	return m.criterion(x, bic)
}

// AIC returns the Akaike information criterion on x as scikit-learn
// defines it: -2 * total log-likelihood + 2 * NParameters.
func (m *Model) AIC(x *mat.Dense) (float64, error) {
	return m.criterion(x, aic)
}

// criterion returns crit (bic or aic) of m's mean log-likelihood on the
// rows of x.
func (m *Model) criterion(x *mat.Dense, crit func(meanLL float64, n, np int) float64) (float64, error) {
	s, err := m.Score(x)
	if err != nil {
		return 0, err
	}
	n, _ := x.Dims()
	return crit(s, n, m.NParameters()), nil
}

func bic(meanLL float64, n, np int) float64 {
	return -2*meanLL*float64(n) + float64(np)*math.Log(float64(n))
}

func aic(meanLL float64, n, np int) float64 {
	return -2*meanLL*float64(n) + 2*float64(np)
}

// UnmarshalJSON decodes a model written by encoding/json and validates and
// factors it. Go's float64 JSON encoding round-trips exactly.
func (m *Model) UnmarshalJSON(b []byte) error {
	type plain Model
	var q plain
	if err := json.Unmarshal(b, &q); err != nil {
		return err
	}
	q.p = nil
	nm := Model(q)
	if err := nm.prepare(); err != nil {
		return err
	}
	*m = nm
	return nil
}

const binaryMagic = "AERGMM\x00\x01"

// binaryMagicT starts a T-family model: the Gaussian layout, then a
// fourth header word (1 when nu is fixed) and the k degrees of freedom.
const binaryMagicT = "AERGMM\x00\x02"

// MarshalBinary encodes the model compactly (little-endian IEEE 754 bits,
// exact).
func (m *Model) MarshalBinary() ([]byte, error) {
	p := m.p
	if p == nil {
		q := *m
		if err := q.prepare(); err != nil {
			return nil, err
		}
		p = q.p
	}
	var buf bytes.Buffer
	hdr := []uint32{uint32(p.typ), uint32(p.k), uint32(p.d)}
	if p.nu != nil {
		buf.WriteString(binaryMagicT)
		fixed := uint32(0)
		if p.nuFixed {
			fixed = 1
		}
		hdr = append(hdr, fixed)
	} else {
		buf.WriteString(binaryMagic)
	}
	binary.Write(&buf, binary.LittleEndian, hdr)
	binary.Write(&buf, binary.LittleEndian, p.w)
	binary.Write(&buf, binary.LittleEndian, p.mean)
	binary.Write(&buf, binary.LittleEndian, p.cov)
	if p.nu != nil {
		binary.Write(&buf, binary.LittleEndian, p.nu)
	}
	return buf.Bytes(), nil
}

// UnmarshalBinary decodes a model written by MarshalBinary.
func (m *Model) UnmarshalBinary(b []byte) error {
	if len(b) < len(binaryMagic)+12 || (string(b[:len(binaryMagic)]) != binaryMagic && string(b[:len(binaryMagicT)]) != binaryMagicT) {
		return errors.New("mixture: not a binary mixture model")
	}
	isT := string(b[:len(binaryMagicT)]) == binaryMagicT
	r := bytes.NewReader(b[len(binaryMagic):])
	hdr := make([]uint32, 3, 4)
	if isT {
		hdr = hdr[:4]
	}
	if err := binary.Read(r, binary.LittleEndian, hdr); err != nil {
		return fmt.Errorf("mixture: reading model header: %w", err)
	}
	typ, k, d := CovarianceType(hdr[0]), int(hdr[1]), int(hdr[2])
	if isT && hdr[3] > 1 {
		return errors.New("mixture: corrupt binary model header")
	}
	if typ < Full || typ > Spherical || k <= 0 || d <= 0 || k > 1<<20 || d > 1<<20 {
		return errors.New("mixture: corrupt binary model header")
	}
	// The length must match the header before anything is allocated.
	var covLen int
	switch typ {
	case Full:
		covLen = k * d * d
	case Diag:
		covLen = k * d
	case Tied:
		covLen = d * d
	case Spherical:
		covLen = k
	}
	nuLen := 0
	if isT {
		nuLen = k
	}
	if r.Len()%8 != 0 || r.Len()/8 != k+k*d+covLen+nuLen {
		return errors.New("mixture: binary model has the wrong length")
	}
	p := newParams(typ, k, d)
	parts := [][]float64{p.w, p.mean, p.cov}
	if isT {
		p.nu, p.nuFixed = make([]float64, k), hdr[3] == 1
		parts = append(parts, p.nu)
	}
	for _, s := range parts {
		if err := binary.Read(r, binary.LittleEndian, s); err != nil {
			return fmt.Errorf("mixture: reading model: %w", err)
		}
	}
	nm := modelFromFlat(p)
	if err := nm.prepare(); err != nil {
		return err
	}
	*m = *nm
	return nil
}

// modelFromFlat exports the raw parameters of p without factoring them.
func modelFromFlat(p *params) *Model {
	k, d := p.k, p.d
	m := &Model{Covariance: p.typ, Weights: append([]float64(nil), p.w...)}
	if p.nu != nil {
		m.Family, m.Nu, m.NuFixed = T, slices.Clone(p.nu), p.nuFixed
	}
	m.Means = make([][]float64, k)
	for l := range m.Means {
		m.Means[l] = append([]float64(nil), p.mean[l*d:(l+1)*d]...)
	}
	size := len(p.cov) / k
	n := k
	if p.typ == Tied {
		size, n = d*d, 1
	}
	m.Covariances = make([][]float64, n)
	for l := range m.Covariances {
		m.Covariances[l] = append([]float64(nil), p.cov[l*size:(l+1)*size]...)
	}
	return m
}

// NewTModel builds a T-family model: NewModel's parameters plus each
// component's degrees of freedom nu (positive, finite).
func NewTModel(typ CovarianceType, weights []float64, means, covariances [][]float64, nu []float64) (*Model, error) {
	m := &Model{Covariance: typ, Weights: weights, Means: means, Covariances: covariances, Family: T, Nu: nu}
	if err := m.prepare(); err != nil {
		return nil, err
	}
	return m, nil
}
