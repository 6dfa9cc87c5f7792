package boost

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func train(t *testing.T, x *mat.Dense, y []int, s *Settings) *Model {
	t.Helper()
	m, err := Train(context.Background(), Data{X: x, Y: y}, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestHandComputedSplit checks the first split and leaf values on a tiny
// data set worked by hand. With base score 0.5 every row has gradient
// p-y = ±0.5 and hessian 0.25. Feature 0 separates the classes at 4:
// G_L = 1.5, H_L = 0.75, G_R = -1.5, H_R = 0.75, parent G = 0, so with
// lambda 1 the gain is 2*1.5^2/1.75 = 2.5714 and the leaves are -+1.5/1.75.
// Feature 1's best split (x1 < 2) has gain 2*0.5^2/1.75 = 0.2857.
// With alpha 0.5 the gradients are soft-thresholded to 1.0 first.
func TestHandComputedSplit(t *testing.T) {
	x := mat.NewDense(6, 2, []float64{
		1, 1,
		2, 1,
		3, 2,
		4, 2,
		5, 2,
		6, 1,
	})
	y := []int{0, 0, 0, 1, 1, 1}
	const tol = 1e-6
	for _, c := range []struct {
		alpha, gain, leaf float64
	}{
		{0, 2 * 1.5 * 1.5 / 1.75, 1.5 / 1.75},
		{0.5, 2 * 1.0 * 1.0 / 1.75, 1.0 / 1.75},
	} {
		m := train(t, x, y, &Settings{NEstimators: 1, MaxDepth: 1, Eta: 1, MinChildWeight: -1, Alpha: c.alpha})
		tr := &m.Trees[0]
		if tr.NumNodes() != 3 || tr.Feature[0] != 0 || tr.Threshold[0] != 4 || tr.DefaultLeft[0] {
			t.Fatalf("alpha %v: root split f%d < %v (nodes %d), want f0 < 4", c.alpha, tr.Feature[0], tr.Threshold[0], tr.NumNodes())
		}
		if math.Abs(tr.Gain[0]-c.gain) > tol*c.gain {
			t.Errorf("alpha %v: gain %v, want %v", c.alpha, tr.Gain[0], c.gain)
		}
		if math.Abs(tr.Value[1]+c.leaf) > tol || math.Abs(tr.Value[2]-c.leaf) > tol {
			t.Errorf("alpha %v: leaves %v, %v, want %v, %v", c.alpha, tr.Value[1], tr.Value[2], -c.leaf, c.leaf)
		}
		if tr.Cover[0] != 1.5 || tr.Cover[1] != 0.75 || tr.Cover[2] != 0.75 {
			t.Errorf("alpha %v: covers %v", c.alpha, tr.Cover)
		}
	}
	// Gamma above the gain forbids the split: the tree is one leaf (value 0,
	// since the gradients sum to zero).
	m := train(t, x, y, &Settings{NEstimators: 1, MaxDepth: 1, Eta: 1, MinChildWeight: -1, Gamma: 2.6})
	if m.Trees[0].NumNodes() != 1 || m.Trees[0].Value[0] != 0 {
		t.Errorf("gamma 2.6: got %d nodes, value %v; want a single zero leaf", m.Trees[0].NumNodes(), m.Trees[0].Value[0])
	}
	// min_child_weight above a child's hessian sum (0.75) forbids it too.
	m = train(t, x, y, &Settings{NEstimators: 1, MaxDepth: 1, Eta: 1, MinChildWeight: 1})
	if m.Trees[0].NumNodes() != 1 {
		t.Errorf("min_child_weight 1: got %d nodes, want 1", m.Trees[0].NumNodes())
	}
}

// testData returns a deterministic classification problem with missing
// values in feature 2.
func testData(n int, seed uint64) (*mat.Dense, []int) {
	x, y := synthData(n, 8, seed)
	for i := 0; i < n; i += 7 {
		x.Set(i, 2, math.NaN())
	}
	return x, y
}

func trainLoss(m *Model, x *mat.Dense, y []int) float64 {
	return logLoss(m.PredictMargin(x, nil), y, nil)
}

func TestLossDecreases(t *testing.T) {
	x, y := testData(3000, 3)
	for _, s := range []Settings{
		{NEstimators: 30},
		{NEstimators: 30, GrowPolicy: LeafWise, MaxLeaves: 8},
		{NEstimators: 30, Alpha: 1, Lambda: 5, Gamma: 0.5},
		{NEstimators: 30, Objective: Weighted, WeightedAlpha: 3},
	} {
		m := train(t, x, y, &s)
		prev := math.Inf(1)
		for k := 0; k <= len(m.Trees); k++ {
			var loss float64
			if s.Objective == Weighted {
				w := make([]float64, len(y))
				for i := range w {
					w[i] = 1
					if y[i] == 1 {
						w[i] = 3
					}
				}
				loss = logLoss(m.FirstTrees(k).PredictMargin(x, nil), y, w)
			} else {
				loss = trainLoss(m.FirstTrees(k), x, y)
			}
			if loss > prev+1e-12 {
				t.Errorf("%+v: training loss rose from %v to %v at round %d", s, prev, loss, k)
			}
			prev = loss
		}
		if first := trainLoss(m.FirstTrees(0), x, y); prev > 0.8*first {
			t.Errorf("%+v: loss only fell from %v to %v", s, first, prev)
		}
	}
}

// TestMissingRouting: the rows with a missing x0 are all positive, so the
// learnt default direction must send missing values to the positive side.
func TestMissingRouting(t *testing.T) {
	const n = 200
	x := mat.NewDense(n, 1, nil)
	y := make([]int, n)
	for i := range n {
		switch i % 4 {
		case 0:
			x.Set(i, 0, math.NaN())
			y[i] = 1
		case 1: // high values are positive
			x.Set(i, 0, 10+float64(i%10))
			y[i] = 1
		default:
			x.Set(i, 0, float64(i%10))
		}
	}
	m := train(t, x, y, &Settings{NEstimators: 1, MaxDepth: 2, Eta: 1})
	if tr := &m.Trees[0]; tr.Threshold[0] != 11 || tr.DefaultLeft[0] {
		t.Errorf("root split f%d < %v, missing left %v; want x0 < 11 with missing right", tr.Feature[0], tr.Threshold[0], tr.DefaultLeft[0])
	}
	pMiss := m.PredictRow([]float64{math.NaN()})
	pLow := m.PredictRow([]float64{3})
	pHigh := m.PredictRow([]float64{15})
	if !(pMiss > 0.5 && pHigh > 0.5 && pLow < 0.5) {
		t.Errorf("P(missing) = %v, P(high) = %v, P(low) = %v: missing rows should go with the positives", pMiss, pHigh, pLow)
	}
	// Without missing values in training, a missing value goes right
	// (XGBoost's default).
	x2 := mat.NewDense(4, 1, []float64{1, 2, 3, 4})
	m2 := train(t, x2, []int{0, 0, 1, 1}, &Settings{NEstimators: 1, MaxDepth: 1, Eta: 1, MinChildWeight: -1})
	if got, want := m2.PredictRowMargin([]float64{math.NaN()}), m2.PredictRowMargin([]float64{4}); got != want {
		t.Errorf("unseen missing value: margin %v, want the right branch's %v", got, want)
	}
}

func TestFocalGradient(t *testing.T) {
	const h = 1e-5
	for _, gamma := range []float64{0, 0.5, 1, 2, 3} {
		for _, y := range []int{0, 1} {
			for _, z := range []float64{-6, -2.5, -0.3, 0, 0.7, 2, 5} {
				g, hs := FocalGrad(z, y, gamma)
				fd := (FocalLoss(z+h, y, gamma) - FocalLoss(z-h, y, gamma)) / (2 * h)
				if math.Abs(g-fd) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("gamma %v y %d z %v: grad %v, finite difference %v", gamma, y, z, g, fd)
				}
				gp, _ := FocalGrad(z+h, y, gamma)
				gm, _ := FocalGrad(z-h, y, gamma)
				fdh := (gp - gm) / (2 * h)
				if math.Abs(hs-fdh) > 1e-6*math.Max(1, math.Abs(fdh)) {
					t.Errorf("gamma %v y %d z %v: hess %v, finite difference %v", gamma, y, z, hs, fdh)
				}
				if gamma == 0 {
					lg, lh := LogisticGrad(z, y)
					if math.Abs(lg-g) > 1e-12 || math.Abs(lh-hs) > 1e-12 {
						t.Errorf("gamma 0 z %v: focal (%v, %v) != logistic (%v, %v)", z, g, hs, lg, lh)
					}
				}
			}
		}
	}
	// Training with the focal objective works and beats the base rate.
	x, yy := testData(2000, 5)
	m := train(t, x, yy, &Settings{NEstimators: 20, Objective: Focal, FocalGamma: 2, FocalAlpha: 0.25})
	if auc := rocAUC(m.PredictMargin(x, nil), yy); auc < 0.8 {
		t.Errorf("focal loss model: training AUC %v", auc)
	}
}

// TestDeterminism: the model does not depend on the number of threads,
// and sampling follows the seed. 40k rows make several row blocks.
func TestDeterminism(t *testing.T) {
	x, y := testData(40_000, 7)
	s := Settings{NEstimators: 8, Subsample: 0.8, ColsampleByTree: 0.7, Seed: 11}
	var models []*Model
	for _, th := range []int{1, 2, 3} {
		s.Threads = th
		models = append(models, train(t, x, y, &s))
	}
	b0, _ := models[0].MarshalBinary()
	for i, m := range models[1:] {
		b, _ := m.MarshalBinary()
		if string(b) != string(b0) {
			t.Errorf("model with %d threads differs from the serial one", i+2)
		}
	}
	s.Seed = 12
	b, _ := train(t, x, y, &s).MarshalBinary()
	if string(b) == string(b0) {
		t.Error("a different seed gave the same model")
	}
}

func TestEarlyStopping(t *testing.T) {
	x, y := testData(3000, 9)
	vx, vy := testData(1000, 10)
	for _, metric := range []string{LogLoss, AUC} {
		s := &Settings{NEstimators: 300, Eta: 0.5, MaxDepth: 8, EarlyStoppingRounds: 10, EvalMetric: metric}
		m, err := Train(context.Background(), Data{X: x, Y: y}, &Data{X: vx, Y: vy}, s)
		if err != nil {
			t.Fatal(err)
		}
		ev := m.Eval
		if !ev.Stopped || len(ev.Curve) != ev.BestIteration+11 || len(m.Trees) != ev.BestIteration+1 {
			t.Fatalf("%s: stopped %v, curve %d, best %d, trees %d", metric, ev.Stopped, len(ev.Curve), ev.BestIteration, len(m.Trees))
		}
		best := ev.Curve[ev.BestIteration]
		for i, v := range ev.Curve {
			if better(metric, v, best) {
				t.Errorf("%s: round %d (%v) beats the best round %d (%v)", metric, i, v, ev.BestIteration, best)
			}
		}
		got := evalMetric(metric, m.PredictMargin(vx, nil), vy, nil)
		if math.Abs(got-best) > 1e-12 {
			t.Errorf("%s: model's validation metric %v, recorded best %v", metric, got, best)
		}
	}
}

func TestLeafWise(t *testing.T) {
	x, y := testData(3000, 13)
	m := train(t, x, y, &Settings{NEstimators: 10, GrowPolicy: LeafWise, MaxLeaves: 5})
	deep := false
	for i := range m.Trees {
		if l := m.Trees[i].NumLeaves(); l > 5 {
			t.Errorf("tree %d has %d leaves, max 5", i, l)
		}
		deep = deep || m.Trees[i].Depth() > 2
	}
	if !deep {
		t.Error("leaf-wise trees never went deeper than a balanced tree of 4 leaves")
	}
	// Depth-wise with a leaf budget stops at it too.
	m = train(t, x, y, &Settings{NEstimators: 5, MaxLeaves: 6})
	for i := range m.Trees {
		if l := m.Trees[i].NumLeaves(); l > 6 {
			t.Errorf("depth-wise tree %d has %d leaves, max 6", i, l)
		}
	}
}

func TestWeightedEqualsScalePosWeight(t *testing.T) {
	x, y := testData(2000, 17)
	a := train(t, x, y, &Settings{NEstimators: 5, Objective: Weighted, WeightedAlpha: 4})
	b := train(t, x, y, &Settings{NEstimators: 5, ScalePosWeight: 4})
	pa, pb := a.PredictMargin(x, nil), b.PredictMargin(x, nil)
	for i := range pa {
		if math.Abs(pa[i]-pb[i]) > 1e-9 {
			t.Fatalf("row %d: weighted %v, scale_pos_weight %v", i, pa[i], pb[i])
		}
	}
	// Sample weights: doubling every weight changes nothing but covers when
	// lambda and min_child_weight are scaled too.
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 2
	}
	c, err := Train(context.Background(), Data{X: x, Y: y, Weight: w}, nil, &Settings{NEstimators: 5, Lambda: 2, MinChildWeight: 2})
	if err != nil {
		t.Fatal(err)
	}
	d := train(t, x, y, &Settings{NEstimators: 5})
	pc, pd := c.PredictMargin(x, nil), d.PredictMargin(x, nil)
	for i := range pc {
		if math.Abs(pc[i]-pd[i]) > 1e-6 {
			t.Fatalf("row %d: weights 2 give %v, weights 1 give %v", i, pc[i], pd[i])
		}
	}
}

func TestProgress(t *testing.T) {
	x, y := testData(500, 37)
	var calls []int
	train(t, x, y, &Settings{NEstimators: 4, Progress: func(done, total int) {
		if total != 4 {
			t.Errorf("total %d", total)
		}
		calls = append(calls, done)
	}})
	if !slices.Equal(calls, []int{1, 2, 3, 4}) {
		t.Errorf("progress calls %v", calls)
	}
}

func TestCustomObjective(t *testing.T) {
	x, y := testData(2000, 19)
	a := train(t, x, y, &Settings{NEstimators: 5, Gradient: LogisticGrad})
	b := train(t, x, y, &Settings{NEstimators: 5})
	if a.Settings.Objective != Custom {
		t.Errorf("objective %q, want custom", a.Settings.Objective)
	}
	pa, pb := a.PredictMargin(x, nil), b.PredictMargin(x, nil)
	for i := range pa {
		if math.Abs(pa[i]-pb[i]) > 1e-6 {
			t.Fatalf("row %d: custom logistic %v, built-in %v", i, pa[i], pb[i])
		}
	}
	bad := func(float64, int) (float64, float64) { return math.NaN(), 1 }
	if _, err := Train(context.Background(), Data{X: x, Y: y}, nil, &Settings{Gradient: bad}); err == nil {
		t.Error("a NaN gradient was accepted")
	}
}

func TestImportance(t *testing.T) {
	x, y := testData(2000, 23)
	m := train(t, x, y, &Settings{NEstimators: 10})
	count, _ := m.Importance(Count)
	total, _ := m.Importance(TotalGain)
	mean, _ := m.Importance(Gain)
	splits := 0
	for i := range m.Trees {
		splits += m.Trees[i].NumNodes() - m.Trees[i].NumLeaves()
	}
	sum := 0.0
	for f := range count {
		sum += count[f]
		if count[f] > 0 && math.Abs(mean[f]*count[f]-total[f]) > 1e-9*total[f] {
			t.Errorf("feature %d: mean gain * count != total gain", f)
		}
	}
	if int(sum) != splits {
		t.Errorf("counts sum to %v, model has %d splits", sum, splits)
	}
	if _, err := m.Importance("nope"); err == nil {
		t.Error("unknown importance kind accepted")
	}
}

func TestSaveLoadExact(t *testing.T) {
	x, y := testData(3000, 29)
	vx, vy := testData(500, 30)
	m, err := Train(context.Background(), Data{X: x, Y: y}, &Data{X: vx, Y: vy}, &Settings{NEstimators: 20, Eta: 0.1234567891234})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var m2 Model
	if err := m2.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	p1, p2 := m.PredictMargin(vx, nil), m2.PredictMargin(vx, nil)
	for i := range p1 {
		if math.Float64bits(p1[i]) != math.Float64bits(p2[i]) {
			t.Fatalf("row %d: %v before, %v after reload", i, p1[i], p2[i])
		}
	}
	if m2.PredictRow(vx.RawRowView(3)) != m.PredictRow(vx.RawRowView(3)) {
		t.Error("single-row prediction changed after reload")
	}
	b2, _ := m2.MarshalBinary()
	if string(b) != string(b2) {
		t.Error("re-encoding a loaded model changed it")
	}
	// A corrupt tree is refused, not run.
	m2.Trees[0].Left[0] = 0
	bad, _ := m2.MarshalBinary()
	var m3 Model
	if err := m3.UnmarshalBinary(bad); err == nil {
		t.Error("a tree whose root is its own child was accepted")
	}
}

func TestSettings(t *testing.T) {
	var s Settings
	if err := s.Set("eta", "0.1"); err != nil || s.Eta != 0.1 {
		t.Fatal(err, s.Eta)
	}
	if err := s.Set("lambda", "0"); err != nil {
		t.Fatal(err)
	}
	r, _ := s.resolved()
	if r.Lambda != 0 {
		t.Errorf("lambda=0 resolved to %v", r.Lambda)
	}
	if err := s.Set("etaa", "1"); !errors.Is(err, ErrUnknownParam) {
		t.Errorf("unknown key: %v", err)
	}
	if err := s.Set("max_depth", "x"); err == nil {
		t.Error("max_depth=x accepted")
	}
	for _, kv := range [][2]string{{"eta", "0"}, {"n_estimators", "0"}, {"subsample", "-1"}, {"max_depth", "-2"}} {
		if err := s.Set(kv[0], kv[1]); err == nil {
			t.Errorf("%s=%s accepted", kv[0], kv[1])
		}
	}
	var u Settings
	u.Set("max_depth", "0")
	u.Set("grow_policy", "leafwise")
	u.Set("max_leaves", "0")
	if r, _ := u.resolved(); r.MaxDepth > 0 || r.MaxLeaves != 0 {
		t.Errorf("max_depth=0, max_leaves=0 resolved to %d, %d; want no bounds", r.MaxDepth, r.MaxLeaves)
	}
	for _, bad := range []Settings{{Subsample: 1.5}, {MaxBin: 300}, {Objective: "hinge"}, {GrowPolicy: "x"}, {BaseScore: 1}, {Objective: Custom}} {
		if err := bad.Check(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	var d Settings
	r, _ = d.resolved()
	if r.NEstimators != 100 || r.Eta != 0.3 || r.MaxDepth != 6 || r.Lambda != 1 || r.MinChildWeight != 1 || r.MaxBin != 256 || r.BaseScore != 0.5 {
		t.Errorf("defaults: %+v", r)
	}
	if !slices.Contains(Params(), "scale_pos_weight") {
		t.Error("Params misses scale_pos_weight")
	}
}

func TestBadInput(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{1, math.Inf(1), 3})
	if _, err := Train(context.Background(), Data{X: x, Y: []int{0, 1, 0}}, nil, nil); err == nil {
		t.Error("infinite value accepted")
	}
	x = mat.NewDense(3, 1, []float64{1, 2, 3})
	if _, err := Train(context.Background(), Data{X: x, Y: []int{0, 2, 0}}, nil, nil); err == nil {
		t.Error("label 2 accepted")
	}
	if _, err := Train(context.Background(), Data{X: x, Y: []int{0, 1}}, nil, nil); err == nil {
		t.Error("label count mismatch accepted")
	}
	if _, err := Train(context.Background(), Data{X: x, Y: []int{0, 1, 0}}, nil, &Settings{EarlyStoppingRounds: 3}); !errors.Is(err, ErrNoValidation) {
		t.Errorf("early stopping without validation: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, Data{X: x, Y: []int{0, 1, 0}}, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestQuantileCuts(t *testing.T) {
	v := make([]float64, 10000)
	for i := range v {
		v[i] = float64(i)
	}
	cuts, minVal := cutsFor(v, nil, 16)
	if len(cuts) != 16 || minVal >= 0 {
		t.Fatalf("%d cuts, min %v", len(cuts), minVal)
	}
	counts := make([]int, len(cuts))
	for _, x := range v {
		counts[binOf(cuts, x)]++
	}
	for b, c := range counts {
		if c < 600 || c > 650 {
			t.Errorf("bin %d holds %d of 10000 values, want about 625", b, c)
		}
	}
	// Few distinct values: one bin each, cut at the next value.
	cuts, _ = cutsFor([]float64{3, 1, 2, 1, 3}, nil, 256)
	if !slices.Equal(cuts[:2], []float64{2, 3}) || len(cuts) != 3 || cuts[2] <= 3 {
		t.Errorf("cuts %v", cuts)
	}
}

func TestRadixSort(t *testing.T) {
	v := []float64{3, -1, 0, math.Copysign(0, -1), 2.5, -7.25, 1e300, -1e-300, 3, math.Inf(-1), 42}
	for i := 0; i < 5000; i++ {
		v = append(v, float64(i%97)*1.5-50)
	}
	want := slices.Clone(v)
	slices.Sort(want)
	// Both paths, the comparison sort of short columns and the radix
	// passes, give the same order, -0 before +0 included.
	for _, min := range []int{1 << 30, 0} {
		radixMin = min
		got := radixSort(v)
		for i := range want {
			if got[i] != want[i] || math.Signbit(got[i]) != math.Signbit(want[i]) && got[i] != 0 {
				t.Fatalf("radixMin %d, position %d: %v, want %v", min, i, got[i], want[i])
			}
		}
		if zero := slices.Index(got, 0); !math.Signbit(got[zero]) || math.Signbit(got[zero+1]) {
			t.Errorf("radixMin %d: zeros %v %v, want -0 then +0", min, got[zero], got[zero+1])
		}
		if len(radixSort([]float64{1})) != 1 {
			t.Error("one value")
		}
	}
	radixMin = 2048
}

// BenchmarkSortValues times radixSort's two paths on columns of the
// lengths AER's members bin (radixMin): distinct values and 0/1 values.
func BenchmarkSortValues(b *testing.B) {
	defer func(old int) { radixMin = old }(radixMin)
	for _, n := range []int{100, 1000, 3000, 10000} {
		r := rand.New(rand.NewPCG(1, 2))
		cont, bin := make([]float64, n), make([]float64, n)
		for i := range cont {
			cont[i] = r.NormFloat64()
			bin[i] = float64(r.IntN(2))
		}
		for _, c := range []struct {
			name string
			v    []float64
		}{{"continuous", cont}, {"binary", bin}} {
			for _, path := range []struct {
				name string
				min  int
			}{{"compare", 1 << 30}, {"radix", 0}} {
				b.Run(fmt.Sprintf("n=%d/%s/%s", n, c.name, path.name), func(b *testing.B) {
					radixMin = path.min
					for b.Loop() {
						radixSort(c.v)
					}
				})
			}
		}
	}
}

// TestPredictionPaths: the flat branch-free layout, the tree walk used in
// training and single-row prediction agree bit for bit, missing values
// included.
func TestPredictionPaths(t *testing.T) {
	x, y := testData(3000, 31)
	m := train(t, x, y, &Settings{NEstimators: 20, MaxDepth: 5})
	lw := train(t, x, y, &Settings{NEstimators: 20, GrowPolicy: LeafWise, MaxLeaves: 12})
	for _, mm := range []*Model{m, lw} {
		batch := mm.PredictMargin(x, nil)
		for i := 0; i < 3000; i += 7 {
			row := x.RawRowView(i)
			s := 0.0
			for ti := range mm.Trees {
				s += mm.Trees[ti].Value[mm.Trees[ti].Leaf(row)]
			}
			s += mm.BaseMargin
			if one := mm.PredictRowMargin(row); math.Float64bits(one) != math.Float64bits(batch[i]) || math.Float64bits(s) != math.Float64bits(one) {
				t.Fatalf("row %d: batch %v, single %v, tree walk %v", i, batch[i], one, s)
			}
		}
	}
}
