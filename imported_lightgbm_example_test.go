package aer_test

import (
	"context"
	"fmt"
	"log"

	"github.com/aer-go/aer"
)

// Import a model LightGBM trained and saved in its text format
// (Booster.save_model), with a CSV file of rows in its features' order
// giving the schema. The scores are LightGBM's predict (0.279229,
// 0.817475 and 0.846433 for these rows).
func ExampleImport_lightGBM() {
	ctx := context.Background()
	table, err := aer.ReadTable("interop/lightgbm/testdata/breast_cancer_test.csv", nil)
	if err != nil {
		log.Fatal(err)
	}
	model, err := aer.ImportFile(ctx, "interop/lightgbm/testdata/lg_dart_breast_cancer.model", aer.FromLightGBM, table)
	if err != nil {
		log.Fatal(err)
	}
	src := model.ImportedFrom()
	fmt.Printf("%d trees of a LightGBM %s model (%s, %s)\n", src.Trees, src.Version, src.Booster, src.Objective)
	preds, err := model.Predict(ctx, table, nil)
	if err != nil {
		log.Fatal(err)
	}
	for i := range 3 {
		fmt.Printf("row %d: score %.6f, class %s\n", i, preds.Score[i], preds.Class(i))
	}
	// Output:
	// 10 trees of a LightGBM v2 model (dart, binary sigmoid:1)
	// row 0: score 0.279229, class 0
	// row 1: score 0.817475, class 1
	// row 2: score 0.846433, class 1
}
