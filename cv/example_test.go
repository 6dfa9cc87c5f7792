package cv_test

import (
	"context"
	"fmt"

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
	fit := func(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Model, error) {
		return logreg.NewMethod().Fit(ctx, train, valid, env)
	}
	res, err := cv.Run(context.Background(), d, fit, &cv.Settings{Folds: 5}, learn.Env{Seed: 1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Rounds), "rounds,", len(res.Score[0]), "out-of-fold scores")
	s, _ := res.Summaries("roc_auc")
	fmt.Println("ROC-AUC above 0.8:", s[0].Mean > 0.8)
	// Output:
	// 5 rounds, 200 out-of-fold scores
	// ROC-AUC above 0.8: true
}
