package aer_test

import (
	"context"
	"fmt"
	"log"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/density"
)

// Fit gbdt, which has no out-of-distribution score of its own: Fit gives
// it a density (Settings.NoOODDensity would not), kept in its model
// file, and Predict scores each row for lying far from the training data
// and flags about 1% of rows like it.
func ExampleModel_OOD() {
	ctx := context.Background()
	read := &aer.ReadOptions{ID: "id"}
	train, err := aer.ReadTable("testdata/clinic.train.csv", read)
	if err != nil {
		log.Fatal(err)
	}
	valid, err := aer.ReadTable("testdata/clinic.valid.csv", read)
	if err != nil {
		log.Fatal(err)
	}
	method, err := aer.Method("gbdt")
	if err != nil {
		log.Fatal(err)
	}
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=20"}}}, method)
	if err != nil {
		log.Fatal(err)
	}
	o, ok := model.OOD()
	d := o.(*density.Model)
	fmt.Println("has a score:", ok, "threshold set on", d.ThresholdOn, "rows")
	p, err := model.Predict(ctx, valid, &aer.PredictOptions{OOD: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d validation rows flagged\n", p.OODFlagged(), len(p.OOD))
	// Output:
	// has a score: true threshold set on validation rows
	// 4 of 400 validation rows flagged
}
