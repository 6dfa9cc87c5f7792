package metrics

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// naiveHandTill is Hand and Till's M as defined: every pair of classes
// scans every row.
func naiveHandTill(y []int, prob []float64, k int, w []float64) float64 {
	sum := 0.0
	for a := range k {
		for b := a + 1; b < k; b++ {
			var lab []int
			var sa, sb, ww []float64
			for i, c := range y {
				if c != a && c != b {
					continue
				}
				lab = append(lab, b2i(c == a))
				sa = append(sa, prob[i*k+a])
				sb = append(sb, prob[i*k+b])
				if w != nil {
					ww = append(ww, w[i])
				}
			}
			aucA := ROCAUC(lab, sa, ww)
			for j := range lab {
				lab[j] = 1 - lab[j]
			}
			sum += (aucA + ROCAUC(lab, sb, ww)) / 2
		}
	}
	return 2 * sum / float64(k*(k-1))
}

// randomMulti draws n rows of k classes (each class at least once),
// their probabilities and weights.
func randomMulti(r *rand.Rand, n, k int) (y, pred []int, prob, w []float64) {
	y, pred, prob, w = make([]int, n), make([]int, n), make([]float64, n*k), make([]float64, n)
	for i := range y {
		y[i] = i % k
		if i >= k {
			y[i] = r.IntN(k)
		}
		pred[i] = r.IntN(k)
		w[i] = 0.5 + r.Float64()
		s := 0.0
		for c := range k {
			prob[i*k+c] = float64(r.IntN(5)) // ties
			s += prob[i*k+c]
		}
		for c := range k {
			prob[i*k+c] = (prob[i*k+c] + 1) / (s + float64(k))
		}
	}
	return y, pred, prob, w
}

// TestHandTillPairs: reading each pair's rows only gives the definition's
// value exactly, weighted or not.
func TestHandTillPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ n, k int }{{30, 3}, {200, 7}, {50, 50}} {
		y, _, prob, w := randomMulti(r, c.n, c.k)
		for _, ww := range [][]float64{nil, w} {
			got, err := handTill(context.Background(), y, prob, c.k, ww)
			if want := naiveHandTill(y, prob, c.k, ww); err != nil || got != want {
				t.Errorf("n %d k %d weighted %v: %v (%v), want %v", c.n, c.k, ww != nil, got, err, want)
			}
		}
	}
}

// TestEvaluateMultiCancelled: a cancelled context stops the pairwise AUC
// of many classes with its error.
func TestEvaluateMultiCancelled(t *testing.T) {
	y, pred, prob, _ := randomMulti(rand.New(rand.NewPCG(3, 4)), 600, 300)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := EvaluateMultiContext(ctx, y, pred, prob, 300, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("cancelled: took %v", d)
	}
	r, err := EvaluateMultiContext(context.Background(), y, pred, prob, 300, nil)
	if err != nil || !(r.MAUC > 0 && r.MAUC < 1) {
		t.Fatalf("MAUC %v, %v", r.MAUC, err)
	}
}

// TestAccuracies: the accuracies EvaluateMulti reports, without its
// k^2 matrix; bad input refused.
func TestAccuracies(t *testing.T) {
	y, pred, prob, w := randomMulti(rand.New(rand.NewPCG(5, 6)), 300, 7)
	for i := range y {
		y[i] = min(y[i], 5) // class 6 has no true rows, only predicted ones
	}
	for _, ww := range [][]float64{nil, w} {
		r, err := EvaluateMulti(y, pred, prob, 7, ww)
		if err != nil {
			t.Fatal(err)
		}
		acc, bal, err := Accuracies(y, pred, 7, ww)
		if err != nil || acc != r.Accuracy || bal != r.BalancedAccuracy {
			t.Errorf("weighted %v: %v %v (%v), want %v %v", ww != nil, acc, bal, err, r.Accuracy, r.BalancedAccuracy)
		}
	}
	for _, c := range []struct {
		y, pred []int
		k       int
	}{{[]int{0}, []int{0}, 1}, {[]int{0, 1}, []int{0}, 2}, {nil, nil, 3}, {[]int{0, 3}, []int{0, 1}, 3}} {
		if _, _, err := Accuracies(c.y, c.pred, c.k, nil); !errors.Is(err, ErrMultiInput) {
			t.Errorf("%v %v %d: %v", c.y, c.pred, c.k, err)
		}
	}
}
