package engine_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/density"
	"github.com/aer-go/aer/engine"
	"github.com/aer-go/aer/learn"
)

// clinicTable reads the root package's test table of the part.
func clinicTable(t *testing.T, part string) *aer.Table {
	t.Helper()
	tb, err := aer.ReadTable(filepath.Join("..", "testdata", "clinic."+part+".csv"), &aer.ReadOptions{ID: "id", Label: "outcome"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestAssembleEqualsFit checks that a model fitted by Fit, assembled
// again from its learned model, the validation rows and the training
// rows' positive share, writes the same model file: Assemble fits the
// decision layer as Fit does.
func TestAssembleEqualsFit(t *testing.T) {
	train, valid := clinicTable(t, "train"), clinicTable(t, "valid")
	for _, name := range []string{"aer", "gbdt"} {
		method, err := aer.Method(name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "aer" {
			// A distributed fit tunes on the validation rows alone: so
			// does the fit it is compared with.
			if err := method.Set("cross_tune", "-1"); err != nil {
				t.Fatal(err)
			}
		}
		m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Env: aer.Env{Seed: 3, Workers: 1}}, method)
		if err != nil {
			t.Fatal(err)
		}
		counts := train.ClassCounts()
		neg, pos := counts[0], counts[1]
		va := validRows(t, m, valid)
		f := &engine.Fitted{Learned: decision.Detach(m.Learned().(learn.Scorer)), Method: method, Schema: m.Schema(),
			Train: aer.TrainSummary{Rows: train.Rows(), Positives: pos}, Prior: float64(pos) / float64(pos+neg)}
		f.Density, _ = density.Of(m.Learned()) // gbdt's, fitted by Fit on the training rows
		got, err := engine.Assemble(context.Background(), f, va, &aer.Settings{Env: aer.Env{Seed: 3}})
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		if _, err := m.WriteTo(&a); err != nil {
			t.Fatal(err)
		}
		if _, err := got.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: assembled model file differs from Fit's (%d against %d bytes)", name, b.Len(), a.Len())
		}
	}
	// Cross-fitting needs the training rows.
	method, _ := aer.Method("gbdt")
	m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Env: aer.Env{Seed: 3, Workers: 1}}, method)
	if err != nil {
		t.Fatal(err)
	}
	f := &engine.Fitted{Learned: decision.Detach(m.Learned().(learn.Scorer)), Method: method, Schema: m.Schema(), Prior: 0.1}
	_, err = engine.Assemble(context.Background(), f, validRows(t, m, valid), &aer.Settings{Spec: aer.Spec{Decision: decision.Options{CrossFit: 3}}})
	if !errors.Is(err, learn.ErrParam) {
		t.Errorf("cross-fit: err %v, want learn.ErrParam", err)
	}
	// A grid, a missing model, features that are not the schema's.
	for _, c := range []struct {
		f *engine.Fitted
		s *aer.Settings
	}{
		{&engine.Fitted{Learned: decision.Detach(m.Learned().(learn.Scorer)), Method: method, Schema: m.Schema()}, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=3"}}}},
		{&engine.Fitted{Method: method, Schema: m.Schema()}, nil},
		{&engine.Fitted{Learned: decision.Detach(m.Learned().(learn.Scorer)), Method: method}, nil},
	} {
		if _, err := engine.Assemble(context.Background(), c.f, nil, c.s); err == nil {
			t.Errorf("assembled %+v with %+v", c.f, c.s)
		}
	}
}

// validRows encodes valid's rows in m's schema.
func validRows(t *testing.T, m *aer.Model, valid *aer.Table) *learn.Data {
	t.Helper()
	s := m.Schema()
	e, err := valid.Dataset().Encode(&s)
	if err != nil {
		t.Fatal(err)
	}
	return &learn.Data{X: e.X, Y: e.Y, Features: s.Features}
}
