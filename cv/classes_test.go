package cv

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/pipeline"
	"github.com/aer-go/aer/predfile"
)

// multiData is a 3-class problem of 240 rows (150, 60, 30): two numeric
// features around the classes' centres, with noise drawn from a fixed
// sequence.
func multiData() *learn.Data {
	counts := []int{150, 60, 30}
	var rows []float64
	var y []int
	state := uint64(3)
	noise := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11)/(1<<53)*2 - 1
	}
	for c, n := range counts {
		for range n {
			rows = append(rows, float64(c)+1.2*noise(), float64(c%2)+noise())
			y = append(y, c)
		}
	}
	return &learn.Data{X: mat.NewDense(len(y), 2, rows), Y: y, Features: []string{"a", "b"}}
}

// softmaxFit fits a small softmax gbdt and its Bayes decision.
func softmaxFit(t *testing.T, seen map[int]int) FitFunc {
	return func(ctx context.Context, train, valid *learn.Data, k int, env learn.Env) (learn.Model, Decider, error) {
		if seen != nil {
			seen[train.Rows()]++
		}
		m := boost.NewMethod()
		if err := m.Set("n_estimators", "10"); err != nil {
			t.Fatal(err)
		}
		f, err := pipeline.Plan{New: func() (learn.Method, error) { return m, nil }}.Fit(ctx, train, valid, k, env)
		if err != nil {
			return nil, nil, err
		}
		return f.Model, f.Layer, nil
	}
}

// TestRunClasses: every row is scored once per repeat by a model that did
// not see it; each round's report is the multi-class metrics of its own
// rows' out-of-fold predictions; the result does not depend on the
// number of workers.
func TestRunClasses(t *testing.T) {
	d := multiData()
	const k, folds, repeats = 3, 5, 2
	seen := map[int]int{}
	res, err := Run(context.Background(), d, k, softmaxFit(t, seen), &Settings{Folds: folds, Repeats: repeats}, learn.Env{Seed: 4, Workers: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) != folds*repeats || len(res.Proba) != repeats {
		t.Fatalf("%d rounds, %d repeats", len(res.Rounds), len(res.Proba))
	}
	for size := range seen {
		if size != d.Rows()*(folds-1)/folds {
			t.Errorf("a round trained on %d rows, want %d", size, d.Rows()*(folds-1)/folds)
		}
	}
	for _, f := range res.Rounds {
		var rows []int
		for i, fo := range res.FoldOf[f.Repeat-1] {
			if fo == f.Fold {
				rows = append(rows, i)
			}
		}
		// Stratified: every class in every fold, in proportion.
		if len(rows) != f.TestRows || f.TestRows != d.Rows()/folds {
			t.Fatalf("round %d/%d: %d rows in the fold, %d test rows", f.Repeat, f.Fold, len(rows), f.TestRows)
		}
		y := learn.Pick(d.Y, rows)
		pred := learn.Pick(res.Pred[f.Repeat-1], rows)
		var proba []float64
		for _, i := range rows {
			p := res.Proba[f.Repeat-1][i*k : (i+1)*k]
			if s := p[0] + p[1] + p[2]; math.Abs(s-1) > 1e-12 {
				t.Fatalf("row %d: probabilities sum to %v", i, s)
			}
			proba = append(proba, p...)
		}
		rep, err := metrics.EvaluateMulti(y, pred, proba, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		fr := f.Report.(*metrics.MultiReport)
		if rep.BalancedAccuracy != fr.BalancedAccuracy || rep.MAUC != fr.MAUC || rep.LogLoss != fr.LogLoss {
			t.Errorf("round %d/%d: report BA %v MAUC %v, its rows' %v %v", f.Repeat, f.Fold, fr.BalancedAccuracy, fr.MAUC, rep.BalancedAccuracy, rep.MAUC)
		}
		for c := range k {
			if fr.Support[c] != float64([]int{30, 12, 6}[c]) {
				t.Errorf("round %d/%d: class %d has %v test rows, want an even share", f.Repeat, f.Fold, c, fr.Support[c])
			}
		}
	}
	if s, _ := res.Summaries("balanced_accuracy"); !(s[0].Mean > 0.6) {
		t.Errorf("mean balanced accuracy %v: the classes are well apart", s[0].Mean)
	}
	again, err := Run(context.Background(), d, k, softmaxFit(t, nil), &Settings{Folds: folds, Repeats: repeats}, learn.Env{Seed: 4, Workers: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for r := range repeats {
		if !slices.Equal(res.Proba[r], again.Proba[r]) || !slices.Equal(res.Pred[r], again.Pred[r]) {
			t.Fatalf("repeat %d: the out-of-fold predictions depend on the workers", r+1)
		}
	}
	var buf bytes.Buffer
	if err := WriteOOF(&buf, d, res, []string{"x", "y", "z"}, "", nil); err != nil {
		t.Fatal(err)
	}
	p, err := predfile.ReadMultiPredictions(&buf, "oof")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Pred) != repeats*d.Rows() || !slices.Equal(p.Pred[:d.Rows()], res.Pred[0]) || !slices.Equal(p.Proba[:d.Rows()*k], res.Proba[0]) {
		t.Error("the out-of-fold file does not read back as the result")
	}
}

// TestRunClassFolds: a class with fewer rows than folds is refused.
func TestRunClassFolds(t *testing.T) {
	d := multiData()
	_, err := Run(context.Background(), d, 3, softmaxFit(t, nil), &Settings{Folds: 31}, learn.Env{Seed: 1}, nil)
	if !errors.Is(err, ErrFolds) {
		t.Fatalf("31 folds with 30 rows of class 2: %v", err)
	}
}

// TestCheckFolds: the advice is a fold count that works, computed on the
// smallest class, and a class of one row is said to allow none (it
// advised "1 or fewer", which is refused).
func TestCheckFolds(t *testing.T) {
	cases := []struct {
		y       []int
		classes []string
		folds   int
		want    string // "" for no error
	}{
		{[]int{0, 0, 0, 1, 1, 1, 2, 2, 2}, []string{"a", "b", "c"}, 3, ""},
		{[]int{0, 0, 0, 0, 1, 1, 1, 2, 2}, []string{"a", "b", "c"}, 4, `class "c" has only 2 rows, and every fold needs one of each class; use 2 folds or fewer`},
		{[]int{0, 0, 0, 1, 1, 1, 2}, []string{"a", "b", "c"}, 2, `class "c" has 1 row, and stratified folds need a row of every class in each of at least 2 folds, so no number of folds works: add rows of it or leave its rows out`},
		{[]int{0, 0, 0, 0, 1}, []string{"no", "yes"}, 5, `class "yes" (positive) has 1 row`},
		{[]int{0, 1, 1, 1, 1}, []string{"no", "yes"}, 2, `class "no" (negative) has 1 row`},
		{[]int{0, 0, 1, 1}, []string{"no", "yes"}, 1, "1 folds, need at least 2"},
	}
	for _, c := range cases {
		err := CheckFolds(c.y, c.classes, c.folds)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v, %d folds: %v", c.y, c.folds, err)
		case c.want != "" && (!errors.Is(err, ErrFolds) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v, %d folds: %v, want %q", c.y, c.folds, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "use 1 folds") {
			t.Errorf("%v: advises a fold count that is refused: %v", c.y, err)
		}
	}
}
