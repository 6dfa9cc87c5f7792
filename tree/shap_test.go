package tree_test

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
	"github.com/aer-go/aer/tree"
)

// TestAttribute: a fully grown tree's TreeSHAP values sum to its
// probability on held-out rows, with missing values, and a constant
// feature (never split on) gets exactly 0.
func TestAttribute(t *testing.T) {
	g, err := synth.Generate(&synth.Settings{Samples: 600, Features: 5, Informative: 3, Redundant: synth.None, Ratio: 4}, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := g.X.Dims()
	for i := range n {
		g.X.Set(i, 4, 2.5)
		if i%7 == 0 {
			g.X.Set(i, 1, math.NaN())
		}
	}
	train := &learn.Data{X: g.X.Slice(0, 400, 0, 5).(*mat.Dense), Y: g.Y[:400]}
	m, err := tree.NewMethod().Fit(context.Background(), train, nil, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	test := g.X.Slice(400, n, 0, 5).(*mat.Dense)
	p, _ := m.PositiveProba(test, nil)
	a, err := m.(learn.Attributor).Attribute(test)
	if err != nil {
		t.Fatal(err)
	}
	if a.Space != learn.Probability {
		t.Errorf("space %s", a.Space)
	}
	for i := range p {
		if math.Abs(a.Output(i)-p[i]) > 1e-12 {
			t.Fatalf("row %d: base + sum(phi) = %v, probability %v", i, a.Output(i), p[i])
		}
		if a.Phi.At(i, 4) != 0 {
			t.Fatalf("row %d: constant feature has SHAP value %v", i, a.Phi.At(i, 4))
		}
	}
}
