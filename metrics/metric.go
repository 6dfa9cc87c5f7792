package metrics

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
)

// Metric is a metric of the table of metrics, the one place every metric
// is named: the decision layer tunes for one, cv summarises them and
// bench writes them, each looked up by name (ParseMetric, Lookup). The
// table holds the built-in metrics below and any added by Register.
type Metric int

// The built-in metrics. The first ten are those of a two-class Confusion,
// in the order of a Report; every metric of a Confusion is better when
// larger.
const (
	MinorityRecall    Metric = iota // TP / (TP + FN), JSON "minority_recall"
	MajorityRecall                  // TN / (TN + FP), JSON "majority_recall"
	BalancedAccuracy                // mean per-class recall, (TPR + TNR) / 2 for two classes, JSON "balanced_accuracy"
	MinorityPrecision               // TP / (TP + FP), JSON "minority_precision"
	F1                              // JSON "f1"
	FowlkesMallows                  // sqrt(precision * recall), the paper's "G-mean", JSON "fowlkes_mallows"
	GMean                           // geometric mean of the recalls, sqrt(TPR * TNR) for two classes, JSON "gmean"
	TPFPRatio                       // TPR / FPR, the paper's "TP-FP ratio", JSON "tp_fp_ratio"
	MCC                             // Matthews correlation, JSON "mcc"
	Accuracy                        // (TP + TN) / N, JSON "accuracy"
	numMetrics                      // the metrics of a Report end here

	MacroF1      Metric = iota - 1 // mean F1 of the classes, JSON "macro_f1"
	WeightedF1                     // F1 of the classes weighted by support, JSON "weighted_f1"
	metricROCAUC                   // two classes: area under the ROC curve, JSON "roc_auc"
	metricAP                       // two classes: area under the precision-recall curve, JSON "average_precision"
	MAUC                           // Hand and Till's multi-class AUC, JSON "mauc"
	OvRAUC                         // mean one-against-rest AUC, JSON "ovr_roc_auc"
	LogLoss                        // mean negative log-probability of the true class, JSON "log_loss"
	Brier                          // mean squared distance of the probabilities from the true class, JSON "brier"
)

// Def is a metric's entry in the table: its name and how it is computed.
// A metric of decisions gives Of, TwoClass or both; a metric of
// probabilities sets Proba and gives Of.
type Def struct {
	// Name is the metric's JSON key, column name and flag value: lower
	// case, unique in the table.
	Name string
	// Label is a human-readable name, such as "balanced accuracy".
	Label string
	// Of computes the metric of an Outcome of any number of classes (its
	// confusion matrix, and its rows for a metric of probabilities); NaN
	// where it is undefined. Nil for a metric given by TwoClass alone.
	Of func(o *Outcome) float64
	// TwoClass, when not nil, computes the metric of two classes from a
	// Confusion (class 1 positive): what a decision threshold is tuned
	// for, and what Of gives for two classes. A metric without TwoClass
	// is computed by Of for two classes too, and is not among AllMetrics.
	TwoClass func(c Confusion) float64
	// Classes is 2 for a metric of two classes only, 0 for any number.
	Classes int
	// Proba says the metric scores the rows' class probabilities, not
	// the decisions alone: it needs an Outcome with probabilities.
	Proba bool
	// Smaller says a smaller value is better (a loss).
	Smaller bool
}

// The table: registered under tableMu, read without a lock from an
// immutable snapshot (a metric is looked up in the inner loops of
// threshold tuning).
var (
	tableMu  sync.Mutex
	snapshot atomic.Pointer[tableSnapshot]
)

type tableSnapshot struct {
	defs   []Def
	byName map[string]Metric
}

// current is the table as it is now.
func current() *tableSnapshot {
	if t := snapshot.Load(); t != nil {
		return t
	}
	return &tableSnapshot{}
}

// ErrRegister is wrapped by Register's errors.
var ErrRegister = errors.New("metrics: cannot register the metric")

// Register adds a metric to the table and returns it: from then on
// ParseMetric (when it has a two-class form) and Lookup find it by name,
// cv and bench report it, and a decision threshold may be tuned for it.
// The name must be new, lower case, without spaces or commas.
func Register(d Def) (Metric, error) {
	if d.Name == "" || d.Name != strings.ToLower(d.Name) || strings.ContainsAny(d.Name, " \t\n,\"=") {
		return 0, fmt.Errorf("%w: name %q: want a lower-case word", ErrRegister, d.Name)
	}
	if d.Of == nil && d.TwoClass == nil {
		return 0, fmt.Errorf("%w %q: neither Of nor TwoClass", ErrRegister, d.Name)
	}
	if d.Classes != 0 && d.Classes != 2 {
		return 0, fmt.Errorf("%w %q: classes %d: want 0 (any) or 2", ErrRegister, d.Name, d.Classes)
	}
	if d.Proba && d.Of == nil {
		return 0, fmt.Errorf("%w %q: a metric of probabilities needs Of", ErrRegister, d.Name)
	}
	if d.Of == nil {
		d.Classes = 2
	}
	if d.Label == "" {
		d.Label = d.Name
	}
	tableMu.Lock()
	defer tableMu.Unlock()
	old := current()
	if _, dup := old.byName[d.Name]; dup {
		return 0, fmt.Errorf("%w: %q is registered already", ErrRegister, d.Name)
	}
	next := &tableSnapshot{defs: append(old.defs[:len(old.defs):len(old.defs)], d), byName: make(map[string]Metric, len(old.byName)+1)}
	for k, v := range old.byName {
		next.byName[k] = v
	}
	m := Metric(len(next.defs) - 1)
	next.byName[d.Name] = m
	snapshot.Store(next)
	return m, nil
}

// MustRegister is Register for the package's own table: it panics on an
// error, a programming error.
func MustRegister(d Def) Metric {
	m, err := Register(d)
	if err != nil {
		panic(err)
	}
	return m
}

func init() {
	two := func(f func(Confusion) float64) Def { return Def{TwoClass: f, Classes: 2} }
	builtin := []struct {
		m          Metric
		name, text string
		d          Def
	}{
		{MinorityRecall, "minority_recall", "minority recall (TPR)", two(Confusion.MinorityRecall)},
		{MajorityRecall, "majority_recall", "majority recall (TNR)", two(Confusion.MajorityRecall)},
		{BalancedAccuracy, "balanced_accuracy", "balanced accuracy", Def{Of: classBalancedAccuracy, TwoClass: Confusion.BalancedAccuracy}},
		{MinorityPrecision, "minority_precision", "minority precision", two(Confusion.MinorityPrecision)},
		{F1, "f1", "F1", two(Confusion.F1)},
		{FowlkesMallows, "fowlkes_mallows", "Fowlkes-Mallows (paper's G-mean)", two(Confusion.FowlkesMallows)},
		{GMean, "gmean", "G-mean sqrt(TPR*TNR)", Def{Of: classGMean, TwoClass: Confusion.GMean}},
		{TPFPRatio, "tp_fp_ratio", "TP-FP ratio (TPR/FPR)", two(Confusion.TPFPRatio)},
		{MCC, "mcc", "MCC", two(Confusion.MCC)},
		{Accuracy, "accuracy", "accuracy", Def{Of: classAccuracy, TwoClass: Confusion.Accuracy}},
		{MacroF1, "macro_f1", "macro F1", Def{Of: classMacroF1}},
		{WeightedF1, "weighted_f1", "weighted F1", Def{Of: classWeightedF1}},
		{metricROCAUC, "roc_auc", "ROC-AUC", Def{Of: outcomeROCAUC, Classes: 2, Proba: true}},
		{metricAP, "average_precision", "average precision", Def{Of: outcomeAveragePrecision, Classes: 2, Proba: true}},
		{MAUC, "mauc", "MAUC (Hand and Till)", Def{Of: outcomeMAUC, Proba: true}},
		{OvRAUC, "ovr_roc_auc", "one-vs-rest ROC-AUC", Def{Of: outcomeOvRAUC, Proba: true}},
		{LogLoss, "log_loss", "log-loss", Def{Of: outcomeLogLoss, Proba: true, Smaller: true}},
		{Brier, "brier", "Brier", Def{Of: outcomeBrier, Proba: true, Smaller: true}},
	}
	for _, b := range builtin {
		b.d.Name, b.d.Label = b.name, b.text
		if m := MustRegister(b.d); m != b.m {
			panic(fmt.Sprintf("metrics: %s registered as %d, want %d", b.name, m, b.m))
		}
	}
}

// def returns m's entry; ok is false when m is not in the table.
func (m Metric) def() (Def, bool) {
	t := current().defs
	if m < 0 || int(m) >= len(t) {
		return Def{}, false
	}
	return t[m], true
}

// Def returns m's entry in the table; ok is false when m is not a
// metric.
func (m Metric) Def() (d Def, ok bool) { return m.def() }

// Registered returns every metric of the table: the built-in ones, then
// those registered, in order.
func Registered() []Metric {
	out := make([]Metric, len(current().defs))
	for i := range out {
		out[i] = Metric(i)
	}
	return out
}

// AllMetrics returns every metric of a two-class Confusion (those with a
// TwoClass form), the choices of a decision threshold: the ten of a
// Report in Report order, then those registered.
func AllMetrics() []Metric {
	var out []Metric
	for i, d := range current().defs {
		if d.TwoClass != nil {
			out = append(out, Metric(i))
		}
	}
	return out
}

// reportMetrics are the metrics of a Report, in order: its fields, JSON
// keys and sweep columns, which Register does not change.
func reportMetrics() []Metric {
	out := make([]Metric, numMetrics)
	for i := range out {
		out[i] = Metric(i)
	}
	return out
}

// String returns the metric's JSON name, such as "balanced_accuracy".
func (m Metric) String() string {
	d, ok := m.def()
	if !ok {
		return fmt.Sprintf("Metric(%d)", int(m))
	}
	return d.Name
}

// Label returns a human-readable name, such as "balanced accuracy".
func (m Metric) Label() string {
	d, ok := m.def()
	if !ok {
		return m.String()
	}
	return d.Label
}

// Of returns the metric's value on the two-class c: its TwoClass form,
// or Of on c's matrix; NaN for a metric of probabilities or of more
// classes. It panics if m is not a Metric.
func (m Metric) Of(c Confusion) float64 {
	d, ok := m.def()
	if !ok {
		panic(fmt.Sprintf("metrics: %v is not a metric", m))
	}
	if d.TwoClass != nil {
		return d.TwoClass(c)
	}
	if d.Proba {
		return math.NaN()
	}
	return d.Of(OutcomeOf(c))
}

// Value returns the metric's value on o: NaN when it is not defined for
// o's number of classes, or scores probabilities o has not. For two
// classes a metric with a TwoClass form is computed by it.
func (m Metric) Value(o *Outcome) float64 {
	d, ok := m.def()
	switch {
	case !ok || o == nil:
		return math.NaN()
	case d.Classes != 0 && d.Classes != o.Classes:
		return math.NaN()
	case d.Proba && o.Proba == nil:
		return math.NaN()
	case o.Classes == 2 && d.TwoClass != nil:
		return d.TwoClass(o.Confusion())
	}
	return d.Of(o)
}

// For says whether m is defined for k classes.
func (m Metric) For(k int) bool {
	d, ok := m.def()
	return ok && (d.Classes == 0 || d.Classes == k)
}

// normalName is name as the table spells it: lower case, "_" for "-".
func normalName(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "-", "_")
}

// aliases are the other names ParseMetric and Lookup accept.
var aliases = map[string]Metric{"ba": BalancedAccuracy, "tpr": MinorityRecall, "recall": MinorityRecall,
	"tnr": MajorityRecall, "precision": MinorityPrecision, "fm": FowlkesMallows}

// lookup finds the metric named name, or says why not: ok is false for
// an unknown name, err is set for an ambiguous one.
func lookup(name string) (m Metric, ok bool, err error) {
	n := normalName(name)
	if n == "g_mean" {
		return 0, false, fmt.Errorf(`metrics: %q is ambiguous: "gmean" is sqrt(TPR*TNR), "fowlkes_mallows" is the paper's G-mean sqrt(precision*recall)`, name)
	}
	if m, ok := aliases[n]; ok {
		return m, true, nil
	}
	m, ok = current().byName[n]
	return m, ok, nil
}

// unknown is the error of a name that is none of the metrics of list.
func unknown(name string, list []Metric) error {
	names := make([]string, len(list))
	for i, m := range list {
		names[i] = m.String()
	}
	return fmt.Errorf("metrics: unknown metric %q (want one of %s)", name, strings.Join(names, ", "))
}

// Lookup returns the metric of the table named name, of decisions or of
// probabilities, for any number of classes (case, "-" for "_" and
// ParseMetric's aliases are accepted).
func Lookup(name string) (Metric, error) {
	m, ok, err := lookup(name)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return 0, unknown(name, Registered())
	}
	return m, nil
}

// ParseMetric returns the metric of a two-class Confusion named name
// (one of AllMetrics: its JSON name; case, "-" for "_" and the aliases
// "ba", "tpr", "tnr", "precision", "recall" and "fm" are accepted). Note
// that "gmean" is sqrt(TPR * TNR); the paper's "G-mean" is
// "fowlkes_mallows", and "g-mean" is refused as ambiguous.
func ParseMetric(name string) (Metric, error) {
	m, ok, err := lookup(name)
	if err != nil {
		return 0, err
	}
	if d, _ := m.def(); !ok || d.TwoClass == nil {
		return 0, unknown(name, AllMetrics())
	}
	return m, nil
}
