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
		m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Seed: 3, Workers: 1}, method)
		if err != nil {
			t.Fatal(err)
		}
		counts := train.ClassCounts()
		neg, pos := counts[0], counts[1]
		va := validRows(t, m, valid)
		sum := aer.TrainSummary{Rows: train.Rows(), Positives: pos}
		got, err := aer.Assemble(context.Background(), decision.Detach(m.Learned()), method, m.Schema(), va, sum,
			float64(pos)/float64(pos+neg), &aer.Settings{Seed: 3})
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
	m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Seed: 3, Workers: 1}, method)
	if err != nil {
		t.Fatal(err)
	}
	_, err = aer.Assemble(context.Background(), decision.Detach(m.Learned()), method, m.Schema(), validRows(t, m, valid),
		aer.TrainSummary{}, 0.1, &aer.Settings{Decision: decision.Options{CrossFit: 3}})
	if !errors.Is(err, learn.ErrParam) {
		t.Errorf("cross-fit: err %v, want learn.ErrParam", err)
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
