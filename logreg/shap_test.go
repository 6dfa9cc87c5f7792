package logreg_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
)

// TestAttribute checks the linear SHAP values against their definition,
// w_j (x_j - mean_j) with the training means, and that a model file
// written before attributions loads, predicts and asks for a refit.
func TestAttribute(t *testing.T) {
	d := task(t, 400, 4, 3)
	m := fit(t, d, logreg.Settings{})
	a, err := m.Attribute(d.X)
	if err != nil {
		t.Fatal(err)
	}
	if a.Space != learn.Logit {
		t.Errorf("space %s, want logit", a.Space)
	}
	n, p := d.X.Dims()
	for j := range p {
		mean := 0.0
		for i := range n {
			mean += d.X.At(i, j) / float64(n)
		}
		for _, i := range []int{0, 17, n - 1} {
			if want := m.Coef[j] * (d.X.At(i, j) - mean); math.Abs(a.Phi.At(i, j)-want) > 1e-12 {
				t.Errorf("row %d feature %d: phi %v, want %v", i, j, a.Phi.At(i, j), want)
			}
		}
	}
	for i := range n {
		z := m.Intercept
		for j, w := range m.Coef {
			z += w * d.X.At(i, j)
		}
		if math.Abs(a.Output(i)-z) > 1e-12 {
			t.Fatalf("row %d: base + sum(phi) = %v, log-odds %v", i, a.Output(i), z)
		}
	}

	// An old file: no "means".
	b, _ := m.MarshalBinary()
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	delete(raw, "means")
	old, _ := json.Marshal(raw)
	var back logreg.Model
	if err := back.UnmarshalBinary(old); err != nil {
		t.Fatalf("a model file without means does not load: %v", err)
	}
	if _, err := back.PositiveProba(d.X, nil); err != nil {
		t.Errorf("the old model does not predict: %v", err)
	}
	if _, err := back.Attribute(d.X); !errors.Is(err, learn.ErrNoAttribution) || !strings.Contains(err.Error(), "fit it again") {
		t.Errorf("attributions of an old model file: %v, want ErrNoAttribution asking for a refit", err)
	}
	raw["means"] = []float64{1, 2}
	bad, _ := json.Marshal(raw)
	if err := back.UnmarshalBinary(bad); err == nil {
		t.Error("2 means for 4 coefficients accepted")
	}
}
