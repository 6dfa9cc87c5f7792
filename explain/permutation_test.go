package explain_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

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

// threeClasses returns boosted trees (softmax) fitted on a three-class
// task whose class is the first feature's tercile, the other two being
// noise, and held-out data of the same task.
func threeClasses(t *testing.T) (learn.Model, *learn.Data) {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	draw := func(n int) *learn.Data {
		d := &learn.Data{X: mat.NewDense(n, 3, nil), Y: make([]int, n), Features: []string{"signal", "noise1", "noise2"}}
		for i := range n {
			s := r.Float64()
			d.X.SetRow(i, []float64{s, r.Float64(), r.Float64()})
			d.Y[i] = min(int(s*3), 2)
		}
		return d
	}
	train, test := draw(600), draw(300)
	m, err := boost.NewMethod().(learn.ClassFitter).FitClasses(context.Background(), train, nil, 3, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m, test
}

// TestPermutationClasses: a three-class model's permutation importance is
// of the macro balanced accuracy of its decision (each row's most
// probable class by default): the informative feature well above the
// noise, the same for any number of workers; a decision that ignores the
// probabilities makes every drop 0; a metric of scores is an error. Its
// global importance is that permutation importance, with no averaged
// attributions, and needs labels.
func TestPermutationClasses(t *testing.T) {
	model, test := threeClasses(t)
	ctx := context.Background()
	s := &explain.PermutationSettings{Repeats: 3}
	r1, err := explain.Permutation(ctx, model, test, s, learn.Env{Seed: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := explain.Permutation(ctx, model, test, s, learn.Env{Seed: 2, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r1, r2) {
		t.Error("1 and 3 workers give different results")
	}
	if r1.Metric != explain.MacroBalancedAccuracy || !(r1.Baseline > 0.8) || !(r1.Features[0].Mean > 0.3) ||
		math.Abs(r1.Features[1].Mean) > 0.05 || math.Abs(r1.Features[2].Mean) > 0.05 {
		t.Errorf("%s baseline %v, drops %v %v %v", r1.Metric, r1.Baseline, r1.Features[0].Mean, r1.Features[1].Mean, r1.Features[2].Mean)
	}
	constant := &explain.PermutationSettings{Repeats: 2, Metric: "balanced_accuracy", Decide: func(_ []float64, pred []int) {
		for i := range pred {
			pred[i] = i % 3
		}
	}}
	r3, err := explain.Permutation(ctx, model, test, constant, learn.Env{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r3.Features {
		if f.Mean != 0 {
			t.Errorf("a decision blind to the probabilities: %s drops %v", f.Feature, f.Mean)
		}
	}
	if _, err := explain.Permutation(ctx, model, test, &explain.PermutationSettings{Metric: "roc_auc"}, learn.Env{}); err == nil {
		t.Error("ROC-AUC of a three-class model accepted")
	}
	g, err := explain.Global(ctx, model, test, s, learn.Env{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if g.Attribution != nil || g.NoAttribution == nil || g.BuiltInKinds != nil || g.Features[0].Feature != "signal" ||
		*g.Features[0].PermutationMean != r1.Features[0].Mean || g.Features[0].MeanAbs != nil {
		t.Errorf("global: %+v", g)
	}
	if _, err := explain.Global(ctx, model, &learn.Data{X: test.X}, s, learn.Env{}); !errors.Is(err, explain.ErrNoImportance) {
		t.Errorf("unlabelled: %v", err)
	}
}
