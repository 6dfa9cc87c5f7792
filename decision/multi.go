package decision

import (
	"errors"
	"fmt"
	"math"

	"github.com/aer-go/aer/metrics"
)

// Rules of a multi-class decision (MultiLayer.Rule).
const (
	// MultiArgmax predicts each row's most probable class.
	MultiArgmax = "argmax"
	// MultiBayes predicts the class of largest probability over its
	// training share, p_c / pi_c: the Bayes-optimal decision for balanced
	// accuracy when the probabilities are calibrated (prior correction).
	MultiBayes = RuleBayes
	// MultiTuned predicts the class of largest w_c p_c, the weights
	// tuned on the validation rows for balanced accuracy (coordinate
	// ascent from the Bayes weights).
	MultiTuned = RuleTuned
)

// MultiLayer is the decision of a multi-class model: a row is predicted
// as the class c of largest Weights[c] times its probability (the
// first on ties). A model file keeps it in its header.
type MultiLayer struct {
	Rule    string    `json:"rule"`
	Weights []float64 `json:"weights"`
}

// Check reports a layer that cannot decide: no weights, or one that is
// not positive and finite.
func (l *MultiLayer) Check() error {
	if len(l.Weights) < 2 {
		return fmt.Errorf("decision: multi-class layer of %d weights", len(l.Weights))
	}
	switch l.Rule {
	case MultiArgmax, MultiBayes, MultiTuned:
	default:
		return fmt.Errorf("decision: multi-class rule %q: want argmax, bayes or tuned", l.Rule)
	}
	for c, w := range l.Weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("decision: multi-class weight %d is %v, want a positive number", c, w)
		}
	}
	return nil
}

// Predict writes the decision for each row of proba (row-major,
// len(Weights) per row) into pred.
func (l *MultiLayer) Predict(proba []float64, pred []int) {
	k := len(l.Weights)
	for i := range pred {
		row := proba[i*k : (i+1)*k]
		best, bv := 0, math.Inf(-1)
		for c, p := range row {
			if v := l.Weights[c] * p; v > bv {
				best, bv = c, v
			}
		}
		pred[i] = best
	}
}

// ErrMultiRule is wrapped by FitMulti's errors about its rule.
var ErrMultiRule = errors.New("decision: multi-class rule")

// FitMulti fits the multi-class decision: rule MultiArgmax (weights 1),
// MultiBayes ("" too: 1 / the model's prior of each class, its mean
// probability proba over the validation rows when there are any, else
// the class's weighted share of the training labels ytrain, weights
// wtrain), or MultiTuned (from the Bayes weights,
// each class's weight in turn set to the value of a log grid that gives
// the best balanced accuracy of the validation rows' probabilities
// proba with labels yvalid, until no change helps).
func FitMulti(rule string, k int, ytrain []int, wtrain []float64, yvalid []int, proba []float64) (*MultiLayer, error) {
	l := &MultiLayer{Rule: rule, Weights: make([]float64, k)}
	if rule == "" {
		l.Rule = MultiBayes
	}
	if l.Rule == MultiArgmax {
		for c := range l.Weights {
			l.Weights[c] = 1
		}
		return l, nil
	}
	share := make([]float64, k)
	total := 0.0
	for i, y := range ytrain {
		w := 1.0
		if wtrain != nil {
			w = wtrain[i]
		}
		share[y] += w
		total += w
	}
	for c := range l.Weights {
		if share[c] <= 0 {
			return nil, fmt.Errorf("%w: class %d has no training weight", ErrMultiRule, c)
		}
		l.Weights[c] = total / share[c]
	}
	switch l.Rule {
	case MultiBayes:
		if prior := meanProba(proba, len(yvalid), k); prior != nil {
			// The model's own prior, its mean probability of each class
			// on the validation rows (which follow the data's classes):
			// a model whose class weights or sampling shifted its
			// probabilities away from the training shares is not
			// corrected twice (Saerens et al.'s prior adjustment).
			for c := range l.Weights {
				l.Weights[c] = 1 / prior[c]
			}
		}
	case MultiTuned:
		if len(yvalid) == 0 || len(proba) != len(yvalid)*k {
			return nil, fmt.Errorf("%w: tuned needs validation rows", ErrMultiRule)
		}
		tuneWeights(l, yvalid, proba)
	default:
		return nil, fmt.Errorf("%w: %q: want argmax, bayes or tuned", ErrMultiRule, rule)
	}
	return l, l.Check()
}

// tuneWeights raises the validation balanced accuracy of l by
// coordinate ascent over each weight's multiples 2^(j/4), j = -8..8.
func tuneWeights(l *MultiLayer, y []int, proba []float64) {
	k := len(l.Weights)
	pred := make([]int, len(y))
	score := func() float64 {
		l.Predict(proba, pred)
		r, err := metrics.EvaluateMulti(y, pred, nil, k, nil)
		if err != nil {
			return math.Inf(-1)
		}
		return r.BalancedAccuracy
	}
	best := score()
	for round := 0; round < 10; round++ {
		improved := false
		for c := range k {
			base := l.Weights[c]
			bw := base
			for j := -8; j <= 8; j++ {
				if j == 0 {
					continue
				}
				l.Weights[c] = base * math.Exp2(float64(j)/4)
				if s := score(); s > best+1e-12 {
					best, bw, improved = s, l.Weights[c], true
				}
			}
			l.Weights[c] = bw
		}
		if !improved {
			break
		}
	}
}

// meanProba returns the mean probability of each class over the n rows
// of proba, or nil when there are none or a class's mean is 0.
func meanProba(proba []float64, n, k int) []float64 {
	if n == 0 || len(proba) != n*k {
		return nil
	}
	m := make([]float64, k)
	for i := range n {
		for c := range k {
			m[c] += proba[i*k+c]
		}
	}
	for c := range m {
		if !(m[c] > 0) || math.IsInf(m[c], 0) {
			return nil
		}
		m[c] /= float64(n)
	}
	return m
}
