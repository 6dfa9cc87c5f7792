package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/memlimit"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/search"
)

func init() {
	register(&command{
		name:    "fit",
		summary: "train a classifier on a CSV file and save it as a model file",
		usage: `Usage: aer fit --train train.csv [--valid valid.csv] [--method gbdt] [--param key=value ...] [--weight COLUMN] --out model.aer [--json]

Trains the method on the labelled CSV file and writes the model file (the
method, the data schema, the fit configuration and the fitted model, with a
checksum) for aer predict. --param sets one method parameter and may be
repeated; aer help fit --method NAME lists a method's parameters with their
defaults. --weight names a column of non-negative row weights (a row of
weight k counts as k copies of it); the validation file, if any, must have
it too.

If the training file has a split column, its train rows are used for
training and, without --valid, its valid rows for validation; test rows are
left out. Methods that tune on validation data (aer's lambda and delta,
gbdt-tuned's threshold) hold out part of the training rows without it.

The decision layer: with validation data, aer fit chooses the decision
threshold of every method on the validation rows and saves it in the model
file (aer predict uses it; --threshold overrides). The candidates are 0.01,
0.02, ..., 0.99 and the validation scores' quantiles 0.5%, 1%, ..., 99.5%;
of tied best thresholds, the middle one. It maximises --tune-metric
(balanced_accuracy by default), or minimises --cost fn=A,fp=B, or with
--min-recall R takes the highest precision at a minority recall of at
least R. --threshold-rule bayes replaces the search over candidates by a
sigmoid calibration of the validation scores (Platt) and takes the score
where the calibrated probability reaches the Bayes-optimal one: the
training rows' positive share for balanced accuracy, fp/(fn+fp) for a
cost (other objectives have none). With few validation minority rows it
is the steadier estimate: two parameters fitted on every row instead of
the best of a few hundred thresholds. --calibrate sigmoid (Platt scaling, on the logit of the scores)
or isotonic (pool-adjacent-violators) first maps the scores to calibrated
probabilities, fitted on the validation rows, and the threshold is chosen
on those. A method that tunes its own threshold (aer, dynens, gbdt-tuned)
keeps it unless one of these flags is given.

--grid key=v1,v2 (repeatable) fits every combination of the values and
keeps the one whose best threshold gives the best --tune-metric (or cost,
or recall-floor precision) on the validation rows; values holding commas
are separated by | instead (class_weight=balanced|0:1,1:5). --grid paper
takes the paper's appendix grid of the method (gbdt and gbdt-leafwise:
learning rate 0.1-0.7, depth 5-10, 7-10 trees; gbdt-focal: focal_gamma
1, 1.5, 2; tree: class weights 1:110, 1:130, 1:150 or balanced x gini or
entropy; svm: those class weights x linear, RBF and polynomial kernels).
--json lists every point ("grid").

--json prints the fit summary: data sizes, the method's parameters, the fit
time in seconds (excluding reading the CSV files) and the method's report
(for gbdt the trees, the validation curve and feature importance; for aer
the BIC table and chosen L, subset sizes, the member settings tried, static
weights, lambda, delta, validation metrics and seconds per stage), the
method's memory estimate, the soft memory limit and the peak resident set.

Memory: a fit the method estimates needs more memory than is available is
refused before it starts (--memory-check=false tries anyway). Unless
GOMEMLIMIT is set, the garbage collector's soft limit is the fit's plan,
the tables plus the method's estimate (at least 512 MiB; at most 90% of
the memory available), lowered during the fit when the method learns a
closer figure (aer, once it knows its mixture): it collects as the heap
nears what the fit is expected to hold at its peak instead of letting it
grow to twice the live data.
Ctrl-C stops a fit within a second and writes nothing.`,
		run: runFit,
	})
}

// paramFlags collects repeated --param key=value flags.
type paramFlags []param

func (p *paramFlags) String() string {
	parts := make([]string, len(*p))
	for i, kv := range *p {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, " ")
}

func (p *paramFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	*p = append(*p, param{k, strings.TrimSpace(v)})
	return nil
}

// fitOutput is the --json document of aer fit.
type fitOutput struct {
	Method     string            `json:"method"`
	Train      string            `json:"train"`
	Rows       int               `json:"rows"`
	Features   int               `json:"features"`
	Positives  int               `json:"positives"`
	Weight     string            `json:"weight,omitempty"`
	Valid      string            `json:"valid,omitempty"`
	ValidRows  int               `json:"valid_rows,omitempty"`
	Seed       uint64            `json:"seed"`
	Params     map[string]string `json:"params"`
	FitSeconds float64           `json:"fit_seconds"`
	Threshold  *float64          `json:"threshold,omitempty"`
	Decision   *decision.Layer   `json:"decision,omitempty"`
	Search     *search.Outcome   `json:"grid,omitempty"`
	Result     any               `json:"result"`
	Out        string            `json:"out"`
	Classes    [2]string         `json:"classes"`
	// MemoryEstimate is the method's estimate, before the fit, of the
	// memory its fit needs beyond the tables (learn.FitMemory); PeakRSS
	// the process's largest resident set, reading included.
	MemoryEstimate int64 `json:"memory_estimate_bytes,omitempty"`
	// MemoryLimit is the Go runtime's soft memory limit in force during
	// the fit (limitToPlan), when there is one.
	MemoryLimit int64 `json:"memory_limit_bytes,omitempty"`
	PeakRSS     int64 `json:"peak_rss_bytes,omitempty"`
}

// headerConfig is the fit configuration saved in the model file header.
type headerConfig struct {
	Seed   uint64            `json:"seed"`
	Params map[string]string `json:"params"`
	// Train summarises the data the model was fitted on (absent in files
	// written before it was added); no file name, so the same data read
	// from another file gives the same model file.
	Train *trainSummary `json:"train,omitempty"`
}

// trainSummary describes the training (and validation) rows of a fit.
type trainSummary struct {
	Rows           int `json:"rows"`
	Positives      int `json:"positives"`
	MissingCells   int `json:"missing_cells"`
	ValidRows      int `json:"valid_rows,omitempty"`
	ValidPositives int `json:"valid_positives,omitempty"`
}

func runFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["fit"]
	fs := newFlagSet(c, stderr)
	var ff fitFlags
	ff.register(fs)
	trainPath := fs.String("train", "", "labelled training `file` (CSV, .csv.gz or Parquet), - for standard input (required)")
	validPath := fs.String("valid", "", "labelled validation `file` (CSV, .csv.gz or Parquet), - for standard input (tuning, early stopping, validation curve)")
	weight := fs.String("weight", "", "`column` of non-negative row weights")
	out := fs.String("out", "", "model `file` to write (required)")
	seed := fs.Uint64("seed", 0, "random seed")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	memCheck := fs.Bool("memory-check", true, "refuse, before it starts, a fit the method estimates needs more memory than is available (false: try anyway)")
	var df dataFlags
	df.register(fs)
	df.registerCategorical(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErrorf("fit: unexpected argument %q", rest[0])
	}
	if *trainPath == "" {
		return usageErrorf("fit: --train is required")
	}
	if *out == "" {
		return usageErrorf("fit: --out is required")
	}
	if err := refuseOverwrite("fit", "--out", *out, input{"--train", *trainPath}, input{"--valid", *validPath}); err != nil {
		return err
	}
	if err := oneStdin("fit", input{"--train", *trainPath}, input{"--valid", *validPath}); err != nil {
		return err
	}
	if *threads < 0 {
		return usageErrorf("fit: --threads must be at least 0, not %d", *threads)
	}
	plan, err := ff.plan("fit")
	if err != nil {
		return err
	}

	opt := df.trainingOptions()
	opt.Weight = *weight
	opt.Workers = *threads
	train, err := loadData(ctx, *trainPath, opt)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	if err := df.checkDropped(train, *trainPath); err != nil {
		return usageErrorf("fit: %v", err)
	}
	if err := df.checkPositive(train, *trainPath); err != nil {
		return usageErrorf("fit: %v", err)
	}
	noteMixed(stderr, "fit", train, *trainPath)
	var valid *dataset.Dataset
	if train.Split != nil {
		tr, va, te, err := train.SplitIndices()
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		fmt.Fprintf(stderr, "fit: %s: split column: %d train, %d valid, %d test rows (test rows not used)\n", *trainPath, len(tr), len(va), len(te))
		if *validPath == "" && len(va) > 0 {
			valid = train.Subset(va)
		}
		train = train.Subset(tr)
	}
	if *validPath != "" {
		v, err := loadData(ctx, *validPath, dataset.Options{Label: train.Label, Classes: train.Classes, AllowOneClass: true, Weight: *weight,
			Drop: opt.Drop, Delimiter: opt.Delimiter, NA: opt.NA, ID: opt.ID, Categories: train.Categories, Workers: *threads})
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		x, err := v.Matrix(train.Features)
		if err != nil {
			return fmt.Errorf("fit: validation data: %w", err)
		}
		v.X, v.Features = x, train.Features
		if n := sumInts(v.Unseen); n > 0 {
			fmt.Fprintf(stderr, "fit: %s: %d cells of categorical columns hold values the training data lacks, encoded as all zeros\n", *validPath, n)
		}
		valid = v
	}

	if err := plan.checkValid(valid != nil); err != nil {
		return err
	}
	shape := learn.Shape{Rows: train.Rows(), Features: train.Cols(), Workers: *threads, ConsumeTrain: true}
	if valid != nil {
		shape.ValidRows = valid.Rows()
	}
	estimate, _ := learn.FitMemory(plan.method, shape)
	var limit int64
	var replan func(int64)
	if estimate > 0 {
		tables := int64(train.Rows()) * int64(train.Cols()) * 8
		if valid != nil {
			tables += int64(valid.Rows()) * int64(valid.Cols()) * 8
		}
		limit = limitToPlan(tables + estimate)
		// A closer figure during the fit lowers the limit further.
		replan = func(b int64) { limit = limitToPlan(tables + b) }
	}
	if avail, ok := availableMemory(); ok && *memCheck {
		if err := learn.CheckMemory(plan.method, shape, avail); err != nil {
			return fmt.Errorf("fit: %w (--memory-check=false tries anyway)", err)
		}
	}
	bar := newProgress(stderr, "fit "+plan.method.Name())
	// The training features are not read after the fit: the method may
	// work on them in place.
	ts := &trainSummary{Rows: train.Rows(), MissingCells: train.Missing()}
	env := learn.Env{Seed: *seed, Workers: *threads, Progress: bar.update, Logger: noteLogger(stderr, "fit"), ConsumeTrain: true, MemoryPlan: replan}
	start := time.Now()
	res, err := plan.fit(ctx, learnData(train), learnData(valid), env)
	elapsed := time.Since(start)
	bar.done(err)
	if err != nil {
		if isUsageError(err) {
			return err
		}
		return fmt.Errorf("fit: %w", err)
	}
	method, model, found, layer := res.method, res.model, res.found, res.layer
	var layerJSON []byte
	if layer != nil {
		if layerJSON, err = json.Marshal(layer); err != nil {
			return fmt.Errorf("fit: %w", err)
		}
	}
	pm := learn.ParamMap(method.Params())
	_, ts.Positives = train.ClassCounts()
	if valid != nil {
		ts.ValidRows = valid.Rows()
		_, ts.ValidPositives = valid.ClassCounts()
	}
	cfg, err := json.Marshal(headerConfig{Seed: *seed, Params: pm, Train: ts})
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	payload, err := model.MarshalBinary()
	if err != nil {
		return fmt.Errorf("fit: encoding the model: %w", err)
	}
	h := &modelfile.Header{
		Method: method.Name(),
		Schema: modelfile.Schema{Features: train.Features, Label: train.Label, Classes: train.Classes, Weight: train.WeightColumn, Drop: train.Dropped, ID: train.IDColumn,
			Categories: schemaCategories(train.Categories)},
		Config:   cfg,
		Decision: layerJSON,
		Producer: "aer " + version,
	}
	if err := ctx.Err(); err != nil {
		return err // interrupted after the fit: still write nothing
	}
	if err := modelfile.SaveContext(ctx, *out, h, payload); err != nil {
		return fmt.Errorf("fit: %w", err)
	}

	_, pos := train.ClassCounts()
	o := fitOutput{
		Method: method.Name(), Train: *trainPath, Rows: train.Rows(), Features: train.Cols(), Positives: pos, Weight: train.WeightColumn,
		Seed: *seed, Params: pm, FitSeconds: elapsed.Seconds(), Out: *out, Classes: train.Classes, Decision: layer,
		Search: found, MemoryEstimate: estimate,
	}
	if limit > 0 && limit < math.MaxInt64 {
		o.MemoryLimit = limit
	}
	if peak, ok := memlimit.PeakRSS(); ok {
		o.PeakRSS = peak
	}
	o.Result = learn.SummaryOf(model)
	if v, ok := learn.TunedThreshold(model); ok {
		o.Threshold = &v
	}
	if valid != nil {
		o.Valid = *validPath
		if o.Valid == "" {
			o.Valid = *trainPath + " (split=valid)"
		}
		o.ValidRows = valid.Rows()
	}
	if *asJSON {
		return writeJSON(stdout, o)
	}
	fmt.Fprintf(stdout, "method     %s\n", o.Method)
	fmt.Fprintf(stdout, "train      %s: %d rows, %d features, %d positive (%s)\n", o.Train, o.Rows, o.Features, o.Positives, o.Classes[1])
	if valid != nil {
		fmt.Fprintf(stdout, "valid      %s: %d rows\n", o.Valid, o.ValidRows)
	}
	fmt.Fprintf(stdout, "fit time   %.3f s\n", o.FitSeconds)
	if found != nil {
		p := found.Points[found.Chosen]
		fmt.Fprintf(stdout, "grid       %d points; chosen %s (%s %.4f on validation)\n", len(found.Points), strings.Join(p.Params, " "), found.Objective, p.Value)
	}
	if st, ok := o.Result.(fmt.Stringer); ok {
		fmt.Fprintf(stdout, "result     %s\n", st)
	}
	switch {
	case layer != nil && layer.Calibration != nil:
		fmt.Fprintf(stdout, "decision   scores calibrated (%s), threshold %.4g for %s on validation (%.4f)\n", layer.Calibration.Method, layer.Threshold, layer.Objective, layer.Value)
	case layer != nil:
		how := ""
		if layer.Rule == decision.RuleBayes {
			how = " (Bayes threshold of a sigmoid calibration)"
		}
		fmt.Fprintf(stdout, "decision   threshold %.4g for %s on validation (%.4f)%s\n", layer.Threshold, layer.Objective, layer.Value, how)
	case o.Threshold != nil:
		fmt.Fprintf(stdout, "threshold  %.4g (tuned by the method)\n", *o.Threshold)
	}
	fmt.Fprintf(stdout, "model      %s\n", o.Out)
	return nil
}

// tuneObjective reads the threshold flags of aer fit: at most one of
// --tune-metric, --cost and --min-recall (balanced accuracy by default),
// and --calibrate. explicit says whether any was given.
func tuneObjective(cmd, metric, cost, minRecall, calibrate string) (decision.Objective, bool, error) {
	n := 0
	for _, f := range []string{metric, cost, minRecall} {
		if f != "" {
			n++
		}
	}
	if n > 1 {
		return decision.Objective{}, false, usageErrorf("%s: give at most one of --tune-metric, --cost and --min-recall", cmd)
	}
	switch calibrate {
	case "", decision.Sigmoid, decision.Isotonic:
	default:
		return decision.Objective{}, false, usageErrorf("%s: --calibrate %q: want sigmoid or isotonic", cmd, calibrate)
	}
	explicit := n > 0 || calibrate != ""
	switch {
	case cost != "":
		o, err := decision.ParseCost(cost)
		if err != nil {
			return o, false, usageErrorf("%s: --cost: %v", cmd, err)
		}
		return o, explicit, nil
	case minRecall != "":
		r, err := strconv.ParseFloat(minRecall, 64)
		if err != nil {
			return decision.Objective{}, false, usageErrorf("%s: --min-recall %q: want a number in (0, 1]", cmd, minRecall)
		}
		o, err := decision.MinRecallObjective(r)
		if err != nil {
			return o, false, usageErrorf("%s: --min-recall: %v", cmd, err)
		}
		return o, explicit, nil
	case metric != "":
		m, err := metrics.ParseMetric(metric)
		if err != nil {
			return decision.Objective{}, false, usageErrorf("%s: --tune-metric: %v", cmd, err)
		}
		return decision.MetricObjective(m), explicit, nil
	}
	return decision.MetricObjective(metrics.BalancedAccuracy), explicit, nil
}

// stringsFlag collects a repeatable flag.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, " ") }
func (f *stringsFlag) Set(s string) error { *f = append(*f, s); return nil }

// gridAxes reads the --grid flags: "paper" for the method's paper grid,
// else key=v1,v2 axes. nil means no grid search.
func gridAxes(cmd string, m learn.Method, flags []string) ([]search.Axis, error) {
	var specs []string
	for _, f := range flags {
		if strings.TrimSpace(f) != "paper" {
			specs = append(specs, f)
			continue
		}
		g, ok := m.(learn.Gridder)
		if !ok || len(g.PaperGrid()) == 0 {
			return nil, usageErrorf("%s: --grid paper: the paper gives no grid for method %s", cmd, m.Name())
		}
		specs = append(specs, g.PaperGrid()...)
	}
	var axes []search.Axis
	for _, s := range specs {
		a, err := search.ParseAxis(s)
		if err != nil {
			return nil, usageErrorf("%s: --grid: %v", cmd, err)
		}
		axes = append(axes, a)
	}
	return axes, nil
}
