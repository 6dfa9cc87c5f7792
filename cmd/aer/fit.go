package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strconv"
	"strings"

	aerlib "github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/memlimit"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/pipeline"
	"github.com/aer-go/aer/search"
)

const fitUsage = `Usage: aer fit --train train.csv [--valid valid.csv] [--method aer] [--param key=value ...] [--weight COLUMN] --out model.aer [--json]

Trains the method on the labelled CSV file and writes the model file (the
method, the data schema, the fit configuration and the fitted model, with a
checksum) for aer predict. --param sets one method parameter and may be
repeated; aer help fit --method NAME lists a method's parameters with their
defaults. --weight names a column of non-negative row weights (a row of
weight k counts as k copies of it); the validation file, if any, must have
it too.

If the training file has a split column, its train rows are used for
training and, without --valid, its valid rows for validation; test rows are
left out. Methods that tune on validation data (aer's weights, lambda and
delta, gbdt-tuned's threshold) make their own without it: gbdt-tuned by
holding out part of the training rows; aer tunes on its members'
out-of-fold outputs of every training row anyway, beside the validation
rows when there are some (the global members fitted 4 more times, each
without one fold: --param cross_tune; the component members and peers 2
more times, each without half the rows: --param cross_tune_components;
every refit on at most 32 bins a feature: --param cross_tune_max_bin;
both -1 refit every member as it is on the 4 folds, for 1.8x the fit
time and no measurable gain (docs/quality.md); cross_tune=-1 tunes on the
validation rows alone, or without them holds out --param holdout of the
rows, at half to four fifths of the fit time; validation rows of 1,000
positives or more are tuned on alone: --param cross_tune_below).

Without validation data the decision layer below is fitted all the same,
and the output says on which rows: for aer on those out-of-fold scores
(with validation data, on them and the validation rows' scores),
for every other method on the out-of-fold scores of the training rows,
the method fitted 5 more times, each on the training rows without one
fold (the model kept is the one fitted on all of them); --cross-fit -1
keeps the bare model, which then predicts positive at a score of 0.5.
Over 13 datasets x seeds 0-4, gbdt so fitted without --valid scored a
mean balanced accuracy of 0.8407 against 0.8386 with a --valid file of a
third as many rows again, aer 0.8614 against 0.8671.

The decision layer: with validation data, aer fit calibrates every
method's scores and chooses its decision threshold on the validation rows,
and saves both in the model file (aer predict uses them; --threshold
overrides the threshold). By default (--threshold-rule bayes) it fits a
sigmoid calibration (Platt scaling, on the logit of the scores) on the
validation rows, so that the model's scores are probabilities of the
positive class, and predicts positive where that probability reaches the
Bayes-optimal one: the training rows' positive share for balanced
accuracy, fp/(fn+fp) for a cost. Two parameters fitted by likelihood on
every validation row are steadier than the best of a few hundred
thresholds on a few minority rows: over 13 datasets and 10 seeds the rule
raised balanced accuracy for most methods (docs/decision.md). With
--threshold-rule tuned, or an objective without a Bayes threshold, the
threshold is the candidate best on the validation rows: 0.01, 0.02, ...,
0.99 and the validation scores' quantiles 0.5%, 1%, ..., 99.5%; of tied
best thresholds, the middle one (the Python anchors' rule). It maximises
--tune-metric (balanced_accuracy by default), or minimises --cost
fn=A,fp=B, or with --min-recall R takes the highest precision at a
minority recall of at least R. --calibrate isotonic (pool-adjacent-
violators) calibrates instead of sigmoid, and --calibrate none keeps the
raw scores (under the Bayes rule the sigmoid then only finds the
threshold). A method that tunes its own threshold (aer with
preset=paper, dynens, gbdt-tuned) keeps it unless one of these flags is
given; the default aer's Bayes delta gives way to the layer. With fewer
than 10 positive validation rows the layer is cross-fitted: the method is
fitted 5 more times, each on the training rows without one fold, and the
calibration and threshold see those out-of-fold scores beside the
validation rows' (the model kept is the one on all rows; it costs one fit
per fold). --cross-fit K asks for K folds whatever the validation rows,
-1 never; by default a method with a threshold of its own is left out.

--grid key=v1,v2 (repeatable) fits every combination of the values and
keeps the one whose best threshold gives the best --tune-metric (or cost,
or recall-floor precision) on the validation rows; values holding commas
are separated by | instead (class_weight=balanced|0:1,1:5). --grid paper
takes the paper's appendix grid of the method (gbdt and gbdt-leafwise:
learning rate 0.1-0.7, depth 5-10, 7-10 trees; gbdt-focal: focal_gamma
1, 1.5, 2; tree: class weights 1:110, 1:130, 1:150 or balanced x gini or
entropy; svm: those class weights x linear, RBF and polynomial kernels).
--json lists every point ("grid").

--quantize int16 (or int8) writes the model quantised, as aer quantize
would from the full model file: its trees' thresholds as indices into
per-feature cut tables and its leaves in 16- (8-) bit integers; aer info
shows the bound of its probabilities against the full model's.

Out-of-distribution rows: aer scores them by its majority mixture; for
every other method (and multi-class aer) aer fit fits a density beside
the model (--ood-density, on by default; false skips it): a Gaussian
mixture (1-4, 6 or 8 components by BIC, full covariances up to 32 features,
diagonal beyond) of at most 4,000 training rows of every class, drawn
with --seed, on the imputed, standardised features; its threshold is the
99% quantile of the validation rows' scores, or without them of training
rows held out of the mixture's sample. aer predict --ood and aer serve
use it (docs/ood.md).

--json prints the fit summary: data sizes, the method's parameters, the fit
time in seconds (excluding reading the CSV files) and the method's report
(for gbdt the trees, the validation curve and feature importance; for aer
the BIC table and chosen L, subset sizes, the member settings tried, static
weights, lambda, delta, validation metrics and seconds per stage), the
method's memory estimate, the soft memory limit and the peak resident set.

Warnings: what the fit found that you should know is printed on stderr
("fit: warning: ...") and listed under "warnings" in --json (absent when
there is none). For aer they are aer mixture's warnings on its mixture
stage, in the same words: BIC chose the smallest or largest L of the
pool (--param components widens it), mixture sizes too large for the
majority rows left out, and components of the chosen mixture that
collapsed (less than one row's worth of weight, or a variance at the
covariance ridge, as on a binary feature). They are not saved in the
model file.

Memory: a fit the method estimates needs more memory than is available is
refused before it starts (--memory-check=false tries anyway). Unless
GOMEMLIMIT is set, the garbage collector's soft limit is the fit's plan,
the tables plus the method's estimate (at least 512 MiB; at most 90% of
the memory available), lowered during the fit when the method learns a
closer figure (aer, once it knows its mixture): it collects as the heap
nears what the fit is expected to hold at its peak instead of letting it
grow to twice the live data. Unless GOGC is set, a training file of at
most 8 MB is fitted at GOGC=400 (a collection a quarter as often: 5-8%
less CPU for 10-15 MB more memory).
Progress: stderr shows each stage as it runs (for aer: reading, prepare,
mixture, subsets, members, weights, tune), on a terminal as a bar redrawn
every quarter second, otherwise as a line when a stage starts, one when it
ends and one per 10 s of a long stage, each with the seconds since the
start.
Ctrl-C stops a fit within a second and writes nothing.`

func init() {
	register(&command{
		name:    "fit",
		summary: "train a classifier on a CSV file and save it as a model file",
		usage:   fitUsage,
		run:     runFit,
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

// texts returns the parameters as key=value.
func (p paramFlags) texts() []string {
	out := make([]string, len(p))
	for i, kv := range p {
		out[i] = kv.Key + "=" + kv.Value
	}
	return out
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
	// Warnings are the fit's warnings (aerlib.FitReport.Warnings), also
	// printed on stderr.
	Warnings []string  `json:"warnings,omitempty"`
	Result   any       `json:"result"`
	Out      string    `json:"out"`
	Classes  [2]string `json:"classes"`
	// Labels, ClassCounts and Multiclass describe a multi-class fit: the
	// classes, the training rows of each, and how the model holds them
	// (native, ovr or ovo).
	Labels      []string `json:"labels,omitempty"`
	ClassCounts []int    `json:"class_counts,omitempty"`
	Multiclass  string   `json:"multiclass,omitempty"`
	// MultiDecision is a multi-class model's decision: its rule, class
	// weights and, for rule cost, its cost matrix.
	MultiDecision *decision.Layer `json:"multi_decision,omitempty"`
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
type headerConfig = aerlib.FitConfig

// trainSummary describes the training (and validation) rows of a fit.
type trainSummary = aerlib.TrainSummary

// fitArgs are aer fit's flags.
type fitArgs struct {
	ff                        fitFlags
	df                        dataFlags
	train, valid, weight, out *string
	seed                      *uint64
	threads                   *int
	asJSON, memCheck          *bool
	oodDensity                *bool
	quantize                  *string
}

// parseFitArgs reads and checks aer fit's flags.
func parseFitArgs(args []string, stderr io.Writer) (*fitArgs, error) {
	fs := newFlagSet(commands["fit"], stderr)
	a := &fitArgs{}
	a.ff.register(fs)
	a.train = fs.String("train", "", "labelled training `file` (CSV, .csv.gz or Parquet), - for standard input (required)")
	a.valid = fs.String("valid", "", "labelled validation `file` (CSV, .csv.gz or Parquet), - for standard input (tuning, early stopping, validation curve)")
	a.weight = fs.String("weight", "", "`column` of non-negative row weights")
	a.out = fs.String("out", "", "model `file` to write (required)")
	a.seed = fs.Uint64("seed", 0, "random seed")
	a.threads = fs.Int("threads", 0, "worker goroutines (0: all cores)")
	a.asJSON = fs.Bool("json", false, "print one JSON document on stdout")
	a.quantize = fs.String("quantize", "", "write the model quantised, its leaves at this `precision`: int16 or int8 (empty: full precision)")
	a.oodDensity = fs.Bool("ood-density", true, "fit an out-of-distribution density for a model without a score of its own, for aer predict --ood and aer serve (false: none)")
	a.memCheck = fs.Bool("memory-check", true, "refuse, before it starts, a fit the method estimates needs more memory than is available (false: try anyway)")
	a.df.register(fs)
	a.df.registerCategorical(fs)
	err := parseNoArgs(fs, args)
	switch {
	case err != nil:
		return nil, err
	case *a.train == "":
		return nil, usageErrorf("fit: --train is required")
	case *a.out == "":
		return nil, usageErrorf("fit: --out is required")
	case *a.threads < 0:
		return nil, usageErrorf("fit: --threads must be at least 0, not %d", *a.threads)
	case *a.quantize != "" && *a.quantize != aerlib.PrecisionInt16 && *a.quantize != aerlib.PrecisionInt8:
		return nil, usageErrorf("fit: --quantize %q: want int16 or int8", *a.quantize)
	}
	if err := refuseOverwrite("fit", "--out", *a.out, input{"--train", *a.train}, input{"--valid", *a.valid}); err != nil {
		return nil, err
	}
	if err := oneStdin("fit", input{"--train", *a.train}, input{"--valid", *a.valid}); err != nil {
		return nil, err
	}
	return a, nil
}

func runFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseFitArgs(args, stderr)
	if err != nil {
		return err
	}
	setFittingGC(*a.train)
	plan, err := a.ff.plan("fit")
	if err != nil {
		return err
	}
	// The progress shows from the first byte read; while it shows, the
	// command's notes go through it.
	bar := newProgress(stderr, "fit "+plan.method.Name())
	notes := noteLogger(bar.writer(stderr), "fit")
	model, train, valid, mem, labelWarning, err := a.fit(ctx, plan, bar, notes, bar.writer(stderr))
	bar.done(err)
	flushNotes(notes, stderr)
	if err != nil {
		return err
	}
	for _, w := range model.Report().Warnings {
		fmt.Fprintf(stderr, "fit: warning: %s\n", w)
	}
	if *a.quantize != "" {
		if model, err = model.Quantize(aerlib.QuantizeOptions{Precision: *a.quantize}); err != nil {
			return fmt.Errorf("fit: %w", err)
		}
	}
	if err := model.Save(ctx, *a.out); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("fit: %w", err)
	}
	o := a.output(model, train, valid, mem)
	if labelWarning != "" {
		o.Warnings = append(o.Warnings, labelWarning)
	}
	if *a.asJSON {
		return writeJSON(stdout, o)
	}
	return writeFitText(stdout, o)
}

// fit reads the data and fits the model, showing its progress on bar
// and writing its notes to notes and stderr. It returns the model, the
// tables, the memory plan and the warning about a continuous label ("" if
// none).
func (a *fitArgs) fit(ctx context.Context, plan *fitPlan, bar *progress, notes *slog.Logger, stderr io.Writer) (model *aerlib.Model, train, valid *aerlib.Table, mem *fitMemory, labelWarning string, err error) {
	if train, valid, err = a.readData(bar.reading(ctx), stderr); err != nil {
		return
	}
	if err = plan.checkValid(valid != nil); err != nil {
		return
	}
	if labelWarning = train.Dataset().ContinuousLabel(); labelWarning != "" {
		fmt.Fprintf(stderr, "fit: warning: %s\n", labelWarning)
	}
	if mem, err = a.memoryPlan(plan, train, valid); err != nil {
		return
	}
	// The training features are not read after the fit: the method may
	// work on them in place.
	env := learn.Env{Seed: *a.seed, Workers: *a.threads, Progress: bar.update, Logger: notes, ConsumeTrain: true, MemoryPlan: mem.replan}
	fresh, _ := learn.New(plan.method.Name())
	settings := plan.settings(env)
	settings.NoOODDensity = !*a.oodDensity
	if model, err = aerlib.Fit(ctx, train, valid, settings, fresh); err != nil {
		if isParamError(err) {
			err = usageErrorf("fit: %v", err)
		} else {
			err = fmt.Errorf("fit: %w", err)
		}
	}
	return
}

// readData reads the training table and the validation one, from --valid
// or the training file's split column (nil when there is none).
func (a *fitArgs) readData(ctx context.Context, stderr io.Writer) (train, valid *aerlib.Table, err error) {
	opt := a.df.trainingOptions()
	opt.Weight = *a.weight
	opt.Workers = *a.threads
	t, err := readTable(ctx, *a.train, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("fit: %w", err)
	}
	if err := a.df.checkDropped(t.Dataset(), *a.train); err != nil {
		return nil, nil, usageErrorf("fit: %v", err)
	}
	if err := a.df.checkPositive(t.Dataset(), *a.train); err != nil {
		return nil, nil, usageErrorf("fit: %v", err)
	}
	noteMixed(stderr, "fit", t.Dataset(), *a.train)
	noteSuspects(stderr, "fit", t.Dataset(), *a.train)
	train = t
	if t.Dataset().Split != nil {
		tr, va, te, err := t.Dataset().SplitIndices()
		if err != nil {
			return nil, nil, fmt.Errorf("fit: %w", err)
		}
		fmt.Fprintf(stderr, "fit: %s: split column: %d train, %d valid, %d test rows (test rows not used)\n", *a.train, len(tr), len(va), len(te))
		if *a.valid == "" && len(va) > 0 {
			valid = t.Subset(va)
		}
		train = t.Subset(tr)
	}
	if *a.valid == "" {
		return train, valid, nil
	}
	d, schema := train.Dataset(), train.Schema()
	valid, err = readTable(ctx, *a.valid, dataset.Options{Label: d.Label, Classes: d.Classes, AllowOneClass: true, Weight: *a.weight,
		Drop: opt.Drop, Delimiter: opt.Delimiter, NA: opt.NA, ID: opt.ID, Categories: d.Categories, Workers: *a.threads,
		Keep: schema.RawColumns()})
	if err != nil {
		return nil, nil, fmt.Errorf("fit: %w", err)
	}
	if n := sumInts(valid.Dataset().Unseen); n > 0 {
		fmt.Fprintf(stderr, "fit: %s: %d cells of categorical columns hold values the training data lacks, encoded as all zeros\n", *a.valid, n)
	}
	return train, valid, nil
}

// fitMemory is the memory plan of a fit: the method's estimate and the
// runtime's soft limit.
type fitMemory struct {
	estimate, limit int64
	replan          func(int64)
}

// memoryPlan estimates the fit's memory, refuses a fit that cannot fit
// (unless --memory-check=false) and sets the soft memory limit.
func (a *fitArgs) memoryPlan(plan *fitPlan, train, valid *aerlib.Table) (*fitMemory, error) {
	td := train.Dataset()
	shape := learn.Shape{Rows: td.Rows(), Features: td.Cols(), Workers: *a.threads, ConsumeTrain: true}
	if valid != nil {
		shape.ValidRows = valid.Rows()
	}
	m := &fitMemory{}
	m.estimate, _ = learn.FitMemory(plan.method, shape)
	if m.estimate > 0 {
		tables := int64(td.Rows()) * int64(td.Cols()) * 8
		if valid != nil {
			tables += int64(valid.Rows()) * int64(td.Cols()) * 8
		}
		m.limit = limitToPlan(tables + m.estimate)
		// A closer figure during the fit lowers the limit further.
		m.replan = func(b int64) { m.limit = limitToPlan(tables + b) }
	}
	if avail, ok := availableMemory(); ok && *a.memCheck {
		if err := learn.CheckMemory(plan.method, shape, avail); err != nil {
			return nil, fmt.Errorf("fit: %w (--memory-check=false tries anyway)", err)
		}
	}
	return m, nil
}

// output is the --json document of a finished fit.
func (a *fitArgs) output(model *aerlib.Model, train, valid *aerlib.Table, mem *fitMemory) fitOutput {
	h, rep := model.Header(), model.Report()
	var cfg headerConfig
	_ = json.Unmarshal(h.Config, &cfg)
	o := fitOutput{
		Method: h.Method, Train: *a.train, Rows: cfg.Train.Rows, Features: len(h.Schema.Features), Positives: cfg.Train.Positives,
		Weight: h.Schema.Weight, Seed: *a.seed, Params: cfg.Params, FitSeconds: rep.Seconds, Out: *a.out, Classes: dataset.ClassPair(h.Schema.Classes),
		Decision: rep.Layer, Search: rep.Search, MemoryEstimate: mem.estimate, Result: rep.Summary, Warnings: rep.Warnings,
	}
	if mem.limit > 0 && mem.limit < math.MaxInt64 {
		o.MemoryLimit = mem.limit
	}
	if peak, ok := memlimit.PeakRSS(); ok {
		o.PeakRSS = peak
	}
	if v, ok := learn.TunedThreshold(model.Learned()); ok {
		o.Threshold = &v
	}
	if model.NumClasses() > 2 {
		o.Labels, o.Multiclass, o.ClassCounts = h.Schema.Classes, h.Multiclass, train.Dataset().ClassCounts()
		o.MultiDecision = model.Layer()
	}
	if valid != nil {
		o.Valid = *a.valid
		if o.Valid == "" {
			o.Valid = *a.train + " (split=valid)"
		}
		o.ValidRows = valid.Rows()
	}
	return o
}

// writeFitText renders a finished fit for people.
func writeFitText(w io.Writer, o fitOutput) error {
	fmt.Fprintf(w, "method     %s\n", o.Method)
	if o.Labels != nil {
		counts := make([]string, len(o.Labels))
		for c, name := range o.Labels {
			counts[c] = fmt.Sprintf("%s %d", name, o.ClassCounts[c])
		}
		fmt.Fprintf(w, "train      %s: %d rows, %d features, %d classes (%s)\n", o.Train, o.Rows, o.Features, len(o.Labels), strings.Join(counts, ", "))
		fmt.Fprintf(w, "multiclass %s\n", o.Multiclass)
		if d := o.MultiDecision; d != nil {
			fmt.Fprintf(w, "decision   %s\n", multiDecisionText(d))
		}
	} else {
		fmt.Fprintf(w, "train      %s: %d rows, %d features, %d positive (%s)\n", o.Train, o.Rows, o.Features, o.Positives, o.Classes[1])
	}
	if o.ValidRows > 0 || o.Valid != "" {
		fmt.Fprintf(w, "valid      %s: %d rows\n", o.Valid, o.ValidRows)
	}
	fmt.Fprintf(w, "fit time   %.3f s\n", o.FitSeconds)
	if found := o.Search; found != nil {
		p := found.Points[found.Chosen]
		fmt.Fprintf(w, "grid       %d points; chosen %s (%s %.4f on validation)\n", len(found.Points), strings.Join(p.Params, " "), found.Objective, p.Value)
	}
	if st, ok := o.Result.(fmt.Stringer); ok {
		fmt.Fprintf(w, "result     %s\n", st)
	}
	if o.MultiDecision == nil {
		writeDecision(w, o.Decision, o.Threshold)
	}
	_, err := fmt.Fprintf(w, "model      %s\n", o.Out)
	return err
}

// writeDecision renders a two-class model's decision: its layer, the
// threshold its method tuned (nil: none), or neither (0.5).
func writeDecision(w io.Writer, layer *decision.Layer, threshold *float64) {
	on := "on validation"
	switch {
	case layer == nil:
	case layer.Source == decision.SourceHoldout:
		on = "on the training rows the method held out (no validation rows)"
	case layer.Source == decision.SourceCrossFit:
		on = fmt.Sprintf("on %d-fold out-of-fold scores of the training rows (no validation rows)", layer.Folds)
	case layer.Folds > 0:
		on = fmt.Sprintf("on validation and %d-fold out-of-fold training scores", layer.Folds)
	}
	switch {
	case layer != nil && layer.Calibration != nil && layer.Rule == decision.RuleBayes:
		fmt.Fprintf(w, "decision   scores are probabilities (%s calibration %s); threshold %.4g, the Bayes-optimal probability for %s (%.4f there)\n", layer.Calibration.Method, on, layer.Threshold, layer.Objective, layer.Value)
	case layer != nil && layer.Calibration != nil:
		fmt.Fprintf(w, "decision   scores are probabilities (%s calibration %s); threshold %.4g for %s (%.4f there)\n", layer.Calibration.Method, on, layer.Threshold, layer.Objective, layer.Value)
	case layer != nil:
		how := ""
		if layer.Rule == decision.RuleBayes {
			how = " (Bayes threshold of a sigmoid calibration)"
		}
		fmt.Fprintf(w, "decision   threshold %.4g for %s %s (%.4f)%s\n", layer.Threshold, layer.Objective, on, layer.Value, how)
	case threshold != nil:
		fmt.Fprintf(w, "threshold  %.4g (tuned by the method)\n", *threshold)
	default:
		fmt.Fprintf(w, "decision   none: the model predicts positive at a score of 0.5\n")
	}
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
	case "", decision.Sigmoid, decision.Isotonic, decision.None:
	default:
		return decision.Objective{}, false, usageErrorf("%s: --calibrate %q: want sigmoid, isotonic or none", cmd, calibrate)
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

// gridAxes checks the --grid flags: "paper" for the method's paper grid,
// else key=v1,v2 axes (pipeline.Axes); a mistake is a usage error.
func gridAxes(cmd string, m learn.Method, flags []string) error {
	if _, err := pipeline.Axes(m, flags); err != nil {
		return usageErrorf("%s: --%v", cmd, strings.TrimPrefix(err.Error(), learn.ErrParam.Error()+": "))
	}
	return nil
}
