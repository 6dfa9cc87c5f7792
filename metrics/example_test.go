package metrics_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/aer-go/aer/metrics"
)

func ExampleEvaluate() {
	y := []int{0, 0, 1, 0, 1, 0, 0, 1, 0, 0}
	score := []float64{0.1, 0.3, 0.8, 0.4, 0.45, 0.2, 0.6, 0.9, 0.05, 0.3}
	r := metrics.Evaluate(y, score, 0.5, nil)
	fmt.Println(r.Confusion)
	fmt.Printf("balanced accuracy %.4f\n", r.BalancedAccuracy)
	fmt.Printf("Fowlkes-Mallows (the paper's G-mean) %.4f\n", r.FowlkesMallows)
	fmt.Printf("G-mean sqrt(TPR*TNR) %.4f\n", r.GMean)
	fmt.Printf("ROC-AUC %.4f, average precision %.4f\n", r.ROCAUC, r.AveragePrecision)
	// Output:
	// TP=2 FP=1 TN=6 FN=1
	// balanced accuracy 0.7619
	// Fowlkes-Mallows (the paper's G-mean) 0.6667
	// G-mean sqrt(TPR*TNR) 0.7559
	// ROC-AUC 0.9524, average precision 0.9167
}

// JSON has no infinity: the value is null and a note says why.
func ExampleReport_MarshalJSON() {
	r := metrics.Evaluate([]int{1, 0, 0}, []float64{0.9, 0.2, 0.1}, 0.5, nil)
	b, _ := json.Marshal(r)
	var m map[string]any
	json.Unmarshal(b, &m)
	fmt.Println("tp_fp_ratio:", m["tp_fp_ratio"])
	fmt.Println("notes:", m["notes"])
	// Output:
	// tp_fp_ratio: <nil>
	// notes: map[tp_fp_ratio:infinite: no false positives]
}

func ExampleFromPredictions() {
	c := metrics.FromPredictions([]int{1, 1, 0, 0, 0}, []int{0, 0, 0, 0, 0}, nil)
	// No positive predictions: precision is 0 by scikit-learn's
	// zero_division=0, and TPR/FPR is 0/0.
	fmt.Println(c.MinorityPrecision(), c.F1(), c.TPFPRatio(), c.MCC())
	// Output:
	// 0 0 NaN 0
}

func ExampleSweepThresholds() {
	y := []int{0, 0, 1, 0, 1, 0, 0, 1, 0, 0}
	score := []float64{0.1, 0.3, 0.8, 0.4, 0.45, 0.2, 0.6, 0.9, 0.05, 0.3}
	s := metrics.SweepThresholds(y, score, metrics.Grid(0, 1, 11), nil)
	best := s.Best(metrics.BalancedAccuracy)
	fmt.Printf("best balanced accuracy %.4f at threshold %.1f\n",
		s[best].BalancedAccuracy(), s[best].Threshold)
	s[3:6].WriteCSV(os.Stdout)
	// Output:
	// best balanced accuracy 0.8571 at threshold 0.4
	// threshold,tp,fp,tn,fn,minority_recall,majority_recall,balanced_accuracy,minority_precision,f1,fowlkes_mallows,gmean,tp_fp_ratio,mcc,accuracy
	// 0.3,3,4,3,0,1,0.42857142857142855,0.7142857142857143,0.42857142857142855,0.6,0.6546536707079771,0.6546536707079771,1.75,0.42857142857142855,0.6
	// 0.4,3,2,5,0,1,0.7142857142857143,0.8571428571428572,0.6,0.75,0.7745966692414834,0.8451542547285166,3.5,0.6546536707079772,0.8
	// 0.5,2,1,6,1,0.6666666666666666,0.8571428571428571,0.7619047619047619,0.6666666666666666,0.6666666666666666,0.6666666666666666,0.7559289460184544,4.666666666666667,0.5238095238095238,0.8
}

// Row weights count each row as if it were repeated: here the last two
// rows were sampled at a tenth of the rate of the others, so each stands
// for ten, and the first row is left out with weight 0. Counts become sums
// of weights; every metric, ROC-AUC and average precision included, is
// weighted as scikit-learn's sample_weight.
func ExampleEvaluate_weights() {
	y := []int{0, 0, 1, 0, 1, 0, 0, 1, 0, 0}
	score := []float64{0.1, 0.3, 0.8, 0.4, 0.45, 0.2, 0.6, 0.9, 0.05, 0.3}
	w := []float64{0, 1, 1, 1, 1, 1, 1, 1, 10, 10}
	r := metrics.Evaluate(y, score, 0.5, w)
	fmt.Println(r.Confusion)
	fmt.Printf("balanced accuracy %.4f, precision %.4f\n", r.BalancedAccuracy, r.MinorityPrecision)
	fmt.Printf("ROC-AUC %.4f, average precision %.4f\n", r.ROCAUC, r.AveragePrecision)
	// Output:
	// TP=2 FP=1 TN=23 FN=1
	// balanced accuracy 0.8125, precision 0.6667
	// ROC-AUC 0.9861, average precision 0.9167
}

// Scores judged as probabilities must all lie in [0, 1]; margins do not.
func ExampleProbabilities() {
	fmt.Println(metrics.Probabilities([]float64{0, 0.25, 1}))
	fmt.Println(metrics.Probabilities([]float64{-1.5, 0.3, 2}))
	// Output:
	// true
	// false
}
