package decompose

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// threeClasses is a 3-class task of n rows and 3 features, the class
// the largest of three noisy linear scores.
func threeClasses(n int, phase float64) *learn.Data {
	x := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	for i := range n {
		a, b, c := math.Sin(float64(i)*1.3+phase), math.Cos(float64(i)*0.7+phase), math.Sin(float64(i)*2.9+phase)
		x.SetRow(i, []float64{a, b, c})
		s := []float64{a + 0.3*math.Sin(float64(i)*5.1), b - a, -b + 0.4*c}
		for k := range s {
			if s[k] > s[y[i]] {
				y[i] = k
			}
		}
	}
	return &learn.Data{X: x, Y: y, Features: []string{"a", "b", "c"}}
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// TestAttributeClassesOvR: a one-vs-rest logreg's class c attributions
// are member c's through its decision layer's sigmoid calibration, so
// the sigmoid of base + sum is member c's calibrated probability, and
// the outputs' sigmoids normalised are the class probabilities. A
// one-vs-one model, and one-vs-rest trees (probability attributions
// behind a sigmoid calibration), give errors wrapping
// learn.ErrNoAttribution that say why.
func TestAttributeClassesOvR(t *testing.T) {
	ctx := context.Background()
	train, valid := threeClasses(240, 0), threeClasses(90, 0.5)
	method, err := learn.New("logreg")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Fit(ctx, method, OneVsRest, train, valid, 3, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, mb := range m.Members {
		if mb.Layer == nil || mb.Layer.Calibration == nil || mb.Layer.Calibration.Method != decision.Sigmoid || !mb.Layer.Calibration.Logit {
			t.Fatalf("member %d: layer %+v, want a sigmoid calibration of the log-odds", mb.A, mb.Layer)
		}
	}
	x := valid.X
	attr, err := learn.AttributeClasses(ctx, m, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	proba, err := m.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := x.Dims()
	for c, mb := range m.Members {
		p, err := mb.scorer().PositiveProba(x, nil)
		if err != nil {
			t.Fatal(err)
		}
		if attr[c].Space != learn.Logit || !strings.Contains(attr[c].Method, "calibration") {
			t.Errorf("class %d: %s space, %q", c, attr[c].Space, attr[c].Method)
		}
		for i := range n {
			if got := sigmoid(attr[c].Output(i)); math.Abs(got-p[i]) > 1e-12 {
				t.Fatalf("class %d row %d: sigmoid(base + sum) %v, member's calibrated probability %v", c, i, got, p[i])
			}
		}
	}
	for i := range n {
		sum := 0.0
		for c := range 3 {
			sum += sigmoid(attr[c].Output(i))
		}
		for c := range 3 {
			if got := sigmoid(attr[c].Output(i)) / sum; math.Abs(got-proba[i*3+c]) > 1e-12 {
				t.Fatalf("row %d class %d: normalised %v, probability %v", i, c, got, proba[i*3+c])
			}
		}
	}
	ovo, err := Fit(ctx, method, OneVsOne, train, valid, 3, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := learn.AttributeClasses(ctx, ovo, x, 1); !errors.Is(err, learn.ErrNoAttribution) || !strings.Contains(err.Error(), "one-vs-one") {
		t.Errorf("one-vs-one: %v, want ErrNoAttribution naming one-vs-one", err)
	}
	treeMethod, err := learn.New("tree")
	if err != nil {
		t.Fatal(err)
	}
	trees, err := Fit(ctx, treeMethod, OneVsRest, train, valid, 3, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := learn.AttributeClasses(ctx, trees, x, 1); !errors.Is(err, learn.ErrNoAttribution) || !strings.Contains(err.Error(), "class 0 vs rest") {
		t.Errorf("one-vs-rest trees: %v, want ErrNoAttribution naming the member", err)
	}
}
