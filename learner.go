package aer

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
)

// Classifier is a trained ensemble member: it gives the probability of the
// positive class for every row of x (standardised features, no missing
// values), writing into dst when it is long enough. Predict must be safe
// for concurrent use.
type Classifier interface {
	Predict(x *mat.Dense, dst []float64) []float64
}

// Learner trains one ensemble member on a subset (rows of standardised
// features and their 0/1 labels). seed is the member's own random stream;
// a learner should use one goroutine, since AER trains members in parallel.
type Learner interface {
	Train(ctx context.Context, x *mat.Dense, y []int, seed uint64) (Classifier, error)
}

// Sizer is implemented by members that report their number of free
// parameters (leaves, for trees): the k of the AIC/BIC initialisation of the
// static weights. Members without it count as k = 1.
type Sizer interface {
	NumParams() int
}

// BoostLearner trains gradient-boosted trees with the given settings: AER's
// default member.
type BoostLearner struct {
	Settings boost.Settings
}

// Train fits boosted trees single-threaded with the member's seed.
func (b BoostLearner) Train(ctx context.Context, x *mat.Dense, y []int, seed uint64) (Classifier, error) {
	s := b.Settings
	s.Seed, s.Threads = seed, 1
	m, err := boost.Train(ctx, boost.Data{X: x, Y: y}, nil, &s)
	if err != nil {
		return nil, err
	}
	return boostMember{m}, nil
}

// boostMember is a trained boosted-tree member.
type boostMember struct{ *boost.Model }

// NumParams is the number of leaves over all trees.
func (b boostMember) NumParams() int {
	n := 0
	for t := range b.Trees {
		n += b.Trees[t].NumLeaves()
	}
	return n
}

// numParams returns the AIC/BIC size of a member.
func numParams(c Classifier) int {
	if s, ok := c.(Sizer); ok {
		return s.NumParams()
	}
	return 1
}

// encodeMember serialises a member; only boosted-tree members can be saved.
func encodeMember(c Classifier) ([]byte, error) {
	b, ok := c.(boostMember)
	if !ok {
		return nil, fmt.Errorf("members of type %T cannot be saved (only boosted trees)", c)
	}
	return b.MarshalBinary()
}
