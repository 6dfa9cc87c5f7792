// Command aer-beam runs aer's pipelines on Apache Beam: in-process on the
// Prism runner by default, or on Flink, Spark or Dataflow (--runner,
// --endpoint, --environment_type and the other Beam flags), where this
// program is also the workers' binary.
//
//	aer-beam fit --train 'GLOB' [--valid 'GLOB'] --out model.aer [--seed S] [--param KEY=VALUE ...] [data flags] [--json] [Beam flags]
//	aer-beam predict --model model.aer --data 'GLOB' --out DIR [--id COL] [--json] [Beam flags]
//
// fit fits AER (the default aer fit fits) with its stages spread over
// the workers and writes the model file aer fit writes; its data flags
// are aer fit's (--label, --positive, --id, --weight, --drop,
// --categorical, --max-categories, --delimiter, --na). Without --valid a
// quarter of the training rows (--holdout) is held out for validation.
// See docs/beam.md.
//
// predict scores every file the pattern matches (CSV, gzip-compressed
// CSV or Parquet; local paths, and gs:// or s3:// where Beam reaches
// them) as aer predict does, one output shard per input file named
// after it in the folder --out (data/part-007.csv scored into
// OUT/part-007.pred.csv), with OUT/manifest.json mapping each input to
// its shard and rows; it prints the shards' count, the rows scored and
// those predicted positive (--json: the manifest). The shards appear
// only once every file is scored.
//
// Both print one line on stderr as each stage of the pipeline starts
// and one as it ends, with its elapsed time, when the pipeline runs in
// this process (Prism in-process, the default).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	// The file systems patterns and model paths reach: local paths,
	// gs:// and s3://.
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/beam/fit"
	"github.com/aer-go/aer/beam/internal/progress"
	"github.com/aer-go/aer/beam/predict"
	"github.com/aer-go/aer/pipeline"
)

// predictFlags are predict's own flags; the rest of the command line
// goes to Beam's (the global flag set: --runner, --endpoint, and its
// worker flags, one of which is --id).
type predictFlags struct {
	fs                   *flag.FlagSet
	model, data, out, id *string
	asJSON, verbose      *bool
}

func newPredictFlags(stderr io.Writer) *predictFlags {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	return &predictFlags{fs: fs,
		model:   fs.String("model", "", "the model file aer fit wrote (required)"),
		data:    fs.String("data", "", "pattern of the data files, e.g. 'data/part-*.csv' or 'gs://b/in/*.csv.gz' (required)"),
		out:     fs.String("out", "", "the folder the shards (one per input: data/part-007.csv gives OUT/part-007.pred.csv) and manifest.json go to (required)"),
		id:      fs.String("id", "", "the data's id column, written first (default: the model's)"),
		asJSON:  fs.Bool("json", false, "print one JSON document: the manifest, each input with its shard, rows and positive rows, and the totals"),
		verbose: fs.Bool("verbose", false, "print the runner's and Beam's log lines too (by default only their warnings and errors)"),
	}
}

// listFlag is a flag that may be repeated, and takes comma-separated
// lists when split is set.
type listFlag struct {
	vals  []string
	split bool
}

func (l *listFlag) String() string { return strings.Join(l.vals, ",") }
func (l *listFlag) Set(v string) error {
	if l.split {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				l.vals = append(l.vals, p)
			}
		}
		return nil
	}
	l.vals = append(l.vals, v)
	return nil
}

// fitFlags are fit's own flags.
type fitFlags struct {
	fs                                     *flag.FlagSet
	train, valid, out, method              *string
	label, positive, id, weight, delimiter *string
	seed                                   *uint64
	holdout                                *float64
	allRows, maxCategories                 *int
	params, drop, categorical, na          *listFlag
	asJSON, verbose                        *bool
}

func newFitFlags(stderr io.Writer) *fitFlags {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &fitFlags{fs: fs,
		train:         fs.String("train", "", "pattern of the training files, e.g. 'data/part-*.csv' or 'gs://b/train/*.parquet' (required)"),
		valid:         fs.String("valid", "", "pattern of the validation files (default: --holdout of the training rows)"),
		out:           fs.String("out", "", "the model file to write (required; local paths are written atomically)"),
		method:        fs.String("method", "aer", "the method: aer (the only one fitted distributed)"),
		seed:          fs.Uint64("seed", 0, "the seed every random choice flows from"),
		holdout:       fs.Float64("holdout", 0.25, "without --valid, the share of training rows held out for validation (drawn per row)"),
		allRows:       fs.Int("all-rows", 2_000_000, "training rows beyond which the member on all rows and the peers train on a draw of the majority rows (0: no limit)"),
		label:         fs.String("label", "", "the label column (default: label, else the last column)"),
		positive:      fs.String("positive", "", "the positive class (default: the rarer over all files)"),
		id:            fs.String("id", "", "a row-identifier column: not a feature, written back by aer predict"),
		weight:        fs.String("weight", "", "a column of non-negative row weights"),
		delimiter:     fs.String("delimiter", "", "the CSV field separator (default: sniffed from the header)"),
		maxCategories: fs.Int("max-categories", 0, "the most values a categorical column may have in a file (default: aer fit's)"),
		params:        &listFlag{},
		drop:          &listFlag{split: true},
		categorical:   &listFlag{split: true},
		na:            &listFlag{split: true},
		asJSON:        fs.Bool("json", false, "print one JSON document: the model file, the training and validation rows and the members"),
		verbose:       fs.Bool("verbose", false, "print the runner's and Beam's log lines too (by default only their warnings and errors)"),
	}
	fs.Var(f.params, "param", "an AER parameter KEY=VALUE, as aer fit --param (repeatable; aer help fit --method aer lists them)")
	fs.Var(f.drop, "drop", "columns that are not features, comma-separated (repeatable)")
	fs.Var(f.categorical, "categorical", "columns read as categorical even when they hold numbers (repeatable)")
	fs.Var(f.na, "na", "more cell values that mean missing (repeatable)")
	return f
}

// split sorts args into fs's flags (with their values) and the rest.
func split(fs *flag.FlagSet, args []string) (own, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil {
			rest = append(rest, a)
			continue
		}
		own = append(own, a)
		if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !isBool && i+1 < len(args) {
			own = append(own, args[i+1])
			i++
		}
	}
	return own, rest
}

const usage = `usage: aer-beam fit --train 'GLOB' [--valid 'GLOB'] --out model.aer [--seed S] [--param KEY=VALUE ...] [data flags] [--json] [Beam flags]
       aer-beam predict --model model.aer --data 'GLOB' --out DIR [--id COL] [--json] [Beam flags]
Beam flags: --runner prism|flink|spark|dataflow, --endpoint, --environment_type, --environment_config, ... (docs/beam.md)`

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run runs the command line args (args[0] the program), or, when a Beam
// runner started this binary as a worker (no command), the worker.
func run(args []string, stdout, stderr io.Writer) int {
	cmd, rest := "", args[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		cmd, rest = rest[0], rest[1:]
	}
	pf, ff := newPredictFlags(stderr), newFitFlags(stderr)
	var own *flag.FlagSet
	switch cmd {
	case "predict":
		own = pf.fs
	case "fit":
		own = ff.fs
	}
	if own != nil {
		var mine []string
		mine, rest = split(own, rest)
		if err := own.Parse(mine); err != nil {
			return 2
		}
	}
	flag.CommandLine.SetOutput(stderr)
	if err := flag.CommandLine.Parse(rest); err != nil {
		return 2
	}
	beam.Init() // a worker runs its harness here and does not return
	switch {
	case cmd == "predict" && !*pf.verbose, cmd == "fit" && !*ff.verbose:
		// The runner (Prism) logs its job's every step through slog's
		// default logger: on a terminal a user sees only what matters.
		slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	}
	var err error
	switch cmd {
	case "predict":
		err = runPredict(context.Background(), pf, stdout, stderr)
	case "fit":
		err = runFit(context.Background(), ff, stdout, stderr)
	case "", "help":
		fmt.Fprintln(stderr, usage)
		topic := ""
		if len(rest) > 0 {
			topic = rest[0]
		}
		for _, c := range []struct {
			name string
			fs   *flag.FlagSet
		}{{"fit", ff.fs}, {"predict", pf.fs}} {
			if topic == "" || topic == c.name {
				fmt.Fprintf(stderr, "\n%s's flags:\n", c.name)
				c.fs.PrintDefaults()
			}
		}
		return 2
	default:
		fmt.Fprintf(stderr, "aer-beam: unknown command %q\n%s\n", cmd, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "aer-beam: %s: %v\n", cmd, err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

type usageError string

func (e usageError) Error() string { return string(e) }

func runPredict(ctx context.Context, pf *predictFlags, stdout, stderr io.Writer) error {
	if *pf.model == "" || *pf.data == "" || *pf.out == "" {
		return usageError("--model, --data and --out are required")
	}
	inputs, err := listMatches(ctx, "data", *pf.data)
	if err != nil {
		return err
	}
	o := predict.Options{Model: *pf.model, Data: *pf.data, Out: *pf.out, ID: *pf.id,
		Shards: predict.ShardNames(inputs), Token: predict.NewToken()}
	names := []string{predict.ManifestName}
	for _, n := range o.Shards {
		names = append(names, n)
	}
	slices.Sort(names)
	if err := refuseOutDir(*pf.out, names, append(matched("--data", inputs), input{"--model", *pf.model})); err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	predict.Pipeline(s, o)
	progress.Start(stderr, "aer-beam: predict: ")
	_, err = runCounting(ctx, p, predict.Namespace)
	var m *predict.Manifest
	if err == nil {
		m, err = predict.Commit(ctx, o)
	}
	progress.Stop()
	if err != nil {
		predict.Abort(ctx, o)
		return err
	}
	manifest := strings.TrimSuffix(*pf.out, "/") + "/" + predict.ManifestName
	if *pf.asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			File string `json:"manifest"`
			*predict.Manifest
		}{manifest, m})
	}
	fmt.Fprintf(stdout, "aer-beam: predict: %d files scored into %s: %d rows, %d predicted positive (each input's shard: %s)\n",
		m.Files, *pf.out, m.Rows, m.Positive, manifest)
	return nil
}

func runFit(ctx context.Context, ff *fitFlags, stdout, stderr io.Writer) error {
	if *ff.train == "" || *ff.out == "" {
		return usageError("--train and --out are required")
	}
	if *ff.method != "aer" {
		return usageError(fmt.Sprintf("--method %s: aer-beam fits aer only (fit other methods with aer fit)", *ff.method))
	}
	if *ff.holdout <= 0 || *ff.holdout >= 1 {
		return usageError(fmt.Sprintf("--holdout %v: want a share in (0, 1)", *ff.holdout))
	}
	var delim rune
	if d := *ff.delimiter; d != "" {
		r := []rune(strings.ReplaceAll(d, `\t`, "\t"))
		if len(r) != 1 {
			return usageError(fmt.Sprintf("--delimiter %q: want one character", d))
		}
		delim = r[0]
	}
	spec := fit.Spec{
		Read: aer.ReadOptions{Label: *ff.label, Positive: *ff.positive, ID: *ff.id, Weight: *ff.weight, Drop: ff.drop.vals,
			Categorical: ff.categorical.vals, MaxCategories: *ff.maxCategories, Delimiter: delim, NA: ff.na.vals},
		Seed: *ff.seed, Params: ff.params.vals, Holdout: *ff.holdout, AllRows: *ff.allRows,
	}
	if *ff.allRows == 0 {
		spec.AllRows = -1
	}
	// The parameters are checked here, before any file is read.
	if _, err := pipeline.NewMethod("aer", spec.Params); err != nil {
		return usageError(err.Error())
	}
	train, err := listMatches(ctx, "train", *ff.train)
	if err != nil {
		return err
	}
	inputs := matched("--train", train)
	if *ff.valid != "" {
		valid, err := listMatches(ctx, "valid", *ff.valid)
		if err != nil {
			return err
		}
		inputs = append(inputs, matched("--valid", valid)...)
	}
	if err := refuseOverwrite("--out", *ff.out, inputs); err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	fit.Pipeline(s, fit.Options{Train: *ff.train, Valid: *ff.valid, Out: *ff.out, Spec: spec})
	progress.Start(stderr, "aer-beam: fit: ")
	counts, err := runCounting(ctx, p, fit.Namespace)
	progress.Stop()
	if err != nil {
		return err
	}
	if *ff.asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"out": *ff.out, "method": "aer", "train_rows": counts[fit.RowsCounter],
			"valid_rows": counts[fit.ValidCounter], "members": counts[fit.MemberCounter]})
	}
	fmt.Fprintf(stdout, "aer-beam: fit: wrote %s: aer, %d members, %d training rows, %d validation rows\n",
		*ff.out, counts[fit.MemberCounter], counts[fit.RowsCounter], counts[fit.ValidCounter])
	return nil
}

// listMatches lists the files a pattern matches, before a pipeline is
// built, through Beam's file systems, as the pipeline's match will list
// them; a pattern that matches no file is an error of one line, not a
// failed job.
func listMatches(ctx context.Context, name, pattern string) ([]string, error) {
	fsys, err := filesystem.New(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("--%s %s: %w", name, pattern, err)
	}
	defer fsys.Close()
	files, err := fsys.List(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("--%s %s: %w", name, pattern, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("--%s %s: no files match", name, pattern)
	}
	return files, nil
}

// runCounting runs the pipeline and returns its committed counters of
// namespace ns by name.
func runCounting(ctx context.Context, p *beam.Pipeline, ns string) (map[string]int64, error) {
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return nil, err
	}
	counts := map[string]int64{}
	if res != nil {
		for _, c := range res.Metrics().AllMetrics().Counters() {
			if c.Key.Namespace == ns {
				counts[c.Key.Name] += c.Committed
			}
		}
	}
	return counts, nil
}
