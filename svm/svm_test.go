package svm

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
)

// problem is an imbalanced synthetic problem with n rows of d features.
func problem(t testing.TB, n, d int, seed uint64) *learn.Data {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: n, Features: d, Informative: min(d, 3), Redundant: synth.None, Ratio: 6, FlipY: 0.03}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return &learn.Data{X: g.X, Y: g.Y, Features: g.Features}
}

func fit(t testing.TB, d *learn.Data, valid *learn.Data, s Settings, env learn.Env) *Model {
	t.Helper()
	m, err := Train(context.Background(), d, valid, &s, env)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// bounds returns each training row's C_i and its alpha (0 for rows that
// are not support vectors).
func alphas(d *learn.Data, s Settings, m *Model) (c, a []float64) {
	s, _ = s.resolved()
	cw, _ := parseClassWeight(s.ClassWeight)
	w := cw.weights(d.Y, d.W)
	c = make([]float64, d.Rows())
	a = make([]float64, d.Rows())
	for i, y := range d.Y {
		c[i] = s.C * w[y] * d.Weight(i)
	}
	for k, r := range m.support {
		a[r] = math.Abs(m.coef[k])
	}
	return c, a
}

// TestKKT: the solution is feasible (0 <= alpha_i <= C_i, sum y_i alpha_i
// = 0) and satisfies the optimality conditions within the tolerance:
// y f >= 1 where alpha = 0, y f = 1 where 0 < alpha < C, y f <= 1 where
// alpha = C; for every kernel, class weighting, row weights and with and
// without shrinking.
func TestKKT(t *testing.T) {
	d := problem(t, 300, 5, 1)
	weighted := *d
	weighted.W = make([]float64, d.Rows())
	for i := range weighted.W {
		weighted.W[i] = float64(1 + i%3)
	}
	for _, c := range []struct {
		name string
		data *learn.Data
		s    Settings
	}{
		{"rbf", d, Settings{}},
		{"rbf-noshrink", d, Settings{NoShrinking: true}},
		{"rbf-C10-none", d, Settings{C: 10, ClassWeight: "none"}},
		{"rbf-gamma2", d, Settings{Gamma: "2"}},
		{"linear", d, Settings{Kernel: Linear}},
		{"poly", d, Settings{Kernel: Polynomial, Coef0: 1, Degree: 2}},
		{"rbf-weights", &weighted, Settings{ClassWeight: "0:1,1:3"}},
		{"linear-weights", &weighted, Settings{Kernel: Linear}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.s.Tol = 1e-4
			m := fit(t, c.data, nil, c.s, learn.Env{})
			cs, a := alphas(c.data, c.s, m)
			f, err := m.Decision(c.data.X, nil)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			const slack = 2e-4
			for i, y := range c.data.Y {
				yi := 2*float64(y) - 1
				sum += yi * a[i]
				if a[i] < 0 || a[i] > cs[i]*(1+1e-12) {
					t.Fatalf("row %d: alpha %v outside [0, %v]", i, a[i], cs[i])
				}
				m := yi * f[i]
				switch {
				case a[i] == 0 && m < 1-slack:
					t.Errorf("row %d: alpha 0 but margin %v < 1", i, m)
				case a[i] >= cs[i] && m > 1+slack:
					t.Errorf("row %d: alpha at C but margin %v > 1", i, m)
				case a[i] > 0 && a[i] < cs[i] && math.Abs(m-1) > slack:
					t.Errorf("row %d: free alpha but margin %v != 1", i, m)
				}
			}
			if math.Abs(sum) > 1e-9*float64(len(a)) {
				t.Errorf("sum y alpha = %v", sum)
			}
		})
	}
}

// TestShrinkingSameSolution: shrinking changes the path, not the answer.
func TestShrinkingSameSolution(t *testing.T) {
	d := problem(t, 400, 6, 2)
	a := fit(t, d, nil, Settings{Tol: 1e-6}, learn.Env{})
	b := fit(t, d, nil, Settings{Tol: 1e-6, NoShrinking: true}, learn.Env{})
	fa, _ := a.Decision(d.X, nil)
	fb, _ := b.Decision(d.X, nil)
	for i := range fa {
		if math.Abs(fa[i]-fb[i]) > 1e-4 {
			t.Fatalf("row %d: %v with shrinking, %v without", i, fa[i], fb[i])
		}
	}
}

// TestCacheSizeSameModel: a cache of two columns recomputes columns that
// a large cache keeps; kernel values are the same either way, so the fit
// is bit for bit the same.
func TestCacheSizeSameModel(t *testing.T) {
	d := problem(t, 500, 6, 3)
	for _, s := range []Settings{{}, {Kernel: Polynomial}, {NoShrinking: true}} {
		big := fit(t, d, nil, s, learn.Env{})
		s.CacheSize = 1e-6
		small := fit(t, d, nil, s, learn.Env{})
		if !bytes.Equal(payload(t, big), payload(t, small)) {
			t.Errorf("%+v: the models differ with a tiny cache", s)
		}
	}
}

func payload(t testing.TB, m *Model) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWorkersSameModel: kernel columns shared among 1 to 3 goroutines
// give bit-identical models.
func TestWorkersSameModel(t *testing.T) {
	d := problem(t, 900, 60, 4)
	va := problem(t, 200, 60, 5)
	var first []byte
	for _, w := range []int{1, 2, 3} {
		m := fit(t, d, va, Settings{}, learn.Env{Workers: w})
		if w == 1 {
			first = payload(t, m)
		} else if !bytes.Equal(first, payload(t, m)) {
			t.Errorf("%d workers: a different model than with 1", w)
		}
	}
}

// TestSharedColumnsSameSolution: a solve whose every long column is
// shared among 2 or 3 goroutines is bit for bit the solve on one.
func TestSharedColumnsSameSolution(t *testing.T) {
	d := problem(t, 1600, 250, 15)
	s, _ := Settings{}.resolved()
	rows := make([]int, d.Rows())
	y, c := make([]float64, d.Rows()), make([]float64, d.Rows())
	for i := range rows {
		rows[i] = i
		y[i], c[i] = 1-2*float64(d.Y[i]), 1
	}
	k := newKernelFunc(s.Kernel, gammaOf(s.Gamma, d.X), 0, 3)
	var first *solution
	for _, w := range []int{1, 2, 3} {
		q := newQMatrix(newLanes(d.X, rows), k, 200<<20, w)
		q.pace.always = true
		if w > 1 && q.team.n != w {
			t.Fatalf("%d workers: a team of %d", w, q.team.n)
		}
		sol, err := newSolver(q, y, c, 1e-3).solve(context.Background(), 0, true)
		q.close()
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = sol
			continue
		}
		for i := range sol.alpha {
			if math.Float64bits(sol.alpha[i]) != math.Float64bits(first.alpha[i]) || math.Float64bits(sol.g[i]) != math.Float64bits(first.g[i]) {
				t.Fatalf("%d workers: variable %d differs", w, i)
			}
		}
		if sol.rho != first.rho || sol.iter != first.iter {
			t.Errorf("%d workers: rho %v, %d iterations; 1 worker: %v, %d", w, sol.rho, sol.iter, first.rho, first.iter)
		}
	}
}

// TestTeamChunks: every chunk runs exactly once, whoever runs it.
func TestTeamChunks(t *testing.T) {
	for _, n := range []int{1, 2, 4} {
		tm := newTeam(n)
		for _, chunks := range []int{0, 1, 2, 7, 100} {
			count := make([]int32, chunks)
			for range 20 {
				tm.run(chunks, func(w, c int) { count[c]++ })
			}
			for c, k := range count {
				if k != 20 {
					t.Errorf("team of %d, %d chunks: chunk %d ran %d times in 20 runs", n, chunks, c, k)
				}
			}
		}
		tm.stop()
	}
}

// TestWeightsAreCopies: a row of integer weight k gives the decision
// function of k copies of it (C_i = k C, and balanced class weights count
// weights as rows). Gamma is fixed: "scale", as scikit-learn's, counts
// rows, not weights.
func TestWeightsAreCopies(t *testing.T) {
	d := problem(t, 200, 4, 6)
	w := make([]float64, d.Rows())
	var rows []int
	for i := range w {
		w[i] = float64(1 + i%3)
		for range int(w[i]) {
			rows = append(rows, i)
		}
	}
	weighted := *d
	weighted.W = w
	copies := d.Subset(rows)
	s := Settings{Tol: 1e-7, Gamma: "0.2"}
	a := fit(t, &weighted, nil, s, learn.Env{})
	b := fit(t, copies, nil, s, learn.Env{})
	fa, _ := a.Decision(d.X, nil)
	fb, _ := b.Decision(d.X, nil)
	for i := range fa {
		if math.Abs(fa[i]-fb[i]) > 1e-4 {
			t.Fatalf("row %d: %v weighted, %v repeated", i, fa[i], fb[i])
		}
	}
	if a.summary.ClassWeights != b.summary.ClassWeights {
		t.Errorf("class weights %v weighted, %v repeated", a.summary.ClassWeights, b.summary.ClassWeights)
	}
}

// TestZeroWeightRowsLeftOut: rows of weight 0 change nothing (scikit-learn
// drops them) but gamma=scale, and a class whose rows all weigh 0 is an
// error.
func TestZeroWeightRowsLeftOut(t *testing.T) {
	d := problem(t, 200, 4, 7)
	w := make([]float64, d.Rows())
	var keep []int
	for i := range w {
		if i%4 != 0 {
			w[i] = 1
			keep = append(keep, i)
		}
	}
	weighted := *d
	weighted.W = w
	s := Settings{Gamma: "0.2"}
	a := fit(t, &weighted, nil, s, learn.Env{})
	b := fit(t, d.Subset(keep), nil, s, learn.Env{})
	fa, _ := a.Decision(d.X, nil)
	fb, _ := b.Decision(d.X, nil)
	for i := range fa {
		if fa[i] != fb[i] {
			t.Fatalf("row %d: %v with zero weights, %v without the rows", i, fa[i], fb[i])
		}
	}
	for i, y := range d.Y {
		if y == 1 {
			w[i] = 0
		}
	}
	if _, err := Train(context.Background(), &weighted, nil, nil, learn.Env{}); !errors.Is(err, learn.ErrData) {
		t.Errorf("no positive weight in class 1: %v, want ErrData", err)
	}
}

// TestTrainingDecisionFromGradient: the decision values Platt scaling
// takes from the solver's gradient are the model's own.
func TestTrainingDecisionFromGradient(t *testing.T) {
	d := problem(t, 300, 5, 8)
	m := fit(t, d, nil, Settings{Platt: PlattTrain}, learn.Env{})
	f, _ := m.Decision(d.X, nil)
	a, b := plattFit(f, d.Y, nil)
	if math.Abs(a-m.plattA) > 1e-6 || math.Abs(b-m.plattB) > 1e-6 {
		t.Errorf("Platt from the gradient %v, %v; from Decision %v, %v", m.plattA, m.plattB, a, b)
	}
	if m.summary.PlattRows != "training" {
		t.Errorf("Platt rows %q", m.summary.PlattRows)
	}
}

// TestPlattOnValidation: with validation rows the sigmoid is fitted on
// them (platt=auto), or on the training rows (platt=train).
func TestPlattOnValidation(t *testing.T) {
	d, va := problem(t, 300, 5, 9), problem(t, 150, 5, 10)
	m := fit(t, d, va, Settings{}, learn.Env{})
	f, _ := m.Decision(va.X, nil)
	a, b := plattFit(f, va.Y, nil)
	if a != m.plattA || b != m.plattB || m.summary.PlattRows != "validation" {
		t.Errorf("Platt %v, %v on %s rows; on validation %v, %v", m.plattA, m.plattB, m.summary.PlattRows, a, b)
	}
	tr := fit(t, d, va, Settings{Platt: PlattTrain}, learn.Env{})
	if tr.summary.PlattRows != "training" {
		t.Errorf("platt=train fitted on %s rows", tr.summary.PlattRows)
	}
}

// TestLinearPrimal: the linear kernel's primal weights give the kernel
// expansion's decision values.
func TestLinearPrimal(t *testing.T) {
	d := problem(t, 200, 5, 11)
	m := fit(t, d, nil, Settings{Kernel: Linear}, learn.Env{})
	f, _ := m.Decision(d.X, nil)
	r, c := d.X.Dims()
	for i := range r {
		s := m.intercept
		for k, row := range m.support {
			s += m.coef[k] * mat.Dot(d.X.RowView(i), d.X.RowView(row))
		}
		if math.Abs(s-f[i]) > 1e-9*(1+math.Abs(s)) {
			t.Fatalf("row %d: primal %v, dual %v (%d features)", i, f[i], s, c)
		}
	}
}

// TestMaxIter: the solver stops at max_iter, says so and logs a warning.
func TestMaxIter(t *testing.T) {
	d := problem(t, 300, 5, 12)
	var logs bytes.Buffer
	m := fit(t, d, nil, Settings{MaxIter: 5}, learn.Env{Logger: newTextLogger(&logs)})
	if m.summary.Converged || m.summary.Iterations != 5 {
		t.Errorf("converged %v after %d iterations", m.summary.Converged, m.summary.Iterations)
	}
	if !strings.Contains(logs.String(), "max_iter=5") {
		t.Errorf("no warning logged: %q", logs.String())
	}
}

// TestCancel: a fit stops soon after its context is cancelled.
func TestCancel(t *testing.T) {
	d := problem(t, 3000, 20, 13)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Train(ctx, d, nil, &Settings{Tol: 1e-9, CacheSize: 1}, learn.Env{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want DeadlineExceeded", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("stopped after %v", el)
	}
}

// TestBadData: missing or infinite values, one class and bad settings
// are errors naming what is wrong.
func TestBadData(t *testing.T) {
	d := problem(t, 50, 3, 14)
	nan := mat.DenseCopyOf(d.X)
	nan.Set(6, 1, math.NaN())
	inf := mat.DenseCopyOf(d.X)
	inf.Set(2, 0, math.Inf(1))
	one := make([]int, d.Rows())
	for _, c := range []struct {
		name string
		data *learn.Data
		s    Settings
		want error
		text string
	}{
		{"nan", &learn.Data{X: nan, Y: d.Y}, Settings{}, learn.ErrData, "row 7, feature 2 is missing"},
		{"inf", &learn.Data{X: inf, Y: d.Y}, Settings{}, learn.ErrData, "row 3"},
		{"one class", &learn.Data{X: d.X, Y: one}, Settings{}, learn.ErrData, "both classes"},
		{"bad kernel", d, Settings{Kernel: "sigmoid"}, learn.ErrParam, "kernel"},
		{"bad gamma", d, Settings{Gamma: "-1"}, learn.ErrParam, "gamma"},
		{"bad class weight", d, Settings{ClassWeight: "2:1"}, learn.ErrParam, "class_weight"},
	} {
		_, err := Train(context.Background(), c.data, nil, &c.s, learn.Env{})
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want %v mentioning %q", c.name, err, c.want, c.text)
		}
	}
	m := fit(t, d, nil, Settings{}, learn.Env{})
	if _, err := m.PositiveProba(nan, nil); !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), "row 7, feature 2") {
		t.Errorf("PositiveProba with a NaN: %v", err)
	}
}

// TestGamma: scale is 1/(d var(X)) over all values, auto 1/d.
func TestGamma(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{0, 1, 2, 3})
	if g := gammaOf("scale", x); math.Abs(g-1/(2*1.25)) > 1e-15 {
		t.Errorf("scale: %v", g)
	}
	if g := gammaOf("auto", x); g != 0.5 {
		t.Errorf("auto: %v", g)
	}
	if g := gammaOf("scale", mat.NewDense(2, 2, []float64{1, 1, 1, 1})); g != 1 {
		t.Errorf("scale of constant data: %v, want 1", g)
	}
	if g := gammaOf("0.25", x); g != 0.25 {
		t.Errorf("0.25: %v", g)
	}
}

func TestParams(t *testing.T) {
	m := NewMethod()
	for _, c := range []struct{ key, value, shown string }{
		{"class_weight", " 1:5 ", "0:1,1:5"},
		{"class_weight", "0:2,1:2", "0:2,1:2"},
		{"class_weight", "0:1,1:1", "none"},
		{"class_weight", "none", "none"},
		{"gamma", "auto", "auto"},
		{"gamma", "0.50", "0.5"},
		{"max_iter", "-1", "-1"},
		{"max_iter", "100", "100"},
		{"kernel", "poly", "poly"},
		{"shrinking", "false", "false"},
		{"platt", "train", "train"},
	} {
		if err := m.Set(c.key, c.value); err != nil {
			t.Errorf("Set(%s, %q): %v", c.key, c.value, err)
			continue
		}
		if got := learn.ParamMap(m.Params())[c.key]; got != c.shown {
			t.Errorf("Set(%s, %q) shows %q, want %q", c.key, c.value, got, c.shown)
		}
	}
	for _, c := range [][2]string{{"C", "0"}, {"C", "-1"}, {"gamma", "0"}, {"gamma", "x"}, {"class_weight", "0:1,0:2"},
		{"class_weight", "1:-1"}, {"class_weight", "balance"}, {"max_iter", "0"}, {"max_iter", "-2"}, {"degree", "0"},
		{"kernel", "sigmoid"}, {"tol", "0"}, {"cache_size", "0"}, {"platt", "cv"}, {"nu", "0.5"}} {
		if err := m.Set(c[0], c[1]); !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %q): %v, want ErrParam", c[0], c[1], err)
		}
	}
}

func newTextLogger(w *bytes.Buffer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
