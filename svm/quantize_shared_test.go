package svm_test

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/svm"
)

// TestQuantizeBoundSharedData: on real data (the shared ecoli and scene
// sets, standardised as AER's svm peer is), no train, validation or test
// row's probability moves by more than the quantised model's stated
// bound, at either precision, and int16 keeps every row's label at 0.5.
func TestQuantizeBoundSharedData(t *testing.T) {
	for _, name := range []string{"ecoli", "scene"} {
		train, valid, test := split(t, name, 0)
		full, err := svm.NewStandardized().Fit(context.Background(), train, valid, learn.Env{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, prec := range []string{learn.PrecisionInt16, learn.PrecisionInt8} {
			qm, err := learn.Quantize(full, learn.QuantizeOptions{Precision: prec})
			if err != nil {
				t.Fatal(err)
			}
			q := qm.(learn.Scorer)
			info, ok := learn.QuantizationOf(q)
			if !ok || info.Precision != prec {
				t.Fatalf("%s %s: quantization %+v %v", name, prec, info, ok)
			}
			var worst float64
			flips := 0
			for _, x := range []*mat.Dense{train.X, valid.X, test.X} {
				pf, err := full.PositiveProba(x, nil)
				if err != nil {
					t.Fatal(err)
				}
				pq, err := q.PositiveProba(x, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i := range pf {
					worst = math.Max(worst, math.Abs(pf[i]-pq[i]))
					if (pf[i] > 0.5) != (pq[i] > 0.5) {
						flips++
					}
				}
			}
			t.Logf("%s %s: largest change %.3g, bound %.3g (log-odds %.3g)", name, prec, worst, info.Bound, info.LogitBound)
			if worst > info.Bound {
				t.Fatalf("%s %s: a row moved %g > bound %g", name, prec, worst, info.Bound)
			}
			if prec == learn.PrecisionInt16 && (flips > 0 || info.Bound > 0.05) {
				t.Errorf("%s int16: %d labels flipped, bound %g", name, flips, info.Bound)
			}
		}
	}
}
