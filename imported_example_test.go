package aer_test

import (
	"context"
	"fmt"
	"log"

	"github.com/aer-go/aer"
)

// Import a model XGBoost trained and saved (Booster.save_model, JSON or
// UBJSON), with the CSV file it was trained on giving the schema, then
// score and explain rows as with any aer model; model.Save writes it as an
// ordinary model file for aer predict, aer explain and aer serve. The
// scores are Booster.predict's (0.006636, 0.022460 and 0.139354 for these
// rows) and the attributions pred_contribs' (bias -1.2888, age -0.4752).
func ExampleImport() {
	ctx := context.Background()
	table, err := aer.ReadTable("interop/xgboost/testdata/plain.csv", nil)
	if err != nil {
		log.Fatal(err)
	}
	model, err := aer.ImportFile(ctx, "interop/xgboost/testdata/plain.json", aer.FromXGBoost, table)
	if err != nil {
		log.Fatal(err)
	}
	src := model.ImportedFrom()
	fmt.Printf("%d trees of XGBoost %s (%s), features %v\n", src.Trees, src.Version, src.Objective, model.Schema().Features)
	preds, err := model.Predict(ctx, table, nil)
	if err != nil {
		log.Fatal(err)
	}
	for i := range 3 {
		fmt.Printf("row %d: score %.4f, class %s\n", i, preds.Score[i], preds.Class(i))
	}
	why, err := model.Explain(ctx, table, 2)
	if err != nil {
		log.Fatal(err)
	}
	top := why.Attributions.Values[0]
	fmt.Printf("row 2: base %.3f, %s = %.3f adds %.3f\n", why.Attributions.Base, top.Feature, top.Value, top.Attribution)
	// Output:
	// 30 trees of XGBoost 1.7.4 (binary:logistic), features [age dose score ratio]
	// row 0: score 0.0066, class 0
	// row 1: score 0.0225, class 0
	// row 2: score 0.1394, class 0
	// row 2: base -1.289, age = 0.409 adds -0.475
}
