package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/aer-go/aer/contaminate"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	aermetrics "github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/pipeline"
	"github.com/aer-go/aer/predfile"
)

// split is one seed's train, validation and test rows of a dataset,
// standardised with the training rows' means and deviations.
type split struct {
	train, valid, test *learn.Data
	// testIDs are the test rows' ids, and idColumn names them, when the
	// dataset has an id column (written back in the predictions).
	testIDs  []string
	idColumn string
}

// splitData splits d for one seed by the protocol and standardises it as
// the anchors did: a scaler fitted on the training rows applied to all
// three parts (methods that standardise again find means 0 and
// deviations 1, a near no-op).
func splitData(d *dataset.Dataset, protocol string, seed uint64) (*split, error) {
	return splitDataCond(d, protocol, seed, contaminate.Condition{})
}

// contaminationStream is the stream of the seed that the contamination
// of a split draws from (internal/rng): the training rows' from its
// stream 0, the validation rows' from its stream 1.
const contaminationStream = 0xc0a7

// splitDataCond is splitData with the training and validation rows
// contaminated by cond before the scaler is fitted (a user standardises
// the data they have, outliers and all); the test rows are left as they
// are. Which rows depends on d, the protocol, seed and cond only.
func splitDataCond(d *dataset.Dataset, protocol string, seed uint64, cond contaminate.Condition) (*split, error) {
	sp, err := rawSplit(d, protocol, seed, cond)
	if err != nil {
		return nil, err
	}
	sc := dataset.FitScaler(sp.train.X)
	for _, p := range []*learn.Data{sp.train, sp.valid, sp.test} {
		sc.Transform(p.X)
	}
	return sp, nil
}

// rawSplit is splitDataCond before the standardisation.
func rawSplit(d *dataset.Dataset, protocol string, seed uint64, cond contaminate.Condition) (*split, error) {
	var tr, va, te []int
	var err error
	switch protocol {
	case ProtocolSklearn:
		if seed > math.MaxUint32 {
			return nil, fmt.Errorf("seed %d is above numpy's limit 2^32-1 (protocol sklearn)", seed)
		}
		tr, va, te, err = dataset.AnchorSplit(d.Y, uint32(seed))
	case ProtocolSplitColumn:
		tr, va, te, err = d.SplitIndices()
	default:
		err = fmt.Errorf("unknown protocol %q", protocol)
	}
	if err != nil {
		return nil, err
	}
	for _, p := range []struct {
		name string
		rows []int
	}{{"train", tr}, {"valid", va}, {"test", te}} {
		if len(p.rows) == 0 {
			return nil, fmt.Errorf("no %s rows", p.name)
		}
	}
	part := func(rows []int) *learn.Data {
		s := d.Subset(rows)
		return &learn.Data{X: s.X, Y: s.Y, Features: s.Features}
	}
	sp := &split{train: part(tr), valid: part(va), test: part(te)}
	if d.IDs != nil {
		sp.testIDs, sp.idColumn = learn.Pick(d.IDs, te), d.IDColumn
	}
	for i, p := range []*learn.Data{sp.train, sp.valid} {
		s := rng.DeriveSeed(rng.DeriveSeed(seed, contaminationStream), uint64(i))
		if _, err := contaminate.Apply(cond, p.X, p.Y, s); err != nil {
			return nil, err
		}
	}
	return sp, nil
}

// outcome is a finished run: its row, its test predictions and what the
// AER figures need of its fit summary (nil when it has none).
type outcome struct {
	row    Row
	preds  *predfile.Predictions
	tuning *tuning
	// multi are the test predictions of a multi-class run, with the test
	// rows' ids and their column (nil without them).
	multi    *predfile.MultiPredictions
	ids      []string
	idColumn string
}

// fitAndScore fits one spec on one split and scores it; the returned error
// is only ctx's (a method's failure is an error row).
func fitAndScore(ctx context.Context, j *job, grid, rule string, crossFit, workers int) (*outcome, error) {
	row := Row{
		Dataset: j.data.name, Method: j.spec.String(), Params: j.spec.paramText(), Seed: j.seed,
		Status: "ok", SettingsHash: j.hash, Contamination: condName(j.cond),
		NTrain: j.split.train.Rows(), NValid: j.split.valid.Rows(), NTest: j.split.test.Rows(), NFeatures: j.split.train.Cols(),
	}
	if j.data.d.NumClasses() > 2 {
		return fitAndScoreClasses(ctx, j, grid, rule, workers, row)
	}
	fail := func(err error) (*outcome, error) {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
		r := row
		r.Status, r.Error = "error", err.Error()
		for _, c := range columns {
			if c.float && c.name != "fit_seconds" {
				c.set(&r, "NaN") // not measured
			}
		}
		return &outcome{row: r}, nil
	}
	env := learn.Env{Seed: j.seed, Workers: workers}
	obj := decision.MetricObjective(aermetrics.BalancedAccuracy)
	sp := j.split

	// The one fit protocol (package pipeline), with the layer fitted for
	// every method: the row reports the test metrics at the layer's
	// threshold and, beside them, at the method's own.
	var grids []string
	if j.axes(grid) != nil {
		grids = []string{GridPaper}
	}
	mem := startHeapSampler()
	start := time.Now()
	plan := pipeline.Plan{New: j.spec.New, Grid: grids, Decision: decision.Options{Objective: &obj, Rule: rule, Override: true, CrossFit: crossFit}}
	fitted, err := plan.Fit(ctx, sp.train, sp.valid, 2, env)
	row.FitSeconds = time.Since(start).Seconds()
	row.HeapPeakBytes = mem.stop()
	if err != nil {
		return fail(fmt.Errorf("fit: %w", err))
	}
	model, layer := fitted.Model, fitted.Layer
	if s := fitted.Search; s != nil && len(s.Points[s.Chosen].Params) > 0 {
		row.Params = strings.TrimSpace(row.Params + " " + strings.Join(s.Points[s.Chosen].Params, " "))
	}
	// The test rows are scored once, without the layer: the method's own
	// threshold applies to those scores, the layer's to their calibration
	// (what the layered model's PositiveProba computes).
	raw := decision.Detach(model.(learn.Scorer)) // two classes: a Scorer
	start = time.Now()
	rawScore, err := learn.Predict(ctx, raw, sp.test.X, workers)
	score := rawScore
	if cal := layer.Calibration; err == nil && cal != nil {
		score = make([]float64, len(rawScore))
		for i, v := range rawScore {
			score[i] = cal.Apply(v)
		}
	}
	row.PredictSeconds = time.Since(start).Seconds()
	if err != nil {
		return fail(fmt.Errorf("scoring the test rows: %w", err))
	}

	y := sp.test.Y
	rep := aermetrics.Evaluate(y, score, layer.Threshold, nil)
	row.Threshold, row.ValidBA = layer.Threshold, layer.Value
	setMetrics(&row, &rep, 2)
	c := rep.Confusion
	row.TP, row.FP, row.TN, row.FN = int(c.TP), int(c.FP), int(c.TN), int(c.FN)
	row.Brier, row.LogLoss = nan, nan
	if cal, ok := aermetrics.EvaluateCalibration(y, score, nil, 10); ok {
		row.Brier, row.LogLoss = cal.Brier, cal.LogLoss
	}
	row.DefaultThreshold = learn.ThresholdOf(raw)
	row.DefaultBA = aermetrics.FromScores(y, rawScore, row.DefaultThreshold, nil).BalancedAccuracy()

	p := &predfile.Predictions{Label: y, Score: score, Pred: make([]int, len(score)), ID: sp.testIDs, IDColumn: sp.idColumn}
	for i, s := range score {
		if s >= layer.Threshold {
			p.Pred[i] = 1
		}
	}
	return &outcome{row: row, preds: p, tuning: tuningOf(raw, firstRow(sp.valid.X))}, nil
}

// fitAndScoreClasses is fitAndScore for a dataset of three or more
// classes, row its header: the method fitted as aer fit fits
// multi-class labels (its default strategy, the decision by rule: bayes
// or tuned) and scored on the test rows at its decision. The row's
// columns hold the metrics of the table for k classes (setMetrics):
// balanced_accuracy the mean of the per-class recalls, f1 the macro F1,
// gmean the geometric mean of the recalls, roc_auc Hand and Till's MAUC,
// brier and log_loss the multi-class ones; valid_balanced_accuracy the
// validation rows' at the decision and default_balanced_accuracy the
// test rows' at the most probable class. The two-class columns are NaN.
func fitAndScoreClasses(ctx context.Context, j *job, grid, rule string, workers int, row Row) (*outcome, error) {
	sp := j.split
	k := j.data.d.NumClasses()
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
	var grids []string
	if j.axes(grid) != nil {
		grids = []string{GridPaper}
	}
	mem := startHeapSampler()
	start := time.Now()
	env := learn.Env{Seed: j.seed, Workers: workers}
	f, err := pipeline.Plan{New: j.spec.New, Grid: grids, Decision: decision.Options{Rule: rule}}.Fit(ctx, sp.train, sp.valid, k, env)
	if err == nil && f.Search != nil {
		row.Params = strings.TrimSpace(row.Params + " " + strings.Join(f.Search.Points[f.Search.Chosen].Params, " "))
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
	setMetrics(&row, &rep, k)
	if row.ValidBA, err = classesBA(f, sp.valid, k); err != nil {
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
	if o, err := aermetrics.NewOutcome(sp.test.Y, argmax, nil, k, nil); err == nil {
		row.DefaultBA = aermetrics.BalancedAccuracy.Value(o)
	}
	p := &predfile.MultiPredictions{Classes: j.data.d.Classes, Label: sp.test.Y, Pred: pred, Proba: proba}
	return &outcome{row: row, multi: p, ids: sp.testIDs, idColumn: sp.idColumn}, nil
}

// classesBA is the balanced accuracy of f's decision on d's rows; NaN
// without rows.
func classesBA(f *pipeline.Fitted, d *learn.Data, k int) (float64, error) {
	if d == nil || d.Rows() == 0 {
		return math.NaN(), nil
	}
	proba, err := f.Model.PredictProba(d.X, nil)
	if err != nil {
		return 0, err
	}
	pred := make([]int, d.Rows())
	f.Layer.Predict(proba, pred)
	o, err := aermetrics.NewOutcome(d.Y, pred, nil, k, nil)
	if err != nil {
		return 0, err
	}
	return aermetrics.BalancedAccuracy.Value(o), nil
}

// heapObjects is the runtime/metrics name of the bytes of heap objects:
// live ones and dead ones the garbage collector has not yet freed.
const heapObjects = "/memory/classes/heap/objects:bytes"

// heapSampler records the peak of the heap held by objects while a fit
// runs, sampled every 5 ms, above its level when the fit started.
type heapSampler struct {
	done chan struct{}
	wg   sync.WaitGroup
	base uint64
	peak uint64
}

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{done: make(chan struct{}), base: heapNow()}
	h.peak = h.base
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.done:
				return
			case <-t.C:
				h.peak = max(h.peak, heapNow())
			}
		}
	}()
	return h
}

// stop ends the sampling and returns the peak above the starting level.
func (h *heapSampler) stop() uint64 {
	close(h.done)
	h.wg.Wait()
	h.peak = max(h.peak, heapNow())
	return h.peak - h.base
}
