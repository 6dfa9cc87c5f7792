package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aer-go/aer/bench"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/synth"
)

// demoMethods are the demo's default method specs: AER against boosted
// trees (the paper's strongest baselines, plain and with scale_pos_weight
// and a tuned threshold) and logistic regression; all fit in seconds.
const demoMethods = "aer,gbdt,gbdt-tuned,logreg"

func init() {
	register(&command{
		name:    "demo",
		summary: "a small bench on the paper's synthetic task: AER against boosted trees and logistic regression",
		usage: `usage: aer demo [--seed 0] [--samples 8000] [--seeds 0-1] [--methods LIST] [--out DIR] [--jobs 2] [--threads 0] [--json]

A first look at aer in seconds: generates the paper's synthetic task (8000
rows, 1:79 imbalance, 10 clusters per class, 20 features of which 10
informative; --seed draws it) into a temporary file and runs aer bench on it
with a few fast methods (default ` + demoMethods + `) and two seeds:
each seed splits the task 3:1:1 (stratified), every method fits on the
training rows and goes through aer fit's default decision layer on the
validation rows: calibrated scores and the Bayes threshold for balanced
accuracy (AER also tunes its weights and lambda there). It prints
the test metrics of each method, mean ± standard deviation over the seeds,
and where the bench's report is: report.md and report.html with the tables,
tests, ROC, precision-recall and reliability curves, and AER's static
weights and tuning curves (aer help bench).

--out keeps the bench in DIR (default: a new temporary directory, kept);
running the demo again with the same --out and settings reuses its runs.
--methods and --seeds are those of aer bench; --jobs runs fits at once.`,
		run: runDemo,
	})
}

// demoMetrics are the columns of runs.csv the demo prints, in order.
var demoMetrics = []struct {
	key, label string
	get        func(*bench.Row) float64
}{
	{"balanced_accuracy", "balanced accuracy", func(r *bench.Row) float64 { return r.BalancedAccuracy }},
	{"minority_recall", "minority recall", func(r *bench.Row) float64 { return r.MinorityRecall }},
	{"majority_recall", "majority recall", func(r *bench.Row) float64 { return r.MajorityRecall }},
	{"minority_precision", "minority precision", func(r *bench.Row) float64 { return r.Precision }},
	{"f1", "F1", func(r *bench.Row) float64 { return r.F1 }},
	{"fowlkes_mallows", "Fowlkes-Mallows", func(r *bench.Row) float64 { return r.FowlkesMallows }},
	{"gmean", "G-mean sqrt(TPR*TNR)", func(r *bench.Row) float64 { return r.GMean }},
	{"roc_auc", "ROC-AUC", func(r *bench.Row) float64 { return r.ROCAUC }},
	{"threshold", "threshold", func(r *bench.Row) float64 { return r.Threshold }},
	{"fit_seconds", "fit seconds", func(r *bench.Row) float64 { return r.FitSeconds }},
}

// demoResult is one method's test results over the seeds.
type demoResult struct {
	Method  string                   `json:"method"`
	Runs    int                      `json:"runs"` // ok runs
	Metrics map[string]bench.MeanStd `json:"metrics"`
}

type demoOutput struct {
	Seed      uint64         `json:"seed"` // of the data
	Rows      int            `json:"rows"`
	Positives int            `json:"positives"`
	Features  int            `json:"features"`
	Seeds     []uint64       `json:"seeds"` // of the bench
	Out       string         `json:"out"`
	Report    string         `json:"report"`
	Bench     *bench.Summary `json:"bench"`
	Results   []demoResult   `json:"results"`
}

// demoOptions are aer demo's flags.
type demoOptions struct {
	seed          uint64
	samples       int
	seeds         []uint64
	specs         []bench.Spec
	out           string
	jobs, threads int
	asJSON        bool
}

// parseDemoFlags reads and checks aer demo's flags.
func parseDemoFlags(args []string, stderr io.Writer) (*demoOptions, error) {
	fs := newFlagSet(commands["demo"], stderr)
	var o demoOptions
	fs.Uint64Var(&o.seed, "seed", 0, "random seed of the synthetic task")
	fs.IntVar(&o.samples, "samples", 8000, "rows of the synthetic task")
	seeds := fs.String("seeds", "0-1", "bench `seeds` (splits and models): a range 0-4, a list 1,3,7 or both")
	methods := fs.String("methods", demoMethods, "comma-separated method `specs` NAME or NAME:key=value")
	fs.StringVar(&o.out, "out", "", "bench output `DIR` (default: a new temporary directory)")
	fs.IntVar(&o.jobs, "jobs", 2, "`N` runs fitted at once")
	fs.IntVar(&o.threads, "threads", 0, "worker goroutines of each fit when --jobs is 1 (0: all cores)")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON document")
	err := parseNoArgs(fs, args)
	switch {
	case err != nil:
		return nil, err
	case o.samples < 400:
		return nil, usageErrorf("demo: --samples must be at least 400, got %d", o.samples)
	case o.jobs < 1:
		return nil, usageErrorf("demo: --jobs must be at least 1, not %d", o.jobs)
	case o.threads < 0:
		return nil, usageErrorf("demo: --threads must be at least 0, not %d", o.threads)
	}
	if o.seeds, err = bench.ParseSeeds(*seeds); err != nil {
		return nil, usageErrorf("demo: --seeds: %v", err)
	}
	if o.specs, err = bench.ParseSpecs(*methods); err != nil {
		return nil, usageErrorf("demo: --methods: %v", err)
	}
	if len(o.specs) == 0 {
		return nil, usageErrorf("demo: --methods: no method")
	}
	return &o, nil
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseDemoFlags(args, stderr)
	if err != nil {
		return err
	}
	g, err := synth.Generate(&synth.Settings{
		Samples: o.samples, Ratio: 79, Clusters: 10, Features: 20, Informative: 10, FlipY: synth.None,
	}, o.seed)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	d := g.Dataset("demo")
	tmp, err := os.MkdirTemp("", "aer-demo-data-")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer os.RemoveAll(tmp)
	data := filepath.Join(tmp, "demo.csv")
	if err := writeFileAtomic(ctx, data, func(w io.Writer) error { return dataset.WriteCSV(w, d) }); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if o.out == "" {
		if o.out, err = os.MkdirTemp("", "aer-demo-"); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	pos := d.ClassCounts()[1]
	res := demoOutput{Seed: o.seed, Rows: d.Rows(), Positives: pos, Features: d.Cols(), Seeds: o.seeds, Out: o.out, Report: filepath.Join(o.out, bench.ReportMD)}
	names := make([]string, len(o.specs))
	for i, s := range o.specs {
		names[i] = s.String()
	}
	fmt.Fprintf(stderr, "demo: the paper's synthetic task, %d rows (%d minority), %d features; seeds %s; methods %s\n",
		res.Rows, pos, res.Features, joinSeeds(o.seeds), strings.Join(names, ", "))

	pr := newBenchProgress(stderr)
	res.Bench, err = bench.Run(ctx, bench.Config{
		Datasets: []string{data}, Seeds: o.seeds, Methods: o.specs, Jobs: o.jobs, Threads: o.threads, Out: o.out,
		Progress: pr.event,
	})
	pr.finish()
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if res.Results, err = demoResults(o.out, o.specs, o.seeds); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if o.asJSON {
		return writeJSON(stdout, res)
	}
	writeDemoText(stdout, &res)
	return nil
}

// writeDemoText writes the demo's table of test metrics, a column per
// method.
func writeDemoText(w io.Writer, res *demoOutput) {
	fmt.Fprintf(w, "Test metrics on the synthetic task (positive = minority), mean ± std over seeds %s;\nscores calibrated and thresholds found on the validation rows for balanced accuracy\n\n", joinSeeds(res.Seeds))
	fmt.Fprintf(w, "%-22s", "metric")
	for _, r := range res.Results {
		fmt.Fprintf(w, "%18s", r.Method)
	}
	fmt.Fprintln(w)
	for _, m := range demoMetrics {
		fmt.Fprintf(w, "%-22s", m.label)
		for _, r := range res.Results {
			cell := "n/a"
			if r.Runs == 0 {
				cell = "failed"
			}
			if v, ok := r.Metrics[m.key]; ok {
				cell = fmt.Sprintf("%.3f ± %.3f", v.Mean, v.Std)
				if m.key == "fit_seconds" {
					cell = fmt.Sprintf("%.2f ± %.2f", v.Mean, v.Std)
				}
			}
			fmt.Fprintf(w, "%18s", cell)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nFowlkes-Mallows is sqrt(precision x recall), the paper's \"G-mean\".\n")
	fmt.Fprintf(w, "Report (tables, tests, figures): %s\n", res.Report)
}

// demoResults reads the bench's runs.csv and summarises the dataset demo's
// ok runs of each spec over seeds.
func demoResults(out string, specs []bench.Spec, seeds []uint64) ([]demoResult, error) {
	f, err := os.Open(filepath.Join(out, bench.RunsFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := bench.ReadRuns(f, f.Name())
	if err != nil {
		return nil, err
	}
	want := map[uint64]bool{}
	for _, s := range seeds {
		want[s] = true
	}
	var res []demoResult
	for _, s := range specs {
		r := demoResult{Method: s.String(), Metrics: map[string]bench.MeanStd{}}
		var ok []*bench.Row
		for i := range rows {
			if x := &rows[i]; x.Dataset == "demo" && x.Method == r.Method && want[x.Seed] && x.Status == "ok" {
				ok = append(ok, x)
			}
		}
		r.Runs = len(ok)
		if len(ok) > 0 {
			for _, m := range demoMetrics {
				var v []float64
				for _, x := range ok {
					if y := m.get(x); !math.IsNaN(y) && !math.IsInf(y, 0) {
						v = append(v, y)
					}
				}
				if len(v) > 0 { // else not measured: left out
					r.Metrics[m.key] = bench.Summarise(v)
				}
			}
		}
		res = append(res, r)
	}
	return res, nil
}

func joinSeeds(s []uint64) string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strconv.FormatUint(v, 10)
	}
	return strings.Join(out, ", ")
}
