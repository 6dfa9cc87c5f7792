package logreg

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

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

// TestMultinomialCancel: a multinomial fit of many classes returns ctx's
// error within a fraction of an evaluation once ctx is done (it went on
// bisecting line searches, a full evaluation each, for minutes on 10,000
// classes), and at once when ctx is done before it starts.
func TestMultinomialCancel(t *testing.T) {
	const n, p, k = 4000, 16, 1000
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = i % k
		for j := range p {
			x.Set(i, j, math.Sin(float64(i*(j+3)))+float64(y[i]%(j+2))/4)
		}
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := FitMultinomial(done, x, y, k, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("a cancelled context took %v", d)
	}
	// One evaluation is 4000 x 1000 x 16 x 2 multiply-adds (about 0.1 s);
	// the fit takes many.
	ctx, stop := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer stop()
	start = time.Now()
	_, err := FitMultinomial(ctx, x, y, k, nil, &Settings{MaxIter: 1000})
	if d := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || d > time.Second {
		t.Errorf("a fit cancelled at 150 ms: %v after %v", err, d)
	}
}
