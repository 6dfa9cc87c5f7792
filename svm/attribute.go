package svm

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Attribute returns the exact baseline Shapley values of the log-odds of
// the positive class for every row of x, about the training rows' feature
// means r: the game of row x gives a coalition S of features the value of
// the model at x on S and at r elsewhere, so the values of a row sum to
// its log-odds less the log-odds at r (the base).
//
// The log-odds are -(A f + B), linear in the decision value f = sum_s
// coef_s K(sv_s, x) + intercept, so each support vector's kernel is
// attributed alone. A linear kernel's is w_j (x_j - r_j). An RBF kernel
// is a product over features, K = prod_j k_j with k_j = exp(-gamma (x_j -
// sv_j)^2), and a product game has the closed form
//
//	phi_j = (a_j - b_j) * integral over t in [0, 1] of prod_{k != j} ((1 - t) b_k + t a_k)
//
// (a_k = k_k(x_k), b_k = k_k(r_k); the weights of Shapley's sum are the
// Beta integrals of t^|S| (1 - t)^(d-1-|S|)), a polynomial of degree d-1
// in t that Gauss-Legendre quadrature on ceil(d/2) nodes integrates
// exactly; the products are taken in log space. The polynomial kernel has
// no such form: it reports learn.ErrNoAttribution.
func (m *Model) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	r, c := x.Dims()
	if c != m.sv.d {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.sv.d)
	}
	if m.means == nil {
		return nil, fmt.Errorf("%w: this svm model file predates attributions (it lacks the training means); fit it again", learn.ErrNoAttribution)
	}
	if m.k.kind == kPoly {
		return nil, fmt.Errorf("%w: the polynomial kernel's Shapley values have no closed form here", learn.ErrNoAttribution)
	}
	for i := range r {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: row %d, feature %d: %v (the svm needs complete finite features; the registered method imputes missing values)", learn.ErrData, i+1, j+1, v)
			}
		}
	}
	ref := mat.NewDense(1, c, append([]float64(nil), m.means...))
	fr, err := m.Decision(ref, nil)
	if err != nil {
		return nil, err
	}
	// log-odds = -(A f + B): base -(A f(r) + B), phi_j = -A phi_j(f).
	scale := -m.plattA
	base := -(m.plattA*fr[0] + m.plattB)
	method := "exact baseline Shapley values of the RBF kernel's log-odds about the training means"
	if m.k.kind == kLinear {
		method = "exact SHAP of a linear kernel: -A w_j (x_j - training mean of x_j) on the log-odds"
	}
	a := &learn.Attribution{Space: learn.Logit, Method: method, Base: make([]float64, r), Phi: mat.NewDense(r, c, nil)}
	var rbf *rbfShapley
	if m.k.kind == kRBF {
		rbf = newRBFShapley(c)
	}
	sv := make([]float64, c)
	for i := range r {
		a.Base[i] = base
		row, phi := x.RawRowView(i), a.Phi.RawRowView(i)
		if m.k.kind == kLinear {
			for j, w := range m.w {
				phi[j] = scale * w * (row[j] - m.means[j])
			}
			continue
		}
		for s, cf := range m.coef {
			rbf.add(phi, scale*cf, row, m.means, m.sv.row(s, sv), m.k.gamma)
		}
	}
	return a, nil
}

// rbfShapley holds the quadrature of the RBF kernel's Shapley values and
// their scratch.
type rbfShapley struct {
	t, w   []float64 // Gauss-Legendre nodes and weights on [0, 1]
	a, b   []float64 // log k_k(x_k), log k_k(r_k)
	logG   []float64 // log g_k(t_q), node-major
	logSum []float64 // sum_k log g_k(t_q)
}

func newRBFShapley(d int) *rbfShapley {
	q := (d + 1) / 2
	if q < 1 {
		q = 1
	}
	p := &rbfShapley{t: make([]float64, q), w: make([]float64, q), a: make([]float64, d), b: make([]float64, d),
		logG: make([]float64, q*d), logSum: make([]float64, q)}
	quad.Legendre{}.FixedLocations(p.t, p.w, 0, 1)
	return p
}

// add adds c times the Shapley values of the kernel K(s, .) at row x
// about the reference r to phi.
func (p *rbfShapley) add(phi []float64, c float64, x, r, s []float64, gamma float64) {
	d := len(x)
	// p.a and p.b hold log k_k(x_k) and log k_k(r_k): the factors
	// themselves may underflow, their mixtures' logarithms do not.
	for k := range d {
		dx, dr := x[k]-s[k], r[k]-s[k]
		p.a[k] = -gamma * dx * dx
		p.b[k] = -gamma * dr * dr
	}
	for q, t := range p.t {
		lt, l1t := math.Log(t), math.Log1p(-t)
		sum := 0.0
		lg := p.logG[q*d : (q+1)*d]
		for k := range d {
			lg[k] = logAddExp(l1t+p.b[k], lt+p.a[k])
			sum += lg[k]
		}
		p.logSum[q] = sum
	}
	for j := range d {
		diff := math.Exp(p.a[j]) - math.Exp(p.b[j])
		if diff == 0 {
			continue
		}
		integral := 0.0
		for q, w := range p.w {
			integral += w * math.Exp(p.logSum[q]-p.logG[q*d+j])
		}
		phi[j] += c * diff * integral
	}
}

// logAddExp is log(e^u + e^v) without overflow or underflow.
func logAddExp(u, v float64) float64 {
	if u < v {
		u, v = v, u
	}
	return u + math.Log1p(math.Exp(v-u))
}
