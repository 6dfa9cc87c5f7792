package aer_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
)

// The default fit decides without validation rows: AER on its members'
// out-of-fold scores of every training row (cross_tune; with
// cross_tune=-1 on the rows it holds out), its model the one its fit
// without them gives, gbdt cross-fitted on the training rows; neither at
// 0.5 by omission.
func TestFitDecidesWithoutValid(t *testing.T) {
	ctx := context.Background()
	train := clinicTable(t, "train")
	if aer.DefaultMethod().Name() != aer.DefaultMethodName {
		t.Fatalf("DefaultMethodName %s, DefaultMethod %s", aer.DefaultMethodName, aer.DefaultMethod().Name())
	}
	s := &aer.Settings{Spec: aer.Spec{Params: []string{"member.n_estimators=10"}}, Env: aer.Env{Seed: 2, Workers: 2}}
	model, err := aer.Fit(ctx, train, nil, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The default cross-tunes: its members' out-of-fold scores of every
	// training row, 4 folds.
	if l := model.Layer(); l == nil || l.Source != decision.SourceCrossFit || l.Folds != 4 {
		t.Fatalf("aer without validation rows: layer %+v, want one on 4-fold out-of-fold scores", l)
	}
	held, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"member.n_estimators=10", "cross_tune=-1"}}, Env: s.Env}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l := held.Layer(); l == nil || l.Source != decision.SourceHoldout {
		t.Fatalf("aer with cross_tune=-1: layer %+v, want one on the held-out rows", l)
	}
	if _, from := model.Threshold(); from != aer.FromDecisionLayer {
		t.Errorf("threshold from %s", from)
	}
	method := aer.DefaultMethod()
	if err := method.Set("member.n_estimators", "10"); err != nil {
		t.Fatal(err)
	}
	ds := train.Dataset()
	d := &learn.Data{X: ds.X, Y: ds.Y, Features: ds.Features}
	own, err := method.Fit(ctx, d, nil, s.Env)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := decision.Detach(model.Learned().(learn.Scorer)).MarshalBinary()
	b, _ := own.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("the AER model behind the layer is not AER's own fit without validation rows")
	}

	g, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=10"}}}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	if l := g.Layer(); l == nil || l.Source != decision.SourceCrossFit || l.Folds != decision.DefaultFolds {
		t.Fatalf("gbdt without validation rows: layer %+v, want one cross-fitted", l)
	}
}

// Decide fits a decision on validation rows for a model that has none
// (an imported one, here one fitted without a layer): the layer Fit
// fits with those rows, but for the prior, which is the validation
// rows' positive share; m is unchanged.
func TestDecide(t *testing.T) {
	ctx := context.Background()
	train, valid := clinicTable(t, "train"), clinicTable(t, "valid")
	bare, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=10"}, Decision: decision.Options{CrossFit: -1}}}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	if bare.Layer() != nil {
		t.Fatal("a fit with cross-fitting refused and no validation rows has a layer")
	}
	decided, err := bare.Decide(ctx, valid, decision.Options{}, aer.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if bare.Layer() != nil || decided.Layer() == nil || decided.Layer().Rule != decision.RuleBayes || decided.Layer().Calibration == nil {
		t.Fatalf("decided layer %+v (the model's own %+v)", decided.Layer(), bare.Layer())
	}
	counts := valid.ClassCounts()
	if got, want := decided.Layer().Threshold, float64(counts[1])/float64(counts[0]+counts[1]); got != want {
		t.Errorf("Bayes threshold %v, want the validation rows' positive share %v", got, want)
	}
	// Saved and read back, it scores as it did.
	var buf bytes.Buffer
	if _, err := decided.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := aer.ReadModel(&buf, "decided")
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := decided.Predict(ctx, valid, nil)
	p2, _ := back.Predict(ctx, valid, nil)
	for i := range p1.Score {
		if p1.Score[i] != p2.Score[i] || p1.Pred[i] != p2.Pred[i] {
			t.Fatalf("row %d: %v/%d, read back %v/%d", i, p1.Score[i], p1.Pred[i], p2.Score[i], p2.Pred[i])
		}
	}
	if _, err := bare.Decide(ctx, valid, decision.Options{CrossFit: 3}, aer.Env{}); !errors.Is(err, learn.ErrParam) {
		t.Errorf("cross-fitting after the fit: %v", err)
	}
	if _, err := bare.Decide(ctx, nil, decision.Options{}, aer.Env{}); !errors.Is(err, learn.ErrData) {
		t.Errorf("no table: %v", err)
	}
}
