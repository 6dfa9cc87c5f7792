package methods_test

import (
	"context"
	"math"
	"testing"

	"github.com/aer-go/aer/learn"
)

// TestAERMemberSpaces: AER's attributions sum to its output when its
// members attribute in probability space (trees) or logit space (boosted
// trees with the logreg peer), combined in logit space (plus) or
// probability space (paper): every conversion between the spaces.
func TestAERMemberSpaces(t *testing.T) {
	tk := newTask(t)
	for _, tc := range [][]string{
		{"member", "tree", "preset", "plus", "peers", "logreg,balanced-bagging"},
		{"member", "tree", "preset", "paper"},
		{"member", "logreg", "preset", "paper"},
	} {
		m, err := learn.New("aer")
		if err != nil {
			t.Fatal(err)
		}
		tc = append(tc, "components", "2-3", "n_init", "2")
		for i := 0; i < len(tc); i += 2 {
			if err := m.Set(tc[i], tc[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		model, err := m.Fit(context.Background(), tk.train, tk.valid, learn.Env{Seed: 1})
		if err != nil {
			t.Fatalf("%v: %v", tc, err)
		}
		p, err := model.PositiveProba(tk.test.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, err := learn.Attribute(context.Background(), model, tk.test.X, 2)
		if err != nil {
			t.Fatalf("%v: %v", tc, err)
		}
		worst := 0.0
		for i := range p {
			out := a.Output(i)
			if a.Space == learn.Logit {
				out = 1 / (1 + math.Exp(-out))
			}
			worst = math.Max(worst, math.Abs(out-p[i]))
		}
		t.Logf("%v: %s space, %d rows, max diff %.3g", tc, a.Space, len(p), worst)
		if worst > 1e-9 || (a.Space == learn.Logit) != (tc[3] == "plus") {
			t.Errorf("%v: %s space, max |output - score| = %.3g", tc, a.Space, worst)
		}
	}
}
