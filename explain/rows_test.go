package explain

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
)

// TestRow: a row's attributions per column, a categorical column's one-hot
// attributions summed with its value named, largest |attribution| first,
// the top kept, base + every attribution = output.
func TestRow(t *testing.T) {
	// Features: age, color=blue, color=red, income; a column with no
	// one-hot feature last.
	a := &learn.Attribution{Space: learn.Logit, Base: []float64{-1, 0.5},
		Phi: mat.NewDense(2, 4, []float64{0.1, -0.5, 0.1, 0.3, 0, 0, 0, 2})}
	cols := []Column{{Name: "age", Feature: 0}, {Name: "color", Feature: 1, Values: []string{"blue", "red"}},
		{Name: "income", Feature: 3}, {Name: "empty", Feature: 4, Values: []string{}}}
	x := []float64{42, 0, 1, math.NaN()}
	r := Row(a, 0, x, cols, 0)
	if r.Space != learn.Logit || r.Base != -1 || math.Abs(r.Output-(-1)) > 1e-15 || r.Shown != 4 || r.Total != 4 {
		t.Fatalf("row 0: %+v", r)
	}
	want := []FeatureAttribution{{"color", "red", -0.4}, {"income", nil, 0.3}, {"age", 42.0, 0.1}, {"empty", nil, 0}}
	for k, w := range want {
		g := r.Values[k]
		if g.Feature != w.Feature || g.Value != w.Value || math.Abs(g.Attribution-w.Attribution) > 1e-15 {
			t.Errorf("value %d: %+v, want %+v", k, g, w)
		}
	}
	r = Row(a, 1, []float64{1, 0, 0, 7}, cols, 2)
	if r.Shown != 2 || r.Total != 4 || len(r.Values) != 2 || r.Values[0].Feature != "income" || r.Values[1].Feature != "age" || r.Output != 2.5 {
		t.Errorf("row 1, top 2: %+v", r)
	}
	// One column per feature, names past the list made up.
	fc := FeatureColumns([]string{"a"}, 2)
	if len(fc) != 2 || fc[0].Name != "a" || fc[0].Feature != 0 || fc[0].Values != nil || fc[1].Name != "f2" || fc[1].Feature != 1 || fc[1].Values != nil {
		t.Errorf("FeatureColumns: %+v", fc)
	}
}

// TestGlobal: boosted trees on a task whose first feature alone is
// informative put it first by every importance; a model with no
// importance of any kind, on unlabelled data, is ErrNoImportance.
func TestGlobal(t *testing.T) {
	g, err := synth.Generate(&synth.Settings{Samples: 400, Features: 3, Informative: 1, Redundant: synth.None,
		Clusters: 1, Ratio: 3, NoShuffle: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := &learn.Data{X: g.X, Y: g.Y, Features: []string{"signal", "noise1", "noise2"}}
	ctx := context.Background()
	m, err := boost.NewMethod().Fit(ctx, d, nil, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Global(ctx, m, d, &PermutationSettings{Repeats: 2}, learn.Env{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 400 || res.Attribution == nil || res.Permutation == nil || res.Permutation.Metric != ROCAUC || len(res.BuiltInKinds) == 0 || len(res.Features) != 3 {
		t.Fatalf("%+v", res)
	}
	f := res.Features[0]
	if f.Feature != "signal" || f.MeanAbs == nil || *f.MeanAbs <= *res.Features[1].MeanAbs || f.BuiltIn[res.BuiltInKinds[0]] <= 0 || *f.PermutationMean < 0.1 {
		t.Errorf("first feature %+v", f)
	}
	for k := 1; k < 3; k++ {
		if *res.Features[k].PermutationMean > *res.Features[k-1].PermutationMean {
			t.Errorf("not sorted by permutation importance: %+v", res.Features)
		}
	}
	// Without labels: mean |attribution| orders the features.
	res, err = Global(ctx, m, &learn.Data{X: g.X, Features: d.Features}, nil, learn.Env{})
	if err != nil || res.Permutation != nil || res.Features[0].Feature != "signal" || res.Features[0].PermutationMean != nil {
		t.Errorf("unlabelled: %+v, %v", res, err)
	}
	if _, err := Global(ctx, constant{}, &learn.Data{X: g.X}, nil, learn.Env{}); !errors.Is(err, ErrNoImportance) {
		t.Errorf("a model with no importance, no labels: %v", err)
	}
}

// constant is a model that scores every row 0.5 and offers nothing else.
type constant struct{}

func (constant) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	n, _ := x.Dims()
	dst = dst[:0]
	for range n {
		dst = append(dst, 0.5)
	}
	return dst, nil
}

func (constant) NumFeatures() int               { return 3 }
func (constant) MarshalBinary() ([]byte, error) { return nil, nil }

// TestSchemaColumns: numeric features one column each, a categorical
// column once at its first one-hot feature, with its values.
func TestSchemaColumns(t *testing.T) {
	s := &dataset.Schema{Features: []string{"a", "c=x", "c=y", "b"},
		Categories: []dataset.Category{{Column: "c", Values: []string{"x", "y"}}}}
	got := SchemaColumns(s)
	want := []Column{{Name: "a", Feature: 0}, {Name: "c", Feature: 1, Values: []string{"x", "y"}}, {Name: "b", Feature: 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
}

func (constant) NumClasses() int { return 2 }

func (m constant) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}
