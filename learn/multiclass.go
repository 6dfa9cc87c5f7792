package learn

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// Model is a fitted classifier of NumClasses() classes (two or more),
// safe for concurrent use: the probability of each class for every row.
// Classes are numbered 0..NumClasses()-1, as the labels of the Data it
// was fitted on. A two-class model is also a Scorer.
type Model interface {
	// PredictProba writes the class probabilities of every row of x
	// (features in training order, NaN = missing) into dst, row-major,
	// NumClasses() per row (allocated when too short), and returns it.
	// Each row's probabilities sum to 1. It uses one goroutine.
	PredictProba(x *mat.Dense, dst []float64) ([]float64, error)
	// NumClasses is the number of classes.
	NumClasses() int
	// NumFeatures is the number of features the model expects.
	NumFeatures() int
	// MarshalBinary encodes the model for its method's Load (LoadMulti
	// for a native multi-class one).
	MarshalBinary() ([]byte, error)
}

// MultiFitter is a Method that fits multi-class labels itself (softmax
// boosted trees, multinomial logistic regression), rather than through a
// decomposition into binary problems.
type MultiFitter interface {
	// FitMulti trains a model on train, whose labels are 0..k-1 (k >= 2);
	// valid, when not nil, is data the method may tune on.
	FitMulti(ctx context.Context, train, valid *Data, k int, env Env) (Model, error)
	// LoadMulti decodes a payload written by a MultiModel's
	// MarshalBinary.
	LoadMulti(payload []byte) (Model, error)
}

// TwoClassProba is the PredictProba of a two-class model whose
// PositiveProba gives class 1's probability: for every row of x, class
// 0's probability 1-p then class 1's p, written into dst (allocated when
// shorter than two per row).
func TwoClassProba(m interface {
	PositiveProba(x *mat.Dense, dst []float64) ([]float64, error)
}, x *mat.Dense, dst []float64) ([]float64, error) {
	p, err := m.PositiveProba(x, nil)
	if err != nil {
		return nil, err
	}
	if cap(dst) < 2*len(p) {
		dst = make([]float64, 2*len(p))
	}
	dst = dst[:2*len(p)]
	for i, v := range p {
		dst[2*i], dst[2*i+1] = 1-v, v
	}
	return dst, nil
}
