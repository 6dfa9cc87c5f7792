package decompose

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/aer-go/aer/internal/classtest"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods"
	"github.com/aer-go/aer/metrics"
)

// TestCouple checks the pairwise coupling on consistent pairwise
// probabilities r[a][b] = p_a / (p_a + p_b): it recovers p.
func TestCouple(t *testing.T) {
	want := []float64{0.5, 0.2, 0.2, 0.07, 0.03}
	k := len(want)
	r := make([][]float64, k)
	for a := range r {
		r[a] = make([]float64, k)
		for b := range r[a] {
			if a != b {
				r[a][b] = want[a] / (want[a] + want[b])
			}
		}
	}
	p := make([]float64, k)
	couple(r, p)
	for c := range p {
		if math.Abs(p[c]-want[c]) > 1e-3 {
			t.Fatalf("coupled %v, want %v", p, want)
		}
	}
}

// glass is the shared glass table (6 classes), split 2:1, stratified.
func glass(t *testing.T) (train, test *learn.Data, k int) {
	t.Helper()
	return classtest.Stratified(t, "glass")
}

// TestDecompositions fits gbdt one-vs-rest and one-vs-one on glass (6
// classes): probabilities that sum to 1, a balanced accuracy far above
// chance, the same bytes on a second fit, and a saved model that scores
// the same.
func TestDecompositions(t *testing.T) {
	train, test, k := glass(t)
	method, err := learn.New("gbdt")
	if err != nil {
		t.Fatal(err)
	}
	for _, strategy := range []string{OneVsRest, OneVsOne} {
		m, err := Fit(context.Background(), method, strategy, train, nil, k, learn.Env{Seed: 3, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.PredictProba(test.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		pred := make([]int, len(test.Y))
		for i := range pred {
			row := p[i*k : (i+1)*k]
			sum := 0.0
			for c, v := range row {
				sum += v
				if v > row[pred[i]] {
					pred[i] = c
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("%s: row %d sums to %v", strategy, i, sum)
			}
		}
		r, err := metrics.EvaluateMulti(test.Y, pred, p, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: balanced accuracy %.3f, MAUC %.3f", strategy, r.BalancedAccuracy, r.MAUC)
		if r.BalancedAccuracy < 0.5 || r.MAUC < 0.85 {
			t.Errorf("%s: balanced accuracy %.3f, MAUC %.3f: not a working model", strategy, r.BalancedAccuracy, r.MAUC)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		again, err := Fit(context.Background(), method, strategy, train, nil, k, learn.Env{Seed: 3, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if b2, _ := again.MarshalBinary(); !bytes.Equal(b, b2) {
			t.Errorf("%s: a second fit on 1 worker differs", strategy)
		}
		back, err := Load(b, method)
		if err != nil {
			t.Fatal(err)
		}
		q, err := back.PredictProba(test.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p {
			if p[i] != q[i] {
				t.Fatalf("%s: loaded model scores %v, saved %v", strategy, q[i], p[i])
			}
		}
	}
	if _, err := Fit(context.Background(), method, "nosuch", train, nil, k, learn.Env{}); err == nil {
		t.Error("an unknown strategy was accepted")
	}
}

// TestFitCancelled: a cancelled context stops a decomposition between its
// members, with ctx's error.
func TestFitCancelled(t *testing.T) {
	train, _, k := glass(t)
	method, err := learn.New("tree")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, strategy := range []string{OneVsRest, OneVsOne} {
		if _, err := Fit(ctx, method, strategy, train, nil, k, learn.Env{Seed: 3}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", strategy, err)
		}
	}
}
