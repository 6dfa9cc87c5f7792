package cv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/synth"
)

// testData is a small imbalanced problem: 300 rows, 30 positive.
func testData(t testing.TB) *learn.Data {
	t.Helper()
	g, err := synth.Generate(&synth.Settings{Samples: 300, Ratio: 9, Clusters: 2, Features: 4, Informative: 2, FlipY: synth.None}, 7)
	if err != nil {
		t.Fatal(err)
	}
	return &learn.Data{X: g.X, Y: g.Y, Features: g.Features}
}

// two adapts a fit of two classes to a FitFunc.
func two(fit func(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error)) FitFunc {
	return func(ctx context.Context, train, valid *learn.Data, _ int, env learn.Env) (learn.Model, Decider, error) {
		m, err := fit(ctx, train, valid, env)
		return m, nil, err
	}
}

// gbdtFit fits a small boosted-tree model: a method that uses its workers.
var gbdtFit = two(gbdtScorer)

// gbdtScorer fits a small boosted-tree model of two classes.
func gbdtScorer(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	m := boost.NewMethod()
	if err := m.Set("n_estimators", "15"); err != nil {
		return nil, err
	}
	return m.Fit(ctx, train, valid, env)
}

// TestOOFCoverage: every row is scored exactly once per repeat, by a model
// that did not see it, and each fold's class counts are within one row of
// an even share.
func TestOOFCoverage(t *testing.T) {
	d := testData(t)
	n := d.Rows()
	pos := 0
	for _, y := range d.Y {
		pos += y
	}
	var seen [][]int // seen[repeat][row]: how many rounds scored the row
	fit := func(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
		if valid != nil {
			t.Error("validation data without a hold-out")
		}
		return gbdtScorer(ctx, train, valid, env)
	}
	const k, repeats = 4, 3
	res, err := Run(context.Background(), d, 2, two(fit), &Settings{Folds: k, Repeats: repeats}, learn.Env{Seed: 11, Workers: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rounds) != k*repeats || len(res.Proba) != repeats || len(res.FoldOf) != repeats {
		t.Fatalf("%d rounds, %d score rows, %d fold rows", len(res.Rounds), len(res.Proba), len(res.FoldOf))
	}
	for r := range repeats {
		seen = append(seen, make([]int, n))
		perFold := make([][2]int, k)
		for i, f := range res.FoldOf[r] {
			if f < 1 || f > k {
				t.Fatalf("repeat %d row %d: fold %d", r+1, i+1, f)
			}
			seen[r][i]++
			perFold[f-1][d.Y[i]]++
			if s := res.Proba[r][2*i+1]; !(s >= 0 && s <= 1) {
				t.Errorf("repeat %d row %d: score %v", r+1, i+1, s)
			}
		}
		for f, c := range perFold {
			if math.Abs(float64(c[1])-float64(pos)/k) >= 1 || math.Abs(float64(c[0])-float64(n-pos)/k) >= 1 {
				t.Errorf("repeat %d fold %d: %d negative, %d positive rows; want about %v and %v", r+1, f+1, c[0], c[1], float64(n-pos)/k, float64(pos)/k)
			}
		}
		for i, c := range seen[r] {
			if c != 1 {
				t.Errorf("repeat %d row %d scored %d times", r+1, i+1, c)
			}
		}
	}
	// Repeats assign folds differently.
	if slices.Equal(res.FoldOf[0], res.FoldOf[1]) {
		t.Error("repeats 1 and 2 have the same folds")
	}
	for i, f := range res.Rounds {
		if f.Repeat != i/k+1 || f.Fold != i%k+1 || f.TrainRows+f.TestRows != n {
			t.Errorf("round %d: %+v", i, f)
		}
	}
	// The out-of-fold scores are those of the fold's model: refit one.
	var train, test []int
	for i, g := range res.FoldOf[1] {
		if g == 2 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	m, err := gbdtScorer(context.Background(), d.Subset(train), nil, learn.Env{Seed: fitSeed(11, k+1), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := learn.Predict(context.Background(), m, d.Subset(test).X, 1)
	if err != nil {
		t.Fatal(err)
	}
	for j, i := range test {
		if p[j] != res.Proba[1][2*i+1] {
			t.Fatalf("row %d: refitted score %v, out-of-fold %v", i+1, p[j], res.Proba[1][2*i+1])
		}
	}
}

// TestDeterminism: 1 and 2 workers give bit-identical results, and the
// seed matters.
func TestDeterminism(t *testing.T) {
	d := testData(t)
	run := func(seed uint64, workers int) *Result {
		res, err := Run(context.Background(), d, 2, gbdtFit, &Settings{Folds: 3, Repeats: 2, Holdout: 0.2}, learn.Env{Seed: seed, Workers: workers}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b, c := run(5, 1), run(5, 2), run(6, 2)
	var wa, wb, wc bytes.Buffer
	for _, x := range []struct {
		w *bytes.Buffer
		r *Result
	}{{&wa, a}, {&wb, b}, {&wc, c}} {
		if err := WriteOOF(x.w, d, x.r, nil, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(wa.Bytes(), wb.Bytes()) {
		t.Error("1 and 2 workers differ")
	}
	if bytes.Equal(wa.Bytes(), wc.Bytes()) {
		t.Error("seeds 5 and 6 give the same out-of-fold predictions")
	}
	for i := range a.Rounds {
		if a.Rounds[i].ValidRows == 0 || a.Rounds[i].TrainRows+a.Rounds[i].ValidRows+a.Rounds[i].TestRows != d.Rows() {
			t.Errorf("round %d rows: %+v", i, a.Rounds[i])
		}
	}
}

// TestOOFFile: the file reads back as predictions (extra columns
// tolerated), the labels and scores exact, pred agreeing with the
// thresholds.
func TestOOFFile(t *testing.T) {
	d := testData(t)
	d.W = make([]float64, d.Rows())
	for i := range d.W {
		d.W[i] = float64(1 + i%3)
	}
	res, err := Run(context.Background(), d, 2, gbdtFit, &Settings{Folds: 3, Repeats: 2}, learn.Env{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteOOF(&buf, d, res, nil, "", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "row,repeat,fold,label,score,pred,weight\n") {
		t.Fatalf("header: %q", strings.SplitN(buf.String(), "\n", 2)[0])
	}
	p, err := predfile.ReadPredictions(&buf, "oof.csv")
	if err != nil {
		t.Fatal(err)
	}
	n := d.Rows()
	if len(p.Score) != 2*n {
		t.Fatalf("%d rows, want %d", len(p.Score), 2*n)
	}
	for k := range p.Score {
		r, i := k/n, k%n
		if p.Label[k] != d.Y[i] || p.Score[k] != res.Proba[r][2*i+1] || p.Weight[k] != d.W[i] {
			t.Fatalf("line %d: %d %v %v", k+2, p.Label[k], p.Score[k], p.Weight[k])
		}
		if want := res.Proba[r][2*i+1] >= res.Threshold[r][i]; (p.Pred[k] == 1) != want {
			t.Fatalf("line %d: pred %d", k+2, p.Pred[k])
		}
	}
}

// TestOOFIDs: with ids, the first column holds them (quoted as CSV
// needs) and the predictions readers take it for the id.
func TestOOFIDs(t *testing.T) {
	d := testData(t)
	res, err := Run(context.Background(), d, 2, gbdtFit, &Settings{Folds: 3}, learn.Env{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, d.Rows())
	for i := range ids {
		ids[i] = fmt.Sprintf("c%d", i)
	}
	ids[2] = "a,b"
	var buf bytes.Buffer
	if err := WriteOOF(&buf, d, res, nil, "cust", ids); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "cust,row,repeat,fold,label,score,pred\nc0,1,1,") || !strings.Contains(buf.String(), "\n\"a,b\",3,1,") {
		t.Fatalf("written: %q", buf.String()[:80])
	}
	p, err := predfile.ReadPredictions(&buf, "oof.csv")
	if err != nil {
		t.Fatal(err)
	}
	if p.IDColumn != "cust" || !slices.Equal(p.ID, ids) || len(p.Score) != d.Rows() || p.Score[5] != res.Positive(0)[5] {
		t.Errorf("read back: id column %q, ids %q", p.IDColumn, p.ID[:3])
	}
	if err := WriteOOF(&buf, d, res, nil, "cust", ids[1:]); err == nil {
		t.Error("too few ids accepted")
	}
}

// TestSummaries: mean and sample deviation of the rounds' values.
func TestSummaries(t *testing.T) {
	r := &Result{Rounds: make([]Fold, 3)}
	for i, v := range []float64{0.5, 0.7, math.NaN()} {
		r.Rounds[i].Report = &metrics.Report{BalancedAccuracy: v, ROCAUC: math.NaN()}
	}
	s, err := r.Summaries("balanced_accuracy", "roc_auc")
	if err != nil {
		t.Fatal(err)
	}
	if s[0].Rounds != 2 || math.Abs(s[0].Mean-0.6) > 1e-15 || math.Abs(s[0].SD-math.Sqrt(0.02)) > 1e-15 {
		t.Errorf("%+v", s[0])
	}
	if s[1].Rounds != 0 || !math.IsNaN(s[1].Mean) {
		t.Errorf("%+v", s[1])
	}
	if j, err := s[1].MarshalJSON(); err != nil || string(j) != `{"metric":"roc_auc","mean":null,"sd":null,"rounds":0}` {
		t.Errorf("%s %v", j, err)
	}
	if _, err := r.Summaries("nope"); err == nil {
		t.Error("unknown metric accepted")
	}
	if _, err := r.Summaries("mauc"); err != nil {
		t.Errorf("a metric of any number of classes: %v", err)
	}
}

// TestRunErrors: fold counts the data cannot fill, and a failing fit.
func TestRunErrors(t *testing.T) {
	d := testData(t)
	for _, s := range []Settings{{Folds: 1}, {Folds: 31}, {Folds: 2, Repeats: -1}, {Folds: 2, Holdout: 1}} {
		if _, err := Run(context.Background(), d, 2, gbdtFit, &s, learn.Env{}, nil); err == nil {
			t.Errorf("%+v accepted", s)
		} else if s.Folds != 2 && !errors.Is(err, ErrFolds) {
			t.Errorf("%+v: %v", s, err)
		}
	}
	boom := errors.New("boom")
	_, err := Run(context.Background(), d, 2, func(context.Context, *learn.Data, *learn.Data, int, learn.Env) (learn.Model, Decider, error) {
		return nil, nil, boom
	}, nil, learn.Env{Workers: 2}, nil)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "repeat 1, fold ") {
		t.Errorf("failing fit: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, d, 2, gbdtFit, nil, learn.Env{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
