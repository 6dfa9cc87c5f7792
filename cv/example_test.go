package cv_test

import (
	"context"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/cv"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/synth"
)

// Five-fold cross-validation of a logistic regression: every row gets one
// out-of-fold score, and the metrics are summarised over the folds.
func ExampleRun() {
	g, _ := synth.Generate(&synth.Settings{Samples: 200, Ratio: 4, Clusters: 2, Features: 4, Informative: 2, FlipY: synth.None}, 1)
	d := &learn.Data{X: g.X, Y: g.Y}
	fit := func(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, cv.Decider, error) {
		m, err := logreg.NewMethod().Fit(ctx, train, valid, env)
		return m, nil, err
	}
	res, err := cv.Run(context.Background(), d, 2, fit, &cv.Settings{Folds: 5}, learn.Env{Seed: 1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Rounds), "rounds,", len(res.Positive(0)), "out-of-fold scores")
	s, _ := res.Summaries("roc_auc")
	fmt.Println("ROC-AUC above 0.8:", s[0].Mean > 0.8)
	// Output:
	// 5 rounds, 200 out-of-fold scores
	// ROC-AUC above 0.8: true
}

// The out-of-fold predictions of a 2-fold run on 6 rows, as aer cv --oof
// writes them (a constant model: score 0.25 everywhere).
func ExampleWriteOOF() {
	d := &learn.Data{X: mat.NewDense(6, 1, []float64{1, 2, 3, 4, 5, 6}), Y: []int{0, 1, 0, 0, 1, 0}}
	fit := func(context.Context, *learn.Data, *learn.Data, int, learn.Env) (learn.Model, cv.Decider, error) {
		return constant(0.25), nil, nil
	}
	res, _ := cv.Run(context.Background(), d, 2, fit, &cv.Settings{Folds: 2}, learn.Env{Seed: 3}, nil)
	var b strings.Builder
	if err := cv.WriteOOF(&b, d, res, nil, "", nil); err != nil {
		fmt.Println(err)
	}
	lines := strings.Split(b.String(), "\n")
	fmt.Println(lines[0])
	fmt.Println(len(lines)-2, "rows")
	// Output:
	// row,repeat,fold,label,score,pred
	// 6 rows
}

// constant is a model scoring every row the same.
type constant float64

func (c constant) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	dst = dst[:0]
	for range r {
		dst = append(dst, float64(c))
	}
	return dst, nil
}
func (c constant) NumFeatures() int               { return 1 }
func (c constant) MarshalBinary() ([]byte, error) { return nil, nil }

// NumClasses is 2: constant scores the positive class (PositiveProba).
func (c constant) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (c constant) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(c, x, dst)
}
