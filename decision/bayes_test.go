package decision

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aer-go/aer/metrics"
)

// calibrated returns n scores that are their rows' true probabilities of
// label 1 (Beta-like spread around 0.1) and labels drawn from them.
func calibrated(n int, seed uint64) ([]int, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	y, s := make([]int, n), make([]float64, n)
	for i := range n {
		s[i] = 1 / (1 + math.Exp(-(-2.5 + 1.5*r.NormFloat64())))
		if r.Float64() < s[i] {
			y[i] = 1
		}
	}
	return y, s
}

func TestInverse(t *testing.T) {
	y, s := calibrated(2000, 1)
	c, err := Calibrate(Sigmoid, y, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []float64{0.01, 0.1, 0.5, 0.93} {
		x, ok := c.Inverse(p)
		if !ok {
			t.Fatalf("p %v: no inverse of an increasing calibration", p)
		}
		if got := c.Apply(x); math.Abs(got-p) > 1e-12 {
			t.Errorf("Apply(Inverse(%v)) = %v", p, got)
		}
	}
	if _, ok := (&Calibration{Method: Sigmoid, A: 1}).Inverse(0.5); ok {
		t.Error("a decreasing calibration has an inverse threshold")
	}
	if _, ok := (&Calibration{Method: Isotonic, X: []float64{0, 1}, Y: []float64{0, 1}}).Inverse(0.5); ok {
		t.Error("an isotonic calibration has an inverse threshold")
	}
}

// On scores that are already probabilities, the Bayes threshold for
// balanced accuracy is the positive share and for a cost fp/(fn+fp).
func TestFitBayesLayer(t *testing.T) {
	y, s := calibrated(20000, 2)
	prior := 0.0
	for _, v := range y {
		prior += float64(v)
	}
	prior /= float64(len(y))
	l, err := FitBayesLayer(y, s, nil, MetricObjective(metrics.BalancedAccuracy), 0)
	if err != nil {
		t.Fatal(err)
	}
	if l.Rule != RuleBayes || math.Abs(l.Threshold-prior) > 0.02 {
		t.Errorf("balanced accuracy: threshold %v (rule %s), want about the positive share %v", l.Threshold, l.Rule, prior)
	}
	if want := metrics.FromScores(y, s, l.Threshold, nil).BalancedAccuracy(); l.Value != want {
		t.Errorf("value %v, balanced accuracy at the threshold %v", l.Value, want)
	}
	// The prior given wins over the validation share.
	if l2, _ := FitBayesLayer(y, s, nil, MetricObjective(metrics.BalancedAccuracy), 0.3); math.Abs(l2.Threshold-0.3) > 0.02 {
		t.Errorf("prior 0.3: threshold %v", l2.Threshold)
	}
	o, err := ParseCost("fn=9,fp=1")
	if err != nil {
		t.Fatal(err)
	}
	l, err = FitBayesLayer(y, s, nil, o, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(l.Threshold-0.1) > 0.02 || l.Value < 0 {
		t.Errorf("cost fn=9,fp=1: threshold %v (want about 0.1), cost %v", l.Threshold, l.Value)
	}
	if _, err := FitBayesLayer(y, s, nil, MetricObjective(metrics.F1), 0); !errors.Is(err, ErrNoBayes) {
		t.Errorf("f1: %v, want ErrNoBayes", err)
	}
}
