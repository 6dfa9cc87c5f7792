package decision

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

// holder is gbdt that, like AER, holds out the last quarter of a
// stratified split of its training rows when it has no validation rows,
// and keeps their scores (learn.HeldOuter).
type holder struct {
	*boost.Method
}

// held is a model with the scores of the rows its fit held out.
type held struct {
	learn.Scorer
	y     []int
	score []float64
}

func (h *held) HeldOut() ([]int, []float64, []float64) { return h.y, h.score, nil }

func (h *holder) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if valid != nil {
		return h.Method.Fit(ctx, train, valid, env)
	}
	parts, err := dataset.StratifiedSplit(train.Y, []float64{3, 1}, env.Seed)
	if err != nil {
		return nil, err
	}
	fit, out := train.Subset(parts[0]), train.Subset(parts[1])
	m, err := h.Method.Fit(ctx, fit, nil, env)
	if err != nil {
		return nil, err
	}
	s, err := learn.Predict(ctx, m, out.X, 1)
	if err != nil {
		return nil, err
	}
	return &held{Scorer: m, y: out.Y, score: s}, nil
}

func novalidData(t *testing.T) *learn.Data {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: 400, Features: 5, Informative: 3, Ratio: 8, FlipY: 0.05}, 7)
	if err != nil {
		t.Fatal(err)
	}
	return &learn.Data{X: g.X, Y: g.Y}
}

func gbdt(t *testing.T) *boost.Method {
	gb := boost.NewMethod().(*boost.Method)
	if err := gb.Set("n_estimators", "10"); err != nil {
		t.Fatal(err)
	}
	return gb
}

// Without validation rows the layer is cross-fitted on the training rows
// alone: the Bayes layer of their out-of-fold scores, in front of the
// model fitted on all of them, the same for the same seed; -1 folds
// leaves the model without one.
func TestLayerWithoutValidCrossFits(t *testing.T) {
	ctx := context.Background()
	train := novalidData(t)
	env := learn.Env{Seed: 4, Workers: 2}
	m, err := Wrap(gbdt(t), Options{}).Fit(ctx, train, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	got := LayerOf(m)
	if got == nil || got.Source != SourceCrossFit || got.Folds != DefaultFolds {
		t.Fatalf("layer %+v, want one cross-fitted on %d folds", got, DefaultFolds)
	}
	oof, err := outOfFold(ctx, gbdt(t), train, nil, DefaultFolds, env)
	if err != nil {
		t.Fatal(err)
	}
	want, err := FitBayes(train.Y, oof, nil, MetricObjective(metrics.BalancedAccuracy), train.PositiveShare(), Sigmoid)
	if err != nil {
		t.Fatal(err)
	}
	want.Folds, want.Source = DefaultFolds, SourceCrossFit
	if !reflect.DeepEqual(got, want) {
		t.Errorf("layer %+v, want %+v", got, want)
	}
	bare, err := gbdt(t).Fit(ctx, train, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Detach(m).MarshalBinary()
	b, _ := bare.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("the model behind the layer is not the one fitted on every training row")
	}
	never, err := Wrap(gbdt(t), Options{CrossFit: -1}).Fit(ctx, train, nil, env)
	if err != nil || LayerOf(never) != nil {
		t.Errorf("cross-fitting refused: layer %+v, %v", LayerOf(never), err)
	}
	// A class of one training row cannot be cross-fitted: no layer, no
	// error.
	one := withPositives(30, 1)
	one.X.Set(0, 0, 1)
	if m, err := Wrap(&memoMethod{}, Options{}).Fit(ctx, one, nil, env); err != nil || LayerOf(m) != nil {
		t.Errorf("one positive: layer %+v, %v", LayerOf(m), err)
	}
}

// A model that holds the scores of rows its fit held out for its own
// tuning (learn.HeldOuter) gets its layer fitted on them: no fit more.
func TestLayerWithoutValidOnHoldOut(t *testing.T) {
	ctx := context.Background()
	train := novalidData(t)
	env := learn.Env{Seed: 9, Workers: 1}
	m, err := Wrap(&holder{Method: gbdt(t)}, Options{}).Fit(ctx, train, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	got := LayerOf(m)
	if got == nil || got.Source != SourceHoldout || got.Folds != 0 {
		t.Fatalf("layer %+v, want one on the held-out rows", got)
	}
	h, ok := learn.As[learn.HeldOuter](m)
	if !ok {
		t.Fatal("the held-out scores are not found behind the layer")
	}
	y, s, _ := h.HeldOut()
	want, err := FitBayes(y, s, nil, MetricObjective(metrics.BalancedAccuracy), train.PositiveShare(), Sigmoid)
	if err != nil {
		t.Fatal(err)
	}
	want.Source = SourceHoldout
	if !reflect.DeepEqual(got, want) {
		t.Errorf("layer %+v, want %+v", got, want)
	}
	// The source is written and read back; an unknown one is refused.
	b, _ := json.Marshal(got)
	var back Layer
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, got) {
		t.Errorf("%s read back as %+v, %v", b, back, err)
	}
	if err := json.Unmarshal([]byte(`{"threshold":0.5,"objective":"x","valid_value":0,"fitted_on":"test rows"}`), &back); err == nil {
		t.Error("a layer fitted on test rows was read")
	}
}
