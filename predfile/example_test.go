package predfile_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/aer-go/aer/predfile"
)

func ExampleReadPredictions() {
	csv := `label,score,weight
0,0.2,1
1,0.9,2.5
0,0.7,0
`
	p, err := predfile.ReadPredictions(strings.NewReader(csv), "preds.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Label, p.Score, p.Weight)

	_, err = predfile.ReadPredictions(strings.NewReader("label,score,weight\n0,0.2,1\n1,0.9,-2\n"), "bad.csv")
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
	p, err := predfile.ReadPredictionsWith(strings.NewReader(csv), "preds.csv", predfile.PredictionsOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Classes, p.Label, p.Pred)
	p, _ = predfile.ReadPredictionsWith(strings.NewReader(csv), "preds.csv", predfile.PredictionsOptions{Positive: "ok"})
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
	s, err := predfile.ReadScores(strings.NewReader(csv), "scores.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Methods, s.Datasets)
	fmt.Println(s.Values)

	_, err = predfile.ReadScores(strings.NewReader("dataset,a,b\necoli,0.8,n/a\n"), "bad.csv")
	fmt.Println(err)
	// Output:
	// [aer xgboost svm] [ecoli abalone]
	// [[0.88 0.84 0.8] [0.71 0.66 0.69]]
	// bad.csv: line 2, column "b": "n/a" is not a finite number
}

// Predictions written a batch at a time are the file WritePredictions
// writes at once.
func ExamplePredictionsWriter() {
	pw := predfile.NewPredictionsWriter(os.Stdout, "id", true, true, false)
	pw.Write(&predfile.Predictions{ID: []string{"r1"}, Label: []int{0}, Score: []float64{0.25}, Pred: []int{0}})
	pw.Write(&predfile.Predictions{ID: []string{"r2"}, Label: []int{1}, Score: []float64{0.75}, Pred: []int{1}})
	pw.Flush()
	// Output:
	// id,label,score,pred
	// r1,0,0.25,0
	// r2,1,0.75,1
}
