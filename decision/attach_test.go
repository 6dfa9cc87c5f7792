package decision_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/tree"
)

// Behind a layer without calibration a model keeps everything it offers,
// the layer's threshold first; behind a calibrating layer, only what is
// about its make-up; its explanations come with the calibrated score beside
// them, and its attributions are not offered (a tree's attributions are
// of its probability, which no calibration maps linearly).
func TestAttachCapabilities(t *testing.T) {
	ctx := context.Background()
	tk := newTask(t)
	m, err := tree.NewMethod().Fit(ctx, tk.train, nil, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	score, err := learn.Predict(ctx, m, tk.valid.X, 1)
	if err != nil {
		t.Fatal(err)
	}
	row := tk.valid.X.RawRowView(0)
	wantSummary := learn.SummaryOf(m)
	for _, cal := range []string{"", decision.Sigmoid, decision.Isotonic} {
		l, err := decision.FitLayer(tk.valid.Y, score, nil, decision.MetricObjective(metrics.BalancedAccuracy), cal)
		if err != nil {
			t.Fatal(err)
		}
		a := decision.Attach(m, l)
		if th, ok := learn.TunedThreshold(a); !ok || th != l.Threshold {
			t.Errorf("%q: threshold %v, %v, want the layer's %v", cal, th, ok, l.Threshold)
		}
		if s := learn.SummaryOf(a); !reflect.DeepEqual(s, wantSummary) {
			t.Errorf("%q: summary %v, want the tree's", cal, s)
		}
		if learn.NumParams(a) != learn.NumParams(m) || len(learn.ImportancesOf(a)) == 0 {
			t.Errorf("%q: the tree's size or importances are not found through the layer", cal)
		}
		if b, _ := a.MarshalBinary(); !bytes.Equal(b, must(m.MarshalBinary())) {
			t.Errorf("%q: the attached model's bytes are not the tree's", cal)
		}
		ex, explains := learn.ExplainerOf(a)
		_, attrErr := learn.Attribute(ctx, a, tk.valid.X, 1)
		p, _ := a.PositiveProba(tk.valid.X, nil)
		if cal == "" {
			if !explains || attrErr != nil {
				t.Errorf("without calibration: explains %v, attributions %v", explains, attrErr)
			} else if e, err := ex.Explain(row); err != nil || !reflect.DeepEqual(e, must(m.(learn.Explainer).Explain(row))) {
				t.Errorf("Explain = %v, %v: not the tree's", e, err)
			}
			if !reflect.DeepEqual(p, score) {
				t.Error("without calibration the scores are not the tree's")
			}
			continue
		}
		if !explains || !errors.Is(attrErr, learn.ErrNoAttribution) {
			t.Fatalf("%q: explains %v, attributions %v: the uncalibrated score's attributions are offered, or its explanation is not", cal, explains, attrErr)
		}
		// The explanation is the tree's, with the calibrated score and
		// the layer's prediction beside it.
		e, err := ex.Explain(row)
		if err != nil {
			t.Fatal(err)
		}
		ce, ok := e.(*decision.Explanation)
		want := l.Calibration.Apply(score[0])
		if !ok || !reflect.DeepEqual(ce.Model, must(m.(learn.Explainer).Explain(row))) || ce.Score != want || ce.ModelScore != score[0] || (ce.Prediction == 1) != (want >= l.Threshold) {
			t.Errorf("%q: explanation %+v, want the tree's with calibrated score %v", cal, e, want)
		}
		if reflect.DeepEqual(p, score) {
			t.Errorf("%q: the calibrated scores are the tree's", cal)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Behind a sigmoid calibration, log-odds attributions are mapped to those
// of the calibrated log-odds: they sum to the calibrated score's logit.
func TestAttachSigmoidAttributions(t *testing.T) {
	ctx := context.Background()
	tk := newTask(t)
	m, err := tunedGBDT(t).Inner.Fit(ctx, tk.train, nil, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	score, err := learn.Predict(ctx, m, tk.valid.X, 1)
	if err != nil {
		t.Fatal(err)
	}
	l, err := decision.FitLayer(tk.valid.Y, score, nil, decision.MetricObjective(metrics.BalancedAccuracy), decision.Sigmoid)
	if err != nil {
		t.Fatal(err)
	}
	a := decision.Attach(m, l)
	at, err := learn.Attribute(ctx, a, tk.test.X, 2)
	if err != nil {
		t.Fatal(err)
	}
	inner, _ := learn.Attribute(ctx, m, tk.test.X, 2)
	p, _ := a.PositiveProba(tk.test.X, nil)
	for i, v := range p {
		if got := 1 / (1 + math.Exp(-at.Output(i))); math.Abs(got-v) > 1e-9 {
			t.Fatalf("row %d: the attributions sum to probability %v, the calibrated score is %v", i+1, got, v)
		}
		if want := -l.Calibration.A * inner.Phi.At(i, 0); at.Phi.At(i, 0) != want {
			t.Fatalf("row %d: attribution %v, want -A times the model's, %v", i+1, at.Phi.At(i, 0), want)
		}
	}
	if at.Space != learn.Logit || !strings.Contains(at.Method, "sigmoid calibration") {
		t.Errorf("space %s, method %q", at.Space, at.Method)
	}
	if _, explains := learn.ExplainerOf(a); explains {
		t.Error("the calibrated model offers an explanation of the uncalibrated score")
	}
}
