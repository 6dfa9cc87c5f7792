package decision

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

func withPositives(n, pos int) *learn.Data {
	y := make([]int, n)
	for i := range pos {
		y[i] = 1
	}
	return &learn.Data{X: mat.NewDense(n, 1, nil), Y: y}
}

// The default rule cross-fits below CrossFitBelow validation positives;
// a fold count always, a negative one never.
func TestFolds(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		d    *learn.Data
		want int
	}{
		{Options{}, withPositives(100, CrossFitBelow-1), DefaultFolds},
		{Options{}, withPositives(100, CrossFitBelow), 0},
		{Options{CrossFit: 3}, withPositives(100, 50), 3},
		{Options{CrossFit: -1}, withPositives(100, 1), 0},
		{Options{}, nil, 0},
	} {
		if got := c.opt.Folds(c.d); got != c.want {
			t.Errorf("%+v on %d rows: %d folds, want %d", c.opt, c.d.Rows(), got, c.want)
		}
	}
	if err := (Options{CrossFit: 1}).Check(); err == nil {
		t.Error("one fold passes the check")
	}
}

// memo remembers its training rows: it scores a row it was fitted on by
// its label, any other by 0.5, and counts the rows it saw.
type memo struct{ seen map[string]int }

func key(row []float64) string { return fmt.Sprint(row) }

func (m *memo) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, _ := x.Dims()
	dst = append(dst[:0], make([]float64, r)...)
	for i := range r {
		dst[i] = 0.5
		if y, ok := m.seen[key(x.RawRowView(i))]; ok {
			dst[i] = float64(y)
		}
	}
	return dst, nil
}
func (m *memo) NumFeatures() int               { return 1 }
func (m *memo) MarshalBinary() ([]byte, error) { return nil, nil }

type memoMethod struct{ fits []int }

func (*memoMethod) Name() string             { return "memo" }
func (*memoMethod) Describe() string         { return "remembers its rows" }
func (*memoMethod) Set(string, string) error { return nil }
func (*memoMethod) Params() []learn.Param    { return nil }
func (*memoMethod) Load([]byte) (learn.Scorer, error) {
	return &memo{}, nil
}
func (mm *memoMethod) Fit(_ context.Context, train, _ *learn.Data, _ learn.Env) (learn.Scorer, error) {
	m := &memo{seen: map[string]int{}}
	for i, y := range train.Y {
		m.seen[key(train.X.RawRowView(i))] = y
	}
	mm.fits = append(mm.fits, train.Rows())
	return m, nil
}

// Out-of-fold scores come from fits that never saw the row: a model that
// remembers its rows scores every training row 0.5. The folds split each
// class evenly, and every fit leaves out one fold.
func TestOutOfFold(t *testing.T) {
	n := 103
	x := mat.NewDense(n, 1, nil)
	y := make([]int, n)
	for i := range n {
		x.Set(i, 0, float64(i))
		if i%7 == 0 {
			y[i] = 1
		}
	}
	train := &learn.Data{X: x, Y: y}
	mm := &memoMethod{}
	oof, err := outOfFold(context.Background(), mm, train, nil, 5, learn.Env{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range oof {
		if s != 0.5 {
			t.Fatalf("row %d: out-of-fold score %v from a fit that saw it", i, s)
		}
	}
	fold := stratifiedFolds(y, 5, 3)
	var count [2][5]int
	for i, f := range fold {
		count[y[i]][f]++
	}
	for c := range 2 {
		lo, hi := n, 0
		for _, v := range count[c] {
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi-lo > 1 {
			t.Errorf("class %d: fold sizes %v", c, count[c])
		}
	}
	for f := range 5 {
		if mm.fits[f] != n-count[0][f]-count[1][f] {
			t.Errorf("fit %d saw %d rows, want all but fold %d's %d", f, mm.fits[f], f, count[0][f]+count[1][f])
		}
	}
	if _, err := outOfFold(context.Background(), mm, withPositives(20, 3), nil, 5, learn.Env{}); err == nil {
		t.Error("5 folds over 3 positives: no error")
	}
	// By default, training rows that cannot fill the folds are no error:
	// the layer is fitted on the validation rows alone.
	few, valid := withPositives(20, 3), withPositives(10, 2)
	valid.X.Set(0, 0, 1)
	m, err := Wrap(&memoMethod{}, Options{}).Fit(context.Background(), few, valid, learn.Env{})
	if err != nil {
		t.Fatalf("default rule on 3 training positives: %v", err)
	}
	if l := LayerOf(m); l == nil || l.Folds != 0 {
		t.Errorf("layer %+v, want one without cross-fitting", l)
	}
	if _, err := Wrap(&memoMethod{}, Options{CrossFit: 5}).Fit(context.Background(), few, valid, learn.Env{}); err == nil {
		t.Error("--cross-fit 5 on 3 training positives: no error")
	}
}

// A cross-fitted layer is the Bayes layer of the out-of-fold training
// scores and the model's validation scores together, the same for the
// same seed.
func TestCrossFitLayer(t *testing.T) {
	ctx := context.Background()
	g, err := synth.Generate(&synth.Settings{Samples: 600, Features: 6, Informative: 3, Ratio: 10, FlipY: 0.05}, 3)
	if err != nil {
		t.Fatal(err)
	}
	all := &learn.Data{X: g.X, Y: g.Y}
	parts, err := dataset.StratifiedSplit(g.Y, []float64{3, 1, 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	train, valid := all.Subset(parts[0]), all.Subset(parts[1])
	gb := boost.NewMethod()
	if err := gb.Set("n_estimators", "20"); err != nil {
		t.Fatal(err)
	}
	env := learn.Env{Seed: 5, Workers: 2}
	lay := Wrap(gb, Options{CrossFit: 4})
	m, err := lay.Fit(ctx, train, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	got := LayerOf(m)
	inner := Detach(m)
	vs, _ := learn.Predict(ctx, inner, valid.X, 1)
	oof, err := outOfFold(ctx, gb, train, valid, 4, env)
	if err != nil {
		t.Fatal(err)
	}
	yy, ss, ww := appendRows(train.Y, oof, nil, valid.Y, vs, nil)
	want, err := FitBayes(yy, ss, ww, MetricObjective(metrics.BalancedAccuracy), train.PositiveShare(), Sigmoid)
	if err != nil {
		t.Fatal(err)
	}
	want.Folds = 4
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cross-fitted layer %+v, want %+v", got, want)
	}
	plain, err := FitBayes(valid.Y, vs, nil, MetricObjective(metrics.BalancedAccuracy), train.PositiveShare(), Sigmoid)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(got.Calibration, plain.Calibration) {
		t.Error("cross-fitting left the calibration of the validation rows alone")
	}
	m2, err := lay.Fit(ctx, train, valid, env)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(LayerOf(m2), got) {
		t.Error("the same seed gave another cross-fitted layer")
	}
}

// NumClasses is 2: memo scores the positive class (PositiveProba).
func (m *memo) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *memo) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}
