package forest

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
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

func classCounts(y []int, rows []int, count []int32, weight []float64) (c [2]float64) {
	for k, i := range rows {
		switch {
		case count != nil:
			c[y[i]] += float64(count[k])
		default:
			c[y[i]] += weight[k]
		}
	}
	return c
}

// TestBalancedSamples checks every scheme's draws: balanced where
// imbalanced-learn's are, rows in increasing order, weights and counts as
// documented.
func TestBalancedSamples(t *testing.T) {
	d := data(500, 2, 0.1, 1)
	var npos int
	for _, y := range d.Y {
		npos += y
	}
	for trial := range 20 {
		r := rng.Derive(4, uint64(trial))
		// Bagging: the bootstrap's majority cut to its minority, so both
		// classes count the same number of draws.
		s := newDrawer(d.Y, nil, 0, true, false).draw(BootstrapThenBalance, r)
		c := classCounts(d.Y, s.Rows, s.Count, nil)
		if c[0] != c[1] || c[1] == 0 || !slices.IsSorted(s.Rows) {
			t.Fatalf("bagging draw %d: class counts %v, rows sorted %v", trial, c, slices.IsSorted(s.Rows))
		}
		for k := range s.Rows {
			if s.Weight[k] != float64(s.Count[k]) {
				t.Fatalf("bagging: weight %v for a row drawn %d times", s.Weight[k], s.Count[k])
			}
		}
		// Balanced random forest: every minority row and as many majority
		// rows, then a bootstrap of that size weighting the rows.
		s = newDrawer(d.Y, nil, 0, true, false).draw(BalanceThenBootstrap, r)
		if s.Count != nil {
			t.Fatal("balanced-rf: rows carry counts, want one row each")
		}
		w := classCounts(d.Y, s.Rows, nil, s.Weight)
		if w[0]+w[1] != float64(2*npos) {
			t.Fatalf("balanced-rf draw %d: total weight %v, want %d", trial, w[0]+w[1], 2*npos)
		}
		distinct := classCounts(d.Y, s.Rows, nil, slices.Repeat([]float64{1}, len(s.Rows)))
		if distinct[0] > float64(npos) || distinct[1] > float64(npos) {
			t.Fatalf("balanced-rf draw %d: %v distinct rows per class, more than the %d minority rows", trial, distinct, npos)
		}
		// Without the bootstrap the balanced sample itself.
		s = newDrawer(d.Y, nil, 0, false, false).draw(BalanceThenBootstrap, r)
		if c := classCounts(d.Y, s.Rows, s.Count, nil); c != [2]float64{float64(npos), float64(npos)} || len(s.Rows) != 2*npos {
			t.Fatalf("balanced-rf without bootstrap: class counts %v over %d rows, want %d each", c, len(s.Rows), npos)
		}
		// Under-sampling with replacement may repeat a majority row.
		s = newDrawer(d.Y, nil, 0, false, true).draw(BootstrapThenBalance, r)
		if c := classCounts(d.Y, s.Rows, s.Count, nil); c[0] != c[1] {
			t.Fatalf("with replacement: class counts %v", c)
		}
	}
	// Row weights multiply the draws.
	w := make([]float64, len(d.Y))
	for i := range w {
		w[i] = float64(1 + i%3)
	}
	s := newDrawer(d.Y, w, 0, true, false).draw(BootstrapThenBalance, rng.New(1))
	for k, i := range s.Rows {
		if s.Weight[k] != float64(s.Count[k])*w[i] {
			t.Fatalf("row %d: weight %v, drawn %d times with weight %v", i, s.Weight[k], s.Count[k], w[i])
		}
	}
	// One class only: nothing to balance.
	one := make([]int, 10)
	if s := newDrawer(one, nil, 0, false, false).draw(BootstrapThenBalance, rng.New(1)); len(s.Rows) != 10 {
		t.Errorf("one class: %d rows, want all 10", len(s.Rows))
	}
}

func TestWorkersDoNotMatter(t *testing.T) {
	d := data(400, 5, 0.15, 2)
	for _, m := range []*Method{NewBalancedBagging().(*Method), NewBalancedRF().(*Method)} {
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
			t.Errorf("%s: 1, 2 and 5 workers grow different forests", m.Name())
		}
		other, _ := m.Fit(context.Background(), d, nil, learn.Env{Seed: 4})
		if b, _ := other.MarshalBinary(); bytes.Equal(b, payloads[0]) {
			t.Errorf("%s: seeds 3 and 4 grow the same forest", m.Name())
		}
	}
}

// TestUniformWeights: doubling every row weight changes no prediction.
func TestUniformWeights(t *testing.T) {
	d := data(300, 4, 0.2, 5)
	for _, m := range []learn.Method{NewBalancedBagging(), NewBalancedRF()} {
		a, err := m.Fit(context.Background(), d, nil, learn.Env{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		dw := *d
		dw.W = slices.Repeat([]float64{2}, len(d.Y))
		b, err := m.Fit(context.Background(), &dw, nil, learn.Env{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		pa, _ := a.PositiveProba(d.X, nil)
		pb, _ := b.PositiveProba(d.X, nil)
		for i := range pa {
			if math.Abs(pa[i]-pb[i]) > 1e-12 {
				t.Fatalf("%s: row %d: %v unweighted, %v with weights 2", m.Name(), i, pa[i], pb[i])
			}
		}
	}
}

func TestProgressAndErrors(t *testing.T) {
	d := data(200, 3, 0.2, 6)
	var got []int
	_, err := Fit(context.Background(), d, BalanceThenBootstrap, Settings{NEstimators: 7}, 1, 3,
		func(done, total int) {
			if total != 7 {
				t.Errorf("progress total %d", total)
			}
			got = append(got, done)
		})
	if err != nil || !slices.Equal(got, []int{1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("progress %v, %v", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, d, BalanceThenBootstrap, Settings{}, 1, 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	bad := Settings{}
	bad.Tree.MaxFeatures = "4"
	if _, err := Fit(context.Background(), d, BalanceThenBootstrap, bad, 1, 2, nil); !errors.Is(err, learn.ErrParam) {
		t.Errorf("4 features of 3: %v", err)
	}
	if _, err := Fit(context.Background(), d, BalanceThenBootstrap, Settings{NEstimators: -1}, 1, 2, nil); !errors.Is(err, learn.ErrParam) {
		t.Errorf("-1 trees: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	d := data(200, 3, 0.2, 7)
	d.Features = []string{"a", "b", "c"}
	m := NewBalancedRF()
	_ = m.Set("n_estimators", "3")
	model, err := m.Fit(context.Background(), d, nil, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := model.MarshalBinary()
	back, err := m.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := back.MarshalBinary(); !bytes.Equal(again, b) {
		t.Error("load then save changes the bytes")
	}
	for k := range len(b) {
		if _, err := m.Load(b[:k]); err == nil {
			t.Fatalf("payload cut at %d of %d bytes: no error", k, len(b))
		}
	}
	if _, err := m.Load(append(b, 1)); err == nil {
		t.Error("a trailing byte: no error")
	}
}

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		m    learn.Method
		want map[string]string
	}{
		{NewBalancedBagging(), map[string]string{"n_estimators": "10", "bootstrap": "true", "replacement": "false",
			"max_features": "none", "criterion": "gini", "max_depth": "0", "class_weight": "none"}},
		{NewBalancedRF(), map[string]string{"n_estimators": "100", "bootstrap": "true", "replacement": "false",
			"max_features": "sqrt", "criterion": "gini", "max_depth": "0", "class_weight": "none", "min_samples_leaf": "1"}},
	} {
		got := learn.ParamMap(tc.m.Params())
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", tc.m.Name(), k, got[k], v)
			}
		}
	}
	m := NewBalancedRF()
	if err := m.Set("max_depth", "4"); err != nil {
		t.Fatal(err)
	}
	if err := m.Set("bootstrap", "false"); err != nil {
		t.Fatal(err)
	}
	if s := m.(*Method).Settings(); s.Tree.MaxDepth != 4 || !s.NoBootstrap {
		t.Errorf("settings %+v", s)
	}
	if err := m.Set("criterion", "mse"); !errors.Is(err, learn.ErrParam) {
		t.Errorf("criterion mse: %v", err)
	}
}

// TestFitRefusesHugeForest: settings built in code, past Set's bound, are
// refused before a tree slice is sized from them.
func TestFitRefusesHugeForest(t *testing.T) {
	d := data(40, 2, 0.3, 1)
	for _, n := range []int{learn.MaxRounds + 1, 1 << 31, 1 << 40} {
		_, err := Fit(context.Background(), d, BootstrapThenBalance, Settings{NEstimators: n}, 1, 1, nil)
		if !errors.Is(err, learn.ErrParam) {
			t.Errorf("NEstimators %d: got %v, want learn.ErrParam", n, err)
		}
	}
}
