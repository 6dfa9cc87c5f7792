package adaptive

import (
	"fmt"
	"math"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/mixture"
)

// BuildONNX adds the model's graph (onnx.Exporter), its score:
// imputation by the training means, standardisation, every member's
// probability (the boosted members' margins from one tree ensemble, one
// target per member, boost.ONNXMargins; the others' graphs by b.Proba),
// the mixture's component log-densities, the dynamic weights mixed with
// the static ones, and the combination in probability or logit space,
// each step as this package and packages mixture and ensemble compute
// it.
func (m *Model) BuildONNX(b *onnx.Builder, outer *onnx.Features) (onnx.Value, error) {
	in, err := outer.With(m.Means(), m.Scaler())
	if err != nil {
		return "", b.Wrap(err)
	}
	members := m.Members()
	cb := m.Combiner()
	mix := m.Mixture()
	if len(members) == 0 || len(cb.Static) != len(members) {
		return "", b.Wrap(fmt.Errorf("%d members and %d static weights", len(members), len(cb.Static)))
	}

	// The members' probabilities, [N, members] in member order: the
	// boosted members first (one ensemble), then the others one by one,
	// then gathered into member order.
	var boosted []*boost.Model
	var parts []onnx.Value
	pos := make([]int64, len(members)) // column of member j among the parts
	for j, mb := range members {
		if bf, ok := mb.Model.(*boost.Fitted); ok {
			pos[j] = int64(len(boosted))
			boosted = append(boosted, bf.Model)
		}
	}
	if len(boosted) > 0 {
		mg, err := boost.ONNXMargins(b, boosted, in)
		if err != nil {
			return "", err
		}
		parts = append(parts, b.Sigmoid(mg))
	}
	col := int64(len(boosted))
	for j, mb := range members {
		if _, ok := mb.Model.(*boost.Fitted); ok {
			continue
		}
		p, err := b.Proba(mb.Model, in)
		if err != nil {
			return "", fmt.Errorf("member %d (%s): %w", j, mb.Method, err)
		}
		parts = append(parts, p)
		pos[j] = col
		col++
	}
	f := b.Concat(1, parts...)
	if !inOrder(pos) {
		f = b.Gather(f, pos, 1)
	}
	z := f
	if cb.Space == ensemble.LogitSpace {
		z = b.Logit(f, cb.OutputEps())
	} else if cb.Space != ensemble.ProbabilitySpace {
		return "", b.Unsupported("combination space %v", cb.Space)
	}

	// Static part w.z and dynamic part d(x).z, mixed by lambda.
	if err := onnx.CheckFinite("static weight", append([]float64{cb.Lambda}, cb.Static...)...); err != nil {
		return "", b.Wrap(err)
	}
	stat := b.MatMul(z, b.Doubles("static_w", []int64{int64(len(cb.Static)), 1}, cb.Static))
	s := stat
	if cb.Lambda != 0 {
		comp, err := componentWeightsONNX(b, mix, cb.Dynamic, in)
		if err != nil {
			return "", err
		}
		d, err := memberWeightsONNX(b, comp, cb.Owner, len(members), mix.K())
		if err != nil {
			return "", err
		}
		dyn := b.ReduceSum(b.Mul(d, z), true, 1)
		s = b.Add(b.Mul(dyn, b.Scalar("lambda", cb.Lambda)), b.Mul(stat, b.Scalar("one_minus_lambda", 1-cb.Lambda)))
	}
	if cb.Space == ensemble.LogitSpace {
		return b.Sigmoid(s), nil
	}
	return b.Clip(s, 0, 1), nil
}

func inOrder(pos []int64) bool {
	for j, p := range pos {
		if p != int64(j) {
			return false
		}
	}
	return true
}

// componentWeightsONNX is the [N, L] likelihood weights l* of the rows of xs
// (the standardised features) by the dynamic rule, from the mixture's
// component log-densities plus the log mixture weights when the rule has
// them.
func componentWeightsONNX(b *onnx.Builder, mix *mixture.Model, dyn ensemble.DynamicSettings, in *onnx.Features) (onnx.Value, error) {
	L := mix.K()
	if dyn.Rule == ensemble.Uniform {
		// 1/L each: a row of the log-densities' shape filled with it.
		ld, err := logDensitiesONNX(b, mix, in)
		if err != nil {
			return "", err
		}
		return b.Op("Expand", []onnx.Value{b.Filled("uniform", []int64{1, int64(L)}, 1/float64(L)), b.Op("Shape", []onnx.Value{ld})}), nil
	}
	a, err := logDensitiesONNX(b, mix, in)
	if err != nil {
		return "", err
	}
	if dyn.LogPi != nil {
		if len(dyn.LogPi) != L {
			return "", b.Wrap(fmt.Errorf("%d log mixture weights for %d components", len(dyn.LogPi), L))
		}
		a = b.Add(a, b.Doubles("log_pi", []int64{int64(L)}, dyn.LogPi))
	}
	soft := func(a onnx.Value, t float64) onnx.Value {
		if t != 1 {
			a = b.Div(a, b.Scalar("temperature", t))
		}
		p := b.Op("Softmax", []onnx.Value{a}, onnx.IntAttr("axis", 1))
		// Every log-density -Inf (underflowed): uniform weights, as
		// package ensemble gives them.
		return b.Op("Where", []onnx.Value{b.Op("IsNaN", []onnx.Value{p}), b.Scalar("uniform", 1/float64(L)), p})
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
			return "", b.Wrap(fmt.Errorf("temperature %v", t))
		}
		return soft(a, t), nil
	case ensemble.Log:
		// log N_l / sum_j log N_j where every ratio lies in [0, 1] and
		// the sum is finite and not 0, else the softmax.
		sum := b.ReduceSum(a, true, 1)
		r := b.Div(a, sum)
		in := b.Op("And", []onnx.Value{
			b.Op("GreaterOrEqual", []onnx.Value{r, b.Scalar("zero", 0)}),
			b.Op("LessOrEqual", []onnx.Value{r, b.Scalar("one", 1)}),
		})
		all := b.Op("ReduceMin", []onnx.Value{b.CastDouble(in)}, onnx.IntsAttr("axes", []int64{1}), onnx.IntAttr("keepdims", 1))
		ok := b.Op("And", []onnx.Value{
			b.Op("Equal", []onnx.Value{all, b.Scalar("one", 1)}),
			b.Op("Not", []onnx.Value{b.Op("IsInf", []onnx.Value{sum})}),
		})
		ok = b.Op("And", []onnx.Value{ok, b.Op("Not", []onnx.Value{b.Op("Equal", []onnx.Value{sum, b.Scalar("zero", 0)})})})
		return b.Op("Where", []onnx.Value{ok, r, soft(a, 1)}), nil
	}
	return "", b.Unsupported("dynamic rule %v", dyn.Rule)
}

// memberWeightsONNX spreads the component weights comp ([N, L]) over the
// members: member j of component l gets comp[l] divided by the number of
// members of l, a member of no component 0.
func memberWeightsONNX(b *onnx.Builder, comp onnx.Value, owner []int, members, L int) (onnx.Value, error) {
	own := owner
	if own == nil {
		if members != 2*L {
			return "", b.Wrap(fmt.Errorf("%d members for %d components", members, L))
		}
		own = make([]int, members)
		for j := range own {
			own[j] = j / 2
		}
	}
	if len(own) != members {
		return "", b.Wrap(fmt.Errorf("owner of %d entries for %d members", len(own), members))
	}
	cnt := make([]float64, L)
	for j, l := range own {
		if l < -1 || l >= L {
			return "", b.Wrap(fmt.Errorf("member %d belongs to component %d of %d", j, l, L))
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
	d := b.Div(b.Gather(comp, idx, 1), b.Doubles("members_per_component", []int64{int64(members)}, div))
	for _, v := range mask {
		if v == 0 {
			return b.Mul(d, b.Doubles("owned", []int64{int64(members)}, mask)), nil
		}
	}
	return d, nil
}

// logDensitiesONNX is the [N, K] log N(x | mu_k, Sigma_k) of the rows of xs:
// -d/2 log(2 pi) + log det W_k - |W_k (x - mu_k)|^2 / 2, with W_k the
// inverse Cholesky factor of the covariance (mixture.PrecisionCholesky).
func logDensitiesONNX(b *onnx.Builder, mix *mixture.Model, in *onnx.Features) (onnx.Value, error) {
	if mix.Family != mixture.Gaussian {
		// The graph computes Gaussian densities; a t mixture is refused.
		return "", b.Unsupported("mixture family %v", mix.Family)
	}
	xs, nf := in.Values(b), in.Len()
	K, d := mix.K(), mix.Dim()
	if d != nf {
		return "", b.Wrap(fmt.Errorf("the mixture has %d features, the model %d", d, nf))
	}
	prec, logDet := mix.PrecisionCholesky()
	if len(prec) != K || len(logDet) != K {
		return "", b.Wrap(fmt.Errorf("the mixture is not prepared"))
	}
	mu := make([]float64, 0, K*d)
	for _, m := range mix.Means {
		mu = append(mu, m...)
	}
	if len(mu) != K*d {
		return "", b.Wrap(fmt.Errorf("the mixture has %d mean values for %d components of %d features", len(mu), K, d))
	}
	diff := b.Sub(b.Unsqueeze(xs, 1), b.Doubles("mixture_mean", []int64{int64(K), int64(d)}, mu)) // [N, K, d]
	var q onnx.Value
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
		y := b.MatMul(b.Unsqueeze(diff, 2), b.Doubles("prec_chol_t", []int64{int64(K), int64(d), int64(d)}, wt)) // [N, K, 1, d]
		q = b.ReduceSumSquare(y, false, 2, 3)
	case mixture.Diag:
		p := make([]float64, 0, K*d)
		for _, v := range prec {
			p = append(p, v...)
		}
		q = b.ReduceSumSquare(b.Mul(diff, b.Doubles("prec_diag", []int64{int64(K), int64(d)}, p)), false, 2)
	case mixture.Spherical:
		p := make([]float64, K)
		for k, v := range prec {
			p[k] = v[0]
		}
		pk := b.Doubles("prec_sph", []int64{int64(K)}, p)
		q = b.Mul(b.Mul(b.ReduceSumSquare(diff, false, 2), pk), pk)
	default:
		return "", b.Unsupported("mixture covariance %v", mix.Covariance)
	}
	c0 := -0.5 * float64(d) * math.Log(2*math.Pi)
	cst := make([]float64, K)
	for k := range K {
		cst[k] = c0 + logDet[k]
	}
	return b.Sub(b.Doubles("log_norm", []int64{int64(K)}, cst), b.Mul(q, b.Scalar("half", 0.5))), nil
}
