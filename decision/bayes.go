package decision

import (
	"errors"
	"fmt"
	"math"

	"github.com/aer-go/aer/metrics"
)

// Threshold rules: how a layer's threshold is found on the validation
// rows.
const (
	// RuleTuned takes the candidate threshold where the objective is best
	// on the validation rows (Choose).
	RuleTuned = "tuned"
	// RuleBayes fits a sigmoid calibration on the validation rows and
	// takes the threshold where the calibrated probability equals the
	// objective's Bayes-optimal one (BayesProbability). Two parameters
	// fitted by likelihood on every validation row replace the best of a
	// few hundred candidates by a step-shaped metric on a few dozen
	// minority rows: less noise where the minority is rare.
	RuleBayes = "bayes"
)

// ErrNoBayes is returned for an objective without a closed-form
// Bayes-optimal probability threshold.
var ErrNoBayes = errors.New("decision: the objective has no Bayes-optimal probability threshold (balanced accuracy and costs have)")

// BayesProbability returns the probability above which predicting the
// positive class is optimal for o, given calibrated probabilities and the
// positive share prior of the population: for balanced accuracy, whose
// errors cost in inverse proportion to their class's share, the prior
// itself; for a cost, CostFP / (CostFN + CostFP).
func BayesProbability(o Objective, prior float64) (float64, error) {
	switch {
	case o.CostFN+o.CostFP > 0:
		return o.CostFP / (o.CostFN + o.CostFP), nil
	case o.MinRecall == 0 && o.Metric == metrics.BalancedAccuracy:
		if !(prior > 0 && prior < 1) {
			return 0, fmt.Errorf("decision: positive share %v is not in (0, 1)", prior)
		}
		return prior, nil
	}
	return 0, fmt.Errorf("%w: %s", ErrNoBayes, o)
}

// Inverse returns the score at which the sigmoid calibration c gives
// probability p, and false when c is not a sigmoid or does not increase
// with the score (then no threshold on the score is one on p).
func (c *Calibration) Inverse(p float64) (float64, bool) {
	if c.Method != Sigmoid || !(c.A < 0) || !(p > 0 && p < 1) {
		return 0, false
	}
	// Apply is 1/(1+exp(A f + B)): p there at A f + B = log((1-p)/p).
	f := (math.Log((1-p)/p) - c.B) / c.A
	if c.Logit {
		return 1 / (1 + math.Exp(-f)), true
	}
	return f, true
}

// FitBayesLayer fits a layer by RuleBayes on validation labels y, the
// model's scores and optional row weights w, with the calibration not
// kept: a sigmoid calibration finds the score where the calibrated
// probability reaches o's Bayes-optimal one, and the threshold applies to
// the raw scores, which it orders the same way (FitBayes with None).
func FitBayesLayer(y []int, score, w []float64, o Objective, prior float64) (*Layer, error) {
	return FitBayes(y, score, w, o, prior, None)
}

// FitBayes fits a layer by RuleBayes on validation labels y, the model's
// scores and optional row weights w: a calibration of the scores
// (calibrate is Sigmoid, "" too, or Isotonic), kept in the layer, and the
// threshold at o's Bayes-optimal probability on the calibrated scale; or,
// with calibrate None, a sigmoid calibration that is not kept and the
// raw score where it reaches that probability. prior is the population's
// positive share for balanced accuracy (<= 0: the validation rows'
// weighted share). Where a sigmoid calibration does not increase with the
// score, it falls back to RuleTuned on the raw scores.
func FitBayes(y []int, score, w []float64, o Objective, prior float64, calibrate string) (*Layer, error) {
	if err := metrics.Validate(y, score, nil, w); err != nil {
		return nil, err
	}
	if prior <= 0 {
		prior = positiveShare(y, w)
	}
	p, err := BayesProbability(o, prior)
	if err != nil {
		return nil, err
	}
	method := calibrate
	if method == "" || method == None {
		method = Sigmoid
	}
	c, err := Calibrate(method, y, score, w)
	if err != nil {
		return nil, err
	}
	l := &Layer{Objective: o.String(), Rule: RuleBayes}
	s := score
	if calibrate == None {
		t, ok := c.Inverse(p)
		if !ok {
			return FitLayer(y, score, w, o, "")
		}
		l.Threshold = t
	} else {
		if c.Method == Sigmoid && !(c.A < 0) {
			return FitLayer(y, score, w, o, "")
		}
		l.Calibration, l.Threshold = c, p
		s = make([]float64, len(score))
		for i, v := range score {
			s[i] = c.Apply(v)
		}
	}
	l.Value = o.value(metrics.FromScores(y, s, l.Threshold, w))
	if o.CostFN+o.CostFP > 0 {
		l.Value = -l.Value
	}
	return l, nil
}

// positiveShare is the weighted share of label 1 in y.
func positiveShare(y []int, w []float64) float64 {
	var pos, all float64
	for i, v := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		all += wi
		pos += wi * float64(v)
	}
	return pos / all
}
