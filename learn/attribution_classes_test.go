package learn_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
)

// AttributeClasses gives a multi-class model's attributions class by
// class: for a multinomial logistic regression each class's base + sum
// is its linear score, and the softmax of the scores is the row's class
// probabilities.
func ExampleAttributeClasses() {
	x := mat.NewDense(9, 2, []float64{0, 1, 1, 0, 2, 2, 5, 1, 6, 0, 4, 2, 1, 6, 0, 5, 2, 4})
	d := &learn.Data{X: x, Y: []int{0, 0, 1, 1, 1, 0, 2, 2, 2}}
	m, err := logreg.NewStandardized().(learn.ClassFitter).FitClasses(context.Background(), d, nil, 3, learn.Env{})
	if err != nil {
		panic(err)
	}
	attr, err := learn.AttributeClasses(context.Background(), m, x, 0)
	if err != nil {
		panic(err)
	}
	proba, _ := m.PredictProba(x, nil)
	sum := 0.0
	for _, a := range attr {
		sum += math.Exp(a.Output(3))
	}
	for c, a := range attr {
		fmt.Printf("class %d: %s space, softmax of base + sum = probability: %v\n", c, a.Space, math.Abs(math.Exp(a.Output(3))/sum-proba[3*3+c]) < 1e-12)
	}
	// Output:
	// class 0: logit space, softmax of base + sum = probability: true
	// class 1: logit space, softmax of base + sum = probability: true
	// class 2: logit space, softmax of base + sum = probability: true
}

// plainMulti is a MultiModel without attributions.
type plainMulti struct{}

func (plainMulti) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) { return dst, nil }
func (plainMulti) NumClasses() int                                             { return 3 }
func (plainMulti) NumFeatures() int                                            { return 2 }
func (plainMulti) MarshalBinary() ([]byte, error)                              { return nil, nil }

// badMulti attributes two classes of its three.
type badMulti struct{ plainMulti }

func (badMulti) AttributeClasses(x *mat.Dense) ([]*learn.Attribution, error) {
	r, c := x.Dims()
	a := &learn.Attribution{Base: make([]float64, r), Phi: mat.NewDense(r, c, nil)}
	return []*learn.Attribution{a, a}, nil
}

// TestAttributeClassesErrors: a model without per-class attributions
// wraps ErrNoAttribution; wrong features wrap ErrData; a model that
// attributes too few classes is an error.
func TestAttributeClassesErrors(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(2, 2, nil)
	if _, err := learn.AttributeClasses(ctx, plainMulti{}, x, 1); !errors.Is(err, learn.ErrNoAttribution) {
		t.Errorf("no attributor: %v", err)
	}
	if _, err := learn.AttributeClasses(ctx, badMulti{}, mat.NewDense(2, 3, nil), 1); !errors.Is(err, learn.ErrData) {
		t.Errorf("3 features for 2: %v", err)
	}
	if _, err := learn.AttributeClasses(ctx, badMulti{}, x, 1); err == nil {
		t.Error("2 classes' attributions of 3: no error")
	}
}
