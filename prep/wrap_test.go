package prep_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/prep"
	"github.com/aer-go/aer/tree"
)

// Through the preprocessing (which changes the rows, not the score) the
// inner model's threshold, summary, size and importances are found; its
// per-row explanation, which reads preprocessed rows, is not; its
// attributions are those of the preprocessed rows.
func TestModelCapabilities(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(8, 2, []float64{0, 5, 1, 3, 2, 9, 3, 1, 4, 7, 5, 2, 6, 8, 7, 0})
	d := &learn.Data{X: x, Y: []int{0, 0, 0, 1, 0, 1, 1, 1}}
	m, err := prep.Standardize(decision.Tune("tuned-tree", "", tree.NewMethod())).Fit(ctx, d, d, learn.Env{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pm := m.(*prep.Model)
	tuned := pm.Inner.(*decision.Model)
	if th, ok := learn.TunedThreshold(m); !ok || th != tuned.Threshold() {
		t.Errorf("threshold %v, %v: not the tuned one, %v", th, ok, tuned.Threshold())
	}
	if !reflect.DeepEqual(learn.SummaryOf(m), tuned.Summary()) || learn.NumParams(m) != learn.NumParams(tuned.Inner) || len(learn.ImportancesOf(m)) == 0 {
		t.Error("the inner model's summary, size or importances are not found through the preprocessing")
	}
	if _, ok := learn.ExplainerOf(m); ok {
		t.Error("the inner tree's explanation of preprocessed rows is offered for raw rows")
	}
	if _, ok := learn.ExplainerOf(tuned); !ok {
		t.Fatal("the tuned tree offers no explanation")
	}
	a, err := learn.Attribute(ctx, m, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := learn.Attribute(ctx, tuned, pm.Prep.Apply(x), 1)
	if !mat.Equal(a.Phi, want.Phi) || !reflect.DeepEqual(a.Base, want.Base) {
		t.Error("the attributions are not the inner model's of the preprocessed rows")
	}
	if _, err := learn.Attribute(ctx, m, mat.NewDense(1, 3, nil), 1); err == nil || errors.Is(err, learn.ErrNoAttribution) {
		t.Errorf("3 features for 2: %v", err)
	}
}
