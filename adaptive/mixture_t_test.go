package adaptive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

// mixture=t fits AER on a t-mixture of the majority class: the model's
// mixture is of the T family with one nu per component, it saves and
// loads bit for bit, and its configuration records the family; the
// default (and mixture=gaussian) leaves the Gaussian mixture and a
// configuration without the key.
func TestMixtureFamilyParam(t *testing.T) {
	tr, va, te := task(t, 600, 5)
	m := NewMethod()
	if err := m.Set("mixture", "t"); err != nil {
		t.Fatal(err)
	}
	for _, p := range m.Params() {
		if p.Key == "mixture" && (p.Value != "t" || p.Default != "gaussian") {
			t.Errorf("mixture: value %q default %q, want t and gaussian", p.Value, p.Default)
		}
	}
	c := smallConfig()
	c.Mixture = MixtureT
	fm, _, err := Fit(context.Background(), ld(tr), ld(va), c, learn.Env{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	mix := fm.Mixture()
	if mix.Family != mixture.T || len(mix.Nu) != mix.K() {
		t.Fatalf("mixture family %v with nu %v, want t with %d", mix.Family, mix.Nu, mix.K())
	}
	t.Logf("t mixture: L = %d, nu %.3g", mix.K(), mix.Nu)
	p, _, err := fm.Score(te.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, fm, te.X, p)
	if back.Mixture().Family != mixture.T {
		t.Error("the loaded model lost the t family")
	}
	if b, err := onnx.Marshal(&onnx.Spec{Model: fm, Threshold: 0.5, Method: "aer"}); !errors.Is(err, onnx.ErrUnsupported) || b != nil {
		t.Errorf("ONNX export of a t-mixture AER model: %v (%d bytes), want ErrUnsupported", err, len(b))
	}
	b, _ := json.Marshal(c)
	if !bytes.Contains(b, []byte(`"mixture":"t"`)) {
		t.Errorf("configuration does not record mixture=t: %s", b)
	}

	g := NewMethod()
	if err := g.Set("mixture", "gaussian"); err != nil {
		t.Fatal(err)
	}
	for _, p := range g.Params() {
		if p.Key == "mixture" && p.Value != "gaussian" {
			t.Errorf("mixture=gaussian reads back as %q", p.Value)
		}
	}
	gc := smallConfig()
	gm, _, err := Fit(context.Background(), ld(tr), ld(va), gc, learn.Env{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if gm.Mixture().Family != mixture.Gaussian {
		t.Error("the default mixture is not Gaussian")
	}
	b, _ = json.Marshal(gc)
	if bytes.Contains(b, []byte(`"mixture"`)) {
		t.Errorf("a Gaussian configuration records the family: %s", b)
	}
	if err := g.Set("mixture", "cauchy"); err == nil {
		t.Error("mixture=cauchy accepted")
	}
}
