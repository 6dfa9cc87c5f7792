package onnx

import (
	"fmt"

	"github.com/aer-go/aer/adaboost"
	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/forest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/prep"
	"github.com/aer-go/aer/svm"
	"github.com/aer-go/aer/tree"
)

// proba adds the nodes computing m's probability of the positive class
// from in and returns the [N, 1] double value.
func (c *converter) proba(m learn.Scorer, in *input) (string, error) {
	if m.NumFeatures() != in.nf {
		return "", fmt.Errorf("onnx: %s model: a part reads %d features, its input has %d", c.method, m.NumFeatures(), in.nf)
	}
	switch t := m.(type) {
	case *prep.Model:
		inner, err := in.with(stage{t.Prep.Means, t.Prep.Scaler})
		if err != nil {
			return "", c.wrap(err)
		}
		return c.proba(t.Inner, inner)
	case *boost.Fitted:
		mg, err := c.boostMargins([]*boost.Model{t.Model}, in)
		if err != nil {
			return "", err
		}
		return c.g.sigmoid(mg), nil
	case *logreg.Model:
		return c.logreg(t, in.features(c.g))
	case *svm.Model:
		return c.svm(t, in.features(c.g))
	case *tree.Model:
		e := &treeSet{in: in}
		if err := e.addCART(t.Tree(), 0); err != nil {
			return "", c.wrap(err)
		}
		return e.emit(c.g, 1), nil
	case *forest.Model:
		return c.forest(t.Forest(), in)
	case *adaboost.Model:
		return c.adaboost(t.Ensembles(), in)
	case *adaptive.Model:
		return c.aer(t, in)
	}
	if u, ok := m.(learn.Unwrapper); ok {
		// A wrapper that changes neither the rows nor the scores (a tuned
		// threshold, a model fitted on resampled rows) scores as the
		// model it wraps.
		if ch, ok := m.(learn.Changer); !ok || ch.Changes() == 0 {
			return c.proba(u.Unwrap(), in)
		}
	}
	return "", c.unsupported("%T has no ONNX graph (exported: %s)", m, Exported)
}

func (c *converter) wrap(err error) error {
	return fmt.Errorf("onnx: %s model: %w", c.method, err)
}

// boostMargins adds one TreeEnsembleRegressor holding the trees of every
// model, one target per model, and returns their margins ([N, len(ms)]
// double): the trees' sum plus the model's base margin.
func (c *converter) boostMargins(ms []*boost.Model, in *input) (string, error) {
	e := &treeSet{in: in}
	nf := in.nf
	base := make([]float64, len(ms))
	for k, m := range ms {
		if m.NumFeatures != nf {
			return "", fmt.Errorf("onnx: %s model: boosted trees of %d features, input of %d", c.method, m.NumFeatures, nf)
		}
		for ti := range m.Trees {
			if err := e.addBoost(&m.Trees[ti], int64(k)); err != nil {
				return "", c.wrap(fmt.Errorf("tree %d: %w", ti, err))
			}
		}
		base[k] = m.BaseMargin
	}
	if err := checkFinite("base margin", base...); err != nil {
		return "", c.wrap(err)
	}
	sum := e.emit(c.g, len(ms))
	return c.g.add(sum, c.g.doubles("base_margin", []int64{int64(len(ms))}, base)), nil
}

// logreg is sigmoid(x.w + b).
func (c *converter) logreg(m *logreg.Model, x string) (string, error) {
	g := c.g
	if err := checkFinite("coefficient", append([]float64{m.Intercept}, m.Coef...)...); err != nil {
		return "", c.wrap(err)
	}
	z := g.matmul(x, g.doubles("coef", []int64{int64(len(m.Coef)), 1}, m.Coef))
	return g.sigmoid(g.add(z, g.scalar("intercept", m.Intercept))), nil
}

// svm is the Platt sigmoid of the decision function
// sum_s coef_s K(sv_s, x) + intercept, each kernel as package svm
// computes it.
func (c *converter) svm(m *svm.Model, x string) (string, error) {
	g := c.g
	kernel, gamma, coef0, degree := m.Kernel()
	coef := m.DualCoef()
	sv := m.SupportVectors()
	a, b := m.Platt()
	if err := checkFinite("svm coefficient", append([]float64{m.Intercept(), a, b, gamma, coef0}, coef...)...); err != nil {
		return "", c.wrap(err)
	}
	nf := m.NumFeatures()
	var f string
	switch {
	case len(coef) == 0:
		f = g.add(g.mul(g.reduceSum(x, true, 1), g.scalar("zero", 0)), g.scalar("intercept", m.Intercept()))
	case kernel == svm.Linear:
		// w = sum_s coef_s sv_s, summed as the model sums it.
		w := make([]float64, nf)
		for s, cs := range coef {
			for j := range nf {
				w[j] += cs * sv.At(s, j)
			}
		}
		f = g.add(g.matmul(x, g.doubles("svm_w", []int64{int64(nf), 1}, w)), g.scalar("intercept", m.Intercept()))
	case kernel == svm.RBF || kernel == svm.Polynomial:
		ns := len(coef)
		svT := make([]float64, nf*ns) // [nf, ns]
		sq := make([]float64, ns)
		for s := range ns {
			for j := range nf {
				v := sv.At(s, j)
				svT[j*ns+s] = v
				sq[s] += v * v
			}
		}
		dot := g.matmul(x, g.doubles("sv_t", []int64{int64(nf), int64(ns)}, svT)) // [N, ns]
		var k string
		if kernel == svm.RBF {
			sqx := g.reduceSum(g.mul(x, x), true, 1) // [N, 1]
			d2 := g.sub(g.add(sqx, g.doubles("sv_sq", []int64{int64(ns)}, sq)), g.mul(dot, g.scalar("two", 2)))
			d2 = g.op("Max", []string{d2, g.scalar("zero", 0)})
			k = g.op("Exp", []string{g.mul(d2, g.scalar("neg_gamma", -gamma))})
		} else {
			base := g.add(g.mul(dot, g.scalar("gamma", gamma)), g.scalar("coef0", coef0))
			k = g.op("Pow", []string{base, g.scalar("degree", float64(degree))})
		}
		f = g.add(g.matmul(k, g.doubles("dual_coef", []int64{int64(ns), 1}, coef)), g.scalar("intercept", m.Intercept()))
	default:
		return "", c.unsupported("svm kernel %q", kernel)
	}
	// 1/(1+exp(A f + B)).
	return g.sigmoid(g.add(g.mul(f, g.scalar("platt_a", -a)), g.scalar("platt_b", -b))), nil
}

// forest is the mean of its trees' leaf probabilities: their sum divided
// by their number, as forest.Forest sums them.
func (c *converter) forest(f *forest.Forest, in *input) (string, error) {
	if len(f.Trees) == 0 {
		return "", c.wrap(fmt.Errorf("the forest has no trees"))
	}
	e := &treeSet{in: in}
	for k, t := range f.Trees {
		if err := e.addCART(t, 0); err != nil {
			return "", c.wrap(fmt.Errorf("tree %d: %w", k, err))
		}
	}
	sum := e.emit(c.g, 1)
	return c.g.div(sum, c.g.scalar("trees", float64(len(f.Trees)))), nil
}

// adaboost is the mean over ensembles of sigmoid(mean of the trees' leaf
// terms), as adaboost.Model scores a row.
func (c *converter) adaboost(es []*adaboost.Ensemble, in *input) (string, error) {
	g := c.g
	if len(es) == 0 {
		return "", c.wrap(fmt.Errorf("no ensembles"))
	}
	e := &treeSet{in: in}
	counts := make([]float64, len(es))
	for k, en := range es {
		if len(en.Trees) == 0 || len(en.Terms) != len(en.Trees) {
			return "", c.wrap(fmt.Errorf("ensemble %d has %d trees and %d leaf terms", k, len(en.Trees), len(en.Terms)))
		}
		for ti, t := range en.Trees {
			if err := e.addCARTValues(t, en.Terms[ti], int64(k)); err != nil {
				return "", c.wrap(fmt.Errorf("ensemble %d, tree %d: %w", k, ti, err))
			}
		}
		counts[k] = float64(len(en.Trees))
	}
	sum := e.emit(g, len(es))
	p := g.sigmoid(g.div(sum, g.doubles("trees", []int64{int64(len(es))}, counts)))
	if len(es) == 1 {
		return p, nil
	}
	return g.div(g.reduceSum(p, true, 1), g.scalar("ensembles", float64(len(es)))), nil
}
