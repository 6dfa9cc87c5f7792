package onnx

import (
	"fmt"
	"math"

	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/mixture"
)

// aer is the AER model's score: imputation by the training means,
// standardisation, every member's probability (the boosted members'
// margins from one tree ensemble, one target per member), the mixture's
// component log-densities, the dynamic weights mixed with the static
// ones, and the combination in probability or logit space, each step as
// packages adaptive, mixture and ensemble compute it.
func (c *converter) aer(m *adaptive.Model, outer *input) (string, error) {
	g := c.g
	in, err := outer.with(stage{m.Means(), m.Scaler()})
	if err != nil {
		return "", c.wrap(err)
	}
	members := m.Members()
	cb := m.Combiner()
	mix := m.Mixture()
	if len(members) == 0 || len(cb.Static) != len(members) {
		return "", c.wrap(fmt.Errorf("%d members and %d static weights", len(members), len(cb.Static)))
	}

	// The members' probabilities, [N, members] in member order: the
	// boosted members first (one ensemble), then the others one by one,
	// then gathered into member order.
	var boosted []*boost.Model
	var parts []string
	pos := make([]int64, len(members)) // column of member j among the parts
	for j, mb := range members {
		if bf, ok := mb.Model.(*boost.Fitted); ok {
			pos[j] = int64(len(boosted))
			boosted = append(boosted, bf.Model)
		}
	}
	if len(boosted) > 0 {
		mg, err := c.boostMargins(boosted, in)
		if err != nil {
			return "", err
		}
		parts = append(parts, g.sigmoid(mg))
	}
	col := int64(len(boosted))
	for j, mb := range members {
		if _, ok := mb.Model.(*boost.Fitted); ok {
			continue
		}
		p, err := c.proba(mb.Model, in)
		if err != nil {
			return "", fmt.Errorf("member %d (%s): %w", j, mb.Method, err)
		}
		parts = append(parts, p)
		pos[j] = col
		col++
	}
	f := g.concat(1, parts...)
	if !inOrder(pos) {
		f = g.gather(f, pos, 1)
	}
	z := f
	if cb.Space == ensemble.LogitSpace {
		z = g.logit(f, cb.OutputEps())
	} else if cb.Space != ensemble.ProbabilitySpace {
		return "", c.unsupported("combination space %v", cb.Space)
	}

	// Static part w.z and dynamic part d(x).z, mixed by lambda.
	if err := checkFinite("static weight", append([]float64{cb.Lambda}, cb.Static...)...); err != nil {
		return "", c.wrap(err)
	}
	stat := g.matmul(z, g.doubles("static_w", []int64{int64(len(cb.Static)), 1}, cb.Static))
	s := stat
	if cb.Lambda != 0 {
		comp, err := c.componentWeights(mix, cb.Dynamic, in)
		if err != nil {
			return "", err
		}
		d, err := c.memberWeights(comp, cb.Owner, len(members), mix.K())
		if err != nil {
			return "", err
		}
		dyn := g.reduceSum(g.mul(d, z), true, 1)
		s = g.add(g.mul(dyn, g.scalar("lambda", cb.Lambda)), g.mul(stat, g.scalar("one_minus_lambda", 1-cb.Lambda)))
	}
	if cb.Space == ensemble.LogitSpace {
		return g.sigmoid(s), nil
	}
	return g.clip(s, 0, 1), nil
}

func inOrder(pos []int64) bool {
	for j, p := range pos {
		if p != int64(j) {
			return false
		}
	}
	return true
}

// componentWeights is the [N, L] likelihood weights l* of the rows of xs
// (the standardised features) by the dynamic rule, from the mixture's
// component log-densities plus the log mixture weights when the rule has
// them.
func (c *converter) componentWeights(mix *mixture.Model, dyn ensemble.DynamicSettings, in *input) (string, error) {
	g := c.g
	L := mix.K()
	if dyn.Rule == ensemble.Uniform {
		// 1/L each: a row of the log-densities' shape filled with it.
		ld, err := c.logDensities(mix, in)
		if err != nil {
			return "", err
		}
		return g.op("Expand", []string{g.doubles("uniform", []int64{1, int64(L)}, fill(L, 1/float64(L))), g.op("Shape", []string{ld})}), nil
	}
	a, err := c.logDensities(mix, in)
	if err != nil {
		return "", err
	}
	if dyn.LogPi != nil {
		if len(dyn.LogPi) != L {
			return "", c.wrap(fmt.Errorf("%d log mixture weights for %d components", len(dyn.LogPi), L))
		}
		a = g.add(a, g.doubles("log_pi", []int64{int64(L)}, dyn.LogPi))
	}
	soft := func(a string, t float64) string {
		if t != 1 {
			a = g.div(a, g.scalar("temperature", t))
		}
		p := g.op("Softmax", []string{a}, intAttr("axis", 1))
		// Every log-density -Inf (underflowed): uniform weights, as
		// package ensemble gives them.
		return g.op("Where", []string{g.op("IsNaN", []string{p}), g.scalar("uniform", 1/float64(L)), p})
	}
	switch dyn.Rule {
	case ensemble.Exp:
		return soft(a, 1), nil
	case ensemble.Tempered:
		t := dyn.T
		if t == 0 {
			t = 1
		}
		if !(t > 0) || math.IsInf(t, 0) {
			return "", c.wrap(fmt.Errorf("temperature %v", t))
		}
		return soft(a, t), nil
	case ensemble.Log:
		// log N_l / sum_j log N_j where every ratio lies in [0, 1] and
		// the sum is finite and not 0, else the softmax.
		sum := g.reduceSum(a, true, 1)
		r := g.div(a, sum)
		in := g.op("And", []string{
			g.op("GreaterOrEqual", []string{r, g.scalar("zero", 0)}),
			g.op("LessOrEqual", []string{r, g.scalar("one", 1)}),
		})
		all := g.op("ReduceMin", []string{g.op("Cast", []string{in}, intAttr("to", typeDouble))}, intsAttr("axes", []int64{1}), intAttr("keepdims", 1))
		ok := g.op("And", []string{
			g.op("Equal", []string{all, g.scalar("one", 1)}),
			g.op("Not", []string{g.op("IsInf", []string{sum})}),
		})
		ok = g.op("And", []string{ok, g.op("Not", []string{g.op("Equal", []string{sum, g.scalar("zero", 0)})})})
		return g.op("Where", []string{ok, r, soft(a, 1)}), nil
	}
	return "", c.unsupported("dynamic rule %v", dyn.Rule)
}

// memberWeights spreads the component weights comp ([N, L]) over the
// members: member j of component l gets comp[l] divided by the number of
// members of l, a member of no component 0.
func (c *converter) memberWeights(comp string, owner []int, members, L int) (string, error) {
	g := c.g
	own := owner
	if own == nil {
		if members != 2*L {
			return "", c.wrap(fmt.Errorf("%d members for %d components", members, L))
		}
		own = make([]int, members)
		for j := range own {
			own[j] = j / 2
		}
	}
	if len(own) != members {
		return "", c.wrap(fmt.Errorf("owner of %d entries for %d members", len(own), members))
	}
	cnt := make([]float64, L)
	for j, l := range own {
		if l < -1 || l >= L {
			return "", c.wrap(fmt.Errorf("member %d belongs to component %d of %d", j, l, L))
		}
		if l >= 0 {
			cnt[l]++
		}
	}
	idx := make([]int64, members)
	div := make([]float64, members)
	mask := make([]float64, members)
	for j, l := range own {
		if l < 0 {
			idx[j], div[j], mask[j] = 0, 1, 0
			continue
		}
		idx[j], div[j], mask[j] = int64(l), cnt[l], 1
	}
	d := g.div(g.gather(comp, idx, 1), g.doubles("members_per_component", []int64{int64(members)}, div))
	for _, v := range mask {
		if v == 0 {
			return g.mul(d, g.doubles("owned", []int64{int64(members)}, mask)), nil
		}
	}
	return d, nil
}

// logDensities is the [N, K] log N(x | mu_k, Sigma_k) of the rows of xs:
// -d/2 log(2 pi) + log det W_k - |W_k (x - mu_k)|^2 / 2, with W_k the
// inverse Cholesky factor of the covariance (mixture.PrecisionCholesky).
func (c *converter) logDensities(mix *mixture.Model, in *input) (string, error) {
	g := c.g
	xs, nf := in.features(g), in.nf
	K, d := mix.K(), mix.Dim()
	if d != nf {
		return "", c.wrap(fmt.Errorf("the mixture has %d features, the model %d", d, nf))
	}
	prec, logDet := mix.PrecisionCholesky()
	if len(prec) != K || len(logDet) != K {
		return "", c.wrap(fmt.Errorf("the mixture is not prepared"))
	}
	mu := make([]float64, 0, K*d)
	for _, m := range mix.Means {
		mu = append(mu, m...)
	}
	if len(mu) != K*d {
		return "", c.wrap(fmt.Errorf("the mixture has %d mean values for %d components of %d features", len(mu), K, d))
	}
	diff := g.sub(g.unsqueeze(xs, 1), g.doubles("mixture_mean", []int64{int64(K), int64(d)}, mu)) // [N, K, d]
	var q string
	switch mix.Covariance {
	case mixture.Full, mixture.Tied:
		// Row vectors (x - mu_k)^T W_k^T: one batched MatMul.
		wt := make([]float64, K*d*d)
		for k := range K {
			for i := range d {
				for j := range d {
					wt[k*d*d+j*d+i] = prec[k][i*d+j]
				}
			}
		}
		y := g.matmul(g.unsqueeze(diff, 2), g.doubles("prec_chol_t", []int64{int64(K), int64(d), int64(d)}, wt)) // [N, K, 1, d]
		q = g.reduceSumSquare(y, false, 2, 3)
	case mixture.Diag:
		p := make([]float64, 0, K*d)
		for _, v := range prec {
			p = append(p, v...)
		}
		q = g.reduceSumSquare(g.mul(diff, g.doubles("prec_diag", []int64{int64(K), int64(d)}, p)), false, 2)
	case mixture.Spherical:
		p := make([]float64, K)
		for k, v := range prec {
			p[k] = v[0]
		}
		pk := g.doubles("prec_sph", []int64{int64(K)}, p)
		q = g.mul(g.mul(g.reduceSumSquare(diff, false, 2), pk), pk)
	default:
		return "", c.unsupported("mixture covariance %v", mix.Covariance)
	}
	c0 := -0.5 * float64(d) * math.Log(2*math.Pi)
	cst := make([]float64, K)
	for k := range K {
		cst[k] = c0 + logDet[k]
	}
	return g.sub(g.doubles("log_norm", []int64{int64(K)}, cst), g.mul(q, g.scalar("half", 0.5))), nil
}

func fill(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
