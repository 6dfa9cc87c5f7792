package metrics

import (
	"context"
	"fmt"
	"math"
)

// Outcome is what a metric of the table scores: a classifier's
// decisions on rows of K classes (numbered 0..K-1; for two classes, 1 is
// the positive class) as a confusion matrix, with the rows' labels,
// class probabilities and weights when they are known. Classes count in
// the averages when they have true rows or predicted rows
// (scikit-learn's default labels, the union of both).
type Outcome struct {
	// Classes is K.
	Classes int
	// Matrix[i][j] is the (weighted) count of rows of true class i
	// predicted as j.
	Matrix [][]float64
	// Support is each class's (weighted) number of true rows, Predicted
	// its number of rows predicted.
	Support, Predicted []float64
	// Seen says which classes have a row, true or predicted (whatever
	// its weight).
	Seen []bool
	// Total is the weight of all rows, Correct that of the rows
	// predicted right.
	Total, Correct float64
	// Y, Pred and W are the rows' classes, decisions and weights (W nil:
	// all 1), and Proba their class probabilities (row-major, Classes
	// per row); nil for an Outcome made from counts alone (OutcomeOf),
	// and Proba nil when the decisions came without probabilities.
	Y, Pred []int
	Proba   []float64
	W       []float64
}

// NewOutcome counts the decisions pred against the true classes y (both
// in 0..k-1), each row with its weight in w (nil: 1), with prob, when not
// nil, the rows' class probabilities (row-major, k per row).
func NewOutcome(y, pred []int, prob []float64, k int, w []float64) (*Outcome, error) {
	n := len(y)
	if k < 2 {
		return nil, fmt.Errorf("%w: %d classes, want at least 2", ErrMultiInput, k)
	}
	if len(pred) != n || (w != nil && len(w) != n) || (prob != nil && len(prob) != n*k) {
		return nil, fmt.Errorf("%w: %d labels, %d predictions, %d weights, %d probabilities for %d classes", ErrMultiInput, n, len(pred), len(w), len(prob), k)
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrMultiInput)
	}
	o := &Outcome{Classes: k, Matrix: make([][]float64, k), Support: make([]float64, k), Predicted: make([]float64, k),
		Seen: make([]bool, k), Y: y, Pred: pred, Proba: prob, W: w}
	for i := range o.Matrix {
		o.Matrix[i] = make([]float64, k)
	}
	for i := range n {
		a, b := y[i], pred[i]
		if a < 0 || a >= k || b < 0 || b >= k {
			return nil, fmt.Errorf("%w: row %d: class %d predicted %d, want 0..%d", ErrMultiInput, i+1, a, b, k-1)
		}
		wi := weight(w, i)
		if wi < 0 || math.IsNaN(wi) || math.IsInf(wi, 0) {
			return nil, fmt.Errorf("%w: row %d: weight %v", ErrMultiInput, i+1, wi)
		}
		o.Matrix[a][b] += wi
		o.Support[a] += wi
		o.Predicted[b] += wi
		o.Seen[a], o.Seen[b] = true, true
		o.Total += wi
		if a == b {
			o.Correct += wi
		}
	}
	for i, p := range prob {
		if math.IsNaN(p) || p < 0 || p > 1 {
			return nil, fmt.Errorf("%w: row %d, class %d: probability %v", ErrMultiInput, i/k+1, i%k, p)
		}
	}
	return o, nil
}

// OutcomeOf is the two-class Outcome of the counts of c (class 1 the
// positive class), without rows: a class is seen when it has weight.
func OutcomeOf(c Confusion) *Outcome {
	return &Outcome{Classes: 2, Matrix: [][]float64{{c.TN, c.FP}, {c.FN, c.TP}},
		Support: []float64{c.Negatives(), c.Positives()}, Predicted: []float64{c.TN + c.FN, c.PredictedPositives()},
		Seen: []bool{c.TN+c.FP+c.FN > 0, c.TP+c.FN+c.FP > 0}, Total: c.N(), Correct: c.TP + c.TN}
}

// Confusion is a two-class Outcome's matrix as a Confusion (class 1 the
// positive class). It panics on more classes.
func (o *Outcome) Confusion() Confusion {
	if o.Classes != 2 {
		panic(fmt.Sprintf("metrics: the confusion of %d classes", o.Classes))
	}
	m := o.Matrix
	return Confusion{TP: m[1][1], FP: m[0][1], TN: m[0][0], FN: m[1][0]}
}

// Recall is class c's recall, 0 without true rows (zero_division=0).
func (o *Outcome) Recall(c int) float64 { return ratio(o.Matrix[c][c], o.Support[c]) }

// Precision is class c's precision, 0 without predicted rows.
func (o *Outcome) Precision(c int) float64 { return ratio(o.Matrix[c][c], o.Predicted[c]) }

// F1 is class c's F1, the harmonic mean of its precision and recall; 0
// when both are 0.
func (o *Outcome) F1(c int) float64 {
	if p, q := o.Precision(c), o.Recall(c); p+q > 0 {
		return 2 * p * q / (p + q)
	}
	return 0
}

// classAccuracy is the share of the rows' weight predicted right.
func classAccuracy(o *Outcome) float64 { return o.Correct / o.Total }

// classBalancedAccuracy is the mean recall of the classes with true rows
// (balanced_accuracy_score).
func classBalancedAccuracy(o *Outcome) float64 {
	sum, n := 0.0, 0
	for c := range o.Classes {
		if o.Seen[c] && o.Support[c] > 0 {
			sum += o.Recall(c)
			n++
		}
	}
	return sum / float64(n)
}

// classMacroF1 is the mean F1 of the seen classes.
func classMacroF1(o *Outcome) float64 {
	sum, n := 0.0, 0
	for c := range o.Classes {
		if o.Seen[c] {
			sum += o.F1(c)
			n++
		}
	}
	return sum / float64(n)
}

// classWeightedF1 is the mean F1 of the seen classes weighted by their
// support.
func classWeightedF1(o *Outcome) float64 {
	sum := 0.0
	for c := range o.Classes {
		if o.Seen[c] {
			sum += o.F1(c) * o.Support[c]
		}
	}
	return sum / o.Total
}

// classGMean is the geometric mean of the seen classes' recalls
// (imbalanced-learn's geometric_mean_score, average="multiclass"): 0
// when any is 0.
func classGMean(o *Outcome) float64 {
	logSum, n := 0.0, 0
	for c := range o.Classes {
		if !o.Seen[c] {
			continue
		}
		n++
		r := o.Recall(c)
		if r == 0 {
			return 0
		}
		logSum += math.Log(r)
	}
	return math.Exp(logSum / float64(n))
}

// allSupported says whether every class has true rows, which the AUCs
// of several classes need.
func allSupported(o *Outcome) bool {
	for c := range o.Classes {
		if !o.Seen[c] || !(o.Support[c] > 0) {
			return false
		}
	}
	return true
}

// positive is the probability of class 1 of each row of a two-class
// Outcome.
func (o *Outcome) positive() []float64 {
	p := make([]float64, len(o.Y))
	for i := range p {
		p[i] = o.Proba[2*i+1]
	}
	return p
}

func outcomeROCAUC(o *Outcome) float64 { return ROCAUC(o.Y, o.positive(), o.W) }

func outcomeAveragePrecision(o *Outcome) float64 { return AveragePrecision(o.Y, o.positive(), o.W) }

func outcomeMAUC(o *Outcome) float64 {
	if !allSupported(o) {
		return math.NaN()
	}
	m, _ := handTill(context.Background(), o.Y, o.Proba, o.Classes, o.W)
	return m
}

func outcomeOvRAUC(o *Outcome) float64 {
	if !allSupported(o) {
		return math.NaN()
	}
	return ovrAUC(o.Y, o.Proba, o.Classes, o.W)
}

func outcomeLogLoss(o *Outcome) float64 {
	l, _ := probLosses(o.Y, o.Proba, o.Classes, o.W, o.Total)
	return l
}

func outcomeBrier(o *Outcome) float64 {
	_, b := probLosses(o.Y, o.Proba, o.Classes, o.W, o.Total)
	return b
}
