package cv_test

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

// informedness is a metric added from outside package metrics, in this
// one place: Youden's J, TPR + TNR - 1 for two classes, (k BA - 1) /
// (k - 1) for k, both from the confusion matrix.
var informedness = mustRegister(metrics.Def{
	Name:  "informedness",
	Label: "informedness (Youden's J)",
	Of: func(o *metrics.Outcome) float64 {
		sum := 0.0
		for c := range o.Classes {
			sum += o.Recall(c)
		}
		k := float64(o.Classes)
		return (sum - 1) / (k - 1)
	},
	TwoClass: func(c metrics.Confusion) float64 { return c.MinorityRecall() + c.MajorityRecall() - 1 },
})

// trueProba is a metric of probabilities added from outside: the mean
// probability of the rows' true classes.
var trueProba = mustRegister(metrics.Def{
	Name:  "true_proba",
	Proba: true,
	Of: func(o *metrics.Outcome) float64 {
		sum := 0.0
		for i, y := range o.Y {
			sum += o.Proba[i*o.Classes+y]
		}
		return sum / float64(len(o.Y))
	},
})

func mustRegister(d metrics.Def) metrics.Metric {
	m, err := metrics.Register(d)
	if err != nil {
		panic(err)
	}
	return m
}

// TestRegisteredMetric: metrics registered outside package metrics are
// found by name, reported by cv for two and for three classes, and taken
// by the decision layer as what a threshold is tuned for; a second
// registration of the name is refused.
func TestRegisteredMetric(t *testing.T) {
	if _, err := metrics.Register(metrics.Def{Name: "informedness", TwoClass: metrics.Confusion.F1}); err == nil {
		t.Error("a name registered twice")
	}
	if m, err := metrics.ParseMetric("Informedness"); err != nil || m != informedness {
		t.Fatalf("ParseMetric: %v %v", m, err)
	}
	if _, err := metrics.ParseMetric("true_proba"); err == nil {
		t.Error("a metric of probabilities taken for a threshold")
	}

	// Two classes: cv reports both, the first as the fold's TPR + TNR - 1.
	g, err := synth.Generate(&synth.Settings{Samples: 200, Ratio: 4, Clusters: 2, Features: 4, Informative: 2, FlipY: synth.None}, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := &learn.Data{X: g.X, Y: g.Y}
	fit := func(ctx context.Context, train, valid *learn.Data, _ int, env learn.Env) (learn.Model, cv.Decider, error) {
		m, err := logreg.NewMethod().Fit(ctx, train, valid, env)
		return m, nil, err
	}
	res, err := cv.Run(context.Background(), d, 2, fit, &cv.Settings{Folds: 4}, learn.Env{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := res.Summaries("informedness", "true_proba", "balanced_accuracy")
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for _, f := range res.Rounds {
		c := f.Report.(*metrics.Report).Confusion
		mean += (c.MinorityRecall() + c.MajorityRecall() - 1) / 4
	}
	if sum[0].Rounds != 4 || math.Abs(sum[0].Mean-mean) > 1e-12 || math.Abs(sum[0].Mean-(2*sum[2].Mean-1)) > 1e-12 {
		t.Errorf("informedness %+v, want mean %v", sum[0], mean)
	}
	if !(sum[1].Mean > 0.5 && sum[1].Mean < 1) {
		t.Errorf("true_proba %+v", sum[1])
	}

	// Three classes: the same metric from the k x k matrix.
	dk, k := classes(), 3
	fitk := func(_ context.Context, train, _ *learn.Data, k int, _ learn.Env) (learn.Model, cv.Decider, error) {
		return fitCentroids(train, k), nil, nil
	}
	resk, err := cv.Run(context.Background(), dk, k, fitk, &cv.Settings{Folds: 3}, learn.Env{Seed: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sumk, err := resk.Summaries("informedness", "balanced_accuracy", "true_proba")
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sumk[0].Mean-(3*sumk[1].Mean-1)/2) > 1e-12 || !(sumk[0].Mean > 0.5) || !(sumk[2].Mean > 1.0/3) {
		t.Errorf("three classes: informedness %+v, balanced accuracy %+v, true_proba %+v", sumk[0], sumk[1], sumk[2])
	}
	if _, err := resk.Summaries("f1"); err == nil {
		t.Error("a metric of two classes summarised over three")
	}

	// A decision of three classes may be tuned for it, not for a metric
	// of probabilities or of two classes.
	if m, err := decision.ClassMetric("informedness", 3); err != nil || m != informedness {
		t.Errorf("ClassMetric: %v %v", m, err)
	}
	for _, name := range []string{"true_proba", "f1", "nope"} {
		if _, err := decision.ClassMetric(name, 3); err == nil {
			t.Errorf("ClassMetric(%q, 3) accepted", name)
		}
	}

	// The decision layer tunes a threshold for it: the best of the
	// candidates.
	y, score := []int{0, 0, 0, 0, 1, 0, 1, 1}, []float64{0.1, 0.2, 0.3, 0.35, 0.4, 0.6, 0.7, 0.9}
	ch, err := decision.Choose(y, score, nil, decision.MetricObjective(informedness))
	if err != nil {
		t.Fatal(err)
	}
	best := math.Inf(-1)
	for _, th := range decision.Candidates(score) {
		best = max(best, informedness.Of(metrics.FromScores(y, score, th, nil)))
	}
	if ch.Value != best || informedness.Of(metrics.FromScores(y, score, ch.Threshold, nil)) != best || best != 0.8 {
		t.Errorf("chose %+v, best %v", ch, best)
	}
}

// classes is a 3-class problem of 150 rows around three centres.
func classes() *learn.Data {
	var rows []float64
	var y []int
	for i := range 150 {
		c := i % 3
		rows = append(rows, float64(c)+0.8*math.Sin(float64(7*i)), float64(c%2)+0.8*math.Cos(float64(5*i)))
		y = append(y, c)
	}
	return &learn.Data{X: mat.NewDense(len(y), 2, rows), Y: y}
}

// centroids scores each class by a softmax of minus the squared
// distance to its training rows' centre.
type centroids struct{ centre [][]float64 }

func fitCentroids(d *learn.Data, k int) *centroids {
	_, f := d.X.Dims()
	m := &centroids{centre: make([][]float64, k)}
	n := make([]float64, k)
	for c := range m.centre {
		m.centre[c] = make([]float64, f)
	}
	for i, c := range d.Y {
		n[c]++
		for j := range f {
			m.centre[c][j] += d.X.At(i, j)
		}
	}
	for c := range m.centre {
		for j := range f {
			m.centre[c][j] /= n[c]
		}
	}
	return m
}

func (m *centroids) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, f := x.Dims()
	k := len(m.centre)
	dst = make([]float64, r*k)
	for i := range r {
		sum := 0.0
		for c := range k {
			d2 := 0.0
			for j := range f {
				d := x.At(i, j) - m.centre[c][j]
				d2 += d * d
			}
			dst[i*k+c] = math.Exp(-d2)
			sum += dst[i*k+c]
		}
		for c := range k {
			dst[i*k+c] /= sum
		}
	}
	return dst, nil
}

func (m *centroids) NumClasses() int                { return len(m.centre) }
func (m *centroids) NumFeatures() int               { return len(m.centre[0]) }
func (m *centroids) MarshalBinary() ([]byte, error) { return nil, nil }
