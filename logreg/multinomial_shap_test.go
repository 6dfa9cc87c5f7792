package logreg_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/prep"
)

// TestAttributeClassesAround checks the per-class linear SHAP values
// against their definition on a model written by hand: phi_kj =
// Coef[k][j] (x_j - ref_j), base Intercept[k] + Coef[k]·ref, and base +
// sum is class k's score.
func TestAttributeClassesAround(t *testing.T) {
	m := &logreg.MultiModel{Coef: [][]float64{{1, -2}, {0.5, 0}, {-1.5, 3}}, Intercept: []float64{0.25, -1, 0.75}}
	x := mat.NewDense(2, 2, []float64{3, 1, -1, 0.5})
	ref := []float64{1, 2}
	a, err := m.AttributeClassesAround(x, ref)
	if err != nil {
		t.Fatal(err)
	}
	// Class 2, row 0: -1.5 (3 - 1) = -3, 3 (1 - 2) = -3; base 0.75 - 1.5 + 6.
	if got := a[2].Phi.RawRowView(0); got[0] != -3 || got[1] != -3 || a[2].Base[0] != 5.25 {
		t.Errorf("class 2, row 0: phi %v, base %v; want [-3 -3], 5.25", got, a[2].Base[0])
	}
	scores, err := m.Scores(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 3 {
		for i := range 2 {
			if d := math.Abs(a[k].Output(i) - scores[i*3+k]); d > 1e-12 {
				t.Errorf("class %d row %d: base + sum %v, score %v", k, i, a[k].Output(i), scores[i*3+k])
			}
		}
	}
	if _, err := m.AttributeClassesAround(mat.NewDense(1, 2, []float64{math.NaN(), 0}), ref); !errors.Is(err, learn.ErrData) {
		t.Errorf("a missing value: %v, want ErrData", err)
	}
}

// TestAttributeClassesStandardized fits the registered logreg's
// multinomial model (imputation and standardisation in front) on rows
// with missing values and checks learn.AttributeClasses: local accuracy
// (each class's base + sum is its linear score within 1e-9, and the
// softmax of the outputs is the class probabilities), a missing value's
// attribution is exactly 0 (imputed by the training mean, the
// reference), and a value's attribution on the raw scale is w_kj /
// scale_j (x_j - mean_j), as the binary logreg's.
func TestAttributeClassesStandardized(t *testing.T) {
	n, k := 300, 4
	x := mat.NewDense(n, 3, nil)
	y := make([]int, n)
	for i := range n {
		a, b, c := 10+5*math.Sin(float64(i)*1.7), 0.01*math.Cos(float64(i)*0.3), 100*math.Sin(float64(i)*2.3)
		if i%7 == 3 {
			b = math.NaN()
		}
		x.SetRow(i, []float64{a, b, c})
		y[i] = (i*7 + int(a)) % k
	}
	mm, err := logreg.NewStandardized().(learn.ClassFitter).FitClasses(context.Background(), &learn.Data{X: x, Y: y}, nil, k, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	attr, err := learn.AttributeClasses(context.Background(), mm, x, 0)
	if err != nil {
		t.Fatal(err)
	}
	pm := mm.(*prep.MultiModel)
	inner := pm.Inner.(*logreg.MultiModel)
	scores, err := inner.Scores(pm.Prep.Apply(x), nil)
	if err != nil {
		t.Fatal(err)
	}
	proba, err := mm.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, k)
	for i := range n {
		hi := math.Inf(-1)
		for c := range k {
			out[c] = attr[c].Output(i)
			if d := math.Abs(out[c] - scores[i*k+c]); d > 1e-9 {
				t.Fatalf("row %d class %d: base + sum %v, score %v", i, c, out[c], scores[i*k+c])
			}
			hi = math.Max(hi, out[c])
		}
		sum := 0.0
		for c := range k {
			sum += math.Exp(out[c] - hi)
		}
		for c := range k {
			if p := math.Exp(out[c]-hi) / sum; math.Abs(p-proba[i*k+c]) > 1e-12 {
				t.Fatalf("row %d class %d: softmax %v, probability %v", i, c, p, proba[i*k+c])
			}
		}
		if i%7 == 3 {
			for c := range k {
				if v := attr[c].Phi.At(i, 1); v != 0 {
					t.Fatalf("row %d class %d: a missing value's attribution %v, want 0", i, c, v)
				}
			}
		}
	}
	sc := pm.Prep.Scaler
	for c := range k {
		want := inner.Coef[c][2] / sc.Scale[2] * (x.At(0, 2) - pm.Prep.Means[2])
		if got := attr[c].Phi.At(0, 2); math.Abs(got-want) > 1e-9 {
			t.Errorf("class %d: attribution %v, want w/scale (x - mean) = %v", c, got, want)
		}
	}
}
