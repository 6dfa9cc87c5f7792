package decision

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// Rules of a decision beyond RuleTuned and RuleBayes (Layer.Rule).
// Of three or more classes a layer predicts the class c of largest
// Weights[c] times its probability: RuleBayes sets each weight to 1 over
// the class's prior (the Bayes-optimal decision for balanced accuracy on
// calibrated probabilities), RuleTuned tunes the weights on the
// validation rows, RuleArgmax keeps them 1, and RuleCost predicts the
// class of least expected cost under a cost matrix. Of two classes the
// same decisions are a threshold on the positive class's probability:
// weights w0 and w1 predict class 1 where p >= w0/(w0+w1), and a cost
// matrix [[0, fp], [fn, 0]] where p >= fp/(fn+fp), so a two-class layer
// keeps the threshold (and a calibration of the scores) instead.
const (
	// RuleArgmax predicts each row's most probable class.
	RuleArgmax = "argmax"
	// RuleCost predicts the class of least expected cost under the
	// model's probabilities, sum over i of p_i Cost[i][c]: the Bayes
	// decision for a cost matrix.
	RuleCost = "cost"
)

// checkClasses reports a layer of three or more classes that cannot
// decide: no weights, one that is not positive and finite, an unknown
// rule or metric, a cost matrix of the wrong shape.
func (l *Layer) checkClasses() error {
	if len(l.Weights) < 2 {
		return fmt.Errorf("decision: a layer of %d class weights", len(l.Weights))
	}
	if l.Calibration != nil || l.Threshold != 0 || l.Objective != "" || l.Value != 0 || l.Folds != 0 {
		return fmt.Errorf("decision: a layer with class weights has no calibration, threshold, objective or cross-fitting")
	}
	switch l.Rule {
	case RuleArgmax, RuleBayes, RuleTuned:
		if l.Cost != nil {
			return fmt.Errorf("decision: rule %q with a cost matrix", l.Rule)
		}
	case RuleCost:
		if err := checkCost(l.Cost, len(l.Weights)); err != nil {
			return err
		}
	default:
		if _, ok := lookupRule(l.Rule); !ok {
			return fmt.Errorf("decision: rule %q: want argmax, bayes, tuned, cost or a registered rule (%s)", l.Rule, strings.Join(RuleNames(), ", "))
		}
	}
	if _, err := ClassMetric(l.Metric, len(l.Weights)); err != nil {
		return err
	}
	for c, w := range l.Weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("decision: class weight %d is %v, want a positive number", c, w)
		}
	}
	return nil
}

// predictClasses writes the decision of a layer with class weights for
// each row of proba (row-major, len(Weights) per row) into pred.
func (l *Layer) predictClasses(proba []float64, pred []int) {
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

// ErrRule is wrapped by FitWeights's errors about its rule.
var ErrRule = errors.New("decision: rule")

// FitWeights fits the layer of a model of k >= 3 classes: class weights
// by opt's rule, RuleBayes by default (1 over the model's prior of each
// class: its mean probability proba over the validation rows, labels
// yvalid, when there are any, else the class's weighted share of the
// training labels ytrain, weights wtrain), RuleTuned (from the Bayes
// weights, each class's weight in turn set to the value of a log grid
// that gives the best validation value of opt's metric, until no change
// helps), RuleArgmax (weights 1), RuleCost (opt.Objective.Matrix, weights
// 1; the rule of a matrix when none is named) or a registered rule
// (RegisterRule). The metric is balanced accuracy, or opt.Objective's F1
// (macro) or G-mean, which only RuleTuned (the rule then when none is
// named) tunes for. A cost fn,fp or a recall floor is for two classes.
func FitWeights(opt Options, k int, ytrain []int, wtrain []float64, yvalid []int, proba []float64) (*Layer, error) {
	rule, metric, err := opt.classRule(k)
	if err != nil {
		return nil, err
	}
	l := &Layer{Rule: rule, Weights: make([]float64, k)}
	if metric != metrics.BalancedAccuracy {
		l.Metric = metric.String()
	}
	if rule == RuleArgmax || rule == RuleCost {
		for c := range l.Weights {
			l.Weights[c] = 1
		}
		if rule == RuleCost {
			if err := checkCost(opt.Goal().Matrix, k); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrRule, err)
			}
			l.Cost = opt.Goal().Matrix
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
			return nil, fmt.Errorf("%w: class %d has no training weight", ErrRule, c)
		}
		l.Weights[c] = total / share[c]
	}
	switch l.Rule {
	case RuleBayes:
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
	case RuleTuned:
		if len(yvalid) == 0 || len(proba) != len(yvalid)*k {
			return nil, fmt.Errorf("%w: tuned needs validation rows", ErrRule)
		}
		tuneWeights(l, yvalid, proba, metric)
	default:
		r, _ := lookupRule(l.Rule)
		w, err := r(RuleData{Classes: k, TrainY: ytrain, TrainW: wtrain, ValidY: yvalid, Proba: proba, Start: slices.Clone(l.Weights)})
		if err != nil {
			return nil, fmt.Errorf("%w %s: %w", ErrRule, l.Rule, err)
		}
		if len(w) != k {
			return nil, fmt.Errorf("%w %s: %d weights for %d classes", ErrRule, l.Rule, len(w), k)
		}
		l.Weights = w
	}
	return l, l.Check()
}

// classRule is the rule and the metric of a layer of k >= 3 classes
// that opt asks for: the objective's metric of k classes (F1's is macro
// F1), any metric of decisions the table of package metrics defines for
// k classes.
func (o Options) classRule(k int) (rule string, metric metrics.Metric, err error) {
	switch o.Calibrate {
	case "", Sigmoid:
	default:
		return "", 0, fmt.Errorf("%w: calibration %s is for two classes: the binary members of a decomposition are calibrated by a sigmoid", learn.ErrParam, o.Calibrate)
	}
	g := o.Goal()
	switch {
	case g.CostFN+g.CostFP > 0:
		return "", 0, fmt.Errorf("%w: a cost fn=,fp= is for two classes: give three or more classes' costs as a cost matrix (aer fit --cost-matrix)", learn.ErrParam)
	case g.MinRecall > 0:
		return "", 0, fmt.Errorf("%w: a minimum recall is for two classes", learn.ErrParam)
	}
	rule = o.Rule
	if g.Matrix != nil {
		if rule != "" && rule != RuleCost {
			return "", 0, fmt.Errorf("%w: a cost matrix decides by rule cost, not %s", learn.ErrParam, rule)
		}
		return RuleCost, metrics.BalancedAccuracy, nil
	}
	metric = g.Metric
	if metric == metrics.F1 {
		metric = metrics.MacroF1 // F1 of k classes: the mean of the classes'
	}
	if _, err := ClassMetric(metric.String(), k); err != nil {
		return "", 0, fmt.Errorf("%w: a decision of %d classes is tuned for balanced_accuracy, f1 (macro), gmean or another metric of decisions of k classes, not %s", learn.ErrParam, k, g.Metric)
	}
	switch {
	case rule == "" && metric != metrics.BalancedAccuracy:
		rule = RuleTuned
	case rule == "":
		rule = RuleBayes
	case rule == RuleCost:
		return "", 0, fmt.Errorf("%w: rule cost needs a cost matrix", learn.ErrParam)
	case metric != metrics.BalancedAccuracy && rule != RuleTuned:
		return "", 0, fmt.Errorf("%w: %s is tuned for (rule tuned), not %s", ErrRule, metric, rule)
	}
	switch rule {
	case RuleArgmax, RuleBayes, RuleTuned:
	default:
		if _, ok := lookupRule(rule); !ok {
			return "", 0, fmt.Errorf("%w: %q: want argmax, bayes, tuned, cost or a registered rule (%s)", ErrRule, rule, strings.Join(RuleNames(), ", "))
		}
	}
	return rule, metric, nil
}

// tuneWeights raises the validation metric (balanced accuracy by
// default) of l by
// coordinate ascent over each weight's multiples 2^(j/4), j = -8..8.
func tuneWeights(l *Layer, y []int, proba []float64, metric metrics.Metric) {
	k := len(l.Weights)
	pred := make([]int, len(y))
	sign := 1.0
	if d, _ := metric.Def(); d.Smaller {
		sign = -1 // a loss: the search raises its negative
	}
	score := func() float64 {
		l.predictClasses(proba, pred)
		o, err := metrics.NewOutcome(y, pred, nil, k, nil)
		if err != nil {
			return math.Inf(-1)
		}
		return sign * metric.Value(o)
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
