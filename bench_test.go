package aer_test

import (
	"context"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/learn"
)

// BenchmarkPredictByName measures what scoring a table by column name
// (Model.Predict: the table mapped onto the model's schema, a categorical
// column re-encoded with the model's values) costs beside scoring the
// model's own feature matrix (learn.Predict), on the clinic test table
// with gbdt.
func BenchmarkPredictByName(b *testing.B) {
	ctx := context.Background()
	train, err := aer.ReadTable("testdata/clinic.train.csv", &aer.ReadOptions{ID: "id"})
	if err != nil {
		b.Fatal(err)
	}
	m, _ := aer.Method("gbdt")
	model, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=50"}}}, m)
	if err != nil {
		b.Fatal(err)
	}
	test, err := aer.ReadTable("testdata/clinic.test.csv", &aer.ReadOptions{ID: "id", Label: "outcome"})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			if _, err := model.Predict(ctx, test, &aer.PredictOptions{Workers: 1}); err != nil {
				b.Fatal(err)
			}
		}
	})
	s := model.Schema()
	e, err := test.Dataset().Encode(&s)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("matrix", func(b *testing.B) {
		for b.Loop() {
			if _, err := learn.Predict(ctx, model.Learned().(learn.Scorer), e.X, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}
