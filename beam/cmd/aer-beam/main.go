// Command aer-beam runs aer's pipelines on Apache Beam: in-process on the
// Prism runner by default, or on Flink, Spark or Dataflow (--runner,
// --endpoint, --environment_type and the other Beam flags), where this
// program is also the workers' binary.
//
//	aer-beam predict --model model.aer --data 'GLOB' --out PREFIX [--id COL] [--json] [Beam flags]
//
// predict scores every file the pattern matches (CSV, gzip-compressed
// CSV or Parquet; local paths, and gs:// or s3:// where Beam reaches
// them) as aer predict does, one output shard PREFIX-HASH.csv per input
// file, and prints the shards' count, the rows scored and those
// predicted positive.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/aer-go/aer/beam/predict"
)

// predictFlags are predict's own flags; the rest of the command line
// goes to Beam's (the global flag set: --runner, --endpoint, and its
// worker flags, one of which is --id).
type predictFlags struct {
	fs                   *flag.FlagSet
	model, data, out, id *string
	asJSON               *bool
}

func newPredictFlags(stderr io.Writer) *predictFlags {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	return &predictFlags{fs: fs,
		model:  fs.String("model", "", "the model file aer fit wrote (required)"),
		data:   fs.String("data", "", "pattern of the data files, e.g. 'data/part-*.csv' or 'gs://b/in/*.csv.gz' (required)"),
		out:    fs.String("out", "", "prefix of the output shards PREFIX-HASH.csv (required)"),
		id:     fs.String("id", "", "the data's id column, written first (default: the model's)"),
		asJSON: fs.Bool("json", false, "print one JSON document: the shards' prefix, files, rows and positive rows"),
	}
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

const usage = `usage: aer-beam predict --model model.aer --data 'GLOB' --out PREFIX [--id COL] [--json] [Beam flags: --runner prism|flink|spark|dataflow, --endpoint, --environment_type, ...]`

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
	pf := newPredictFlags(stderr)
	if cmd == "predict" {
		var own []string
		own, rest = split(pf.fs, rest)
		if err := pf.fs.Parse(own); err != nil {
			return 2
		}
	}
	flag.CommandLine.SetOutput(stderr)
	if err := flag.CommandLine.Parse(rest); err != nil {
		return 2
	}
	beam.Init() // a worker runs its harness here and does not return
	switch cmd {
	case "predict":
		if err := runPredict(context.Background(), pf, stdout); err != nil {
			fmt.Fprintln(stderr, "aer-beam: predict:", err)
			var ue usageError
			if errors.As(err, &ue) {
				return 2
			}
			return 1
		}
		return 0
	case "", "help":
		fmt.Fprintln(stderr, usage)
		pf.fs.PrintDefaults()
		return 2
	}
	fmt.Fprintf(stderr, "aer-beam: unknown command %q\n%s\n", cmd, usage)
	return 2
}

type usageError string

func (e usageError) Error() string { return string(e) }

func runPredict(ctx context.Context, pf *predictFlags, stdout io.Writer) error {
	if *pf.model == "" || *pf.data == "" || *pf.out == "" {
		return usageError("--model, --data and --out are required")
	}
	p, s := beam.NewPipelineWithRoot()
	predict.Pipeline(s, predict.Options{Model: *pf.model, Data: *pf.data, Out: *pf.out, ID: *pf.id})
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	counts := map[string]int64{}
	if res != nil {
		for _, c := range res.Metrics().AllMetrics().Counters() {
			if c.Key.Namespace == predict.Namespace {
				counts[c.Key.Name] += c.Committed
			}
		}
	}
	if *pf.asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"out": *pf.out + "-*.csv", "files": counts[predict.FileCounter],
			"rows": counts[predict.RowsCounter], "positive": counts[predict.PosCounter]})
	}
	fmt.Fprintf(stdout, "aer-beam: predict: %d files scored into %s-*.csv: %d rows, %d predicted positive\n",
		counts[predict.FileCounter], *pf.out, counts[predict.RowsCounter], counts[predict.PosCounter])
	return nil
}
