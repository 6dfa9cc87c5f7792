package aer_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// The clinic tables in testdata are a small synthetic study: an id, five
// measurements, the clinic (text) and the outcome (yes for the rare
// class). The test table has its columns in another order, a free-text
// note the model never saw, and one clinic ("central") absent from
// training.

// Fit AER on a CSV file with validation data, save the model for aer
// predict, and score a test table. The default decision layer calibrates
// the scores on the validation rows, so they are probabilities, and
// predicts the positive class above the training rows' positive share
// (the Bayes-optimal threshold for balanced accuracy).
func Example() {
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
	model, err := aer.Fit(ctx, train, valid, &aer.Settings{Env: aer.Env{Seed: 1}}, nil) // nil method: AER
	if err != nil {
		log.Fatal(err)
	}
	dir, _ := os.MkdirTemp("", "aer-example")
	defer os.RemoveAll(dir)
	if err := model.Save(ctx, filepath.Join(dir, "clinic.aer")); err != nil {
		log.Fatal(err)
	}

	test, err := model.ReadTable("testdata/clinic.test.csv")
	if err != nil {
		log.Fatal(err)
	}
	preds, err := model.Predict(ctx, test, nil)
	if err != nil {
		log.Fatal(err)
	}
	auc := metrics.ROCAUC(preds.Label, preds.Score, nil)
	fmt.Println("method:", model.Method(), "classes:", model.Schema().Classes)
	th, _ := model.Threshold()
	counts := train.ClassCounts()
	neg, pos := counts[0], counts[1]
	fmt.Println("scores:", model.Scores(), "threshold is the positive share:", th == float64(pos)/float64(neg+pos))
	fmt.Println("first row:", preds.ID[0], preds.Class(0))
	fmt.Println("test ROC-AUC above 0.9:", auc > 0.9)
	fmt.Println("unseen clinics:", preds.Unseen, "ignored:", preds.Ignored)
	// Output:
	// method: aer classes: [no yes]
	// scores: probability threshold is the positive share: true
	// first row: p1169 no
	// test ROC-AUC above 0.9: true
	// unseen clinics: map[clinic:1] ignored: [note]
}

// Fit boosted trees on a table built from Go slices, with parameters as
// aer fit --param takes them.
func ExampleNewTable() {
	n := 400
	x1, x2 := make([]float64, n), make([]float64, n)
	color, label := make([]string, n), make([]int, n)
	for i := range n {
		x1[i] = math.Sin(float64(i))
		x2[i] = math.Cos(float64(3 * i))
		color[i] = []string{"red", "green", "blue"}[i%3]
		if x1[i]+x2[i] > 1.2 {
			label[i] = 1
		}
	}
	t, err := aer.NewTable([]aer.Column{
		{Name: "x1", Values: x1}, {Name: "x2", Values: x2},
		{Name: "color", Values: color}, {Name: "label", Values: label},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	gbdt, err := aer.Method("gbdt")
	if err != nil {
		log.Fatal(err)
	}
	model, err := aer.Fit(context.Background(), t, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=20", "max_depth=3"}}}, gbdt)
	if err != nil {
		log.Fatal(err)
	}
	counts := t.ClassCounts()
	neg, pos := counts[0], counts[1]
	fmt.Println("rows:", t.Rows(), "negative:", neg, "positive:", pos)
	fmt.Println("features:", model.Schema().Features)
	fmt.Println("n_estimators:", gbdt.Params()[0].Key, "left as", gbdt.Params()[0].Value)
	// Output:
	// rows: 400 negative: 350 positive: 50
	// features: [x1 x2 color=blue color=green color=red]
	// n_estimators: n_estimators left as 100
}

// Score rows whose columns come in another order, with a column the model
// does not use: the scores are the same.
func ExampleModel_Predict() {
	ctx := context.Background()
	type patient struct {
		Age   float64 `aer:"age"`
		Dose  float64 `aer:"dose"`
		Label string  `aer:"label"`
	}
	var rows []patient
	for i := range 300 {
		age, dose := float64(i%50), float64(i%7)
		label := "healthy"
		if age > 40 && dose > 4 {
			label = "sick"
		}
		rows = append(rows, patient{age, dose, label})
	}
	train, err := aer.TableFromRows(rows, nil)
	if err != nil {
		log.Fatal(err)
	}
	logreg, _ := aer.Method("logreg")
	model, err := aer.Fit(ctx, train, nil, nil, logreg)
	if err != nil {
		log.Fatal(err)
	}
	a, _ := aer.TableFromRows([]map[string]any{{"age": 45.0, "dose": 6.0}, {"age": 20.0, "dose": 1.0}}, &aer.ReadOptions{Unlabeled: true})
	b, _ := aer.TableFromRows([]map[string]any{
		{"dose": 6.0, "age": 45.0, "ward": "B"},
		{"dose": 1.0, "age": 20.0, "ward": "C"},
	}, &aer.ReadOptions{Unlabeled: true})
	pa, err := model.Predict(ctx, a, nil)
	if err != nil {
		log.Fatal(err)
	}
	pb, err := model.Predict(ctx, b, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pa.Class(0), pa.Class(1), "same scores:", pa.Score[0] == pb.Score[0] && pa.Score[1] == pb.Score[1], "ignored:", pb.Ignored)
	_, err = model.Predict(ctx, mustTable(aer.TableFromRows([]map[string]any{{"age": 45.0}}, &aer.ReadOptions{Unlabeled: true})), nil)
	fmt.Println(err)
	// Output:
	// sick healthy same scores: true ignored: [ward]
	// table: data columns do not match the model (missing column "dose")
}

func mustTable(t *aer.Table, err error) *aer.Table {
	if err != nil {
		log.Fatal(err)
	}
	return t
}

// Explain one row: its feature attributions and the method's own
// breakdown.
func ExampleModel_Explain() {
	ctx := context.Background()
	train, err := aer.ReadTable("testdata/clinic.train.csv", &aer.ReadOptions{ID: "id"})
	if err != nil {
		log.Fatal(err)
	}
	gbdt, _ := aer.Method("gbdt")
	model, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=30"}}}, gbdt)
	if err != nil {
		log.Fatal(err)
	}
	test, err := model.ReadTable("testdata/clinic.test.csv")
	if err != nil {
		log.Fatal(err)
	}
	e, err := model.Explain(ctx, test, 0)
	if err != nil {
		log.Fatal(err)
	}
	a := e.Attributions
	sum := a.Base
	for _, f := range a.Values {
		sum += f.Attribution
	}
	logit := math.Log(e.Score / (1 - e.Score))
	fmt.Println("row", e.Row, e.ID, e.Class, "in", a.Space, "space")
	fmt.Println("columns:", a.Total, "attributions add up:", math.Abs(sum-logit) < 1e-9)
	for _, f := range a.Values {
		if f.Feature == "clinic" {
			fmt.Println("clinic:", f.Value)
		}
	}
	// Output:
	// row 0 p1169 no in logit space
	// columns: 6 attributions add up: true
	// clinic: north
}

// Cross-validate boosted trees with a decision threshold tuned on a
// quarter of each round's training rows.
func ExampleCrossValidate() {
	t, err := aer.ReadTable("testdata/clinic.train.csv", &aer.ReadOptions{ID: "id"})
	if err != nil {
		log.Fatal(err)
	}
	gbdt, _ := aer.Method("gbdt")
	s := &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=20"}}, Env: aer.Env{Seed: 1}}
	res, err := aer.CrossValidate(context.Background(), t, s, gbdt, &cv.Settings{Folds: 4, Holdout: 0.25}, nil)
	if err != nil {
		log.Fatal(err)
	}
	sum, err := res.Summaries("balanced_accuracy")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rounds:", len(res.Rounds), "mean balanced accuracy above 0.8:", sum[0].Mean > 0.8)
	// Output:
	// rounds: 4 mean balanced accuracy above 0.8: true
}

// Methods configured with typed settings: AER as the paper describes it
// (preset paper), and boosted trees, each with a decision threshold
// chosen on the validation rows for the least cost.
func ExampleFit() {
	ctx := context.Background()
	train, _ := aer.ReadTable("testdata/clinic.train.csv", &aer.ReadOptions{ID: "id"})
	valid, _ := aer.ReadTable("testdata/clinic.valid.csv", &aer.ReadOptions{ID: "id"})
	cost, _ := decision.ParseCost("fn=10,fp=1")
	s := &aer.Settings{Spec: aer.Spec{Decision: decision.Options{Objective: &cost, Override: true}}, Env: aer.Env{Seed: 1}}
	for _, m := range []learn.Method{
		adaptive.New(adaptive.Config{Preset: adaptive.PresetPaper, Components: []int{2, 3}}),
		boost.New(boost.Settings{NEstimators: 50, MaxDepth: 3, Eta: 0.1}),
	} {
		model, err := aer.Fit(ctx, train, valid, s, m)
		if err != nil {
			log.Fatal(err)
		}
		_, from := model.Threshold()
		fmt.Println(model.Method(), "threshold from", from, "for", model.Layer().Objective)
	}
	// Output:
	// aer threshold from decision-layer for cost fn=10,fp=1
	// gbdt threshold from decision-layer for cost fn=10,fp=1
}
