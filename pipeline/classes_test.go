package pipeline

import (
	"context"
	"testing"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/classtest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/search"
)

// glass is the shared glass table (6 classes), split 2:1, stratified.
func glass(t *testing.T) (train, test *learn.Data, k int) {
	t.Helper()
	return classtest.Stratified(t, "glass")
}

// TestSearchClasses searches gbdt's depth on glass: every point's
// validation value is its decision's balanced accuracy (as fitClasses
// and validValue give it alone), the chosen point is the best, and
// without validation rows the search is refused.
func TestSearchClasses(t *testing.T) {
	train, test, k := glass(t)
	newMethod := func() (learn.Method, error) {
		m, err := learn.New("gbdt")
		if err == nil {
			err = m.Set("n_estimators", "10")
		}
		return m, err
	}
	axes := []search.Axis{{Key: "max_depth", Values: []string{"1", "3"}}}
	env := learn.Env{Seed: 2, Workers: 1}
	f, err := searchClasses(context.Background(), newMethod, axes, "", decision.Options{}, train, test, k, env)
	if err != nil {
		t.Fatal(err)
	}
	m, out := f.Method, f.Search
	if len(out.Points) != 2 || out.Objective != "balanced_accuracy" || f == nil || m == nil {
		t.Fatalf("outcome %+v", out)
	}
	for i, p := range out.Points {
		alone, _ := newMethod()
		if err := alone.Set("max_depth", axes[0].Values[i]); err != nil {
			t.Fatal(err)
		}
		g, err := fitClasses(context.Background(), alone, "", decision.Options{}, train, test, k, env)
		if err != nil {
			t.Fatal(err)
		}
		v, err := validValue(g, test, k)
		if err != nil {
			t.Fatal(err)
		}
		if v != p.Value {
			t.Errorf("point %v: %v in the search, %v alone", p.Params, p.Value, v)
		}
		if p.Value > out.Points[out.Chosen].Value {
			t.Errorf("chose %v, but %v is better", out.Points[out.Chosen].Params, p.Params)
		}
	}
	if got := learn.ParamMap(m.Params())["max_depth"]; got != axes[0].Values[out.Chosen] {
		t.Errorf("chosen method's max_depth %s, the chosen point's %s", got, axes[0].Values[out.Chosen])
	}
	if _, err := searchClasses(context.Background(), newMethod, axes, "", decision.Options{}, train, nil, k, env); err == nil {
		t.Error("a search without validation rows")
	}
}
