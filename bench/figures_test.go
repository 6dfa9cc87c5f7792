package bench

import (
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
