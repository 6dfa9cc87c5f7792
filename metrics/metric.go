package metrics

import (
	"fmt"
	"strings"
)

// Metric names one of the threshold-dependent metrics of a Confusion, so a
// metric can be chosen by name (a flag, a config) to sweep or to tune a
// decision threshold on. Every Metric is better when larger.
type Metric int

// The metrics of a Confusion, in the order of a Report.
const (
	MinorityRecall    Metric = iota // TP / (TP + FN), JSON "minority_recall"
	MajorityRecall                  // TN / (TN + FP), JSON "majority_recall"
	BalancedAccuracy                // (TPR + TNR) / 2, JSON "balanced_accuracy"
	MinorityPrecision               // TP / (TP + FP), JSON "minority_precision"
	F1                              // JSON "f1"
	FowlkesMallows                  // sqrt(precision * recall), the paper's "G-mean", JSON "fowlkes_mallows"
	GMean                           // sqrt(TPR * TNR), JSON "gmean"
	TPFPRatio                       // TPR / FPR, the paper's "TP-FP ratio", JSON "tp_fp_ratio"
	MCC                             // Matthews correlation, JSON "mcc"
	Accuracy                        // (TP + TN) / N, JSON "accuracy"
	numMetrics
)

var metricInfo = [numMetrics]struct {
	name  string // JSON key and flag value
	label string // for tables
	of    func(Confusion) float64
}{
	MinorityRecall:    {"minority_recall", "minority recall (TPR)", Confusion.MinorityRecall},
	MajorityRecall:    {"majority_recall", "majority recall (TNR)", Confusion.MajorityRecall},
	BalancedAccuracy:  {"balanced_accuracy", "balanced accuracy", Confusion.BalancedAccuracy},
	MinorityPrecision: {"minority_precision", "minority precision", Confusion.MinorityPrecision},
	F1:                {"f1", "F1", Confusion.F1},
	FowlkesMallows:    {"fowlkes_mallows", "Fowlkes-Mallows (paper's G-mean)", Confusion.FowlkesMallows},
	GMean:             {"gmean", "G-mean sqrt(TPR*TNR)", Confusion.GMean},
	TPFPRatio:         {"tp_fp_ratio", "TP-FP ratio (TPR/FPR)", Confusion.TPFPRatio},
	MCC:               {"mcc", "MCC", Confusion.MCC},
	Accuracy:          {"accuracy", "accuracy", Confusion.Accuracy},
}

// AllMetrics returns every Metric in Report order.
func AllMetrics() []Metric {
	m := make([]Metric, numMetrics)
	for i := range m {
		m[i] = Metric(i)
	}
	return m
}

func (m Metric) valid() bool { return m >= 0 && m < numMetrics }

// String returns the metric's JSON name, such as "balanced_accuracy".
func (m Metric) String() string {
	if !m.valid() {
		return fmt.Sprintf("Metric(%d)", int(m))
	}
	return metricInfo[m].name
}

// Label returns a human-readable name, such as "balanced accuracy".
func (m Metric) Label() string {
	if !m.valid() {
		return m.String()
	}
	return metricInfo[m].label
}

// Of returns the metric's value on c. It panics if m is not a Metric.
func (m Metric) Of(c Confusion) float64 {
	if !m.valid() {
		panic(fmt.Sprintf("metrics: %v is not a metric", m))
	}
	return metricInfo[m].of(c)
}

// ParseMetric returns the Metric named name (its JSON name; case, "-" for
// "_" and the aliases "ba", "tpr", "tnr", "precision", "recall" and
// "fm" are accepted). Note that "gmean" is sqrt(TPR * TNR); the paper's
// "G-mean" is "fowlkes_mallows", and "g-mean" is refused as ambiguous.
func ParseMetric(name string) (Metric, error) {
	n := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "-", "_")
	switch n {
	case "ba":
		return BalancedAccuracy, nil
	case "tpr", "recall":
		return MinorityRecall, nil
	case "tnr":
		return MajorityRecall, nil
	case "precision":
		return MinorityPrecision, nil
	case "fm":
		return FowlkesMallows, nil
	case "g_mean":
		return 0, fmt.Errorf(`metrics: %q is ambiguous: "gmean" is sqrt(TPR*TNR), "fowlkes_mallows" is the paper's G-mean sqrt(precision*recall)`, name)
	}
	for i, info := range metricInfo {
		if info.name == n {
			return Metric(i), nil
		}
	}
	names := make([]string, numMetrics)
	for i, info := range metricInfo {
		names[i] = info.name
	}
	return 0, fmt.Errorf("metrics: unknown metric %q (want one of %s)", name, strings.Join(names, ", "))
}
