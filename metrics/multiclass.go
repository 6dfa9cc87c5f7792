package metrics

import (
	"errors"
	"fmt"
	"math"
)

// MultiReport is every metric of a multi-class prediction, as
// scikit-learn and imbalanced-learn compute them. Classes are numbered
// 0..K-1; a class counts in the averages when it has true rows or
// predicted rows (scikit-learn's default labels, the union of both).
type MultiReport struct {
	// Classes is K.
	Classes int `json:"classes"`
	// Rows is the number of rows scored.
	Rows int `json:"rows"`
	// Confusion[i][j] is the (weighted) count of rows of true class i
	// predicted as j.
	Confusion [][]float64 `json:"confusion"`
	// Support is each class's (weighted) number of true rows.
	Support []float64 `json:"support"`
	// Recall, Precision and F1 per class; 0 where undefined (no true or
	// no predicted rows: scikit-learn's zero_division).
	Recall    []float64 `json:"recall"`
	Precision []float64 `json:"precision"`
	F1        []float64 `json:"f1"`
	// Accuracy is the share of rows predicted right.
	Accuracy float64 `json:"accuracy"`
	// BalancedAccuracy is the mean recall over the classes with true rows
	// (balanced_accuracy_score).
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	// MacroF1 is the mean F1 of the counted classes; WeightedF1 their
	// mean weighted by support.
	MacroF1    float64 `json:"macro_f1"`
	WeightedF1 float64 `json:"weighted_f1"`
	// GMean is the geometric mean of the counted classes' recalls
	// (imbalanced-learn's geometric_mean_score, average="multiclass"):
	// 0 when any is 0.
	GMean float64 `json:"gmean"`
	// MAUC is Hand and Till's multi-class AUC: the mean over class pairs
	// of the two one-against-one AUCs (roc_auc_score, multi_class="ovo").
	// OvRAUC is the mean over classes of the one-against-rest AUC
	// (multi_class="ovr", average="macro"). Both need probabilities and
	// every class among the true rows; NaN otherwise.
	MAUC   float64 `json:"mauc"`
	OvRAUC float64 `json:"ovr_roc_auc"`
	// LogLoss is the mean negative log-probability of the true class,
	// probabilities clipped to [eps, 1-eps] and each row renormalised
	// (log_loss); Brier the mean over rows of the squared distance
	// between the probabilities and the true class's indicator (Brier's
	// original multi-class score). NaN without probabilities.
	LogLoss float64 `json:"log_loss"`
	Brier   float64 `json:"brier"`
}

// ErrMultiInput is returned (wrapped) for inputs EvaluateMulti cannot
// score.
var ErrMultiInput = errors.New("metrics: multi-class input")

// EvaluateMulti scores predicted classes pred against true classes y
// (both in 0..k-1), with prob, when not nil, the rows' class
// probabilities (row-major, k per row) and w the row weights (nil: all
// 1).
func EvaluateMulti(y, pred []int, prob []float64, k int, w []float64) (MultiReport, error) {
	n := len(y)
	if k < 2 {
		return MultiReport{}, fmt.Errorf("%w: %d classes, want at least 2", ErrMultiInput, k)
	}
	if len(pred) != n || (w != nil && len(w) != n) || (prob != nil && len(prob) != n*k) {
		return MultiReport{}, fmt.Errorf("%w: %d labels, %d predictions, %d weights, %d probabilities for %d classes", ErrMultiInput, n, len(pred), len(w), len(prob), k)
	}
	if n == 0 {
		return MultiReport{}, fmt.Errorf("%w: no rows", ErrMultiInput)
	}
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	r := MultiReport{Classes: k, Rows: n, Confusion: make([][]float64, k), Support: make([]float64, k),
		Recall: make([]float64, k), Precision: make([]float64, k), F1: make([]float64, k)}
	for i := range r.Confusion {
		r.Confusion[i] = make([]float64, k)
	}
	predicted := make([]float64, k)
	seen := make([]bool, k)
	total, right := 0.0, 0.0
	for i := range n {
		a, b := y[i], pred[i]
		if a < 0 || a >= k || b < 0 || b >= k {
			return MultiReport{}, fmt.Errorf("%w: row %d: class %d predicted %d, want 0..%d", ErrMultiInput, i+1, a, b, k-1)
		}
		wi := weight(i)
		if wi < 0 || math.IsNaN(wi) || math.IsInf(wi, 0) {
			return MultiReport{}, fmt.Errorf("%w: row %d: weight %v", ErrMultiInput, i+1, wi)
		}
		r.Confusion[a][b] += wi
		r.Support[a] += wi
		predicted[b] += wi
		seen[a], seen[b] = true, true
		total += wi
		if a == b {
			right += wi
		}
	}
	r.Accuracy = right / total
	counted, withSupport := 0, 0
	var sumRecall, sumF1, sumWF1, logRecall float64
	zeroRecall := false
	for c := range k {
		tp := r.Confusion[c][c]
		if r.Support[c] > 0 {
			r.Recall[c] = tp / r.Support[c]
		}
		if predicted[c] > 0 {
			r.Precision[c] = tp / predicted[c]
		}
		if p, q := r.Precision[c], r.Recall[c]; p+q > 0 {
			r.F1[c] = 2 * p * q / (p + q)
		}
		if !seen[c] {
			continue
		}
		counted++
		sumF1 += r.F1[c]
		sumWF1 += r.F1[c] * r.Support[c]
		if r.Recall[c] == 0 {
			zeroRecall = true
		} else {
			logRecall += math.Log(r.Recall[c])
		}
		if r.Support[c] > 0 {
			withSupport++
			sumRecall += r.Recall[c]
		}
	}
	r.BalancedAccuracy = sumRecall / float64(withSupport)
	r.MacroF1 = sumF1 / float64(counted)
	r.WeightedF1 = sumWF1 / total
	if !zeroRecall {
		r.GMean = math.Exp(logRecall / float64(counted))
	}
	r.MAUC, r.OvRAUC, r.LogLoss, r.Brier = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if prob == nil {
		return r, nil
	}
	for i, p := range prob {
		if math.IsNaN(p) || p < 0 || p > 1 {
			return MultiReport{}, fmt.Errorf("%w: row %d, class %d: probability %v", ErrMultiInput, i/k+1, i%k, p)
		}
	}
	r.LogLoss, r.Brier = probLosses(y, prob, k, weight, total)
	if withSupport == k {
		r.MAUC = handTill(y, prob, k, w)
		r.OvRAUC = ovrAUC(y, prob, k, w)
	}
	return r, nil
}

// probLosses returns the log-loss and the Brier score.
func probLosses(y []int, prob []float64, k int, weight func(int) float64, total float64) (logLoss, brier float64) {
	const eps = 2.220446049250313e-16 // float64's, scikit-learn's "auto"
	row := make([]float64, k)
	for i, c := range y {
		sum := 0.0
		for j := range k {
			row[j] = min(max(prob[i*k+j], eps), 1-eps)
			sum += row[j]
		}
		wi := weight(i)
		logLoss -= wi * math.Log(row[c]/sum)
		b := 0.0
		for j := range k {
			d := prob[i*k+j]
			if j == c {
				d--
			}
			b += d * d
		}
		brier += wi * b
	}
	return logLoss / total, brier / total
}

// handTill is Hand and Till's M: for each pair of classes a < b, the AUC
// of class a's probability separating a's rows from b's, and of b's
// separating b's from a's, averaged; then the mean over pairs.
func handTill(y []int, prob []float64, k int, w []float64) float64 {
	sum := 0.0
	for a := range k {
		for b := a + 1; b < k; b++ {
			var lab []int
			var sa, sb, ww []float64
			for i, c := range y {
				if c != a && c != b {
					continue
				}
				lab = append(lab, b2i(c == a))
				sa = append(sa, prob[i*k+a])
				sb = append(sb, prob[i*k+b])
				if w != nil {
					ww = append(ww, w[i])
				}
			}
			aucA := ROCAUC(lab, sa, ww)
			for j := range lab {
				lab[j] = 1 - lab[j]
			}
			aucB := ROCAUC(lab, sb, ww)
			sum += (aucA + aucB) / 2
		}
	}
	return 2 * sum / float64(k*(k-1))
}

// ovrAUC is the mean over classes of the AUC of the class's probability
// separating its rows from all others.
func ovrAUC(y []int, prob []float64, k int, w []float64) float64 {
	lab := make([]int, len(y))
	score := make([]float64, len(y))
	sum := 0.0
	for c := range k {
		for i, v := range y {
			lab[i] = b2i(v == c)
			score[i] = prob[i*k+c]
		}
		sum += ROCAUC(lab, score, w)
	}
	return sum / float64(k)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
