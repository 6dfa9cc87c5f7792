package tree

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/aer-go/aer/learn"
)

// TestAttributeClasses: each class's TreeSHAP values of a multi-class
// tree add up, with its base, to the class's probability (local
// accuracy); the bases are the training classes' weighted shares and sum
// to 1; a missing value follows the tree's default direction.
func TestAttributeClasses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "sklearn_multiclass.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g sklearnMulti
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	d := &learn.Data{X: dense(g.X), Y: g.Y, Features: []string{"a", "b", "c", "d", "e"}}
	m := NewMethod().(*Method)
	if err := m.Set("max_depth", "4"); err != nil {
		t.Fatal(err)
	}
	mm, err := m.FitClasses(context.Background(), d, nil, g.Classes, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	xt := dense(g.XTest)
	xt.Set(0, 1, math.NaN())
	p, err := mm.PredictProba(xt, nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := learn.AttributeClasses(context.Background(), mm, xt, 2)
	if err != nil {
		t.Fatal(err)
	}
	n, k := xt.RawMatrix().Rows, g.Classes
	if len(as) != k {
		t.Fatalf("%d attributions for %d classes", len(as), k)
	}
	for i := range n {
		bases := 0.0
		for c, a := range as {
			if a.Space != learn.Probability {
				t.Fatalf("space %v", a.Space)
			}
			bases += a.Base[i]
			if got := a.Output(i); math.Abs(got-p[i*k+c]) > 1e-12 {
				t.Fatalf("row %d class %d: base + sum %v, probability %v", i, c, got, p[i*k+c])
			}
		}
		if math.Abs(bases-1) > 1e-12 {
			t.Fatalf("row %d: the class bases sum to %v", i, bases)
		}
	}
}
