package aer_test

import (
	"context"
	"fmt"
	"log"

	"github.com/aer-go/aer"
)

// Quantise a fitted AER model: its boosted members' thresholds become
// indices into tables of their cut values and their leaves 16-bit
// integers, so the file is several times smaller; the model states how
// far its probabilities can lie from the full model's.
func ExampleModel_Quantize() {
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
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Env: aer.Env{Seed: 1}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	small, err := model.Quantize(aer.QuantizeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	q, _ := small.Quantization()
	fmt.Printf("leaves %s, probabilities within %v of the full model's: %v\n", q.Precision, 0.01, q.Bound < 0.01)

	test, err := model.ReadTable("testdata/clinic.test.csv")
	if err != nil {
		log.Fatal(err)
	}
	full, _ := model.Predict(ctx, test, nil)
	quant, _ := small.Predict(ctx, test, nil)
	same := 0
	for i := range full.Pred {
		if full.Pred[i] == quant.Pred[i] {
			same++
		}
	}
	fmt.Printf("same labels: %d of %d\n", same, len(full.Pred))
	// Output:
	// leaves int16, probabilities within 0.01 of the full model's: true
	// same labels: 400 of 400
}
