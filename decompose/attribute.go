package decompose

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// AttributeClasses returns, for each class c of a one-vs-rest model, the
// attributions of member c's score, class c against the rest, as the
// binary model would give them (learn.ClassAttributor): behind its
// decision layer's sigmoid calibration on the log-odds, the calibrated
// log-odds (see decision.Attach), else the member's own (the log-odds,
// or the probability for trees and forests). Base + sum is then member
// c's output in that space; the class probabilities are the members'
// calibrated probabilities normalised to sum to 1, so a value that raises
// class c's output raises its probability against the others. A member
// without attributions, or whose calibration does not map them, gives an
// error wrapping learn.ErrNoAttribution naming the class.
//
// A one-vs-one model gives an error wrapping learn.ErrNoAttribution: its
// class probabilities are coupled from the pairwise ones by an iterative
// fit, so no class's output is a sum over members and there is no
// additive per-class decomposition to give.
func (m *Model) AttributeClasses(x *mat.Dense) ([]*learn.Attribution, error) {
	if _, c := x.Dims(); c != m.nf {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.nf)
	}
	if m.Strategy != OneVsRest {
		return nil, fmt.Errorf("%w: a one-vs-one model couples its pairwise probabilities into class probabilities by an iterative fit, which no per-class sum of feature attributions decomposes", learn.ErrNoAttribution)
	}
	out := make([]*learn.Attribution, m.K)
	for c := range m.Members {
		mb := &m.Members[c]
		a, err := learn.AttributeInner(mb.scorer(), x)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", pairName([2]int{mb.A, mb.B}), err)
		}
		a.Method = "each class's one-vs-rest member, the class against the rest: " + a.Method
		out[mb.A] = a
	}
	return out, nil
}

var _ learn.ClassAttributor = (*Model)(nil)
