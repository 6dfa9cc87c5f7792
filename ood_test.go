package aer_test

import (
	"context"
	"errors"
	"testing"

	aer "github.com/aer-go/aer"
	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/learn"
)

// TestPredictOOD asks for out-of-distribution scores: an AER model gives
// one score and flag per row, flags set by its threshold; without the
// option there are none; a model fitted without a density
// (NoOODDensity) and an AER model file written before the scores existed
// are refused with learn.ErrNoOOD.
func TestPredictOOD(t *testing.T) {
	ctx := context.Background()
	train, valid, test := clinicTable(t, "train"), clinicTable(t, "valid"), clinicTable(t, "test")
	method, err := aer.Method("aer")
	if err != nil {
		t.Fatal(err)
	}
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"member.n_estimators=10", "components=2"}}}, method)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := model.Predict(ctx, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.OOD != nil || plain.OODFlag != nil {
		t.Fatal("OOD scores without the option")
	}
	p, err := model.Predict(ctx, test, &aer.PredictOptions{OOD: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.OOD) != len(p.Score) || len(p.OODFlag) != len(p.Score) {
		t.Fatalf("%d OOD scores and %d flags for %d rows", len(p.OOD), len(p.OODFlag), len(p.Score))
	}
	o, ok := learn.OODOf(model.Learned())
	if !ok {
		t.Fatal("no OOD scorer in the fitted AER model")
	}
	if thr, _ := o.OODThreshold(); thr != p.OODThreshold {
		t.Fatalf("predictions' threshold %v, the model's %v", p.OODThreshold, thr)
	}
	for i, v := range p.OOD {
		if p.OODFlag[i] != (v > p.OODThreshold) {
			t.Fatalf("row %d: score %v, threshold %v, flag %v", i, v, p.OODThreshold, p.OODFlag[i])
		}
	}
	// Ordinary rows: flagged at about the rate the threshold was set for.
	if rate := float64(p.OODFlagged()) / float64(len(p.OOD)); rate > adaptive.OODAlpha+0.05 {
		t.Fatalf("%.3f of ordinary rows flagged, set for %v", rate, adaptive.OODAlpha)
	}
	g, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=10"}}, NoOODDensity: true}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Predict(ctx, test, &aer.PredictOptions{OOD: true}); !errors.Is(err, learn.ErrNoOOD) {
		t.Fatalf("gbdt without its density, with OOD: %v, want learn.ErrNoOOD", err)
	}
	if len(g.Header().OOD) != 0 {
		t.Fatal("NoOODDensity wrote a density")
	}
	old, err := aer.Load("testdata/legacy/bin-aer.aer")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Predict(ctx, test, &aer.PredictOptions{OOD: true}); !errors.Is(err, learn.ErrNoOOD) {
		t.Fatalf("legacy AER model with OOD: %v, want learn.ErrNoOOD", err)
	}
}
