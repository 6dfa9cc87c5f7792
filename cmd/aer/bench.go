package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/aer-go/aer/bench"
	"github.com/aer-go/aer/contaminate"
)

// benchUsage is aer help bench.
const benchUsage = `Usage: aer bench --datasets DIR --seeds 0-4 [--methods LIST] [--grid paper] --out OUT [--jobs N] [--protocol sklearn|split-column] [--anchors DIR]
                 [--id COL] [--drop COL,...] [--categorical COL,...] [--contaminate SPEC] [--json]

Fits every method on every dataset and seed and writes, under OUT:
  runs.csv      one row per dataset, method and seed: the tuned threshold,
                every test metric at it (balanced accuracy, minority and
                majority recall, minority precision, F1, Fowlkes-Mallows
                (the paper's "G-mean"), G-mean sqrt(TPR*TNR), TP-FP ratio
                TPR/FPR, MCC, confusion counts, ROC-AUC, average precision,
                Brier score, log-loss), the validation balanced accuracy,
                the balanced accuracy at the default threshold (0.5, or the
                method's own tuned one), fit and predict seconds,
                heap_peak_bytes (the peak of Go's heap objects during the
                fit above its level before, sampled every 5 ms; with
                --jobs > 1 it includes the fits running alongside) and a
                settings hash;
  preds/DATASET/METHOD/SEED.csv  the test predictions (label,score,pred,
                as aer predict writes them: aer compare and aer eval read
                them);
  tests.csv     McNemar's and Wilcoxon's tests of the reference method
                against every other, per dataset, at full precision;
  summaries/DATASET/METHOD/SEED.json  for methods whose fit summary has
                them (aer): the static weights, member names and validation
                tuning curves, so a resumed bench redraws the figures;
  report.md, report.html  first the ranking across datasets (mean ranks,
                Friedman's test, the Nemenyi critical difference and each
                method's Wilcoxon tally against the reference; below 5
                datasets a caveat that the tests mean little), then
                per-dataset tables in the paper's layout (mean ± standard
                deviation over seeds) and the tests, and the Python anchors'
                numbers beside ours when the datasets are the shared ones
                (aer:preset=paper beside AER_exp_simplex, run for run; the
                default aer beside the Python AER+'s mean per dataset over
                the anchors' seeds). report.html is self-contained (figures
                inline) and reads on a 1,400-pixel screen; report.md links
                the figures;
  figures/      each figure as SVG and PNG: per dataset the ROC,
                precision-recall and reliability curves (test predictions of
                all seeds pooled; of more than 6 methods, the 4 best ranked,
                the reference and aer:preset=paper in colour, the others thin
                and grey) and, for each AER spec, the paper's figures:
                the learned static weight of each member (a heat strip, one
                row per seed), the criterion that chose lambda against lambda
                (validation ROC-AUC beside the metric it did not choose, or
                the metric at its best delta), the validation metric against
                delta, and validation F1 and Fowlkes-Mallows against delta,
                each captioned with the rule that chose its circled point;
                across datasets the critical-difference diagram.

--datasets takes a directory (every *.csv in it) or a CSV file, and may be
repeated. The label is the column named label, else the last column; the
rarer class is the positive (minority) one. Columns are read as aer fit
reads them, with the same flags for every dataset: a text column is
categorical (one-hot encoded); --id names a row-identifier column and
--drop columns that are not features (a dataset without them is read
as it is); --categorical and --max-categories as in aer fit; --label and
--positive choose the label. Anything but the default read of a table of
numbers is part of the settings hash.

Each seed splits a dataset 3:1:1 into train, validation and test rows
(--protocol sklearn: the Python anchors' stratified split, row for row;
split-column: the file's own split column). Features are standardised with
the training rows' means and deviations. Each method goes through aer fit's
default decision layer, fitted on the validation rows for balanced
accuracy: a sigmoid calibration, so that its scores are probabilities, and
the Bayes threshold, the training rows' positive share (--threshold-rule
bayes, also for a method that tunes its own threshold).
--threshold-rule tuned takes instead the Python anchors' rule: the best
candidate threshold on the raw validation scores.

A dataset whose label has three or more values is fitted as aer fit fits
multi-class labels (the method's own multi-class model where it has one,
else one binary model per class) and each test row is predicted by the
model's multi-class decision (--threshold-rule bayes or tuned). Its runs.csv
rows hold the multi-class metrics: balanced_accuracy the mean of the
per-class recalls, f1 the macro F1, gmean the geometric mean of the
recalls, roc_auc Hand and Till's MAUC, brier and log_loss the multi-class
ones, default_balanced_accuracy the balanced accuracy at the most probable
class; the binary-only columns are NaN. Its predictions are aer predict's
multi-class format (label, pred, score_<class>), its tests count a row as
right when pred is its label and rank 1 - its true class's probability, and
its report table has the multi-class metrics. Mean ranks, Friedman and
Nemenyi take its balanced accuracy as any dataset's. With --grid paper,
every point is fitted with its decision and the best on the validation
rows by balanced accuracy kept.

--methods is a comma-separated list of method specs NAME or
NAME:key=value:key=value (aer:preset=paper); values cannot hold commas or
colons. The default is every registered method at its defaults, and
aer:preset=paper when the aer method has that preset. --grid paper tunes
each method with a paper grid over it (aer help fit lists them).

The bench resumes: a run already in OUT/runs.csv with the same settings
hash (the data file's content, the method spec and every parameter it
resolves to, the grid and the protocol) and a predictions file is skipped;
a changed setting is run again. Each finished run is saved at once, so
Ctrl-C keeps the finished runs (the report is then not written). --jobs N
fits N runs at once, each on one worker, with results identical to --jobs 1.

A progress bar with the time left is drawn on a terminal; otherwise one line
per finished run goes to stderr. Standard output holds the ranking across
datasets (mean rank of the test balanced accuracy, Friedman's p) and the
report's path; --json prints a summary with the ranking and every file.

--contaminate SPEC runs every method, dataset and seed under each condition
of SPEC too, and the clean one: a comma-separated list of KIND:LEVEL
(KIND:L1:L2:... for several levels; none is clean) with LEVEL a share from 0
to 0.5 and KIND flip (that share of each class's labels flipped to the other
class), flip-minority (that share of the minority rows relabelled as
majority) or outliers (that share of each class's rows replaced by gross
outliers, every feature at its mean plus or minus 10 standard deviations,
labels kept), such as flip:0.05:0.1:0.2,outliers:0.1. After each split the
training and validation rows (the data a user has) are contaminated, each
at that share, before the standardisation; the test rows never are. The
rows are drawn from the seed, the same for every method of a dataset and
seed, and those of a lower level are among a higher one's. runs.csv gains a
last column, contamination (none when clean); the clean runs write OUT as
without the flag (and resume a bench without it), each contaminated
condition writes preds/, summaries/, tests.csv, report.md, report.html and
figures/ under OUT/contaminated/KIND-LEVEL/, and OUT/contamination.md and
contamination.csv (printed too) give, per condition and method, the mean
test balanced accuracy and ROC-AUC over datasets, the reference method's
paired difference from each other method and each method's paired change
from clean, each with its standard error over datasets. docs/robustness.md
has a measurement.

--scaling 10k,30k,100k,300k,1M runs the scaling experiment instead (no
--datasets): for each training row count n it generates n x 5/3 rows as
aer gen --features 20 --informative 10 --clusters 4 --ratio 99 does (seed:
the first of --seeds), splits them 3:1:1, fits each of --methods (default
aer,gbdt) with --threads workers (0: all cores) and writes OUT/scaling.csv
(fit seconds, peak heap above the data, AER's seconds per stage, test
ROC-AUC) and OUT/figures/scaling-time and scaling-memory (log-log, SVG and
PNG), with the least-squares slope of each method (1 is linear).
--scaling-threads 1,2,4,8,16 fits each method at each size once per thread
count instead, and adds each fit's speedup over the first count
(scaling.csv's threads and speedup columns; one line per method and
thread count in the figures).`

func init() {
	register(&command{
		name:    "bench",
		summary: "run the paper's experiment: methods x datasets x seeds, tables, tests and figures",
		usage:   benchUsage,
		run:     runBench,
	})
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["bench"]
	fs := newFlagSet(c, stderr)
	var datasets stringsFlag
	fs.Var(&datasets, "datasets", "`DIR` of CSV datasets, or one CSV file (repeatable; required)")
	seeds := fs.String("seeds", "0-4", "`seeds`: a range 0-4, a list 1,3,7 or both")
	methods := fs.String("methods", "", "comma-separated method `specs` NAME or NAME:key=value (default: every registered method)")
	grid := fs.String("grid", "", "`paper` to tune each method over its paper grid (default: no grid search)")
	out := fs.String("out", "", "output `DIR` (required)")
	jobs := fs.Int("jobs", 1, "`N` runs fitted at once (each on one worker when N > 1)")
	threads := fs.Int("threads", 0, "worker goroutines of each fit when --jobs is 1 (0: all cores)")
	rule := fs.String("threshold-rule", "bayes", "how every method's threshold is found on validation rows: `bayes` (aer fit's default: a sigmoid calibration, kept, at the training positive share) or tuned (the anchors' candidates on the raw scores)")
	crossFit := fs.Int("cross-fit", 0, "every decision layer's cross-fitting: `K` folds, 0 the default rule (aer fit's), -1 never")
	protocol := fs.String("protocol", bench.ProtocolSklearn, "split `rule`: sklearn (the anchors' 3:1:1 split) or split-column")
	anchors := fs.String("anchors", "", "`DIR` holding the Python anchors' runs.csv and aerplus.md (default: ../anchors beside the datasets directory, when present)")
	reference := fs.String("reference", "", "method `spec` the tests compare with every other (default: aer if benchmarked, else the first)")
	asJSON := fs.Bool("json", false, "print one JSON summary on stdout")
	scaling := fs.String("scaling", "", "run the scaling experiment instead: training row `counts` such as 10k,100k,1M (see below)")
	contam := fs.String("contaminate", "", "also run under these contamination `conditions` of the training and validation rows, such as flip:0.05:0.1,outliers:0.1 (see below)")
	scalingThreads := fs.String("scaling-threads", "", "with --scaling, fit at each of these thread `counts`, such as 1,2,4,8,16, and report the speedup")
	var df dataFlags
	df.register(fs)
	df.registerCategorical(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *scalingThreads != "" && *scaling == "" {
		return usageErrorf("bench: --scaling-threads goes with --scaling")
	}
	if *scaling != "" {
		return runBenchScaling(ctx, scalingArgs{sizes: *scaling, methods: *methods, seeds: *seeds, out: *out, threads: *threads, threadList: *scalingThreads, hasDatasets: len(datasets) > 0, asJSON: *asJSON}, stdout, stderr)
	}
	cfg := bench.Config{Grid: *grid, Protocol: *protocol, ThresholdRule: *rule, CrossFit: *crossFit, Jobs: *jobs, Threads: *threads, Out: *out,
		Anchors: *anchors, Reference: *reference, Data: df.trainingOptions()}
	if *contam != "" {
		var err error
		if cfg.Contaminate, err = contaminate.Parse(*contam); err != nil {
			return usageErrorf("bench: --contaminate: %v", err)
		}
	}
	if err := benchConfig(&cfg, datasets, *seeds, *methods); err != nil {
		return err
	}
	pr := newBenchProgress(stderr)
	cfg.Progress = pr.event // its lines carry the errors of failed runs too
	sum, err := bench.Run(ctx, cfg)
	pr.finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, sum)
	}
	writeBenchText(stdout, sum)
	return nil
}

// writeBenchText writes what aer bench found: the ranking across
// datasets first, then the runs and where the report is (the figures and
// tables beside it are listed by --json).
func writeBenchText(w io.Writer, sum *bench.Summary) {
	if r := sum.Ranking; r != nil {
		if len(r.Methods) > 0 {
			fmt.Fprintf(w, "Ranking by mean test balanced accuracy over %d datasets (rank 1 the best):\n", len(r.Datasets))
			width := len("method")
			for _, m := range r.Methods {
				width = max(width, len(m.Method))
			}
			fmt.Fprintf(w, "  %-*s  %9s  %17s\n", width, "method", "mean rank", "balanced accuracy")
			for _, m := range r.Methods {
				fmt.Fprintf(w, "  %-*s  %9.2f  %17.4f\n", width, m.Method, m.MeanRank, m.BalancedAccuracy)
			}
			fmt.Fprintf(w, "Friedman's test: p = %.4g", *r.P)
			if len(r.Datasets) < bench.FewDatasets {
				fmt.Fprintf(w, " (on %d datasets only: read the ranks with care)", len(r.Datasets))
			}
			fmt.Fprintln(w)
		}
		if r.Note != "" {
			fmt.Fprintln(w, r.Note)
		}
		fmt.Fprintln(w)
	}
	if sum.Contamination != nil {
		fmt.Fprintf(w, "Contamination (reference %s; the ranking above is of the clean runs):\n", sum.Contamination.Reference)
		sum.Contamination.WriteText(w)
		fmt.Fprintf(w, "(%s and %s)\n\n", filepath.Join(sum.Out, bench.ContaminationMD), bench.ContaminationCSV)
	}
	fmt.Fprintf(w, "%d runs: %d ran (%d failed), %d already done\n", sum.Runs, sum.Ran, sum.Failed, sum.Skipped)
	fmt.Fprintf(w, "report: %s (and %s; %d files in %s, listed by --json)\n",
		filepath.Join(sum.Out, bench.ReportHTML), bench.ReportMD, len(sum.Files), sum.Out)
}

// benchConfig checks the flags of aer bench set in cfg and completes it
// with the datasets, seeds, methods and default anchors.
func benchConfig(cfg *bench.Config, datasets []string, seeds, methods string) error {
	switch {
	case len(datasets) == 0:
		return usageErrorf("bench: --datasets is required")
	case cfg.Out == "":
		return usageErrorf("bench: --out is required")
	case cfg.Jobs < 1:
		return usageErrorf("bench: --jobs must be at least 1, not %d", cfg.Jobs)
	case cfg.Threads < 0:
		return usageErrorf("bench: --threads must be at least 0, not %d", cfg.Threads)
	case cfg.Grid != "" && cfg.Grid != bench.GridPaper:
		return usageErrorf("bench: --grid %q: want paper", cfg.Grid)
	case cfg.Protocol != bench.ProtocolSklearn && cfg.Protocol != bench.ProtocolSplitColumn:
		return usageErrorf("bench: --protocol %q: want sklearn or split-column", cfg.Protocol)
	}
	// The output folder must not be a datasets folder: runs.csv and the
	// figures would land among the datasets (a resume then read runs.csv
	// as one).
	if fo, err := os.Stat(cfg.Out); err == nil && fo.IsDir() {
		for _, d := range datasets {
			if fd, err := os.Stat(d); err == nil && fd.IsDir() && os.SameFile(fo, fd) {
				return usageErrorf("bench: --out %s is the --datasets folder %s: choose another output folder", cfg.Out, d)
			}
		}
	}
	var err error
	if cfg.Seeds, err = bench.ParseSeeds(seeds); err != nil {
		return usageErrorf("bench: --seeds: %v", err)
	}
	if cfg.Methods, err = bench.ParseSpecs(methods); err != nil {
		return usageErrorf("bench: --methods: %v", err)
	}
	if cfg.Reference != "" && !slices.ContainsFunc(cfg.Methods, func(s bench.Spec) bool { return s.String() == cfg.Reference }) {
		return usageErrorf("bench: --reference %q is not one of the methods", cfg.Reference)
	}
	if cfg.Datasets, err = bench.ExpandDatasets(datasets); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if cfg.Anchors == "" {
		if st, err := os.Stat(datasets[0]); err == nil {
			dir := datasets[0]
			if !st.IsDir() {
				dir = filepath.Dir(dir)
			}
			cfg.Anchors = bench.DefaultAnchors(dir)
		}
	}
	return nil
}

// benchProgress shows a bench's progress: a bar with the time left on a
// terminal, redrawn every tickEvery with the seconds since the last run
// finished; else one line per finished run, and one per lineEvery
// without any ("bench: [3/20] running, 45.0 s").
type benchProgress struct {
	mu  sync.Mutex
	w   io.Writer
	bar *progressbar.ProgressBar
	// desc is the bar's description; start the bench's start, last when
	// the last run finished and lastLine when the last line was written;
	// done and total the last event's count.
	desc                  string
	start, last, lastLine time.Time
	done, total           int
	ticks                 ticker
}

func newBenchProgress(w io.Writer) *benchProgress {
	t := time.Now()
	p := &benchProgress{w: w, desc: "bench", start: t, last: t, lastLine: t}
	if _, ok := w.(*os.File); ok {
		p.tick()
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(f),
			progressbar.OptionSetDescription("bench"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(100_000_000),
		)
	}
	return p
}

// tick starts the goroutine that redraws the bar, or writes the line of
// a long silence.
func (p *benchProgress) tick() {
	p.ticks.start(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		now := time.Now()
		switch {
		case p.bar != nil:
			p.bar.Describe(fmt.Sprintf("%s, %.0f s", p.desc, now.Sub(p.last).Seconds()))
		case now.Sub(p.lastLine) >= lineEvery:
			p.lastLine = now
			fmt.Fprintf(p.w, "bench: [%d/%d] running, %.1f s\n", p.done, p.total, now.Sub(p.start).Seconds())
		}
	})
}

func (p *benchProgress) event(e bench.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := e.Row
	p.last, p.lastLine, p.done, p.total = time.Now(), time.Now(), e.Done, e.Total
	if p.bar != nil {
		p.bar.ChangeMax(e.Total)
		p.desc = fmt.Sprintf("bench %s %s seed %d", runName(r), r.Method, r.Seed)
		p.bar.Describe(p.desc)
		p.bar.Set(e.Done)
		return
	}
	var what string
	switch {
	case e.Skipped:
		what = "already done"
	case r.Status != "ok":
		what = "failed: " + oneLine(r.Error)
	default:
		what = fmt.Sprintf("balanced accuracy %.4f (threshold %.3g), fit %.2f s", r.BalancedAccuracy, r.Threshold, r.FitSeconds)
		if math.IsNaN(r.Threshold) { // a multi-class run: its decision has no threshold
			what = fmt.Sprintf("balanced accuracy %.4f, fit %.2f s", r.BalancedAccuracy, r.FitSeconds)
		}
	}
	fmt.Fprintf(p.w, "bench: [%d/%d] %s %s seed %d: %s\n", e.Done, e.Total, runName(r), r.Method, r.Seed, what)
}

func (p *benchProgress) finish() {
	p.ticks.halt()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}

// runName is a run's dataset, and its contamination when it has one
// ("abalone_19 [flip:0.1]").
func runName(r *bench.Row) string {
	if r.Contamination != "" {
		return r.Dataset + " [" + r.Contamination + "]"
	}
	return r.Dataset
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
