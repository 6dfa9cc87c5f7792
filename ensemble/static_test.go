package ensemble

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
)

// randomProblem returns rows x m probabilities in [lo, 1-lo] and labels:
// member j outputs sigmoid(s_j (2y-1) + 1.5 z) with independent standard
// normal noise z and a signal s_j = 1.2/(1+0.2j) that fades with j, so that
// mixing the members beats any single one (the optimum is interior).
func randomProblem(r *rand.Rand, rows, m int, lo float64) (*mat.Dense, []int) {
	f := mat.NewDense(rows, m, nil)
	y := make([]int, rows)
	for i := range rows {
		if r.Float64() < 0.3 {
			y[i] = 1
		}
		for j := range m {
			s := 1.2 / (1 + 0.2*float64(j))
			p := 1 / (1 + math.Exp(-(s*float64(2*y[i]-1) + 1.5*r.NormFloat64())))
			f.Set(i, j, lo+(1-2*lo)*p)
		}
	}
	return f, y
}

func TestLossKnown(t *testing.T) {
	// Two rows, one member: p = 0.8 on y = 1 and p = 0.25 on y = 0.
	f := mat.NewDense(2, 1, []float64{0.8, 0.25})
	got, err := Loss([]float64{1}, f, []int{1, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := -(math.Log(0.8) + math.Log(0.75)) / 2
	if math.Abs(got-want) > 1e-15 {
		t.Fatalf("Loss = %v, want %v", got, want)
	}
	// 0/1 outputs that are wrong: clipped, finite, -log(eps).
	f = mat.NewDense(1, 1, []float64{0})
	got, _ = Loss([]float64{1}, f, []int{1}, &Objective{Eps: 1e-7})
	if math.Abs(got-(-math.Log(1e-7))) > 1e-12 {
		t.Fatalf("clipped loss = %v, want %v", got, -math.Log(1e-7))
	}
}

func TestGradientFiniteDifferences(t *testing.T) {
	const tol = 1e-6
	r := rng.New(2)
	for trial := range 20 {
		m := 2 + trial%6
		f, y := randomProblem(r, 40, m, 0.02)
		w := make([]float64, m)
		for j := range w {
			w[j] = r.Float64()
		}
		ProjectSimplex(w, w)
		g := make([]float64, m)
		if _, err := Gradient(g, w, f, y, nil); err != nil {
			t.Fatal(err)
		}
		// The loss is defined for any w with w.f in (0, 1), so every
		// coordinate can be differenced on its own.
		const h = 1e-6
		for j := range w {
			wp := append([]float64(nil), w...)
			wm := append([]float64(nil), w...)
			wp[j] += h
			wm[j] -= h
			lp, _ := Loss(wp, f, y, nil)
			lm, _ := Loss(wm, f, y, nil)
			fd := (lp - lm) / (2 * h)
			if math.Abs(fd-g[j]) > tol*math.Max(1, math.Abs(fd)) {
				t.Fatalf("trial %d member %d: gradient %v, finite difference %v", trial, j, g[j], fd)
			}
		}
	}
}

func TestFitStaticKnownOptimum(t *testing.T) {
	// Member 0 always says 1, member 1 always says 0: F = w_0 on every row,
	// so the cross-entropy is minimised at w_0 = the share of positives.
	const rows, q = 20, 0.3
	f := mat.NewDense(rows, 2, nil)
	y := make([]int, rows)
	for i := range rows {
		f.Set(i, 0, 1)
		if float64(i) < q*rows {
			y[i] = 1
		}
	}
	for _, sched := range []Schedule{Backtracking, InvSqrt} {
		res, err := FitStatic(f, y, nil, &StaticSettings{Schedule: sched, Tol: 1e-14, MaxIter: 5000})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Weights[0]-q) > 1e-4 || math.Abs(res.Weights[1]-(1-q)) > 1e-4 {
			t.Errorf("%v: weights %v, want [%v %v] (%s after %d passes)", sched, res.Weights, q, 1-q, res.Reason, res.Passes)
		}
		want := -(q*math.Log(q) + (1-q)*math.Log(1-q))
		if math.Abs(res.BestLoss-want) > 1e-7 {
			t.Errorf("%v: loss %v, want %v", sched, res.BestLoss, want)
		}
	}
}

func TestFitStaticMonotone(t *testing.T) {
	r := rng.New(3)
	f, y := randomProblem(r, 200, 6, 0.01)
	res, err := FitStatic(f, y, nil, &StaticSettings{Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(res.Trace); k++ {
		if res.Trace[k] > res.Trace[k-1] {
			t.Fatalf("loss went up at pass %d: %v -> %v", k, res.Trace[k-1], res.Trace[k])
		}
	}
	if !(res.FinalLoss < res.InitialLoss) || !res.Converged || !res.ReturnedBest {
		t.Fatalf("no progress or not converged: %+v", res)
	}
	// A small constant step also descends monotonically on this problem.
	res, err = FitStatic(f, y, nil, &StaticSettings{Schedule: Constant, StepScale: 0.01, MaxIter: 50, Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(res.Trace); k++ {
		if res.Trace[k] > res.Trace[k-1]+1e-15 {
			t.Fatalf("constant step: loss went up at pass %d: %v -> %v", k, res.Trace[k-1], res.Trace[k])
		}
	}
}

// TestFitStaticGlobalOptimum compares the descent with a grid search over
// the 3-member simplex and checks the KKT conditions of the convex problem.
func TestFitStaticGlobalOptimum(t *testing.T) {
	r := rng.New(4)
	for trial := range 4 {
		f, y := randomProblem(r, 60, 3, 0.05)
		res, err := FitStatic(f, y, nil, &StaticSettings{Tol: 1e-13, MaxIter: 20000})
		if err != nil {
			t.Fatal(err)
		}
		const n = 400
		best := math.Inf(1)
		for a := 0; a <= n; a++ {
			for b := 0; a+b <= n; b++ {
				w := []float64{float64(a) / n, float64(b) / n, float64(n-a-b) / n}
				l, _ := Loss(w, f, y, nil)
				best = math.Min(best, l)
			}
		}
		if res.BestLoss > best+1e-9 {
			t.Errorf("trial %d: descent loss %v above grid minimum %v (weights %v, %s)", trial, res.BestLoss, best, res.Weights, res.Reason)
		}
		g := make([]float64, 3)
		Gradient(g, res.Weights, f, y, nil)
		mu := math.Inf(1)
		for j, w := range res.Weights {
			if w > 1e-6 {
				mu = math.Min(mu, g[j])
			}
		}
		for j, w := range res.Weights {
			if w > 1e-6 && math.Abs(g[j]-mu) > 1e-3 {
				t.Errorf("trial %d: KKT: gradient %v not equal on the support of %v", trial, g, res.Weights)
			}
			if w <= 1e-6 && g[j] < mu-1e-3 {
				t.Errorf("trial %d: KKT: member %d is off the support but has gradient %v < %v", trial, j, g[j], mu)
			}
		}
	}
}

func TestFitStaticLabelsAndMinMax(t *testing.T) {
	r := rng.New(5)
	f, y := randomProblem(r, 100, 4, 0)
	for i := range 100 {
		for j := range 4 {
			f.Set(i, j, math.Round(f.At(i, j)))
		}
	}
	leaves := []int{8, 8, 8, 8}
	res, err := FitStatic(f, y, nil, PaperStaticSettings(leaves))
	if err != nil {
		t.Fatal(err)
	}
	if math.IsInf(res.InitialLoss, 0) || math.IsInf(res.BestLoss, 0) || res.Init != "info" {
		t.Fatalf("paper settings on labels: %+v", res)
	}
	if res.BestLoss > res.InitialLoss {
		t.Fatalf("best loss %v above initial %v", res.BestLoss, res.InitialLoss)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("result does not encode: %v", err)
	}
	// Labels are validated.
	f.Set(3, 2, 0.5)
	_, err = FitStatic(f, y, nil, &StaticSettings{Outputs: Labels})
	if err == nil || !strings.Contains(err.Error(), "row 3, member 2") {
		t.Fatalf("error %v does not name row 3, member 2", err)
	}
}

func TestFitStaticMiniBatch(t *testing.T) {
	r := rng.New(6)
	f, y := randomProblem(r, 300, 5, 0.01)
	set := &StaticSettings{BatchSize: 32, Seed: 9, Tol: 1e-8, MaxIter: 200}
	a, err := FitStatic(f, y, nil, set)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := FitStatic(f, y, nil, set)
	for j := range a.Weights {
		if a.Weights[j] != b.Weights[j] {
			t.Fatalf("same seed, different weights: %v %v", a.Weights, b.Weights)
		}
	}
	full, _ := FitStatic(f, y, nil, &StaticSettings{Tol: 1e-12})
	if a.BestLoss > full.BestLoss+1e-3 {
		t.Fatalf("mini-batch loss %v far above full-batch %v", a.BestLoss, full.BestLoss)
	}
}

func TestInfoInit(t *testing.T) {
	// Member 0: p = 0.9 on a positive and 0.2 on a negative row; member 1
	// is a constant 0.5. Log-likelihoods: log 0.9 + log 0.8 and 2 log 0.5.
	f := mat.NewDense(2, 2, []float64{0.9, 0.5, 0.2, 0.5})
	y := []int{1, 0}
	w, crit, ok, err := InfoInit(f, y, nil, []int{3, 1}, 0.6, 0)
	if err != nil || !ok {
		t.Fatal(err, ok)
	}
	ll0 := math.Log(0.9) + math.Log(0.8)
	ll1 := 2 * math.Log(0.5)
	c0 := 0.6*(-2*ll0+6) + 0.4*(-2*ll0+3*math.Log(2))
	c1 := 0.6*(-2*ll1+2) + 0.4*(-2*ll1+math.Log(2))
	want0 := (1 / c0) / (1/c0 + 1/c1)
	if math.Abs(w[0]-want0) > 1e-12 || math.Abs(w[0]+w[1]-1) > 1e-12 {
		t.Fatalf("InfoInit = %v, want [%v %v]", w, want0, 1-want0)
	}
	if math.Abs(crit.AIC[0]-(-2*ll0+6)) > 1e-12 || math.Abs(crit.BIC[1]-(-2*ll1+math.Log(2))) > 1e-12 {
		t.Fatalf("criteria %+v", crit)
	}
	// A perfect member with no leaves has a criterion ~ 4e-7 > 0: still
	// ranks. A negative leaf count is an error.
	if _, _, _, err := InfoInit(f, y, nil, []int{-1, 1}, 0.6, 0); err == nil {
		t.Fatal("negative leaves accepted")
	}
}

func TestSettingsErrors(t *testing.T) {
	f := mat.NewDense(2, 2, []float64{0.9, 0.5, 0.2, 0.5})
	y := []int{1, 0}
	for _, c := range []struct {
		s    *StaticSettings
		want string
	}{
		{&StaticSettings{StepScale: 1}, "step scale"},
		{&StaticSettings{Eps: 0.7}, "eps"},
		{&StaticSettings{Init: InitInfo}, "leaves"},
		{&StaticSettings{Start: []float64{1}}, "start weights"},
	} {
		if _, err := FitStatic(f, y, nil, c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one about %q", c.s, err, c.want)
		}
	}
	if _, err := FitStatic(f, []int{1, 2}, nil, nil); err == nil || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("bad label: %v", err)
	}
	f.Set(1, 0, math.NaN())
	if _, err := FitStatic(f, y, nil, nil); err == nil || !strings.Contains(err.Error(), "row 1, member 0") {
		t.Errorf("NaN output: %v", err)
	}
}

func TestFitStaticSchedules(t *testing.T) {
	r := rng.New(12)
	f, y := randomProblem(r, 150, 4, 0.01)
	ref, _ := FitStatic(f, y, nil, &StaticSettings{Tol: 1e-12})
	for _, s := range []*StaticSettings{
		{Schedule: InvSqrt, MaxIter: 3000, Tol: 1e-12},
		{Schedule: Constant, StepScale: 0.05, MaxIter: 300, Tol: -1},
		{Schedule: InvSqrt, BatchSize: 16, MaxIter: 100, Seed: 1},
		{Projection: MinMax, Schedule: Constant, MaxIter: 100},
		{Start: []float64{5, -1, 0, 0}},
	} {
		res, err := FitStatic(f, y, nil, s)
		if err != nil {
			t.Fatal(err)
		}
		if res.BestLoss > res.InitialLoss || !res.ReturnedBest {
			t.Errorf("%+v: best %v above initial %v", s, res.BestLoss, res.InitialLoss)
		}
		// Everything but the paper's min-max map reaches the optimum.
		if s.Projection != MinMax && res.BestLoss > ref.BestLoss+2e-3 {
			t.Errorf("%+v: loss %v, optimum %v", s, res.BestLoss, ref.BestLoss)
		}
	}
}

func TestLogitSpace(t *testing.T) {
	// Gradient against finite differences.
	r := rng.New(13)
	f, y := randomProblem(r, 50, 4, 0)
	obj := &Objective{Space: LogitSpace}
	w := ProjectSimplex(nil, []float64{0.4, 0.1, 0.3, 0.2})
	g := make([]float64, 4)
	if _, err := Gradient(g, w, f, y, obj); err != nil {
		t.Fatal(err)
	}
	const h = 1e-6
	for j := range w {
		wp := append([]float64(nil), w...)
		wm := append([]float64(nil), w...)
		wp[j] += h
		wm[j] -= h
		lp, _ := Loss(wp, f, y, obj)
		lm, _ := Loss(wm, f, y, obj)
		if fd := (lp - lm) / (2 * h); math.Abs(fd-g[j]) > 1e-6 {
			t.Fatalf("logit gradient %d: %v, finite difference %v", j, g[j], fd)
		}
	}
	// Known optimum: member 0 always says 0.9, member 1 always 0.1, so
	// F = sigmoid((2a - 1) log 9) and the loss is smallest where F equals
	// the share of positives q: a = (1 + logit(q)/log 9)/2.
	const rows, q = 20, 0.3
	f = mat.NewDense(rows, 2, nil)
	y = make([]int, rows)
	for i := range rows {
		f.Set(i, 0, 0.9)
		f.Set(i, 1, 0.1)
		if float64(i) < q*rows {
			y[i] = 1
		}
	}
	res, err := FitStatic(f, y, nil, &StaticSettings{Space: LogitSpace, Tol: 1e-14, MaxIter: 5000})
	if err != nil {
		t.Fatal(err)
	}
	want := (1 + math.Log(q/(1-q))/math.Log(9)) / 2
	if math.Abs(res.Weights[0]-want) > 1e-4 {
		t.Fatalf("logit weights %v, want [%v %v]", res.Weights, want, 1-want)
	}
	// The combiner's score is sigmoid of the mixed logits; Explain agrees.
	c := &Combiner{Static: res.Weights, Space: LogitSpace, Lambda: 0.5}
	logDens := mat.NewDense(rows, 1, nil)
	scores, _, err := c.Score(nil, f, logDens)
	if err != nil {
		t.Fatal(err)
	}
	z := math.Log(9)
	wantScore := 1 / (1 + math.Exp(-(0.5*0 + 0.5*(res.Weights[0]-res.Weights[1])*z)))
	if math.Abs(scores[0]-wantScore) > 1e-12 {
		t.Fatalf("logit score %v, want %v", scores[0], wantScore)
	}
	e, err := c.Explain(mat.Row(nil, 0, f), []float64{0})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, v := range e.Contribution {
		sum += v
	}
	if e.Score != scores[0] || math.Abs(sum-math.Log(e.Score/(1-e.Score))) > 1e-9 {
		t.Fatalf("explain: score %v (Score %v), contributions sum %v", e.Score, scores[0], sum)
	}
}

func TestFitStaticStridedView(t *testing.T) {
	// A view into a wider matrix (stride > columns) gives the same fit as
	// a compact copy.
	r := rng.New(15)
	wide, y := randomProblem(r, 80, 6, 0.01)
	view := wide.Slice(0, 80, 1, 4).(*mat.Dense)
	compact := mat.DenseCopyOf(view)
	a, err := FitStatic(view, y, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := FitStatic(compact, y, nil, nil)
	if !near(a.Weights, b.Weights, 0) || a.BestLoss != b.BestLoss {
		t.Fatalf("view %v, copy %v", a.Weights, b.Weights)
	}
	for _, space := range []Space{ProbabilitySpace, LogitSpace} {
		la, _ := Loss(a.Weights, view, y, &Objective{Space: space})
		lb, _ := Loss(a.Weights, compact, y, &Objective{Space: space})
		if la != lb {
			t.Fatalf("%v: loss on view %v, on copy %v", space, la, lb)
		}
	}
}

// repeatRows returns f and y with row i repeated w[i] times, in order.
func repeatRows(f *mat.Dense, y []int, w []float64) (*mat.Dense, []int) {
	_, m := f.Dims()
	var data []float64
	var ry []int
	for i, wi := range w {
		for range int(wi) {
			data = append(data, f.RawRowView(i)...)
			ry = append(ry, y[i])
		}
	}
	return mat.NewDense(len(ry), m, data), ry
}

// TestFitStaticRowWeights checks that integer row weights give what
// repeating each row that many times gives (weight 0: the row left out),
// for full-batch descent in both spaces, every schedule and projection,
// and the AIC/BIC start: the same iterates, to rounding.
func TestFitStaticRowWeights(t *testing.T) {
	const tol = 1e-12
	r := rng.New(21)
	f, y := randomProblem(r, 240, 5, 0.01)
	w := make([]float64, len(y))
	for i := range w {
		w[i] = float64(r.IntN(4))
	}
	rf, ry := repeatRows(f, y, w)
	leaves := []int{4, 7, 2, 9, 5}
	close := func(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
	closeAll := func(a, b []float64) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !close(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	for _, s := range []*StaticSettings{
		{Tol: 1e-12},
		// Not run to the optimum: there the normalised step g/||g|| turns
		// rounding noise in a vanishing gradient into a direction.
		{Schedule: InvSqrt, MaxIter: 40, Tol: -1},
		{Schedule: Constant, StepScale: 0.05, MaxIter: 200, Tol: -1},
		{Projection: MinMax, Schedule: Constant, MaxIter: 50},
		{Space: LogitSpace, Tol: 1e-12},
		{Init: InitInfo, Leaves: leaves, Tol: 1e-10},
		{Outputs: Probabilities, Init: InitInfo, Leaves: leaves, AICShare: 0.3, Schedule: Constant, MaxIter: 100},
	} {
		got, err := FitStatic(f, y, w, s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := FitStatic(rf, ry, nil, s)
		if err != nil {
			t.Fatal(err)
		}
		if !closeAll(got.Weights, want.Weights) || !closeAll(got.Start, want.Start) || !closeAll(got.Trace, want.Trace) ||
			got.Passes != want.Passes || got.Steps != want.Steps || got.Rejected != want.Rejected || got.Reason != want.Reason {
			t.Errorf("%+v:\nweighted %v start %v, %d passes, %d steps, %q, loss %v\nrepeated %v start %v, %d passes, %d steps, %q, loss %v",
				s, got.Weights, got.Start, got.Passes, got.Steps, got.Reason, got.BestLoss,
				want.Weights, want.Start, want.Passes, want.Steps, want.Reason, want.BestLoss)
		}
		if s.Init == InitInfo {
			g, c := got.Criteria, want.Criteria
			if !closeAll(g.LogLik, c.LogLik) || !closeAll(g.AIC, c.AIC) || !closeAll(g.BIC, c.BIC) || !closeAll(g.Combined, c.Combined) {
				t.Errorf("criteria: weighted %+v, repeated %+v", g, c)
			}
		}
		if got.ClippedRows > want.ClippedRows {
			t.Errorf("%d clipped rows weighted, %d repeated", got.ClippedRows, want.ClippedRows)
		}
	}
}

// TestFitStaticUnitWeights checks that weights of 1 give bit for bit the
// unweighted result, with mini-batches too: the batches do not depend on
// the weights.
func TestFitStaticUnitWeights(t *testing.T) {
	r := rng.New(22)
	f, y := randomProblem(r, 150, 4, 0.01)
	ones := make([]float64, len(y))
	for i := range ones {
		ones[i] = 1
	}
	for _, s := range []*StaticSettings{
		{Tol: 1e-12},
		{BatchSize: 16, Seed: 5, MaxIter: 40},
		{Space: LogitSpace, BatchSize: 25, Seed: 6, MaxIter: 40, Init: InitInfo, Leaves: []int{1, 2, 3, 4}},
	} {
		a, err := FitStatic(f, y, nil, s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := FitStatic(f, y, ones, s)
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%+v: unit weights differ from none:\n%s\n%s", s, jb, ja)
		}
	}
}

func TestFitStaticRowWeightErrors(t *testing.T) {
	f := mat.NewDense(3, 2, []float64{0.9, 0.5, 0.2, 0.5, 0.6, 0.4})
	y := []int{1, 0, 1}
	for _, c := range []struct {
		w    []float64
		want string
	}{
		{[]float64{1, 1}, "2 row weights for 3 rows"},
		{[]float64{1, math.NaN(), 1}, "weight of row 1 is NaN"},
		{[]float64{1, 1, math.Inf(1)}, "weight of row 2 is +Inf"},
		{[]float64{-0.5, 1, 1}, "weight of row 0 is -0.5"},
		{[]float64{0, 0, 0}, "row weights sum to 0"},
	} {
		if _, err := FitStatic(f, y, c.w, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FitStatic with weights %v: error %v, want one saying %q", c.w, err, c.want)
		}
		if _, _, _, err := InfoInit(f, y, c.w, []int{1, 1}, 0.6, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("InfoInit with weights %v: error %v, want one saying %q", c.w, err, c.want)
		}
	}
}

// TestLogitLossGrad: the fused loss and gradient factor equal, bit for
// bit, softplus and sigmoid computed apart, over signs, zeros, tails,
// infinities and NaN.
func TestLogitLossGrad(t *testing.T) {
	r := rng.New(7)
	s := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1, -1, 36.7, -36.7, 745, -745, 800, -800,
		math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}
	for range 100000 {
		s = append(s, r.NormFloat64()*math.Exp(4*r.NormFloat64()))
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	for _, v := range s {
		for y := range 2 {
			l, c := logitLossGrad(v, y)
			wl := softplus(v)
			if y == 1 {
				wl = softplus(-v)
			}
			wc := sigmoid(v) - float64(y)
			if !same(l, wl) || !same(c, wc) {
				t.Fatalf("s=%v y=%d: (%v, %v), want (%v, %v)", v, y, l, c, wl, wc)
			}
		}
	}
}

// TestWorkersSameResult: the logit copy of the members' outputs (row
// blocks on several goroutines), and so the static weights and the tuning
// built on it, do not depend on the number of workers.
func TestWorkersSameResult(t *testing.T) {
	r := rng.New(3)
	const rows, m = 20000, 5
	f := mat.NewDense(rows, m, nil)
	y := make([]int, rows)
	for i := range rows {
		y[i] = r.IntN(2)
		for j := range m {
			f.Set(i, j, min(1, max(0, 0.5+0.3*(float64(y[i])-0.5)+0.2*r.NormFloat64())))
		}
	}
	a := combined(f, LogitSpace, DefaultEps, 1)
	b := combined(f, LogitSpace, DefaultEps, 3)
	for i := range rows {
		for j := range m {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				t.Fatalf("row %d member %d: %v on 3 workers, %v on 1", i, j, b.At(i, j), a.At(i, j))
			}
		}
	}
	var want []float64
	for _, workers := range []int{1, 2} {
		res, err := FitStatic(f, y, nil, &StaticSettings{Space: LogitSpace, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if workers == 1 {
			want = res.Weights
		} else if !slices.Equal(res.Weights, want) {
			t.Errorf("static weights on %d workers %v, on 1 %v", workers, res.Weights, want)
		}
	}
}

// TestLossGradChunks: above lossChunk rows the loss and gradient are sums
// of chunks on several workers; they equal the row-by-row sums up to
// rounding, and bit for bit on 1, 2 and 5 workers, in both spaces, with
// and without row weights and a row subset.
func TestLossGradChunks(t *testing.T) {
	r := rng.New(11)
	const rows, m = 3*lossChunk + 123, 4
	f, y := randomProblem(r, rows, m, 0.01)
	rw := make([]float64, rows)
	for i := range rw {
		rw[i] = float64(r.IntN(3)) // zeros included
	}
	idx := make([]int, 0, rows)
	for i := range rows {
		if r.IntN(3) > 0 {
			idx = append(idx, i)
		}
	}
	w := []float64{0.4, 0.3, 0.2, 0.1}
	for _, space := range []Space{ProbabilitySpace, LogitSpace} {
		for _, weights := range [][]float64{nil, rw} {
			for _, sub := range [][]int{nil, idx} {
				var wantL float64
				var wantG []float64
				for _, workers := range []int{1, 2, 5} {
					p := newProblem(f, y, DefaultEps, space, workers, nil)
					p.rw = weights
					g := make([]float64, m)
					l := p.lossGrad(w, g, sub)
					if l2 := p.lossGrad(w, nil, sub); l2 != l {
						t.Fatalf("loss without the gradient %v, with it %v", l2, l)
					}
					if workers == 1 {
						wantL, wantG = l, g
						// Row by row, as one sequence.
						n := rows
						if sub != nil {
							n = len(sub)
						}
						sg := make([]float64, m)
						sl, st := p.lossGradRange(w, sg, sub, 0, n)
						if weights == nil {
							st = float64(n)
						}
						if math.Abs(sl/st-l) > 1e-12*math.Abs(l) {
							t.Fatalf("space %v: chunked loss %v, sequential %v", space, l, sl/st)
						}
						for j := range g {
							if math.Abs(sg[j]/st-g[j]) > 1e-12*(math.Abs(g[j])+1e-3) {
								t.Fatalf("space %v: chunked gradient %v, sequential %v", space, g[j], sg[j]/st)
							}
						}
						continue
					}
					if math.Float64bits(l) != math.Float64bits(wantL) || !slices.Equal(g, wantG) {
						t.Fatalf("space %v, %d workers: loss %v gradient %v; on 1: %v %v", space, workers, l, g, wantL, wantG)
					}
				}
			}
		}
	}
}

// TestSharedLogits: FitStatic and Tune given the outputs' logit copy
// (NewLogits) return what they return building their own, and ignore a
// copy of other outputs or at another eps (which would be wrong here).
func TestSharedLogits(t *testing.T) {
	f, y, logDens, _ := randomTuneData(rng.New(21), 3000, 4)
	other, _, _, _ := randomTuneData(rng.New(22), 3000, 4)
	fit := func(lg *Logits) ([]float64, *TuneResult) {
		st, err := FitStatic(f, y, nil, &StaticSettings{Space: LogitSpace, Logits: lg})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Tune(f, y, logDens, st.Weights, &TuneSettings{Metric: balancedAccuracy, Space: LogitSpace, Logits: lg, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return st.Weights, tr
	}
	w0, t0 := fit(nil)
	for _, lg := range []*Logits{NewLogits(f, 0, 2), NewLogits(f, DefaultEps, 1), NewLogits(other, 0, 1), NewLogits(f, 1e-3, 1)} {
		w, tr := fit(lg)
		if !slices.Equal(w, w0) || tr.Metric != t0.Metric || tr.Combiner.Lambda != t0.Combiner.Lambda || tr.Combiner.Delta != t0.Combiner.Delta {
			t.Errorf("with logits of eps %v: weights %v, tuning %v %v %v; without: %v, %v %v %v", lg.eps, w, tr.Metric, tr.Combiner.Lambda, tr.Combiner.Delta, w0, t0.Metric, t0.Combiner.Lambda, t0.Combiner.Delta)
		}
	}
	// Score with the shared copy gives the same scores.
	c := &Combiner{Static: w0, Owner: t0.Combiner.Owner, Space: LogitSpace, Dynamic: t0.Combiner.Dynamic, Lambda: t0.Combiner.Lambda, Delta: t0.Combiner.Delta}
	s0, _, err := c.Score(nil, f, logDens)
	if err != nil {
		t.Fatal(err)
	}
	for _, lg := range []*Logits{NewLogits(f, 0, 2), NewLogits(other, 0, 1)} {
		s, _, err := c.ScoreShared(nil, f, logDens, lg)
		if err != nil || !slices.Equal(s, s0) {
			t.Fatalf("ScoreShared (logits of eps %v): %v, Score: %v", lg.eps, err, s0[:3])
		}
	}
	if NewLogits(f, 0, 1).of(f, DefaultEps) == nil || NewLogits(f, 0, 1).of(other, DefaultEps) != nil || NewLogits(f, 1e-3, 1).of(f, DefaultEps) != nil {
		t.Error("of matched the wrong outputs or eps")
	}
}

// TestInfoInitWorkers: the members' log-likelihoods, summed on bands of
// members, are the same bits on 1 to 7 workers, with and without row
// weights (zeros among them).
func TestInfoInitWorkers(t *testing.T) {
	r := rng.New(8)
	f, y := randomProblem(r, 5000, 7, 0.001)
	rw := make([]float64, 5000)
	for i := range rw {
		rw[i] = float64(r.IntN(4)) * 0.7
	}
	leaves := []int{3, 5, 8, 13, 21, 34, 55}
	for _, weights := range [][]float64{nil, rw} {
		w1, c1, ok1, err := infoInit(f, y, weights, leaves, 0.6, 0, 1)
		if err != nil || !ok1 {
			t.Fatal(err, ok1)
		}
		for _, workers := range []int{2, 3, 7} {
			w, c, ok, err := infoInit(f, y, weights, leaves, 0.6, 0, workers)
			if err != nil || ok != ok1 || !slices.Equal(w, w1) || !slices.Equal(c.LogLik, c1.LogLik) || !slices.Equal(c.BIC, c1.BIC) {
				t.Fatalf("%d workers: %v %v, on 1: %v %v", workers, w, c.LogLik, w1, c1.LogLik)
			}
		}
	}
}

// TestFitStaticTinyStep: a step scale so small that its floor underflows
// (1e-320) ends within max_iter passes (cmd/aer's TestTinyStepEnds has
// the data where it looped forever), and a cancelled context stops the
// descent.
func TestFitStaticTinyStep(t *testing.T) {
	r := rng.New(5)
	f, y := randomProblem(r, 100, 5, 0.01)
	done := make(chan error, 1)
	go func() {
		_, err := FitStatic(f, y, nil, &StaticSettings{StepScale: 1e-320, Projection: MinMax, MaxIter: 20, Tol: -1})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the descent did not end")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitStaticContext(ctx, f, y, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
