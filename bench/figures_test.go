package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// figureCurves are three made-up scorers of 200 rows, 40 positive: a good
// one, a weaker one and one whose scores are not probabilities.
func figureCurves() []curve {
	y := make([]int, 200)
	good, weak, raw := make([]float64, 200), make([]float64, 200), make([]float64, 200)
	for i := range y {
		if i%5 == 0 {
			y[i] = 1
		}
		u := math.Mod(float64(i)*0.6180339887, 1) // evenly spread in [0, 1)
		good[i] = 0.7*u*u + 0.3*float64(y[i])
		weak[i] = 0.85*u + 0.15*float64(y[i])
		raw[i] = 2*(0.6*u+0.25*float64(y[i])) - 0.5
	}
	return []curve{{"good", y, good}, {"weak", y, weak}, {"raw-scores", y, raw}}
}

// goldenFigure writes one format of a figure to testdata for cmpimg.
func goldenFigure(t *testing.T, name string, r *rendered, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", name), r.png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFigures compares the figures with their golden images, as gonum/plot
// tests its own (go test -regen rewrites the goldens: look at them first).
func TestFigures(t *testing.T) {
	cs := figureCurves()
	cmpimg.CheckPlot(func() {
		r, err := rocFigure("task: ROC curves", cs)
		goldenFigure(t, "roc.png", r, err)
		r, err = prFigure("task: precision-recall curves", cs)
		goldenFigure(t, "pr.png", r, err)
		r, err = reliabilityFigure("task: reliability", cs)
		goldenFigure(t, "reliability.png", r, err)
		r, err = cdFigure([]string{"aer", "gbdt", "logreg", "tree", "svm", "balanced-rf"}, []float64{1.75, 2.5, 3.625, 5.5, 3.875, 3.75}, 2.6657, 8)
		goldenFigure(t, "cd.png", r, err)
	}, t, "roc.png", "pr.png", "reliability.png", "cd.png")
}

func TestFigureErrors(t *testing.T) {
	if _, err := cdFigure([]string{"a"}, []float64{1}, 1, 3); err == nil {
		t.Error("one method: no error")
	}
	if _, err := cdFigure([]string{"a", "b"}, []float64{1}, 1, 3); err == nil {
		t.Error("ranks of the wrong length: no error")
	}
	// The SVG of a figure is a document HTML can inline.
	r, err := rocFigure("t", figureCurves())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.svg) == 0 || !containsSVG(r.svg) {
		t.Error("no <svg element")
	}
}

func containsSVG(b []byte) bool {
	for i := 0; i+4 <= len(b); i++ {
		if string(b[i:i+4]) == "<svg" {
			return true
		}
	}
	return false
}

// figureTunings are made-up tunings of three seeds: mixtures of 2, 3 and 2
// components (so 5, 7 and 5 members), curves against lambda and delta
// from 400 validation rows, 20 positive.
func figureTunings() []seedTuning {
	var runs []seedTuning
	for i, l := range []int{2, 3, 2} {
		t := &tuning{Metric: "balanced_accuracy"}
		for c := range l {
			t.Members = append(t.Members, fmt.Sprintf("global %d", c), fmt.Sprintf("local %d", c))
		}
		t.Members = append(t.Members, "all rows")
		sum := 0.0
		for k := range t.Members {
			w := 0.2 + math.Mod(float64(k+3*i)*0.6180339887, 1)
			if k == 2 && i == 1 {
				w = 0 // a member the weights switch off
			}
			t.Static = append(t.Static, w)
			sum += w
		}
		for k := range t.Static {
			t.Static[k] /= sum
		}
		shift := float64(i) * 0.04
		for k := 0; k <= 20; k++ {
			lam := float64(k) / 20
			m := 0.86 + 0.05*math.Sin(3*lam+shift*10) - 0.04*lam*lam
			t.ByLambda = append(t.ByLambda, lambdaPoint{Lambda: lam, Metric: m, Delta: 0.3 + 0.2*lam})
			if k == 0 || m > t.Best {
				t.Lambda, t.Best = lam, m
			}
		}
		best := -1.0
		for k := 1; k < 100; k++ {
			d := float64(k) / 100
			tp := int(math.Round(20 * (1 - math.Pow(d, 3+float64(i)))))
			fp := int(math.Round(380 * math.Pow(1-d, 4+shift*20)))
			c := confusion{TP: tp, FP: fp, TN: 380 - fp, FN: 20 - tp}
			ba := (float64(tp)/20 + float64(380-fp)/380) / 2
			t.ByDelta = append(t.ByDelta, deltaPoint{Delta: d, Metric: ba, Confusion: c})
			if ba > best {
				best, t.Delta = ba, d
			}
		}
		t.Best = best
		runs = append(runs, seedTuning{seed: uint64(i), t: t})
	}
	return runs
}

// TestTuningFigures compares the AER figures with their golden images.
func TestTuningFigures(t *testing.T) {
	runs := figureTunings()
	cmpimg.CheckPlot(func() {
		r, err := weightStripFigure("task: aer static weights", runs)
		goldenFigure(t, "weights.png", r, err)
		r, err = lambdaFigure("task: aer validation balanced accuracy vs lambda", "balanced_accuracy", runs)
		goldenFigure(t, "lambda.png", r, err)
		r, err = deltaFigure("task: aer validation balanced accuracy vs delta", "balanced_accuracy", runs)
		goldenFigure(t, "delta.png", r, err)
		r, err = f1FMFigure("task: aer validation F1 and Fowlkes-Mallows vs delta", runs)
		goldenFigure(t, "f1_fm.png", r, err)
	}, t, "weights.png", "lambda.png", "delta.png", "f1_fm.png")
}
