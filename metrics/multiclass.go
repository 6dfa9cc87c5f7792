package metrics

import (
	"errors"
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
// 1): the metrics of the table (Outcome) that a MultiReport holds.
func EvaluateMulti(y, pred []int, prob []float64, k int, w []float64) (MultiReport, error) {
	o, err := NewOutcome(y, pred, prob, k, w)
	if err != nil {
		return MultiReport{}, err
	}
	r := MultiReport{Classes: k, Rows: len(y), Confusion: o.Matrix, Support: o.Support,
		Recall: make([]float64, k), Precision: make([]float64, k), F1: make([]float64, k)}
	for c := range k {
		r.Recall[c], r.Precision[c], r.F1[c] = o.Recall(c), o.Precision(c), o.F1(c)
	}
	r.Accuracy, r.BalancedAccuracy = classAccuracy(o), classBalancedAccuracy(o)
	r.MacroF1, r.WeightedF1, r.GMean = classMacroF1(o), classWeightedF1(o), classGMean(o)
	r.MAUC, r.OvRAUC, r.LogLoss, r.Brier = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if prob == nil {
		return r, nil
	}
	r.LogLoss, r.Brier = probLosses(y, prob, k, w, o.Total)
	r.MAUC, r.OvRAUC = outcomeMAUC(o), outcomeOvRAUC(o)
	return r, nil
}

// Get returns the value r holds of the metric named name (its JSON key,
// a metric of the table); ok is false for a metric r does not hold.
func (r *MultiReport) Get(name string) (v float64, ok bool) {
	switch name {
	case "balanced_accuracy":
		return r.BalancedAccuracy, true
	case "accuracy":
		return r.Accuracy, true
	case "macro_f1":
		return r.MacroF1, true
	case "weighted_f1":
		return r.WeightedF1, true
	case "gmean":
		return r.GMean, true
	case "mauc":
		return r.MAUC, true
	case "ovr_roc_auc":
		return r.OvRAUC, true
	case "log_loss":
		return r.LogLoss, true
	case "brier":
		return r.Brier, true
	}
	return 0, false
}

// probLosses returns the log-loss and the Brier score.
func probLosses(y []int, prob []float64, k int, w []float64, total float64) (logLoss, brier float64) {
	const eps = 2.220446049250313e-16 // float64's, scikit-learn's "auto"
	row := make([]float64, k)
	for i, c := range y {
		sum := 0.0
		for j := range k {
			row[j] = min(max(prob[i*k+j], eps), 1-eps)
			sum += row[j]
		}
		wi := weight(w, i)
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
