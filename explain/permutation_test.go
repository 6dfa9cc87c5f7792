package explain_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
)

// fitted returns boosted trees fitted on a synthetic task whose first 2
// of 6 features are informative and the other 4 are noise, and held-out
// data.
func fitted(t *testing.T) (learn.Scorer, *learn.Data) {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: 1200, Features: 6, Informative: 2, Redundant: synth.None,
		Clusters: 1, Ratio: 3, NoShuffle: true}, 4)
	if err != nil {
		t.Fatal(err)
	}
	d := &learn.Data{X: g.X, Y: g.Y, Features: g.Features}
	rows := make([]int, 1200)
	for i := range rows {
		rows[i] = (i * 7) % 1200 // NoShuffle keeps rows in cluster order
	}
	d = d.Subset(rows)
	train, test := d.Subset(seq(0, 800)), d.Subset(seq(800, 1200))
	m := boost.NewMethod()
	if err := m.Set("n_estimators", "30"); err != nil {
		t.Fatal(err)
	}
	model, err := m.Fit(context.Background(), train, nil, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return model, test
}

func seq(a, b int) []int {
	s := make([]int, 0, b-a)
	for i := a; i < b; i++ {
		s = append(s, i)
	}
	return s
}

// TestPermutation: the stronger informative feature ranks well above
// every noise feature, and the result depends on the seed only, not on the workers.
func TestPermutation(t *testing.T) {
	model, test := fitted(t)
	ctx := context.Background()
	for _, metric := range []string{"", "balanced_accuracy"} {
		s := &explain.PermutationSettings{Metric: metric, Repeats: 4}
		r1, err := explain.Permutation(ctx, model, test, s, learn.Env{Seed: 9, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := explain.Permutation(ctx, model, test, s, learn.Env{Seed: 9, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r1, r2) {
			t.Errorf("%s: 1 and 2 workers give different results", r1.Metric)
		}
		if len(r1.Features) != 6 || len(r1.Features[0].Drops) != 4 {
			t.Fatalf("%d features, %d drops", len(r1.Features), len(r1.Features[0].Drops))
		}
		informative := math.Max(r1.Features[0].Mean, r1.Features[1].Mean)
		for j := 2; j < 6; j++ {
			if !(informative > r1.Features[j].Mean+0.1) {
				t.Errorf("%s: informative features drop %.4f, %.4f; noise feature %d drops %.4f",
					r1.Metric, r1.Features[0].Mean, r1.Features[1].Mean, j, r1.Features[j].Mean)
			}
		}
		if !(r1.Baseline > 0.7) {
			t.Errorf("%s baseline %v", r1.Metric, r1.Baseline)
		}
		r3, _ := explain.Permutation(ctx, model, test, s, learn.Env{Seed: 10})
		if reflect.DeepEqual(r1.Features, r3.Features) {
			t.Errorf("%s: seeds 9 and 10 give the same shuffles", r1.Metric)
		}
	}
	if _, err := explain.Permutation(ctx, model, test, &explain.PermutationSettings{Metric: "nope"}, learn.Env{}); err == nil {
		t.Error("unknown metric accepted")
	}
	one := test.Subset([]int{0, 1, 2})
	one.Y = []int{0, 0, 0}
	if _, err := explain.Permutation(ctx, model, one, nil, learn.Env{}); err == nil {
		t.Error("ROC-AUC on rows of one label accepted")
	}
}

// TestMeanAbs: the mean |SHAP| of the boosted trees ranks the stronger
// informative feature first.
func TestMeanAbs(t *testing.T) {
	model, test := fitted(t)
	a, err := learn.Attribute(context.Background(), model, test.X, 2)
	if err != nil {
		t.Fatal(err)
	}
	imp := explain.MeanAbs(a)
	for j := 2; j < 6; j++ {
		if !(math.Max(imp[0], imp[1]) > 2*imp[j]) {
			t.Errorf("mean |SHAP| %v: a noise feature above an informative one", imp)
		}
	}
}
