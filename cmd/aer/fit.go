package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/modelfile"
)

func init() {
	register(&command{
		name:    "fit",
		summary: "train a classifier on a CSV file and save it as a model file",
		usage: `Usage: aer fit --train train.csv [--valid valid.csv] [--method gbdt] [--param key=value ...] --out model.aer [--json]

Trains the method on the labelled CSV file and writes the model file (the
method, the data schema, the fit configuration and the fitted model, with a
checksum) for aer predict. --param sets one method parameter and may be
repeated; for gbdt the parameters are XGBoost's: eta, max_depth,
n_estimators, lambda, alpha, gamma, min_child_weight, subsample,
colsample_bytree, scale_pos_weight, base_score, max_bin, grow_policy
(depthwise or leafwise), max_leaves, objective (logistic, focal, weighted),
focal_gamma, focal_alpha, weighted_alpha, early_stopping_rounds and
eval_metric (logloss or auc, on --valid). Missing values are handled by the
trees themselves.

--method aer fits the AER adaptive ensemble; --method dynens the paper's
Dynamic Ensemble baseline (the same members, lambda fixed at 1). Their
parameters: components (pool of L, e.g. 2-8), covariance (auto, full, diag,
tied, spherical), n_init, rank (density, responsibility), tomek (true,
false), local_random, grid (default, none, or e.g.
"eta:0.1,max_depth:3;eta:0.3,max_depth:6"), outputs (proba, binary),
projection (minmax, simplex), init (info, uniform), weight_data (union,
valid), schedule, step_scale, max_iter, tol, batch_size, likelihood (exp,
log, tempered, uniform), mixture_weights, metric (balanced_accuracy, gmean,
f1, mcc, ...), delta_step, holdout, standardize; any XGBoost parameter sets
the members (and turns the grid off). Lambda and delta are tuned on --valid,
else on a stratified 25% of the training rows held out. aer predict then
thresholds at the tuned delta unless --threshold is given.

If the training file has a split column, its train rows are used for
training and, without --valid, its valid rows for validation; test rows are
left out.

--json prints the fit summary: data sizes, the resolved parameters, the fit
time in seconds (excluding reading the CSV files) and the method's report:
for gbdt the number of trees and the validation curve with its best
iteration; for aer the BIC table and chosen L, subset sizes, the member
settings tried, static weights and their descent, lambda, delta, validation
metrics and seconds per stage.`,
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
	Method     string    `json:"method"`
	Train      string    `json:"train"`
	Rows       int       `json:"rows"`
	Features   int       `json:"features"`
	Positives  int       `json:"positives"`
	Valid      string    `json:"valid,omitempty"`
	ValidRows  int       `json:"valid_rows,omitempty"`
	Seed       uint64    `json:"seed"`
	Config     any       `json:"config"`
	FitSeconds float64   `json:"fit_seconds"`
	Result     any       `json:"result"`
	Out        string    `json:"out"`
	Classes    [2]string `json:"classes"`
}

func runFit(args []string, stdout, stderr io.Writer) error {
	c := commands["fit"]
	fs := newFlagSet(c, stderr)
	methodName := fs.String("method", "gbdt", "classifier to train: "+methodNames())
	trainPath := fs.String("train", "", "labelled training CSV `file` (required)")
	validPath := fs.String("valid", "", "labelled validation CSV `file` (early stopping, validation curve)")
	var params paramFlags
	fs.Var(&params, "param", "method parameter `key=value` (repeatable)")
	out := fs.String("out", "", "model `file` to write (required)")
	seed := fs.Uint64("seed", 0, "random seed")
	threads := fs.Int("threads", 0, "worker goroutines (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON document on stdout")
	var df dataFlags
	df.register(fs)
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
	if *threads < 0 {
		return usageErrorf("fit: --threads must be at least 0, not %d", *threads)
	}
	m, ok := methods[*methodName]
	if !ok {
		return usageErrorf("fit: unknown method %q (known: %s)", *methodName, methodNames())
	}
	nthreads := *threads
	if nthreads == 0 {
		nthreads = runtime.GOMAXPROCS(0)
	}

	train, err := dataset.Load(*trainPath, df.options())
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
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
		v, err := dataset.Load(*validPath, dataset.Options{Label: train.Label, Classes: train.Classes, AllowOneClass: true})
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		x, err := v.Matrix(train.Features)
		if err != nil {
			return fmt.Errorf("fit: validation data: %w", err)
		}
		v.X, v.Features = x, train.Features
		valid = v
	}

	req := &fitRequest{Train: train, Valid: valid, Params: params, Seed: *seed, Threads: nthreads, Log: stderr}
	start := time.Now()
	res, err := m.fit(context.Background(), req)
	elapsed := time.Since(start)
	if err != nil {
		if errors.Is(err, errBadParam) {
			return usageErrorf("fit: %v", err)
		}
		return fmt.Errorf("fit: %w", err)
	}
	cfg, err := configJSON(res.Config)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	h := &modelfile.Header{
		Method:     m.name,
		Schema:     modelfile.Schema{Features: train.Features, Label: train.Label, Classes: train.Classes},
		Preprocess: res.Preprocess,
		Config:     cfg,
		Producer:   "aer " + version,
	}
	if err := modelfile.Save(*out, h, res.Payload); err != nil {
		return fmt.Errorf("fit: %w", err)
	}

	_, pos := train.ClassCounts()
	o := fitOutput{
		Method: m.name, Train: *trainPath, Rows: train.Rows(), Features: train.Cols(), Positives: pos,
		Seed: *seed, Config: res.Config, FitSeconds: elapsed.Seconds(), Result: res.Info, Out: *out,
		Classes: train.Classes,
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
	if gi, ok := res.Info.(gbdtInfo); ok {
		fmt.Fprintf(stdout, "trees      %d (%d leaves)\n", gi.Trees, gi.Leaves)
		if gi.BestIteration != nil {
			fmt.Fprintf(stdout, "validation best %s %.6g at round %d of %d\n", gi.EvalMetric, *gi.BestScore, *gi.BestIteration+1, len(gi.ValidCurve))
		}
	}
	fmt.Fprintf(stdout, "model      %s\n", o.Out)
	return nil
}
