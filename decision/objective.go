package decision

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/metrics"
)

// Objective is what a decision threshold is chosen for: a metric to
// maximise (the default, balanced accuracy), a cost to minimise
// (CostFN per missed positive, CostFP per false alarm), or the highest
// precision at a recall of at least MinRecall.
//
// Of three or more classes, the metric is balanced accuracy, F1 (macro)
// or G-mean, and a cost is Matrix: Matrix[i][j] the cost of predicting
// class j for a row of class i. Two classes' cost fn,fp is the matrix
// [[0, fp], [fn, 0]] (CostMatrix).
type Objective struct {
	Metric    metrics.Metric `json:"-"`
	CostFN    float64        `json:"cost_fn,omitempty"`
	CostFP    float64        `json:"cost_fp,omitempty"`
	MinRecall float64        `json:"min_recall,omitempty"`
	Matrix    [][]float64    `json:"cost_matrix,omitempty"`
}

// CostMatrix is the objective's cost as a k x k matrix: Matrix, or of
// two classes the matrix of CostFN and CostFP; nil for no cost.
func (o Objective) CostMatrix(k int) [][]float64 {
	if o.Matrix != nil || k != 2 || o.CostFN+o.CostFP == 0 {
		return o.Matrix
	}
	return [][]float64{{0, o.CostFP}, {o.CostFN, 0}}
}

// MetricObjective returns the objective of maximising m.
func MetricObjective(m metrics.Metric) Objective { return Objective{Metric: m} }

// ParseCost reads a cost objective written "fn=10,fp=1".
func ParseCost(s string) (Objective, error) {
	o := Objective{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err != nil || !(f >= 0) || math.IsInf(f, 0) {
			return o, fmt.Errorf("cost %q: want fn=COST,fp=COST with finite non-negative costs", s)
		}
		switch strings.TrimSpace(k) {
		case "fn":
			o.CostFN = f
		case "fp":
			o.CostFP = f
		default:
			return o, fmt.Errorf("cost %q: unknown key %q (want fn and fp)", s, k)
		}
	}
	if o.CostFN+o.CostFP == 0 {
		return o, fmt.Errorf("cost %q: at least one cost must be positive", s)
	}
	return o, nil
}

// MinRecallObjective returns the objective of the highest precision at a
// minority recall of at least r, in (0, 1].
func MinRecallObjective(r float64) (Objective, error) {
	if !(r > 0 && r <= 1) {
		return Objective{}, fmt.Errorf("minimum recall %v is not in (0, 1]", r)
	}
	return Objective{MinRecall: r}, nil
}

// String names the objective: a metric name, "cost fn=A,fp=B" or
// "precision at recall >= R".
func (o Objective) String() string {
	switch {
	case o.CostFN+o.CostFP > 0:
		return fmt.Sprintf("cost fn=%g,fp=%g", o.CostFN, o.CostFP)
	case o.MinRecall > 0:
		return fmt.Sprintf("precision at recall >= %g", o.MinRecall)
	}
	return o.Metric.String()
}

// value is the objective at one confusion matrix, larger is better; NaN
// where it is undefined (a recall below the floor).
func (o Objective) value(c metrics.Confusion) float64 {
	switch {
	case o.CostFN+o.CostFP > 0:
		return -(o.CostFN*c.FN + o.CostFP*c.FP)
	case o.MinRecall > 0:
		if r := c.MinorityRecall(); math.IsNaN(r) || r < o.MinRecall-1e-12 {
			return math.NaN()
		}
		return c.MinorityPrecision()
	}
	return o.Metric.Of(c)
}

// Candidates returns the thresholds a choice looks at: the grid 0.01,
// 0.02, ..., 0.99 for scores that are probabilities, and the scores'
// quantiles at 0.5%, 1%, ..., 99.5% (linear interpolation), sorted and
// without duplicates: the rule of the Python anchors, which also works for
// scores that are not probabilities.
func Candidates(score []float64) []float64 {
	var c []float64
	prob := true
	for _, s := range score {
		if !(s >= 0 && s <= 1) {
			prob = false
			break
		}
	}
	if prob {
		for k := 1; k <= 99; k++ {
			c = append(c, float64(k)/100)
		}
	}
	sorted := slices.Clone(score)
	slices.Sort(sorted)
	n := len(sorted)
	for k := 1; k <= 199 && n > 0; k++ {
		pos := float64(k) / 200 * float64(n-1)
		i := int(pos)
		f := pos - float64(i)
		v := sorted[i]
		if i+1 < n {
			v += f * (sorted[i+1] - sorted[i])
		}
		c = append(c, v)
	}
	slices.Sort(c)
	return slices.Compact(c)
}

// ErrUndefined is returned when the objective is undefined at every
// candidate threshold (no positive rows, or a recall floor no threshold
// reaches).
var ErrUndefined = errors.New("decision: the objective is undefined at every threshold")

// Choice is a chosen threshold and the objective's value there.
type Choice struct {
	Threshold float64 `json:"threshold"`
	Value     float64 `json:"value"`
}

// Choose returns the candidate threshold where o is best on the rows
// (labels y, scores, optional weights w); of a run of tied best
// candidates, the middle one, which keeps the threshold away from the
// nearest change of decision. For a cost the value is the cost, not its
// negative.
func Choose(y []int, score, w []float64, o Objective) (Choice, error) {
	if err := metrics.Validate(y, score, nil, w); err != nil {
		return Choice{}, err
	}
	cands := Candidates(score)
	sw := metrics.SweepThresholds(y, score, cands, w)
	v := make([]float64, len(sw))
	for i := range sw {
		v[i] = o.value(sw[i].Confusion)
	}
	bi := metrics.BestIndex(v)
	if bi < 0 {
		return Choice{}, fmt.Errorf("%w (%s)", ErrUndefined, o)
	}
	best := v[bi]
	c := Choice{Threshold: sw[bi].Threshold, Value: best}
	if o.CostFN+o.CostFP > 0 {
		c.Value = -best
	}
	return c, nil
}

// ClassMetric returns the metric of package metrics' table named name
// that a decision of k classes may be tuned for: a metric of decisions
// (not of probabilities) defined for k classes, such as
// balanced_accuracy ("" too), macro_f1, gmean, or one registered with
// metrics.Register.
func ClassMetric(name string, k int) (metrics.Metric, error) {
	if name == "" {
		return metrics.BalancedAccuracy, nil
	}
	m, err := metrics.Lookup(name)
	if err != nil {
		return 0, err
	}
	if d, _ := m.Def(); d.Proba || !m.For(k) {
		return 0, fmt.Errorf("decision: metric %q cannot be tuned for a decision of %d classes", name, k)
	}
	return m, nil
}
