package logreg

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMultinomialGolden checks the multinomial fit's coefficients,
// intercepts and probabilities at the optimum against scikit-learn's
// (testdata/multinomial_golden.py): glass (6 classes, 9 features),
// unweighted, balanced, and with row weights and C = 0.1.
func TestMultinomialGolden(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "multinomial_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Classes, Rows, Cols int
		X                   []float64
		Y                   []int
		Cases               []struct {
			Name        string
			ClassWeight string `json:"class_weight"`
			C           float64
			Weight      []float64
			Coef        [][]float64
			Intercept   []float64
			Proba       []float64
		}
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(g.Rows, g.Cols, g.X)
	for _, c := range g.Cases {
		cw := Balanced
		if c.ClassWeight == "none" {
			cw = Unweighted
		}
		m, err := FitMultinomial(context.Background(), x, g.Y, g.Classes, c.Weight, &Settings{C: c.C, ClassWeight: cw})
		if err != nil {
			t.Fatal(err)
		}
		if !m.Converged {
			t.Errorf("%s: not converged after %d iterations", c.Name, m.Iterations)
		}
		worst := 0.0
		for k := range g.Classes {
			for j := range g.Cols {
				worst = math.Max(worst, math.Abs(m.Coef[k][j]-c.Coef[k][j]))
			}
			worst = math.Max(worst, math.Abs(m.Intercept[k]-c.Intercept[k]))
		}
		if worst > 1e-6 {
			t.Errorf("%s: coefficients differ from scikit-learn's by %.3g", c.Name, worst)
		}
		p, err := m.PredictProba(x.Slice(0, 20, 0, g.Cols).(*mat.Dense), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p {
			if math.Abs(p[i]-c.Proba[i]) > 1e-7 {
				t.Fatalf("%s: probability %d: %v, want %v", c.Name, i, p[i], c.Proba[i])
			}
		}
		t.Logf("%s: %d iterations, largest coefficient difference %.2g", c.Name, m.Iterations, worst)
	}
}

// TestMultinomialErrors checks the refusals.
func TestMultinomialErrors(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	for _, c := range []struct {
		y []int
		k int
		s *Settings
	}{
		{[]int{0, 1, 3}, 3, nil},
		{[]int{0, 1, 1}, 1, nil},
		{[]int{0, 1}, 2, nil},
		{[]int{0, 1, 2}, 3, &Settings{ClassWeight: ClassWeight{Explicit: true, Neg: 2, Pos: 1}}},
	} {
		if _, err := FitMultinomial(context.Background(), x, c.y, c.k, nil, c.s); err == nil {
			t.Errorf("%+v: accepted", c)
		}
	}
}
