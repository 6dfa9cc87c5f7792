package svm_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/svm"
)

// xor is a small problem no linear rule separates: the positive rows
// are near (1, -1) and (-1, 1), the negatives near (1, 1) and (-1, -1).
func xor() *learn.Data {
	var x []float64
	var y []int
	for i := range 40 {
		a, b := 1.0, 1.0
		if i%2 == 1 {
			a = -1
		}
		if i%4 >= 2 {
			b = -1
		}
		jitter := float64(i%5) * 0.05
		x = append(x, a+jitter, b-jitter)
		if a != b {
			y = append(y, 1)
		} else {
			y = append(y, 0)
		}
	}
	return &learn.Data{X: mat.NewDense(40, 2, x), Y: y}
}

// The RBF kernel separates the classes; decision values are positive for
// the positive class (scikit-learn's SVC gives the same 8 support vectors
// and decision values 1.000 and -1.000), and probabilities come from the
// Platt sigmoid, here fitted on the training rows.
func ExampleTrain() {
	m, err := svm.Train(context.Background(), xor(), nil, nil, learn.Env{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := m.Summary().(*svm.Summary)
	fmt.Printf("%d support vectors, gamma %.3f\n", s.SupportVectors[0]+s.SupportVectors[1], s.Gamma)
	q := mat.NewDense(2, 2, []float64{1, -1, 1, 1})
	f, _ := m.Decision(q, nil)
	p, _ := m.PositiveProba(q, nil)
	fmt.Printf("(1, -1): decision %+.2f, P(positive) %.2f\n", f[0], p[0])
	fmt.Printf("(1,  1): decision %+.2f, P(positive) %.2f\n", f[1], p[1])
	// Output:
	// 8 support vectors, gamma 0.493
	// (1, -1): decision +1.00, P(positive) 0.95
	// (1,  1): decision -1.00, P(positive) 0.05
}

// Parameters have scikit-learn's names; the registered "svm" is the same
// method behind standardisation (svm.NewStandardized).
func ExampleMethod_Set() {
	m := svm.NewMethod()
	for _, kv := range [][2]string{{"kernel", "poly"}, {"degree", "2"}, {"class_weight", "0:1,1:10"}, {"C", "0.5"}} {
		if err := m.Set(kv[0], kv[1]); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(m.Set("kernel", "sigmoid"))
	for _, p := range m.Params()[:6] {
		fmt.Printf("%s=%s (default %s)\n", p.Key, p.Value, p.Default)
	}
	// Output:
	// invalid parameter kernel="sigmoid": want one of linear, rbf, poly
	// C=0.5 (default 1)
	// kernel=poly (default rbf)
	// gamma=scale (default scale)
	// degree=2 (default 3)
	// coef0=0 (default 0)
	// class_weight=0:1,1:10 (default balanced)
}

// A quantised copy stores the support vectors as 16-bit integers per
// feature and states how far its probabilities can be from the full
// model's on any row. (With 8 support vectors of 2 features the header
// is most of the payload; a wide model shrinks about 4x.)
func ExampleModel_Quantize() {
	m, err := svm.Train(context.Background(), xor(), nil, nil, learn.Env{})
	if err != nil {
		fmt.Println(err)
		return
	}
	qm, err := m.Quantize(learn.QuantizeOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	q := qm.(*svm.Model)
	info, _ := q.Quantization()
	full, _ := m.MarshalBinary()
	small, _ := q.MarshalBinary()
	x := mat.NewDense(1, 2, []float64{1, -1})
	pf, _ := m.PositiveProba(x, nil)
	pq, _ := q.PositiveProba(x, nil)
	fmt.Printf("%s: %d bytes, full %d; bound %.1e\n", info.Precision, len(small), len(full), info.Bound)
	fmt.Printf("P(positive) at (1, -1): %.4f, full %.4f\n", pq[0], pf[0])
	// Output:
	// int16: 739 bytes, full 795; bound 3.8e-05
	// P(positive) at (1, -1): 0.9488, full 0.9488
}
