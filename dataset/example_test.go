package dataset_test

import (
	"fmt"
	"strings"

	"github.com/aer-go/aer/dataset"
)

func Example() {
	csv := `weight,height,label
1.5,NA,healthy
2.5,3.0,sick
3.5,4.0,healthy
0.5,1.0,sick
4.5,5.0,healthy
`
	d, err := dataset.Read(strings.NewReader(csv), "patients.csv", dataset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	n := d.ClassCounts()
	fmt.Println("features:", d.Features)
	fmt.Printf("positive class %q: %d of %d rows\n", d.Classes[1], n[1], n[0]+n[1])
	fmt.Println("missing cells:", d.Missing())

	_, err = dataset.Read(strings.NewReader("a,label\n1,0\nx,1\n"), "bad.csv", dataset.Options{})
	fmt.Println(err)
	// Output:
	// features: [weight height]
	// positive class "sick": 2 of 5 rows
	// missing cells: 1
	// bad.csv: line 3, column "a": "x": not a number
}

func ExampleStratifiedSplit() {
	y := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	parts, _ := dataset.StratifiedSplit(y, []float64{3, 1, 1}, 0)
	for k, name := range []string{"train", "valid", "test"} {
		pos := 0
		for _, i := range parts[k] {
			pos += y[i]
		}
		fmt.Printf("%s: %d rows, %d positive\n", name, len(parts[k]), pos)
	}
	// Output:
	// train: 9 rows, 3 positive
	// valid: 3 rows, 1 positive
	// test: 3 rows, 1 positive
}

func ExampleReadPredictions() {
	csv := `label,score,weight
0,0.2,1
1,0.9,2.5
0,0.7,0
`
	p, err := dataset.ReadPredictions(strings.NewReader(csv), "preds.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Label, p.Score, p.Weight)

	_, err = dataset.ReadPredictions(strings.NewReader("label,score,weight\n0,0.2,1\n1,0.9,-2\n"), "bad.csv")
	fmt.Println(err)
	// Output:
	// [0 1 0] [0.2 0.9 0.7] [1 2.5 0]
	// bad.csv: line 3, column "weight": "-2": invalid weight (weights must be finite and not negative)
}

// A predictions file of a model trained on ok/fraud labels names its
// classes: fraud, the pred value of the high scores, is the positive
// class; naming ok positive instead turns every 0 into 1.
func ExampleReadPredictionsWith() {
	csv := `label,score,pred
ok,0.1,ok
fraud,0.8,fraud
ok,0.6,fraud
ok,0.2,ok
`
	p, err := dataset.ReadPredictionsWith(strings.NewReader(csv), "preds.csv", dataset.PredictionsOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Classes, p.Label, p.Pred)
	p, _ = dataset.ReadPredictionsWith(strings.NewReader(csv), "preds.csv", dataset.PredictionsOptions{Positive: "ok"})
	fmt.Println(p.Classes, p.Label, p.Pred)
	// Output:
	// [ok fraud] [0 1 0 0] [0 1 1 0]
	// [fraud ok] [1 0 1 1] [1 0 0 1]
}

func ExampleReadScores() {
	csv := `dataset,aer,xgboost,svm
ecoli,0.88,0.84,0.80
abalone,0.71,0.66,0.69
`
	s, err := dataset.ReadScores(strings.NewReader(csv), "scores.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Methods, s.Datasets)
	fmt.Println(s.Values)

	_, err = dataset.ReadScores(strings.NewReader("dataset,a,b\necoli,0.8,n/a\n"), "bad.csv")
	fmt.Println(err)
	// Output:
	// [aer xgboost svm] [ecoli abalone]
	// [[0.88 0.84 0.8] [0.71 0.66 0.69]]
	// bad.csv: line 2, column "b": "n/a" is not a finite number
}

// A positive class chosen by hand that is the majority is refused.
func ExampleDataset_CheckMinorityPositive() {
	d, _ := dataset.Read(strings.NewReader("x,y\n1,ok\n2,ok\n3,ok\n4,fraud\n"), "t.csv", dataset.Options{Positive: "ok"})
	fmt.Println(d.CheckMinorityPositive("t.csv"))
	// Output:
	// t.csv: the positive class is the majority: "ok" has 3 rows, "fraud" only 1
}
