package adaptive

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
)

// Attribute returns feature attributions of the rows of x (raw features,
// NaN = missing), the learn.Attributor contract. Every member attributes
// its own output on the imputed, standardised rows it sees (feature j of
// those rows is raw feature j), and the row's attribution is the
// combination of its members' with the row's mixed weights w*(x):
//
//   - LogitSpace (preset plus): the score is sigmoid(s) with
//     s = sum_j w*_j(x) z_j(x), z_j = logit f_j(x) clipped to
//     [eps, 1-eps]. Each member's attribution is moved to logit space
//     (logit-space members, boosted trees and logistic regression, keep
//     their SHAP values unchanged unless the clip is in effect), and
//     phi(x) = sum_j w*_j(x) phi_j(x), base(x) = sum_j w*_j(x) base_j, so
//     base(x) + sum(phi(x)) = s = logit(score). Space is learn.Logit.
//   - ProbabilitySpace (preset paper, dynens): the score is
//     sum_j w*_j(x) f_j(x). Each member's logit-space SHAP values are
//     scaled by (f_j(x) - sigmoid(base_j)) / (logit f_j(x) - base_j) so
//     they sum to f_j(x) - sigmoid(base_j) (signs and ranking of each
//     member's values kept), base_j becomes sigmoid(base_j), and the
//     combination is as above: base(x) + sum(phi(x)) = score. Space is
//     learn.Probability.
//
// What holds: the attribution is an exact decomposition of the output,
// and each member's part is SHAP of that member (rescaled as said); the
// base varies with x because the weights do. It is not the Shapley value
// of the AER function: how x moves the weights w*(x) through the mixture
// is not attributed to features. A member whose method has no attributions
// is an error naming it.
func (m *Model) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	if err := m.checkInput(x); err != nil {
		return nil, err
	}
	xt := m.prepare(x)
	rows, nf := xt.Dims()
	f, logDens, err := m.outputs(xt, 1)
	if err != nil {
		return nil, err
	}
	mixed, err := m.combiner.Mixed(nil, logDens)
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	logit := m.combiner.Space == ensemble.LogitSpace
	eps := m.combiner.OutputEps()
	out := &learn.Attribution{Space: learn.Probability, Base: make([]float64, rows), Phi: mat.NewDense(rows, nf, nil),
		Method: "the members' attributions (those in logit space rescaled to sum to f_j(x) - sigmoid(base_j)) combined with the row's mixed weights w*(x), an exact decomposition of the score; " + notShapley}
	if logit {
		out.Space = learn.Logit
		out.Method = "the members' attributions combined with the row's mixed weights w*(x), an exact decomposition of the score's logit; " + notShapley
	}
	for j, mb := range m.members {
		a, err := learn.AttributeInner(mb.Model, xt)
		if err != nil {
			if errors.Is(err, learn.ErrNoAttribution) {
				return nil, fmt.Errorf("aer: member %d (%s, method %s) has no feature attributions, so the ensemble has none: %w", j, m.memberName(j), mb.Method, err)
			}
			return nil, fmt.Errorf("aer: member %d (%s): %w", j, m.memberName(j), err)
		}
		if r, c := a.Phi.Dims(); r != rows || c != nf || len(a.Base) != rows {
			return nil, fmt.Errorf("aer: member %d gave %dx%d attributions for %dx%d rows", j, r, c, rows, nf)
		}
		for i := range rows {
			w := mixed.At(i, j)
			if w == 0 {
				continue
			}
			base, scale := toSpace(a, i, f.At(i, j), logit, eps)
			out.Base[i] += w * base
			phi, dst := a.Phi.RawRowView(i), out.Phi.RawRowView(i)
			for k, v := range phi {
				dst[k] += w * scale * v
			}
		}
	}
	return out, nil
}

// notShapley says what the AER attribution is not.
const notShapley = "not the Shapley value of the AER function (how x moves the weights is not attributed; the base moves with them)"

// toSpace maps member attribution a of row i to the combination's space:
// the new base g(b) and the factor r of the values, where g takes the
// member's output to the space (logit of the clipped probability, or the
// probability) and r = (Z - g(b)) / (o - b), with o = b + sum(phi) the
// member's output, Z the combiner's value for its probability p (logit p
// clipped, or p), so that the values then sum to Z - g(b). When o = b the
// values sum to 0 and r is g's slope at b.
func toSpace(a *learn.Attribution, i int, p float64, logit bool, eps float64) (base, r float64) {
	b, o := a.Base[i], a.Output(i)
	var z, gb, slope float64
	switch {
	case logit && a.Space == learn.Logit:
		hi := logitOf(1 - eps)
		z, gb = logitOf(clip(p, eps)), math.Max(-hi, math.Min(hi, b))
		if math.Abs(o) < hi && math.Abs(b) < hi {
			return b, 1 // no clipping: the member's SHAP values as they are
		}
		slope = 0
		if math.Abs(b) < hi {
			slope = 1
		}
	case logit: // probability-space member
		z, gb = logitOf(clip(p, eps)), logitOf(clip(b, eps))
		slope = 0
		if b > eps && b < 1-eps {
			slope = 1 / (b * (1 - b))
		}
	case a.Space == learn.Logit: // probability combination of a logit-space member
		z, gb = p, sigmoid(b)
		slope = gb * (1 - gb)
	default:
		return b, 1
	}
	if d := o - b; math.Abs(d) > 1e-12*math.Max(1, math.Abs(o)) {
		return gb, (z - gb) / d
	}
	return gb, slope
}

func clip(p, eps float64) float64 { return math.Min(1-eps, math.Max(eps, p)) }

func logitOf(p float64) float64 { return math.Log(p / (1 - p)) }

func sigmoid(v float64) float64 {
	if v >= 0 {
		return 1 / (1 + math.Exp(-v))
	}
	e := math.Exp(v)
	return e / (1 + e)
}

// memberName is member j's name as Breakdown shows it.
func (m *Model) memberName(j int) string {
	if n := m.members[j].Name; n != "" {
		return n
	}
	kind := "global"
	if j%2 == 1 {
		kind = "local"
	}
	return fmt.Sprintf("%s %d", kind, j/2)
}
