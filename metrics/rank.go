package metrics

import (
	"math"
	"slices"
)

// ranked holds the scores of each class sorted ascending, so every
// threshold-free metric and every sweep costs one O(n log n) sort.
type ranked struct {
	pos, neg []float64
}

// rank splits score by label and sorts each part. Inputs must be valid.
func rank(y []int, score []float64) ranked {
	p := 0
	for _, v := range y {
		p += v
	}
	r := ranked{
		pos: make([]float64, 0, p),
		neg: make([]float64, 0, len(y)-p),
	}
	for i, v := range y {
		if v == 1 {
			r.pos = append(r.pos, score[i])
		} else {
			r.neg = append(r.neg, score[i])
		}
	}
	slices.Sort(r.pos)
	slices.Sort(r.neg)
	return r
}

// descend calls f once per distinct score s, from the highest to the
// lowest, with tp and fp the numbers of positive and negative rows whose
// score is at least s: the confusion matrix at threshold s.
func (r ranked) descend(f func(s float64, tp, fp int)) {
	i, j := len(r.pos)-1, len(r.neg)-1
	tp, fp := 0, 0
	for i >= 0 || j >= 0 {
		var s float64
		if i >= 0 && (j < 0 || r.pos[i] >= r.neg[j]) {
			s = r.pos[i]
		} else {
			s = r.neg[j]
		}
		for i >= 0 && r.pos[i] == s {
			tp++
			i--
		}
		for j >= 0 && r.neg[j] == s {
			fp++
			j--
		}
		f(s, tp, fp)
	}
}

// atLeast returns the confusion matrix of the decisions score >= t.
func (r ranked) atLeast(t float64) Confusion {
	p, _ := slices.BinarySearch(r.pos, t) // first index with pos >= t
	n, _ := slices.BinarySearch(r.neg, t)
	return Confusion{TP: len(r.pos) - p, FN: p, FP: len(r.neg) - n, TN: n}
}

// rocAUC is the area under the ROC curve with tied scores joined by a
// straight segment, which equals the Mann-Whitney probability
// P(s+ > s-) + P(s+ = s-)/2. Twice the area is an integer, summed exactly.
func (r ranked) rocAUC() float64 {
	p, n := len(r.pos), len(r.neg)
	if p == 0 || n == 0 {
		return math.NaN()
	}
	var area2 int64
	ptp, pfp := 0, 0
	r.descend(func(_ float64, tp, fp int) {
		area2 += int64(fp-pfp) * int64(tp+ptp)
		ptp, pfp = tp, fp
	})
	return float64(area2) / (2 * float64(p) * float64(n))
}

// averagePrecision is scikit-learn's average_precision_score: the sum over
// distinct thresholds, from the highest, of (R_k - R_(k-1)) * P_k, a step
// function with no interpolation.
func (r ranked) averagePrecision() float64 {
	p := len(r.pos)
	if p == 0 {
		return math.NaN()
	}
	ap := 0.0
	ptp := 0
	r.descend(func(_ float64, tp, fp int) {
		if tp > ptp {
			ap += float64(tp-ptp) / float64(p) * (float64(tp) / float64(tp+fp))
			ptp = tp
		}
	})
	return ap
}

// ROCAUC returns the area under the ROC curve of score against labels y,
// ties in score counted as half (the Mann-Whitney U statistic over
// P * N), equal to scikit-learn's roc_auc_score. It is NaN when y lacks
// either class. It takes O(n log n) time and panics on invalid input (see
// Validate).
func ROCAUC(y []int, score []float64) float64 {
	mustValidate(y, nonNil(score), nil)
	return rank(y, score).rocAUC()
}

// AveragePrecision returns scikit-learn's average_precision_score of score
// against labels y: sum over distinct score thresholds, from the highest,
// of (R_k - R_(k-1)) * P_k, with R and P the minority recall and precision
// at threshold k. It is NaN when y has no positive label (scikit-learn
// returns 0 there, with a warning). It takes O(n log n) time and panics on
// invalid input (see Validate).
func AveragePrecision(y []int, score []float64) float64 {
	mustValidate(y, nonNil(score), nil)
	return rank(y, score).averagePrecision()
}

func nonNil(s []float64) []float64 {
	if s == nil {
		return []float64{}
	}
	return s
}
