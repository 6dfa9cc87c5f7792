package decision

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

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
	// MultiCost predicts the class of least expected cost under the
	// model's probabilities, sum over i of p_i Cost[i][c]: the Bayes
	// decision for a cost matrix.
	MultiCost = "cost"
)

// Metrics a multi-class decision is tuned for (MultiOptions.Metric).
const (
	MultiBalancedAccuracy = "balanced_accuracy"
	MultiMacroF1          = "macro_f1"
	MultiGMean            = "gmean"
)

// MultiOptions say how a multi-class decision is fitted (FitMultiWith).
// The zero value is the Bayes rule for balanced accuracy.
type MultiOptions struct {
	// Rule is MultiArgmax, MultiBayes ("" too), MultiTuned or MultiCost.
	Rule string
	// Metric is what MultiTuned maximises on the validation rows:
	// MultiBalancedAccuracy ("" too), MultiMacroF1 or MultiGMean.
	Metric string
	// Cost is MultiCost's matrix: Cost[i][j] is the cost of predicting
	// class j for a row of class i (K x K, finite and non-negative).
	Cost [][]float64
}

// MultiLayer is the decision of a multi-class model: a row is predicted
// as the class c of largest Weights[c] times its probability (the
// first on ties). A model file keeps it in its header.
type MultiLayer struct {
	Rule    string    `json:"rule"`
	Weights []float64 `json:"weights"`
	// Metric is what a tuned layer's weights were tuned for; "" is
	// balanced accuracy.
	Metric string `json:"metric,omitempty"`
	// Cost is the cost matrix of rule MultiCost (rows the true class,
	// columns the predicted one); nil otherwise.
	Cost [][]float64 `json:"cost,omitempty"`
}

// Check reports a layer that cannot decide: no weights, or one that is
// not positive and finite.
func (l *MultiLayer) Check() error {
	if len(l.Weights) < 2 {
		return fmt.Errorf("decision: multi-class layer of %d weights", len(l.Weights))
	}
	switch l.Rule {
	case MultiArgmax, MultiBayes, MultiTuned:
		if l.Cost != nil {
			return fmt.Errorf("decision: multi-class rule %q with a cost matrix", l.Rule)
		}
	case MultiCost:
		if err := checkCost(l.Cost, len(l.Weights)); err != nil {
			return err
		}
	default:
		return fmt.Errorf("decision: multi-class rule %q: want argmax, bayes, tuned or cost", l.Rule)
	}
	switch l.Metric {
	case "", MultiBalancedAccuracy, MultiMacroF1, MultiGMean:
	default:
		return fmt.Errorf("decision: multi-class metric %q: want balanced_accuracy, macro_f1 or gmean", l.Metric)
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
	if l.Cost != nil {
		for i := range pred {
			row := proba[i*k : (i+1)*k]
			best, bv := 0, math.Inf(1)
			for j := range k {
				v := 0.0
				for c, p := range row {
					v += p * l.Cost[c][j]
				}
				if v < bv {
					best, bv = j, v
				}
			}
			pred[i] = best
		}
		return
	}
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
	return FitMultiWith(MultiOptions{Rule: rule}, k, ytrain, wtrain, yvalid, proba)
}

// FitMultiWith fits the multi-class decision opt describes, as FitMulti
// does: MultiTuned maximises opt.Metric, and MultiCost keeps opt.Cost
// (weights 1).
func FitMultiWith(opt MultiOptions, k int, ytrain []int, wtrain []float64, yvalid []int, proba []float64) (*MultiLayer, error) {
	rule := opt.Rule
	l := &MultiLayer{Rule: rule, Weights: make([]float64, k)}
	if rule == "" {
		l.Rule = MultiBayes
	}
	switch opt.Metric {
	case "", MultiBalancedAccuracy:
	case MultiMacroF1, MultiGMean:
		if l.Rule != MultiTuned {
			return nil, fmt.Errorf("%w: %s is tuned for (rule tuned), not %s", ErrMultiRule, opt.Metric, l.Rule)
		}
		l.Metric = opt.Metric
	default:
		return nil, fmt.Errorf("%w: metric %q: want balanced_accuracy, macro_f1 or gmean", ErrMultiRule, opt.Metric)
	}
	if opt.Cost != nil && l.Rule != MultiCost {
		return nil, fmt.Errorf("%w: a cost matrix goes with rule cost, not %s", ErrMultiRule, l.Rule)
	}
	if l.Rule == MultiArgmax || l.Rule == MultiCost {
		for c := range l.Weights {
			l.Weights[c] = 1
		}
		if l.Rule == MultiCost {
			if err := checkCost(opt.Cost, k); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrMultiRule, err)
			}
			l.Cost = opt.Cost
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
		tuneWeights(l, yvalid, proba, l.Metric)
	default:
		return nil, fmt.Errorf("%w: %q: want argmax, bayes, tuned or cost", ErrMultiRule, rule)
	}
	return l, l.Check()
}

// tuneWeights raises the validation metric (balanced accuracy by
// default) of l by
// coordinate ascent over each weight's multiples 2^(j/4), j = -8..8.
func tuneWeights(l *MultiLayer, y []int, proba []float64, metric string) {
	k := len(l.Weights)
	pred := make([]int, len(y))
	score := func() float64 {
		l.Predict(proba, pred)
		r, err := metrics.EvaluateMulti(y, pred, nil, k, nil)
		if err != nil {
			return math.Inf(-1)
		}
		switch metric {
		case MultiMacroF1:
			return r.MacroF1
		case MultiGMean:
			return r.GMean
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

// checkCost reports a cost matrix that is not k x k of finite
// non-negative costs, or that costs nothing.
func checkCost(c [][]float64, k int) error {
	if len(c) != k {
		return fmt.Errorf("decision: cost matrix of %d rows for %d classes", len(c), k)
	}
	total := 0.0
	for i, row := range c {
		if len(row) != k {
			return fmt.Errorf("decision: cost matrix row %d has %d costs for %d classes", i+1, len(row), k)
		}
		for j, v := range row {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("decision: cost matrix row %d, column %d: %v is not a finite non-negative cost", i+1, j+1, v)
			}
			total += v
		}
	}
	if !(total > 0) {
		return fmt.Errorf("decision: the cost matrix is all zeros")
	}
	return nil
}

// ParseCostMatrix reads a cost matrix written row by row, rows separated
// by ";" and costs by ",": "0,1,4;1,0,4;8,8,0" (row i is the true class
// i, column j the predicted class j).
func ParseCostMatrix(s string) ([][]float64, error) {
	var out [][]float64
	for i, row := range strings.Split(strings.TrimSpace(s), ";") {
		var r []float64
		for j, cell := range strings.Split(row, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
			if err != nil || !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("cost matrix row %d, column %d: %q is not a finite non-negative cost", i+1, j+1, strings.TrimSpace(cell))
			}
			r = append(r, v)
		}
		if i > 0 && len(r) != len(out[0]) {
			return nil, fmt.Errorf("cost matrix row %d has %d costs, row 1 has %d", i+1, len(r), len(out[0]))
		}
		out = append(out, r)
	}
	if len(out) != len(out[0]) || len(out) < 3 {
		return nil, fmt.Errorf("cost matrix of %d rows and %d columns: want a square matrix of 3 or more classes", len(out), len(out[0]))
	}
	return out, nil
}
