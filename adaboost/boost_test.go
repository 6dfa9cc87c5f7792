package adaboost

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/tree"
)

// data returns n rows of p features with a share pos of class 1, which
// the first feature separates partly.
func data(n, p int, pos float64, seed uint64) *learn.Data {
	r := rand.New(rand.NewPCG(seed, 3))
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	for i := range n {
		if r.Float64() < pos {
			y[i] = 1
		}
		for j := range p {
			v := r.NormFloat64()
			if j == 0 {
				v += 1.5 * float64(y[i])
			}
			x.Set(i, j, v)
		}
	}
	return &learn.Data{X: x, Y: y}
}

// TestRUSBoostRoundByHand: one RUSBoost round on 8 rows, x = 0..7, class
// 1 at x = 3 and 5, row 4 weighing 2, the stump grown on rows 2-5. The
// numbers are worked out by hand:
//
//   - initial weights w = (1,1,1,1,2,1,1,1)/9; the sample's weights 1,1,2,1
//     (in ninths) make x <= 4.5 the best split (weighted gini w*I of the
//     children: 3/2 + 0, against 0 + 2 at 2.5 and 1 + 4/3 at 3.5); its left
//     leaf holds class weights 3:1, so p1 = 1/4, its right leaf is pure
//     class 1, p1 = 1 and p0 clipped to eps;
//   - on all 8 rows the stump is wrong on row 3 (class 1, left) and rows
//     6 and 7 (class 0, right, never drawn): error 3/9;
//   - factors exp(-1/2 y.log p): class 0 on the left 3^-1/2, class 1 on
//     the left 3^1/2, class 1 on the right eps^1/2 = 2^-26, class 0 on the
//     right 2^26, applied to every row, drawn or not, then normalised.
func TestRUSBoostRoundByHand(t *testing.T) {
	x := mat.NewDense(8, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7})
	y := []int{0, 0, 0, 1, 0, 1, 0, 0}
	w := []float64{1, 1, 1, 1, 2, 1, 1, 1}
	s := Settings{UnderSample: true}.Resolved()
	b, err := newBooster(context.Background(), mustGrower(t, x, y), x, y, nil, w, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	pick := []int32{2, 3, 4, 5}
	b.count = []int32{0, 0, 1, 1, 1, 1, 0, 0}
	stop, err := b.round(context.Background(), 0, nil, pick)
	if err != nil || stop {
		t.Fatalf("stop %v, %v", stop, err)
	}
	st := b.tree[0]
	if st.NumNodes() != 3 || st.Feature[0] != 0 || st.Threshold[0] != 4.5 {
		t.Fatalf("stump: features %v, thresholds %v, want x0 <= 4.5", st.Feature, st.Threshold)
	}
	const tol = 1e-15
	if math.Abs(b.errs[0]-1.0/3) > tol {
		t.Errorf("weighted error %v, want 1/3", b.errs[0])
	}
	r3 := math.Sqrt(3)
	want := []float64{1 / r3, 1 / r3, 1 / r3, r3, 2 / r3, 0x1p-26, 0x1p26, 0x1p26}
	sum := 0.0
	for _, v := range want {
		sum += v
	}
	for i := range want {
		if got := b.w[i]; math.Abs(got-want[i]/sum) > 1e-14*want[i]/sum {
			t.Errorf("row %d: weight %v, want %v", i, got, want[i]/sum)
		}
	}
	// The leaves' terms log p1 - log p0: log(1/3) on the left, -log eps on
	// the right.
	if lt, rt := b.terms[0][st.Left[0]], b.terms[0][st.Right[0]]; math.Abs(lt+math.Log(3)) > tol || rt != 52*math.Ln2 {
		t.Errorf("leaf terms %v, %v, want -log 3 and 52 log 2", lt, rt)
	}
}

// TestUnderSamples: every round of RUSBoost grows its tree on the smaller
// class whole and as many distinct rows of the larger.
func TestUnderSamples(t *testing.T) {
	d := data(300, 3, 0.15, 1)
	npos := 0
	for _, v := range d.Y {
		npos += v
	}
	for _, repl := range []bool{false, true} {
		e, err := Fit(context.Background(), d, Settings{UnderSample: true, Replacement: repl}, 2, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Trees) != 50 {
			t.Errorf("%d rounds, want 50", len(e.Trees))
		}
		for k, tr := range e.Trees {
			if tr.Samples[0] != int32(2*npos) {
				t.Fatalf("replacement %v, round %d: the tree saw %d rows, want %d", repl, k+1, tr.Samples[0], 2*npos)
			}
		}
	}
	b, err := newBooster(context.Background(), mustGrower(t, d.X, d.Y), d.X, d.Y, nil, nil, nil, Settings{UnderSample: true}.Resolved())
	if err != nil {
		t.Fatal(err)
	}
	for trial := range 20 {
		pick := b.underSample(rng.New(uint64(trial)))
		var c [2]int
		for _, i := range pick {
			c[d.Y[i]]++
			if b.count[i] != 1 {
				t.Fatalf("position %d drawn %d times without replacement", i, b.count[i])
			}
		}
		if c != [2]int{npos, npos} || !slices.IsSorted(pick) {
			t.Fatalf("draw %d: class counts %v (want %d each), sorted %v", trial, c, npos, slices.IsSorted(pick))
		}
	}
}

// TestEasySamples: each EasyEnsemble sample is the minority whole and as
// many distinct majority rows, drawn anew for each ensemble; with
// replacement the majority draws count as many rows.
func TestEasySamples(t *testing.T) {
	d := data(400, 2, 0.1, 3)
	npos := 0
	for _, v := range d.Y {
		npos += v
	}
	seen := map[string]bool{}
	for k := range 20 {
		rows, cnt := balancedSample(d.Y, 2, false, true, rng.Derive(5, uint64(k)))
		var c [2]int
		for _, i := range rows {
			c[d.Y[i]]++
		}
		if cnt != nil || c != [2]int{npos, npos} || !slices.IsSorted(rows) || len(slices.Compact(slices.Clone(rows))) != len(rows) {
			t.Fatalf("sample %d: class counts %v, want %d each, distinct and sorted", k, c, npos)
		}
		seen[fmt.Sprint(rows)] = true
	}
	if len(seen) < 20 {
		t.Errorf("%d distinct samples of 20", len(seen))
	}
	rows, cnt := balancedSample(d.Y, 2, true, true, rng.New(1))
	var c [2]int32
	for k, i := range rows {
		n := int32(1)
		if cnt != nil {
			n = cnt[k]
		}
		c[d.Y[i]] += n
	}
	if c != [2]int32{int32(npos), int32(npos)} {
		t.Errorf("with replacement: class counts %v, want %d each", c, npos)
	}
	// Through FitEasy: the first tree of every ensemble sees a balanced
	// sample with equal weights.
	ens, err := FitEasy(context.Background(), d, EasySettings{}, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ens) != 10 {
		t.Fatalf("%d ensembles, want 10", len(ens))
	}
	for k, e := range ens {
		if r := e.Trees[0]; r.Samples[0] != int32(2*npos) || r.Value[0] != 0.5 {
			t.Errorf("ensemble %d: first tree on %d rows, P(1) %v at its root; want %d, 0.5", k+1, r.Samples[0], r.Value[0], 2*npos)
		}
	}
	// One class only: nothing to balance.
	if rows, _ := balancedSample(make([]int, 7), 2, false, true, rng.New(1)); len(rows) != 7 {
		t.Errorf("one class: %d rows, want 7", len(rows))
	}
}

// TestEarlyStop: a tree that classifies every row right ends boosting
// with that tree, as scikit-learn does.
func TestEarlyStop(t *testing.T) {
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 3, 4, 5})
	d := &learn.Data{X: x, Y: []int{0, 0, 0, 1, 1, 1}}
	var done []int
	e, err := Fit(context.Background(), d, Settings{}, 0, 1, func(n, total int) { done = append(done, n) })
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Trees) != 1 || e.Errors[0] != 0 || !slices.Equal(done, []int{1, 50}) {
		t.Fatalf("%d trees, errors %v, progress %v; want one tree of error 0, progress 1 then 50", len(e.Trees), e.Errors, done)
	}
	// Pure leaves: the decision is +-log(1/eps).
	if p := e.PredictRow([]float64{5}); p != 1/(1+eps) {
		t.Errorf("P(1 | x=5) = %v, want 1/(1+eps)", p)
	}
	if d := e.Decision([]float64{0}); d != -52*math.Ln2 {
		t.Errorf("decision at x=0: %v, want -52 log 2", d)
	}
}

// TestWeights: weights times a constant change nothing; an integer weight
// k counts as k copies of the row.
func TestWeights(t *testing.T) {
	d := data(200, 3, 0.2, 4)
	ctx := context.Background()
	base, err := Fit(ctx, d, Settings{}, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	dw := *d
	dw.W = slices.Repeat([]float64{3}, len(d.Y))
	scaled, err := Fit(ctx, &dw, Settings{}, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Copies: row i repeated 1 + i%3 times, against weights 1 + i%3.
	var rows []int
	dw.W = make([]float64, len(d.Y))
	for i := range d.Y {
		dw.W[i] = float64(1 + i%3)
		for range 1 + i%3 {
			rows = append(rows, i)
		}
	}
	weighted, err := Fit(ctx, &dw, Settings{}, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	copies, err := Fit(ctx, d.Subset(rows), Settings{}, 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Y {
		row := d.X.RawRowView(i)
		if a, b := base.PredictRow(row), scaled.PredictRow(row); a != b {
			t.Fatalf("row %d: %v unweighted, %v with weights 3", i, a, b)
		}
		if a, b := weighted.PredictRow(row), copies.PredictRow(row); math.Abs(a-b) > 1e-12 {
			t.Fatalf("row %d: %v with integer weights, %v with copies", i, a, b)
		}
	}
	// Weights summing to 0 cannot be boosted.
	dw.W = make([]float64, len(d.Y))
	if _, err := Fit(ctx, &dw, Settings{}, 1, 1, nil); !errors.Is(err, learn.ErrData) {
		t.Errorf("zero weights: %v, want ErrData", err)
	}
}

// TestWorkersDoNotMatter: the same seed gives the same EasyEnsemble on 1,
// 2 and 5 workers; another seed another.
func TestWorkersDoNotMatter(t *testing.T) {
	d := data(300, 4, 0.15, 2)
	m := NewEasyEnsemble()
	if err := m.Set("rounds", "10"); err != nil {
		t.Fatal(err)
	}
	var payloads [][]byte
	for _, workers := range []int{1, 2, 5} {
		model, err := m.Fit(context.Background(), d, nil, learn.Env{Seed: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := model.MarshalBinary()
		payloads = append(payloads, b)
	}
	if !bytes.Equal(payloads[0], payloads[1]) || !bytes.Equal(payloads[0], payloads[2]) {
		t.Error("1, 2 and 5 workers boost different ensembles")
	}
	other, _ := m.Fit(context.Background(), d, nil, learn.Env{Seed: 4})
	if b, _ := other.MarshalBinary(); bytes.Equal(b, payloads[0]) {
		t.Error("seeds 3 and 4 boost the same ensembles")
	}
}

func TestSettingsErrors(t *testing.T) {
	d := data(100, 3, 0.2, 6)
	ctx := context.Background()
	for _, s := range []Settings{
		{NEstimators: -1},
		{LearningRate: -0.5},
		{LearningRate: math.Inf(1)},
		{Tree: &tree.Settings{MaxFeatures: "4"}},
		{Tree: &tree.Settings{MaxDepth: -1}},
	} {
		if _, err := Fit(ctx, d, s, 1, 1, nil); !errors.Is(err, learn.ErrParam) {
			t.Errorf("%+v: %v, want ErrParam", s, err)
		}
	}
	for _, s := range []EasySettings{{NEstimators: -1}, {Boost: Settings{UnderSample: true}}, {Boost: Settings{LearningRate: -1}}} {
		if _, err := FitEasy(ctx, d, s, 1, 1, nil); !errors.Is(err, learn.ErrParam) {
			t.Errorf("%+v: %v, want ErrParam", s, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Fit(cancelled, d, Settings{}, 1, 1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Fit cancelled: %v", err)
	}
	if _, err := FitEasy(cancelled, d, EasySettings{}, 1, 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("FitEasy cancelled: %v", err)
	}
}

// TestMissingValues: rows missing a feature are boosted and scored.
func TestMissingValues(t *testing.T) {
	d := data(300, 3, 0.2, 8)
	for i := 0; i < 300; i += 7 {
		d.X.Set(i, 0, math.NaN())
	}
	for _, m := range []learn.Method{NewRUSBoost(), NewEasyEnsemble()} {
		model, err := m.Fit(context.Background(), d, nil, learn.Env{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		p, err := model.PositiveProba(d.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range p {
			if !(v > 0 && v < 1) {
				t.Fatalf("%s: row %d: probability %v", m.Name(), i, v)
			}
		}
	}
}

// mustGrower ranks the features of x for growing trees.
func mustGrower(t testing.TB, x *mat.Dense, y []int) *tree.Grower {
	t.Helper()
	g, err := tree.NewGrower(context.Background(), x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
