package metrics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Report gathers every metric of one set of decisions, with the numbers it
// was computed from. Undefined values are NaN and unbounded ones +Inf; Notes
// says why for each of them, and for each metric that took a
// zero-division convention, keyed by the metric's JSON name.
//
// In JSON a Report is one object with the keys threshold, n, positives,
// negatives, tp, fp, tn, fn, the metric names of Metric, roc_auc,
// average_precision and notes; NaN and infinite values are written as null
// (JSON has neither) and the note under the same key tells which. The
// counts n to fn are sums of row weights when the report was weighted, and
// whole counts are written as integers ("tp":12).
type Report struct {
	// Threshold is the score threshold of the decisions (score >= Threshold
	// predicts positive), NaN when the decisions were given as predictions.
	Threshold float64
	Confusion Confusion

	MinorityRecall    float64 // TPR
	MajorityRecall    float64 // TNR
	BalancedAccuracy  float64
	MinorityPrecision float64
	F1                float64
	FowlkesMallows    float64 // sqrt(precision * recall), the paper's "G-mean"
	GMean             float64 // sqrt(TPR * TNR)
	TPFPRatio         float64 // TPR / FPR, the paper's "TP-FP ratio"
	MCC               float64
	Accuracy          float64

	ROCAUC           float64 // NaN when a class is absent or there are no scores
	AveragePrecision float64 // NaN when there is no positive label or no scores

	// Notes explains, by JSON key, each value that is NaN, infinite or set
	// by a zero-division convention. It is never nil in a Report made by
	// this package.
	Notes map[string]string
}

// Value returns the value of metric m in the report: a field of the
// report, or a registered metric of two classes computed from its
// Confusion.
func (r *Report) Value(m Metric) float64 {
	if m >= 0 && m < numMetrics {
		return *r.field(m)
	}
	return m.Of(r.Confusion)
}

// Get returns the value r holds of the metric named name (its JSON key:
// a metric of a Report, roc_auc or average_precision); ok is false for
// another name.
func (r *Report) Get(name string) (v float64, ok bool) {
	switch name {
	case "roc_auc":
		return r.ROCAUC, true
	case "average_precision":
		return r.AveragePrecision, true
	}
	for _, m := range reportMetrics() {
		if m.String() == name {
			return *r.field(m), true
		}
	}
	return 0, false
}

func (r *Report) field(m Metric) *float64 {
	switch m {
	case MinorityRecall:
		return &r.MinorityRecall
	case MajorityRecall:
		return &r.MajorityRecall
	case BalancedAccuracy:
		return &r.BalancedAccuracy
	case MinorityPrecision:
		return &r.MinorityPrecision
	case F1:
		return &r.F1
	case FowlkesMallows:
		return &r.FowlkesMallows
	case GMean:
		return &r.GMean
	case TPFPRatio:
		return &r.TPFPRatio
	case MCC:
		return &r.MCC
	case Accuracy:
		return &r.Accuracy
	}
	panic(fmt.Sprintf("metrics: %v is not a metric", m))
}

// Evaluate scores the decisions score >= threshold against labels y and
// the ranking of score (ROC-AUC, average precision), in O(n log n) time.
// Each row counts with its weight in w, or as 1 when w is nil; see
// Confusion. It panics on invalid input; see Validate.
func Evaluate(y []int, score []float64, threshold float64, w []float64) Report {
	score = nonNil(score)
	mustValidate(y, score, nil, w)
	rk := rank(y, score, w)
	r := NewReport(rk.atLeast(threshold))
	r.Threshold = threshold
	switch {
	case math.IsInf(threshold, 1):
		r.Notes["threshold"] = "infinite: nothing predicted positive"
	case math.IsInf(threshold, -1):
		r.Notes["threshold"] = "-infinite: everything predicted positive"
	default:
		delete(r.Notes, "threshold")
	}
	r.setRanking(rk)
	return r
}

// EvaluatePredictions scores the predictions pred against labels y, and,
// when score is not nil, the ranking of score (ROC-AUC, average
// precision). Each row counts with its weight in w, or as 1 when w is nil.
// The report's Threshold is NaN. It panics on invalid input; see Validate.
func EvaluatePredictions(y, pred []int, score, w []float64) Report {
	if pred == nil {
		pred = []int{}
	}
	mustValidate(y, score, pred, w)
	r := NewReport(FromPredictions(y, pred, w))
	if score != nil {
		r.setRanking(rank(y, score, w))
	}
	return r
}

// NewReport returns the report of a confusion matrix alone: Threshold,
// ROCAUC and AveragePrecision are NaN, with notes saying so.
func NewReport(c Confusion) Report {
	r := Report{
		Threshold:        math.NaN(),
		Confusion:        c,
		ROCAUC:           math.NaN(),
		AveragePrecision: math.NaN(),
		Notes:            confusionNotes(c),
	}
	for _, m := range reportMetrics() {
		*r.field(m) = m.Of(c)
	}
	r.Notes["threshold"] = "none: decisions were given, not a score threshold"
	r.Notes["roc_auc"] = "undefined: no scores"
	r.Notes["average_precision"] = "undefined: no scores"
	return r
}

func (r *Report) setRanking(rk ranked) {
	r.ROCAUC = rk.rocAUC()
	r.AveragePrecision = rk.averagePrecision()
	delete(r.Notes, "roc_auc")
	delete(r.Notes, "average_precision")
	p, n := len(rk.pos), len(rk.neg)
	switch {
	case p == 0 && n == 0:
		r.Notes["roc_auc"] = "undefined: no rows"
	case p == 0:
		r.Notes["roc_auc"] = "undefined: no positive labels"
	case n == 0:
		r.Notes["roc_auc"] = "undefined: no negative labels"
	}
	if p == 0 {
		r.Notes["average_precision"] = "undefined: no positive labels"
	}
}

// confusionNotes explains the metrics of c that are not plain ratios.
func confusionNotes(c Confusion) map[string]string {
	notes := map[string]string{}
	p, n, pp := c.Positives(), c.Negatives(), c.PredictedPositives()
	if p == 0 {
		notes["minority_recall"] = "0 by convention: no positive labels (0/0)"
	}
	if n == 0 {
		notes["majority_recall"] = "0 by convention: no negative labels (0/0)"
	}
	switch {
	case p == 0 && n == 0:
		notes["balanced_accuracy"] = "0 by convention: no rows"
	case p == 0:
		notes["balanced_accuracy"] = "majority recall alone: no positive labels"
	case n == 0:
		notes["balanced_accuracy"] = "minority recall alone: no negative labels"
	}
	if pp == 0 {
		notes["minority_precision"] = "0 by convention: no positive predictions (0/0)"
	}
	if p == 0 && pp == 0 {
		notes["f1"] = "0 by convention: no positive labels and no positive predictions (0/0)"
	}
	if p == 0 || pp == 0 {
		notes["fowlkes_mallows"] = "0: precision or recall is 0 by convention"
	}
	if p == 0 || n == 0 {
		notes["gmean"] = "0: a class is absent, so its recall is 0 by convention"
	}
	switch {
	case p == 0 && n == 0:
		notes["tp_fp_ratio"] = "undefined: no rows"
	case p == 0:
		notes["tp_fp_ratio"] = "undefined: no positive labels"
	case n == 0:
		notes["tp_fp_ratio"] = "undefined: no negative labels"
	case c.FP == 0 && c.TP == 0:
		notes["tp_fp_ratio"] = "undefined: no true and no false positives (0/0)"
	case c.FP == 0:
		notes["tp_fp_ratio"] = "infinite: no false positives"
	}
	if p == 0 || n == 0 || pp == 0 || c.TN+c.FN == 0 {
		notes["mcc"] = "0 by convention: a row or column of the confusion matrix is empty"
	}
	if c.N() == 0 {
		notes["accuracy"] = "0 by convention: no rows"
	}
	return notes
}

// jsonObject writes one JSON object with keys in a fixed order.
// Its buffer may already hold text before the object.
type jsonObject struct {
	b    []byte
	open bool // '{' written
}

func (o *jsonObject) key(k string) {
	if !o.open {
		o.b = append(o.b, '{')
		o.open = true
	} else {
		o.b = append(o.b, ',')
	}
	o.b = strconv.AppendQuote(o.b, k)
	o.b = append(o.b, ':')
}

// num writes v, or null when v is NaN or infinite.
func (o *jsonObject) num(k string, v float64) {
	o.key(k)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = appendJSONFloat(o.b, v)
}

// appendJSONFloat formats finite v exactly as encoding/json does, without
// its per-value allocations (sweeps hold millions of numbers).
func appendJSONFloat(b []byte, v float64) []byte {
	abs := math.Abs(v)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func (o *jsonObject) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *jsonObject) bytes() []byte {
	if !o.open {
		return append(o.b, "{}"...)
	}
	return append(o.b, '}')
}

// writeConfusion writes the counts and the metrics of c's report fields.
// Counts are numbers like the rest, so whole counts print as integers.
func writeConfusion(o *jsonObject, c Confusion, value func(Metric) float64) {
	o.num("n", c.N())
	o.num("positives", c.Positives())
	o.num("negatives", c.Negatives())
	o.num("tp", c.TP)
	o.num("fp", c.FP)
	o.num("tn", c.TN)
	o.num("fn", c.FN)
	for _, m := range reportMetrics() {
		o.num(m.String(), value(m))
	}
}

// MarshalJSON writes the report as described on Report.
func (r Report) MarshalJSON() ([]byte, error) {
	var o jsonObject
	o.num("threshold", r.Threshold)
	writeConfusion(&o, r.Confusion, r.Value)
	o.num("roc_auc", r.ROCAUC)
	o.num("average_precision", r.AveragePrecision)
	notes := r.Notes
	if notes == nil {
		notes = map[string]string{}
	}
	b, err := json.Marshal(notes) // keys sorted
	if err != nil {
		return nil, err
	}
	o.raw("notes", b)
	return o.bytes(), nil
}

// UnmarshalJSON reads a report written by MarshalJSON. A null value reads
// as +Inf when its note begins with "infinite", -Inf when it begins with
// "-infinite", and as NaN otherwise.
func (r *Report) UnmarshalJSON(data []byte) error {
	var raw struct {
		Threshold         *float64          `json:"threshold"`
		TP                float64           `json:"tp"`
		FP                float64           `json:"fp"`
		TN                float64           `json:"tn"`
		FN                float64           `json:"fn"`
		MinorityRecall    *float64          `json:"minority_recall"`
		MajorityRecall    *float64          `json:"majority_recall"`
		BalancedAccuracy  *float64          `json:"balanced_accuracy"`
		MinorityPrecision *float64          `json:"minority_precision"`
		F1                *float64          `json:"f1"`
		FowlkesMallows    *float64          `json:"fowlkes_mallows"`
		GMean             *float64          `json:"gmean"`
		TPFPRatio         *float64          `json:"tp_fp_ratio"`
		MCC               *float64          `json:"mcc"`
		Accuracy          *float64          `json:"accuracy"`
		ROCAUC            *float64          `json:"roc_auc"`
		AveragePrecision  *float64          `json:"average_precision"`
		Notes             map[string]string `json:"notes"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw.Notes == nil {
		raw.Notes = map[string]string{}
	}
	val := func(key string, p *float64) float64 {
		if p != nil {
			return *p
		}
		switch note := raw.Notes[key]; {
		case strings.HasPrefix(note, "infinite"):
			return math.Inf(1)
		case strings.HasPrefix(note, "-infinite"):
			return math.Inf(-1)
		}
		return math.NaN()
	}
	*r = Report{
		Threshold: val("threshold", raw.Threshold),
		Confusion: Confusion{TP: raw.TP, FP: raw.FP, TN: raw.TN, FN: raw.FN},

		MinorityRecall:    val("minority_recall", raw.MinorityRecall),
		MajorityRecall:    val("majority_recall", raw.MajorityRecall),
		BalancedAccuracy:  val("balanced_accuracy", raw.BalancedAccuracy),
		MinorityPrecision: val("minority_precision", raw.MinorityPrecision),
		F1:                val("f1", raw.F1),
		FowlkesMallows:    val("fowlkes_mallows", raw.FowlkesMallows),
		GMean:             val("gmean", raw.GMean),
		TPFPRatio:         val("tp_fp_ratio", raw.TPFPRatio),
		MCC:               val("mcc", raw.MCC),
		Accuracy:          val("accuracy", raw.Accuracy),
		ROCAUC:            val("roc_auc", raw.ROCAUC),
		AveragePrecision:  val("average_precision", raw.AveragePrecision),
		Notes:             raw.Notes,
	}
	return nil
}

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
	return EvaluateMultiContext(context.Background(), y, pred, prob, k, w)
}

// EvaluateMultiContext is EvaluateMulti, stopping with ctx's error once
// ctx is done: Hand and Till's AUC (MAUC) compares every pair of
// classes, k(k-1)/2 of them, which takes seconds from a few thousand
// classes.
func EvaluateMultiContext(ctx context.Context, y, pred []int, prob []float64, k int, w []float64) (MultiReport, error) {
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
	if allSupported(o) {
		if r.MAUC, err = handTill(ctx, y, prob, k, w); err != nil {
			return MultiReport{}, err
		}
	}
	r.OvRAUC = outcomeOvRAUC(o)
	return r, nil
}

// Accuracies returns the accuracy and balanced accuracy (the mean recall
// of the classes with true rows) of the predicted classes pred against
// the true classes y (both in 0..k-1), rows weighted by w (nil: 1), as
// EvaluateMulti reports them, in time and memory linear in the rows and
// classes (EvaluateMulti's confusion matrix has k^2 cells).
func Accuracies(y, pred []int, k int, w []float64) (accuracy, balanced float64, err error) {
	n := len(y)
	if k < 2 {
		return 0, 0, fmt.Errorf("%w: %d classes, want at least 2", ErrMultiInput, k)
	}
	if len(pred) != n || (w != nil && len(w) != n) || n == 0 {
		return 0, 0, fmt.Errorf("%w: %d labels, %d predictions, %d weights", ErrMultiInput, n, len(pred), len(w))
	}
	support, right := make([]float64, k), make([]float64, k)
	total, correct := 0.0, 0.0
	for i := range n {
		a, b := y[i], pred[i]
		if a < 0 || a >= k || b < 0 || b >= k {
			return 0, 0, fmt.Errorf("%w: row %d: class %d predicted %d, want 0..%d", ErrMultiInput, i+1, a, b, k-1)
		}
		wi := weight(w, i)
		support[a] += wi
		total += wi
		if a == b {
			right[a] += wi
			correct += wi
		}
	}
	sum, m := 0.0, 0
	for c := range k {
		if support[c] > 0 {
			sum += right[c] / support[c]
			m++
		}
	}
	return correct / total, sum / float64(m), nil
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
// separating b's from a's, averaged; then the mean over pairs. Each
// pair reads only its two classes' rows (in the rows' order), so the
// work is (k-1) times the rows, not k^2/2 times; ctx is checked between
// classes.
func handTill(ctx context.Context, y []int, prob []float64, k int, w []float64) (float64, error) {
	rows := make([][]int, k)
	for i, c := range y {
		rows[c] = append(rows[c], i)
	}
	var lab []int
	var sa, sb, ww []float64
	sum := 0.0
	for a := range k {
		if err := ctx.Err(); err != nil {
			return math.NaN(), err
		}
		for b := a + 1; b < k; b++ {
			lab, sa, sb, ww = lab[:0], sa[:0], sb[:0], ww[:0]
			ra, rb := rows[a], rows[b]
			for len(ra) > 0 || len(rb) > 0 {
				var i int
				if len(rb) == 0 || (len(ra) > 0 && ra[0] < rb[0]) {
					i, ra = ra[0], ra[1:]
				} else {
					i, rb = rb[0], rb[1:]
				}
				lab = append(lab, b2i(y[i] == a))
				sa = append(sa, prob[i*k+a])
				sb = append(sb, prob[i*k+b])
				if w != nil {
					ww = append(ww, w[i])
				}
			}
			wp := ww
			if w == nil {
				wp = nil
			}
			aucA := ROCAUC(lab, sa, wp)
			for j := range lab {
				lab[j] = 1 - lab[j]
			}
			aucB := ROCAUC(lab, sb, wp)
			sum += (aucA + aucB) / 2
		}
	}
	return 2 * sum / float64(k*(k-1)), nil
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
