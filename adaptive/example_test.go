package adaptive_test

import (
	"context"
	"fmt"

	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

// Fit an AER model on a synthetic imbalanced task, tune it on validation
// rows and score held-out rows.
func Example() {
	g, _ := synth.Generate(&synth.Settings{Samples: 2000, Ratio: 19, Clusters: 2, Features: 6, Informative: 4, FlipY: synth.None}, 1)
	d := g.Dataset("task")
	parts, _ := dataset.StratifiedSplit(d.Y, []float64{3, 1, 1}, 1)
	train, valid, test := d.Subset(parts[0]), d.Subset(parts[1]), d.Subset(parts[2])

	cfg := &adaptive.Config{Components: []int{2, 3, 4}}
	model, report, err := adaptive.Fit(context.Background(),
		&learn.Data{X: train.X, Y: train.Y}, &learn.Data{X: valid.X, Y: valid.Y}, cfg, learn.Env{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	scores, _, _ := model.Score(test.X, 0)
	r := metrics.Evaluate(test.Y, scores, model.Threshold(), nil)
	// The default preset trains one member setting (the member's own):
	// 2L subset members and one trained on all rows; and two peers, a
	// logistic regression and an RBF support vector machine.
	fmt.Printf("preset %s: L = %d components, %d members\n", report.Config.Preset, report.Mixture.Components, len(model.Members()))
	fmt.Printf("test ROC-AUC above 0.9: %v\n", r.ROCAUC > 0.9)
	// Output:
	// preset plus: L = 2 components, 7 members
	// test ROC-AUC above 0.9: true
}

// Configure AER in Go: the paper's preset with logistic-regression members
// (their regularisation set on the method value), tempered likelihood
// weights, and boosted trees trained on all rows as a peer, their depth
// set as text, as --param peer.gbdt.max_depth=3 does.
func ExampleConfig() {
	g, _ := synth.Generate(&synth.Settings{Samples: 1500, Ratio: 9, Clusters: 2, Features: 6, Informative: 4, FlipY: synth.None}, 2)
	d := g.Dataset("task")
	parts, _ := dataset.StratifiedSplit(d.Y, []float64{3, 1}, 2)
	train, valid := d.Subset(parts[0]), d.Subset(parts[1])

	member := logreg.NewStandardized()
	if err := member.Set("C", "0.5"); err != nil {
		fmt.Println(err)
		return
	}
	cfg := &adaptive.Config{
		Preset:     adaptive.PresetPaper,
		Components: []int{2, 3},
		Member:     member,
		Likelihood: adaptive.LikelihoodTempered,
		Peers:      []learn.Method{adaptive.DefaultMember()},
	}
	if err := cfg.Set("peer.gbdt.max_depth", "3"); err != nil {
		fmt.Println(err)
		return
	}
	model, report, err := adaptive.Fit(context.Background(),
		&learn.Data{X: train.X, Y: train.Y}, &learn.Data{X: valid.X, Y: valid.Y}, cfg, learn.Env{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	methods := map[string]int{}
	for _, m := range model.Members() {
		methods[m.Method]++
	}
	c := report.Config
	fmt.Printf("L = %d; members: %d logreg, %d gbdt\n", report.Mixture.Components, methods["logreg"], methods["gbdt"])
	fmt.Printf("member %s %v, likelihood %s, peer.gbdt.max_depth %s\n", c.Member.Name(), c.MemberParams, c.Likelihood,
		learn.ParamMap(c.List())["peer.gbdt.max_depth"])
	// Output:
	// L = 2; members: 4 logreg, 1 gbdt
	// member logreg [C=0.5], likelihood tempered, peer.gbdt.max_depth 3
}
