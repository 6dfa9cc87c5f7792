package logreg_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/prep"
	"github.com/aer-go/aer/synth"
)

// task is a small imbalanced problem (1:5) with named features.
func task(t testing.TB, n, p int, seed uint64) *learn.Data {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: n, Features: p, Informative: min(p, 3), Redundant: synth.None, Ratio: 5}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return &learn.Data{X: g.X, Y: g.Y, Features: g.Features}
}

func fit(t *testing.T, d *learn.Data, s logreg.Settings) *logreg.Model {
	t.Helper()
	m, err := logreg.Fit(context.Background(), d, &s, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func params(m *logreg.Model) []float64 { return append(slices.Clone(m.Coef), m.Intercept) }

// TestKnownValue: two rows x = +1 (label 1) and x = -1 (label 0), no
// intercept: the optimum of 0.5 w^2 + 2 C log(1 + exp(-w)) solves
// w = 2 C sigma(-w), found here by bisection, for several C and both
// solvers.
func TestKnownValue(t *testing.T) {
	d := &learn.Data{X: mat.NewDense(2, 1, []float64{1, -1}), Y: []int{1, 0}}
	for _, c := range []float64{0.01, 1, 100} {
		lo, hi := 0.0, 2*c
		for range 200 {
			mid := (lo + hi) / 2
			if mid < 2*c/(1+math.Exp(mid)) {
				lo = mid
			} else {
				hi = mid
			}
		}
		for _, solver := range []string{logreg.SolverNewton, logreg.SolverLBFGS} {
			m := fit(t, d, logreg.Settings{C: c, ClassWeight: logreg.Unweighted, NoIntercept: true, Solver: solver})
			if math.Abs(m.Coef[0]-lo) > 1e-9*math.Max(1, lo) || m.Intercept != 0 {
				t.Errorf("C=%v %s: w = %v, b = %v; want w = %v, b = 0", c, solver, m.Coef[0], m.Intercept, lo)
			}
			if m.NumParams() != 1 {
				t.Errorf("NumParams = %d without an intercept, want 1", m.NumParams())
			}
		}
	}
}

// TestWeightsAsCopies: a row weight of k, and a class weight of k, act as
// k copies of the rows; balanced weights are computed from the row
// weights.
func TestWeightsAsCopies(t *testing.T) {
	d := task(t, 120, 4, 3)
	n := d.Rows()
	// Every third row weighs 3; the copies data repeats it 3 times.
	w := make([]float64, n)
	var rows []int
	for i := range n {
		w[i] = 1
		if i%3 == 0 {
			w[i] = 3
			rows = append(rows, i, i)
		}
		rows = append(rows, i)
	}
	weighted := &learn.Data{X: d.X, Y: d.Y, W: w}
	copies := d.Subset(rows)
	for _, cw := range []logreg.ClassWeight{logreg.Balanced, logreg.Unweighted, {Explicit: true, Neg: 0.5, Pos: 4}} {
		a := fit(t, weighted, logreg.Settings{ClassWeight: cw})
		b := fit(t, copies, logreg.Settings{ClassWeight: cw})
		if d := maxDiff(params(a), params(b)); d > 1e-9 {
			t.Errorf("class_weight %v: row weights and copies differ by %.2e", cw, d)
		}
	}
	// A class weight of 5 on positives is five copies of each positive.
	var pos []int
	for i, y := range d.Y {
		pos = append(pos, i)
		if y == 1 {
			pos = append(pos, i, i, i, i)
		}
	}
	a := fit(t, d, logreg.Settings{ClassWeight: logreg.ClassWeight{Explicit: true, Neg: 1, Pos: 5}})
	b := fit(t, d.Subset(pos), logreg.Settings{ClassWeight: logreg.Unweighted})
	if d := maxDiff(params(a), params(b)); d > 1e-9 {
		t.Errorf("class weight 5 and five copies differ by %.2e", d)
	}
}

// TestRegularisation: a smaller C shrinks the coefficients; the balanced
// weights move the intercept up from the unweighted fit's on imbalanced
// data; the optimality condition holds at the returned coefficients.
func TestRegularisation(t *testing.T) {
	d := task(t, 400, 5, 4)
	norm := func(m *logreg.Model) float64 { return mat.Norm(mat.NewVecDense(len(m.Coef), m.Coef), 2) }
	prev := math.Inf(1)
	for _, c := range []float64{100, 1, 0.01, 1e-4} {
		m := fit(t, d, logreg.Settings{C: c})
		if nm := norm(m); !(nm < prev) {
			t.Errorf("C=%v: ||w|| = %v, not below %v at the larger C", c, nm, prev)
		} else {
			prev = nm
		}
		// Stationarity: w_j = -C sum_i s_i (sigma(z_i) - y_i) x_ij and
		// sum_i s_i (sigma(z_i) - y_i) = 0 (balanced weights n/(2 n_c)).
		neg, pos := d.ClassWeights()
		p, _ := m.PositiveProba(d.X, nil)
		g := make([]float64, len(m.Coef)+1)
		for i, y := range d.Y {
			s := (neg + pos) / (2 * neg)
			if y == 1 {
				s = (neg + pos) / (2 * pos)
			}
			r := s * (p[i] - float64(y))
			for j := range m.Coef {
				g[j] += c * r * d.X.At(i, j)
			}
			g[len(m.Coef)] += c * r
		}
		for j, w := range m.Coef {
			g[j] += w
		}
		// The objective's gradient, on the scale of tol (divided by
		// C times the total weight n).
		if gn := slices.Max(absAll(g)) / (c * float64(d.Rows())); gn > 1e-10 {
			t.Errorf("C=%v: gradient %.2e at the solution", c, gn)
		}
	}
	u := fit(t, d, logreg.Settings{ClassWeight: logreg.Unweighted})
	b := fit(t, d, logreg.Settings{})
	if !(b.Intercept > u.Intercept) {
		t.Errorf("balanced intercept %v is not above the unweighted %v", b.Intercept, u.Intercept)
	}
}

func absAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Abs(x)
	}
	return out
}

// TestStandardizedEqualsPrestandardized: the registered method on raw
// features predicts what the plain method predicts on features
// standardised beforehand.
func TestStandardizedEqualsPrestandardized(t *testing.T) {
	d := task(t, 300, 6, 5)
	raw := mat.DenseCopyOf(d.X)
	raw.Apply(func(i, j int, v float64) float64 { return 50 + 20*float64(j+1)*v }, raw) // far from standard
	sm, err := logreg.NewStandardized().Fit(context.Background(), &learn.Data{X: raw, Y: d.Y}, nil, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	std := mat.DenseCopyOf(raw)
	dataset.FitScaler(std).Transform(std)
	pm := fit(t, &learn.Data{X: std, Y: d.Y}, logreg.Settings{})
	a, _ := sm.PositiveProba(raw, nil)
	b, _ := pm.PositiveProba(std, nil)
	if dd := maxDiff(a, b); dd > 1e-12 {
		t.Errorf("standardised inside and beforehand differ by %.2e", dd)
	}
}

// copyPath hides logreg's learn.MappedFitter, so that prep.Standardize
// takes its old path: a standardised copy of the rows, then Fit.
type copyPath struct{ learn.Method }

// TestFitMappedMatchesCopy: the registered method standardises the rows
// as logreg copies them (learn.MappedFitter), and the model file is the
// one of fitting a standardised copy, byte for byte, with and without row
// weights, on 1 and 2 workers; the caller's rows are left as they were.
func TestFitMappedMatchesCopy(t *testing.T) {
	d := task(t, 20000, 7, 9) // 20000 x 8 values: the passes run on 2 workers
	raw := mat.DenseCopyOf(d.X)
	raw.Apply(func(i, j int, v float64) float64 { return 3 - 7*float64(j+1)*v + float64(i%5) }, raw)
	before := mat.DenseCopyOf(raw)
	w := make([]float64, len(d.Y))
	for i := range w {
		w[i] = 0.5 + float64(i%3)
	}
	if _, ok := logreg.NewStandardized().(learn.MappedFitter); ok {
		t.Fatal("the wrapper itself must not claim to be a MappedFitter")
	}
	if _, ok := logreg.NewMethod().(learn.MappedFitter); !ok {
		t.Fatal("logreg is not a learn.MappedFitter: the wrapper would copy the rows")
	}
	var one []byte
	for _, weights := range [][]float64{nil, w} {
		for _, workers := range []int{1, 2} {
			train := &learn.Data{X: raw, Y: d.Y, W: weights}
			env := learn.Env{Workers: workers}
			mapped, err := logreg.NewStandardized().Fit(context.Background(), train, nil, env)
			if err != nil {
				t.Fatal(err)
			}
			copied, err := prep.Standardize(copyPath{logreg.NewMethod()}).Fit(context.Background(), train, nil, env)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := mapped.MarshalBinary()
			b, _ := copied.MarshalBinary()
			if !bytes.Equal(a, b) {
				t.Errorf("weights %v, %d workers: the mapped fit's model differs from the copy's:\n%s\n%s", weights != nil, workers, a, b)
			}
			// AER fits this peer on every worker: the model must not
			// depend on how many.
			if workers == 1 {
				one = a
			} else if !bytes.Equal(a, one) {
				t.Errorf("weights %v: the model on %d workers differs from one worker's", weights != nil, workers)
			}
			if !mat.Equal(raw, before) {
				t.Fatal("the mapped fit changed the caller's rows")
			}
		}
	}
	// FitMapped refuses a map of the wrong size.
	if _, err := logreg.NewMethod().(learn.MappedFitter).FitMapped(context.Background(), &learn.Data{X: raw, Y: d.Y}, nil,
		&learn.ColumnMap{Shift: make([]float64, 3), Scale: make([]float64, 3)}, learn.Env{}); !errors.Is(err, learn.ErrParam) {
		t.Errorf("a 3-column map for 7 features: %v, want ErrParam", err)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	d := task(t, 100, 3, 6)
	nan := mat.DenseCopyOf(d.X)
	nan.Set(41, 2, math.NaN())
	for _, tc := range []struct {
		name string
		data *learn.Data
		want string
	}{
		{"missing value", &learn.Data{X: nan, Y: d.Y, Features: d.Features}, "row 42, feature 3"},
		{"one class", &learn.Data{X: d.X, Y: make([]int, d.Rows())}, "both labels"},
		{"zero weights of positives", &learn.Data{X: d.X, Y: d.Y, W: weightsWhere(d.Y, 1, 0)}, "both labels"},
		{"label 2", &learn.Data{X: d.X, Y: labelAt(d.Y, 7, 2)}, "row 8"},
	} {
		_, err := logreg.NewMethod().Fit(ctx, tc.data, nil, learn.Env{})
		if !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an ErrData naming %q", tc.name, err, tc.want)
		}
	}
	// The registered method imputes the missing value.
	if _, err := logreg.NewStandardized().Fit(ctx, &learn.Data{X: nan, Y: d.Y}, nil, learn.Env{}); err != nil {
		t.Errorf("the standardised method on a missing value: %v", err)
	}

	m := logreg.NewMethod()
	for _, kv := range [][2]string{{"C", "0"}, {"C", "-1"}, {"C", "inf"}, {"tol", "0"}, {"max_iter", "0"}, {"solver", "cg"},
		{"class_weight", "0:1,1:0"}, {"class_weight", "2:1"}, {"class_weight", "0:1,0:2"}, {"class_weight", "heavy"}, {"fit_intercept", "maybe"}, {"alpha", "1"}} {
		if err := m.Set(kv[0], kv[1]); !errors.Is(err, learn.ErrParam) {
			t.Errorf("Set(%s, %q): %v, want ErrParam", kv[0], kv[1], err)
		}
	}
	if _, err := logreg.Fit(ctx, d, &logreg.Settings{C: -1}, learn.Env{}); !errors.Is(err, learn.ErrParam) {
		t.Errorf("Fit with C -1 in code: %v, want ErrParam", err)
	}

	model := fit(t, d, logreg.Settings{})
	if _, err := model.PositiveProba(mat.NewDense(2, 4, nil), nil); !errors.Is(err, learn.ErrData) {
		t.Errorf("PositiveProba of 4 columns: %v", err)
	}
	if _, err := model.PositiveProba(nan, nil); !errors.Is(err, learn.ErrData) || !strings.Contains(err.Error(), "row 42") {
		t.Errorf("PositiveProba of a missing value: %v", err)
	}
	for _, bad := range []string{"", "{", `{"coef":[]}`, `{"coef":[1,2],"intercept":1,"fit_intercept":false}`,
		`{"coef":[1,2],"fit":{"features":["a"]}}`, `{"coef":[1e999]}`} {
		if _, err := m.Load([]byte(bad)); err == nil {
			t.Errorf("Load(%q): no error", bad)
		}
	}
}

func weightsWhere(y []int, label int, w float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = 1
		if v == label {
			out[i] = w
		}
	}
	return out
}

func labelAt(y []int, i, v int) []int {
	out := slices.Clone(y)
	out[i] = v
	return out
}

// TestParams: defaults as listed, class_weight's text forms.
func TestParams(t *testing.T) {
	got := learn.ParamMap(logreg.NewMethod().Params())
	want := map[string]string{"C": "1", "class_weight": "balanced", "max_iter": "2000", "tol": "1e-10", "fit_intercept": "true", "solver": "auto"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for _, tc := range []struct{ in, out string }{
		{"balanced", "balanced"}, {" Balanced ", "balanced"}, {"none", "none"}, {"0:1,1:1", "none"},
		{"0:1,1:5", "0:1,1:5"}, {"1:5", "0:1,1:5"}, {"1:2.5, 0:0.5", "0:0.5,1:2.5"}, {"0:3", "0:3,1:1"},
	} {
		cw, err := logreg.ParseClassWeight(tc.in)
		if err != nil || cw.String() != tc.out {
			t.Errorf("ParseClassWeight(%q) = %v, %v; want %s", tc.in, cw, err, tc.out)
		}
	}
}

// TestNotConverged: max_iter 1 stops short of tol and says so, with a
// usable model.
func TestNotConverged(t *testing.T) {
	m := fit(t, task(t, 200, 4, 7), logreg.Settings{MaxIter: 1})
	s := m.Summary().(*logreg.Summary)
	if s.Converged || s.Iterations != 1 || !(s.Gradient > 1e-10) {
		t.Errorf("max_iter 1: %+v", s)
	}
}

// TestCancelMidFit: cancelling a fit of 40000 x 300 stops it promptly
// with the context's error, both while the data are copied and after the
// first Newton step (cancelled by the logger, which sees every step).
func TestCancelMidFit(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 40000 x 300")
	}
	d := task(t, 40000, 300, 8)
	for _, when := range []string{"30 ms after the start", "at the first step"} {
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled time.Time
		stop := func() { cancelled = time.Now(); cancel() }
		env := learn.Env{}
		if when == "at the first step" {
			env.Logger = slog.New(&onRecord{msg: "logreg iteration", f: stop})
		} else {
			time.AfterFunc(30*time.Millisecond, stop)
		}
		_, err := logreg.NewMethod().Fit(ctx, d, nil, env)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled %s: %v, want context.Canceled", when, err)
		}
		el := time.Since(cancelled)
		t.Logf("cancelled %s: stopped %v later", when, el)
		if el > 300*time.Millisecond {
			t.Errorf("cancelled %s: the fit stopped %v later", when, el)
		}
	}
}

// onRecord is a slog handler calling f, once, at a record of message msg.
type onRecord struct {
	msg  string
	f    func()
	once sync.Once
}

func (h *onRecord) Enabled(context.Context, slog.Level) bool { return true }
func (h *onRecord) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.once.Do(h.f)
	}
	return nil
}
func (h *onRecord) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *onRecord) WithGroup(string) slog.Handler      { return h }

// TestSummary: coefficients by feature name, JSON, the one-line text, and
// a loaded model reports the same.
func TestSummary(t *testing.T) {
	d := task(t, 200, 4, 9)
	m := fit(t, d, logreg.Settings{})
	s := m.Summary().(*logreg.Summary)
	if len(s.Coefficients) != 4 || s.Coefficients[2].Feature != d.Features[2] || s.Coefficients[2].Value != m.Coef[2] ||
		s.Intercept != m.Intercept || !s.Converged || s.Solver != "newton" || s.Iterations < 2 || m.NumParams() != 5 {
		t.Errorf("summary %+v", s)
	}
	line := s.String()
	for _, part := range []string{"4 coefficients", "newton converged", "largest: "} {
		if !strings.Contains(line, part) {
			t.Errorf("summary line %q lacks %q", line, part)
		}
	}
	b, _ := m.MarshalBinary()
	lm, err := logreg.NewMethod().Load(b)
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := json.Marshal(m.Summary())
	j2, _ := json.Marshal(lm.(learn.Summarizer).Summary())
	if !bytes.Equal(j1, j2) {
		t.Errorf("the loaded model's summary differs:\n%s\n%s", j1, j2)
	}
	if (&logreg.Model{Coef: []float64{1}}).Summary() != nil {
		t.Error("a model built in code has a summary")
	}
}
