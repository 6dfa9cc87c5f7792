package aer_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/learn"
)

// Export a fitted model as an ONNX file: one float32 input X of the
// model's features, in the order of its schema, and two outputs,
// probability and label, as Predict gives them. Saved to a file,
// ExportONNXFile writes it whole or not at all.
func ExampleModel_ExportONNX() {
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
	method, err := learn.New("gbdt")
	if err != nil {
		log.Fatal(err)
	}
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Env: aer.Env{Seed: 1}}, method)
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := model.ExportONNX(&buf); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("input X: float32 [N, %d]: %v\n", len(model.Schema().Features), model.Schema().Features)
	fmt.Println("written:", buf.Len() > 0)
	// Output:
	// input X: float32 [N, 8]: [age dose heart_rate bmi noise clinic=east clinic=north clinic=west]
	// written: true
}
