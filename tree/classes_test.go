package tree

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aer-go/aer/decompose"
	"github.com/aer-go/aer/learn"
)

// TestFitMultiRoundTrip fits the registered method's multi-class tree
// (balanced, fully grown) and checks its probabilities, its payload's
// round trip and its refusals.
func TestFitMultiRoundTrip(t *testing.T) {
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
	mm, err := m.FitClasses(context.Background(), d, nil, g.Classes, learn.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if mm.NumClasses() != g.Classes || mm.NumFeatures() != 5 {
		t.Fatalf("%d classes, %d features", mm.NumClasses(), mm.NumFeatures())
	}
	xt := dense(g.XTest)
	p, err := mm.PredictProba(xt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(p); i += g.Classes {
		s := 0.0
		for _, v := range p[i : i+g.Classes] {
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("row %d: probabilities sum to %v", i/g.Classes, s)
		}
	}
	// Fully grown on distinct rows: every training row is predicted its
	// class.
	ptr, _ := mm.PredictProba(d.X, nil)
	for i, y := range g.Y {
		if ptr[i*g.Classes+y] < 0.5 {
			t.Fatalf("training row %d: P(class %d) = %v", i, y, ptr[i*g.Classes+y])
		}
	}
	payload, err := mm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := m.LoadClasses(payload)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := back.PredictProba(xt, nil)
	if !slices.Equal(p, q) {
		t.Fatal("probabilities changed in the round trip")
	}
	again, _ := back.MarshalBinary()
	if !slices.Equal(payload, again) {
		t.Fatal("payload changed in the round trip")
	}
	for cut := range len(payload) {
		if _, err := m.LoadClasses(payload[:cut]); err == nil {
			t.Fatalf("a payload cut to %d bytes loaded", cut)
		}
	}
	if _, err := m.Load(payload); err == nil {
		t.Fatal("a multi-class payload loaded as a binary model")
	}
	if err := m.Set("class_weight", "0:1,1:3"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.FitClasses(context.Background(), d, nil, g.Classes, learn.Env{}); err == nil {
		t.Fatal("explicit two-class weights were taken for 4 classes")
	}
	bad := &learn.Data{X: d.X, Y: slices.Clone(g.Y)}
	bad.Y[3] = g.Classes
	if _, err := NewMethod().(*Method).FitClasses(context.Background(), bad, nil, g.Classes, learn.Env{}); err == nil {
		t.Fatal("a label out of range was taken")
	}
}

// TestBalancedOfMulti checks the balanced class weights of several
// classes, one of them absent.
func TestBalancedOfMulti(t *testing.T) {
	w, err := Balanced.OfMulti([]int{0, 0, 0, 1, 3, 3}, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	// n = 6, 3 classes present: 6/(3*3), 6/(3*1), absent 1, 6/(3*2).
	want := []float64{6.0 / 9, 2, 1, 1}
	for c := range want {
		if math.Abs(w[c]-want[c]) > 1e-15 {
			t.Fatalf("weights %v, want %v", w, want)
		}
	}
}

// TestDefaultStrategy: the tree fits multi-class labels natively by
// default.
func TestDefaultStrategy(t *testing.T) {
	if s := decompose.DefaultStrategy(NewMethod()); s != decompose.Native {
		t.Errorf("default %q", s)
	}
}
