package bench

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	aermetrics "github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/multiclass"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/search"
)

// fitAndScoreMulti is fitAndScore for a dataset of three or more
// classes: the method fitted as aer fit fits multi-class labels (its
// default strategy, the decision by rule: bayes or tuned) and scored on
// the test rows at its decision. The row's columns hold the multi-class
// metrics: balanced_accuracy the mean of the per-class recalls, f1 the
// macro F1, gmean the geometric mean of the recalls, roc_auc Hand and
// Till's MAUC, brier and log_loss the multi-class ones; valid_balanced_accuracy
// the validation rows' at the decision and default_balanced_accuracy the
// test rows' at the most probable class. The binary-only columns are NaN.
func fitAndScoreMulti(ctx context.Context, j *job, grid, rule string, workers int) (*outcome, error) {
	sp := j.split
	k := len(j.data.d.Classes)
	row := Row{
		Dataset: j.data.name, Method: j.spec.String(), Params: j.spec.paramText(), Seed: j.seed,
		Status: "ok", SettingsHash: j.hash,
		NTrain: sp.train.Rows(), NValid: sp.valid.Rows(), NTest: sp.test.Rows(), NFeatures: sp.train.Cols(),
	}
	for _, c := range columns {
		if c.float && c.name != "fit_seconds" && c.name != "predict_seconds" {
			c.set(&row, "NaN")
		}
	}
	fail := func(err error) (*outcome, error) {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
		r := row
		r.Status, r.Error = "error", err.Error()
		return &outcome{row: r}, nil
	}
	method, err := j.spec.New()
	if err != nil {
		return fail(fmt.Errorf("fit: %w", err))
	}
	mem := startHeapSampler()
	start := time.Now()
	dec, env := decision.MultiOptions{Rule: rule}, learn.Env{Seed: j.seed, Workers: workers}
	var f *multiclass.Fitted
	if axes := j.axes(grid); axes != nil {
		var found *search.Outcome
		f, _, found, err = multiclass.SearchDecided(ctx, j.spec.New, axes, "", dec, sp.train, sp.valid, k, env)
		if err == nil {
			row.Params = strings.TrimSpace(row.Params + " " + strings.Join(found.Points[found.Chosen].Params, " "))
		}
	} else {
		f, err = multiclass.FitDecided(ctx, method, "", dec, sp.train, sp.valid, k, env)
	}
	row.FitSeconds = time.Since(start).Seconds()
	row.HeapPeakBytes = mem.stop()
	if err != nil {
		return fail(fmt.Errorf("fit: %w", err))
	}
	start = time.Now()
	proba, err := f.Model.PredictProba(sp.test.X, nil)
	row.PredictSeconds = time.Since(start).Seconds()
	if err != nil {
		return fail(fmt.Errorf("scoring the test rows: %w", err))
	}
	pred := make([]int, sp.test.Rows())
	f.Layer.Predict(proba, pred)
	rep, err := aermetrics.EvaluateMulti(sp.test.Y, pred, proba, k, nil)
	if err != nil {
		return fail(fmt.Errorf("scoring the test rows: %w", err))
	}
	row.BalancedAccuracy, row.F1, row.GMean, row.ROCAUC = rep.BalancedAccuracy, rep.MacroF1, rep.GMean, rep.MAUC
	row.Brier, row.LogLoss = rep.Brier, rep.LogLoss
	if row.ValidBA, err = multiBA(f, sp.valid, k); err != nil {
		return fail(fmt.Errorf("scoring the validation rows: %w", err))
	}
	argmax := make([]int, len(pred))
	for i := range argmax {
		best := 0
		for c, p := range proba[i*k : (i+1)*k] {
			if p > proba[i*k+best] {
				best = c
			}
		}
		argmax[i] = best
	}
	if r, err := aermetrics.EvaluateMulti(sp.test.Y, argmax, nil, k, nil); err == nil {
		row.DefaultBA = r.BalancedAccuracy
	}
	p := &predfile.MultiPredictions{Classes: j.data.d.Classes, Label: sp.test.Y, Pred: pred, Proba: proba}
	return &outcome{row: row, multi: p, ids: sp.testIDs, idColumn: sp.idColumn}, nil
}

// multiBA is the balanced accuracy of f's decision on d's rows; NaN
// without rows.
func multiBA(f *multiclass.Fitted, d *learn.Data, k int) (float64, error) {
	if d == nil || d.Rows() == 0 {
		return math.NaN(), nil
	}
	proba, err := f.Model.PredictProba(d.X, nil)
	if err != nil {
		return 0, err
	}
	pred := make([]int, d.Rows())
	f.Layer.Predict(proba, pred)
	r, err := aermetrics.EvaluateMulti(d.Y, pred, nil, k, nil)
	if err != nil {
		return 0, err
	}
	return r.BalancedAccuracy, nil
}

// isMultiFile says whether the predictions file at path is a multi-class
// one (score_<class> columns).
func isMultiFile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head, err := csv.NewReader(bufio.NewReader(f)).Read()
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return predfile.IsMultiPredictions(head), nil
}

// multiCorrectAndLoss reads a multi-class predictions file: each row's
// correctness (pred = label) and 1 - the true class's probability.
func multiCorrectAndLoss(path string) ([]bool, []float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	p, err := predfile.ReadMultiPredictions(f, path)
	if err != nil {
		return nil, nil, err
	}
	if p.Label == nil {
		return nil, nil, fmt.Errorf("%s: no label column", path)
	}
	k := len(p.Classes)
	c, l := make([]bool, len(p.Label)), make([]float64, len(p.Label))
	for i, y := range p.Label {
		c[i], l[i] = p.Pred[i] == y, 1-p.Proba[i*k+y]
	}
	return c, l, nil
}
