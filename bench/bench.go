package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/aer-go/aer/contaminate"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/pipeline"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/search"
)

// Split protocols.
const (
	// ProtocolSklearn is the Python anchors' split: scikit-learn's
	// stratified train_test_split(test_size=0.4, random_state=seed), then
	// the 40% halved the same way: train/valid/test 3:1:1, row for row.
	ProtocolSklearn = "sklearn"
	// ProtocolSplitColumn takes the dataset's own split column (train,
	// valid, test); the seed then changes only the methods' randomness.
	ProtocolSplitColumn = "split-column"
)

// GridPaper asks for each method's grid from the paper's appendix.
const GridPaper = "paper"

// Config describes a bench. The zero value of each field means its
// default, as its comment says; Datasets, Seeds and Out are required.
type Config struct {
	// Datasets are labelled CSV files (label column "label", else the
	// last column; the rarer class is the positive one), read with Data.
	Datasets []string
	// Data says how every dataset is read: the label, the positive
	// class, id, dropped and categorical columns, as aer fit reads its
	// training file. The zero value reads every column but the label
	// (and the split column) as a number; set AutoCategorical for text
	// columns, one-hot encoded. Columns Drop or ID name that a file lacks
	// are skipped. Anything but the default is part of the settings hash.
	Data  dataset.Options
	Seeds []uint64
	// Methods are the specs to run; nil means DefaultSpecs.
	Methods []Spec
	// Grid is "" (each method's defaults) or GridPaper.
	Grid string
	// Protocol is ProtocolSklearn (the default, "") or ProtocolSplitColumn.
	Protocol string
	// ThresholdRule is how every method's threshold is found on the
	// validation rows: decision.RuleBayes (the default, "", as aer fit's
	// decision layer: a sigmoid calibration of the scores, kept, and the
	// threshold at the training rows' positive share) or decision.RuleTuned
	// (the anchors' candidates, on the raw scores).
	ThresholdRule string
	// CrossFit is every decision layer's cross-fitting
	// (decision.Options.CrossFit): 0 is the default rule, K > 1 folds
	// always, -1 never.
	CrossFit int
	// Jobs is the number of runs fitted at once; 0 means 1. With more than
	// one, each fit gets one worker; results do not depend on Jobs.
	Jobs int
	// Threads bounds each fit's workers when Jobs is 1; 0 means every core.
	Threads int
	// Out is the output directory: runs.csv, preds/, report.md, report.html.
	Out string
	// Anchors is a directory holding the Python anchors' runs.csv, whose
	// numbers the report shows beside ours, and aerplus.md, whose AER+
	// means per dataset it shows beside the default aer's; "" for none.
	Anchors string
	// Reference is the spec the report tests against every other; ""
	// means the first spec named aer, else the first spec.
	Reference string
	// Progress, when not nil, is called after each run, finished or
	// skipped, one call at a time.
	Progress func(Event)
	// Logger receives notes (runs that failed); nil discards them.
	Logger *slog.Logger
	// Contaminate, when not empty, runs every method, dataset and seed
	// under each of these conditions too (package contaminate): after
	// each split, the training and validation rows (the data a user
	// has) are contaminated, each part at the condition's share, before
	// the standardisation; the test rows never are. The clean condition
	// is always run, at Out as without contamination; a contaminated
	// one writes its predictions, summaries and report under
	// Out/contaminated/<condition>/ (Condition.Dir), runs.csv gains a
	// contamination column, and Out/contamination.md and .csv summarise
	// every condition (Summary.Contamination). The rows contaminated
	// depend on the dataset's split and the seed only, so every method
	// of a dataset and seed sees the same rows.
	Contaminate []contaminate.Condition

	// condition is the contaminated condition a report is of (the zero
	// value: clean).
	condition contaminate.Condition
}

// Event reports one run done: Done of Total runs are done (skipped ones
// included).
type Event struct {
	Row         *Row
	Skipped     bool
	Done, Total int
}

// Summary is what a bench did.
type Summary struct {
	Out     string `json:"out"`
	Runs    int    `json:"runs"`
	Ran     int    `json:"ran"`
	Skipped int    `json:"skipped"`
	Failed  int    `json:"failed"`
	// Files are the report's files, relative to Out.
	Files []string `json:"files"`
	// Ranking is the methods' ranking across datasets (report.md's
	// "Ranking across datasets"), nil when no report was written; with
	// contamination, of the clean condition.
	Ranking *Ranking `json:"ranking,omitempty"`
	// Contamination summarises each condition's runs when the bench had
	// Config.Contaminate (contamination.md's tables).
	Contamination *Contamination `json:"contamination,omitempty"`
}

// Paths of a bench's output, relative to Config.Out.
const (
	RunsFile   = "runs.csv"
	TestsFile  = "tests.csv"
	ReportMD   = "report.md"
	ReportHTML = "report.html"
	PredsDir   = "preds"
)

// PredsPath returns the file of a run's test predictions under out:
// preds/<dataset>/<method spec>/<seed>.csv, in aer predict's format.
func PredsPath(out, dataset string, spec Spec, seed uint64) string {
	return filepath.Join(out, PredsDir, dataset, spec.dir(), strconv.FormatUint(seed, 10)+".csv")
}

// ExpandDatasets returns the CSV files of paths: every *.csv of a directory
// (in name order), a file as it is.
func ExpandDatasets(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		m, err := filepath.Glob(filepath.Join(p, "*.csv"))
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: no *.csv files", p)
		}
		sort.Strings(m)
		out = append(out, m...)
	}
	return out, nil
}

// ParseSeeds reads seeds written "0-4", "1,3,7" or a mix ("0-2,9").
func ParseSeeds(s string) ([]uint64, error) {
	var out []uint64
	seen := map[uint64]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseUint(strings.TrimSpace(lo), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("seeds %q: %q is not a seed or a range a-b", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(strings.TrimSpace(hi), 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("seeds %q: %q is not a range a-b with a <= b", s, part)
			}
			if b-a >= 1<<20 {
				return nil, fmt.Errorf("seeds %q: range %q is too long", s, part)
			}
		}
		for v := a; ; v++ {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
			if v == b {
				break
			}
		}
	}
	return out, nil
}

// data is one dataset of a bench.
type data struct {
	name, path string
	sha        string // of the file's bytes
	d          *dataset.Dataset
	columns    string // how its columns were read (readColumns)
}

func loadData(path string, opt dataset.Options) (*data, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := dataset.Read(bytes.NewReader(b), path, opt)
	if err != nil {
		return nil, err
	}
	d.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	sum := sha256.Sum256(b)
	return &data{name: d.Name, path: path, sha: hex.EncodeToString(sum[:]), d: d, columns: readColumns(d, opt)}, nil
}

// readColumns describes how the columns of d were read, for the settings
// hash: "" for the default read of a table of numbers (so the hashes of
// earlier benches stand), else the label, classes, features, id and
// dropped columns.
func readColumns(d *dataset.Dataset, opt dataset.Options) string {
	if opt.Label == "" && opt.Positive == "" && d.IDColumn == "" && len(d.Dropped) == 0 && len(d.Categories) == 0 && len(d.Text) == 0 {
		return ""
	}
	// The two classes of a two-class table; two empty strings for more,
	// as the hash has always had them.
	var classes [2]string
	if len(d.Classes) == 2 {
		classes = [2]string(d.Classes)
	}
	b, _ := json.Marshal(struct {
		Label    string    `json:"label"`
		Classes  [2]string `json:"classes"`
		Features []string  `json:"features"`
		ID       string    `json:"id,omitempty"`
		Dropped  []string  `json:"dropped,omitempty"`
	}{d.Label, classes, d.Features, d.IDColumn, d.Dropped})
	return string(b)
}

// job is one run to do.
type job struct {
	data  *data
	spec  Spec
	seed  uint64
	cond  contaminate.Condition
	hash  string
	split *split
}

// axes returns the grid of the job's method, nil for none.
func (j *job) axes(grid string) []search.Axis {
	if grid != GridPaper {
		return nil
	}
	m, err := j.spec.New()
	if err != nil {
		return nil
	}
	axes, err := pipeline.Axes(m, []string{GridPaper})
	if err != nil {
		return nil // a method without a paper grid is fitted as it is
	}
	return axes
}

// settingsHash identifies everything a run's result depends on but its
// seed: the data file's content, the spec and every parameter the method
// resolves from it (so a changed default is a new run), the grid, the
// protocol, the standardisation, the threshold objective and how the
// columns were read when not by default.
func settingsHash(d *data, spec Spec, grid, protocol, objective string, axes []search.Axis, cond ...contaminate.Condition) (string, error) {
	m, err := spec.New()
	if err != nil {
		return "", err
	}
	contamination := "" // clean: the hash of a bench without contamination
	if len(cond) > 0 && !cond[0].Clean() {
		contamination = cond[0].String() + " (train and valid, before standardising)"
	}
	var g []string
	for _, a := range axes {
		g = append(g, a.Key+"="+strings.Join(a.Values, "|"))
	}
	b, err := json.Marshal(struct {
		Format      string        `json:"format"`
		Data        string        `json:"data_sha256"`
		Spec        string        `json:"spec"`
		Params      []learn.Param `json:"params"`
		Grid        []string      `json:"grid"`
		Protocol    string        `json:"protocol"`
		Standardise string        `json:"standardise"`
		Objective   string        `json:"threshold_objective"`
		Columns     string        `json:"columns,omitempty"`
		Contaminate string        `json:"contamination,omitempty"`
	}{"aer-bench/1", d.sha, spec.String(), m.Params(), g, protocol, "fit on train", objective, d.columns, contamination})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8]), nil
}

// objectiveName is what the thresholds are chosen for, as the settings
// hash records it (unchanged for the tuned rule, so earlier runs resume).
func objectiveName(rule string, crossFit int) string {
	name := "balanced_accuracy"
	if rule == decision.RuleBayes {
		name += " (bayes, calibrated)"
	}
	if crossFit != 0 {
		name += fmt.Sprintf(" cross-fit %d", crossFit)
	}
	return name
}

type runKey struct {
	dataset, method string
	seed            uint64
	cond            string // Row.Contamination: "" when clean
}

func keyOf(r *Row) runKey { return runKey{r.Dataset, r.Method, r.Seed, r.Contamination} }

// check validates c and fills in its defaults.
func (c *Config) check() error {
	if len(c.Datasets) == 0 {
		return errors.New("no datasets")
	}
	if len(c.Seeds) == 0 {
		return errors.New("no seeds")
	}
	if c.Out == "" {
		return errors.New("no output directory")
	}
	if c.Methods == nil {
		c.Methods = DefaultSpecs()
	}
	if len(c.Methods) == 0 {
		return errors.New("no methods")
	}
	dirs := map[string]string{}
	for _, s := range c.Methods {
		if prev, dup := dirs[s.dir()]; dup {
			return fmt.Errorf("methods %q and %q would share the predictions folder %s", prev, s.String(), s.dir())
		}
		dirs[s.dir()] = s.String()
	}
	switch c.ThresholdRule {
	case "":
		c.ThresholdRule = decision.RuleBayes
	case decision.RuleTuned, decision.RuleBayes:
	default:
		return fmt.Errorf("threshold rule %q: want %s or %s", c.ThresholdRule, decision.RuleTuned, decision.RuleBayes)
	}
	switch c.Protocol {
	case "":
		c.Protocol = ProtocolSklearn
	case ProtocolSklearn, ProtocolSplitColumn:
	default:
		return fmt.Errorf("protocol %q: want %s or %s", c.Protocol, ProtocolSklearn, ProtocolSplitColumn)
	}
	if c.Grid != "" && c.Grid != GridPaper {
		return fmt.Errorf("grid %q: want %q or none", c.Grid, GridPaper)
	}
	if c.Jobs < 0 || c.Threads < 0 {
		return fmt.Errorf("jobs %d, threads %d: want at least 0", c.Jobs, c.Threads)
	}
	if c.Jobs == 0 {
		c.Jobs = 1
	}
	for _, cond := range c.Contaminate {
		if cond.Clean() {
			continue // level 0 of any kind
		}
		if back, err := contaminate.ParseCondition(cond.String()); err != nil || back != cond {
			return fmt.Errorf("contamination %+v: want a kind of %s at a level from 0 to %g", cond, strings.Join(contaminate.Kinds, ", "), contaminate.MaxLevel)
		}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return nil
}

// Run runs every method spec on every dataset and seed, skipping runs
// already in Out/runs.csv with the same settings and a predictions file,
// then writes the report. Each finished run is saved at once (runs.csv is
// rewritten atomically), so when ctx is cancelled Run stops with ctx's
// error and the finished runs are kept; the report is then not written.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	ds, err := loadAll(cfg)
	if err != nil {
		return nil, err
	}
	rs, err := newRunState(cfg)
	if err != nil {
		return nil, err
	}
	todo, skipped, err := rs.plan(ds)
	if err != nil {
		return nil, err
	}
	if err := attachSplits(todo, cfg.Protocol); err != nil {
		return nil, err
	}
	rs.skip(skipped)
	if err := rs.runAll(ctx, todo); err != nil {
		return rs.sum, err
	}
	files, ranking, err := writeReport(cfg, ds, rs.rowsOf(contaminate.Condition{}))
	if err != nil {
		return rs.sum, fmt.Errorf("bench: report: %w", err)
	}
	rs.sum.Files = append([]string{RunsFile}, files...)
	rs.sum.Ranking = ranking
	if len(cfg.Contaminate) > 0 {
		if err := rs.contaminationReports(ds); err != nil {
			return rs.sum, fmt.Errorf("bench: report: %w", err)
		}
	}
	return rs.sum, nil
}

// loadAll loads the datasets of cfg; two of the same name are an error.
func loadAll(cfg Config) ([]*data, error) {
	var ds []*data
	names := map[string]string{}
	for _, p := range cfg.Datasets {
		d, err := loadData(p, cfg.Data)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		if prev, dup := names[d.name]; dup {
			return nil, fmt.Errorf("bench: %s and %s have the same name %s", prev, p, d.name)
		}
		names[d.name] = p
		ds = append(ds, d)
	}
	return ds, nil
}

// runState is a bench in progress: the runs so far, by key, and the
// counts; save may be called from several goroutines.
type runState struct {
	cfg      Config
	runsPath string
	rows     map[runKey]Row
	sum      *Summary
	mu       sync.Mutex
	done     int
	// contaminated is whether runs.csv has the contamination column: the
	// bench has conditions, or the runs.csv it resumes had them.
	contaminated bool
}

// newRunState makes the output directory and reads the runs already in
// its runs.csv.
func newRunState(cfg Config) (*runState, error) {
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	runsPath := filepath.Join(cfg.Out, RunsFile)
	old, err := loadRuns(runsPath)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	rows := map[runKey]Row{}
	contaminated := false
	for _, r := range old {
		rows[keyOf(&r)] = r
		contaminated = contaminated || r.Contamination != ""
	}
	return &runState{cfg: cfg, runsPath: runsPath, rows: rows, sum: &Summary{Out: cfg.Out}, contaminated: contaminated || len(cfg.Contaminate) > 0}, nil
}

// plan lists the runs of every dataset, spec and seed: those to do, and
// the rows of those already done with the same settings and predictions.
func (rs *runState) plan(ds []*data) (todo []*job, skipped []Row, err error) {
	cfg := rs.cfg
	for _, cond := range cfg.conditions() {
		for _, d := range ds {
			for _, spec := range cfg.Methods {
				probe := &job{data: d, spec: spec}
				hash, err := settingsHash(d, spec, cfg.Grid, cfg.Protocol, objectiveName(cfg.ThresholdRule, cfg.CrossFit), probe.axes(cfg.Grid), cond)
				if err != nil {
					return nil, nil, fmt.Errorf("bench: %s: %w", spec, err)
				}
				for _, seed := range cfg.Seeds {
					rs.sum.Runs++
					j := &job{data: d, spec: spec, seed: seed, cond: cond, hash: hash}
					if r, ok := rs.rows[runKey{d.name, spec.String(), seed, condName(cond)}]; ok && r.SettingsHash == hash && r.Status == "ok" {
						if _, err := os.Stat(PredsPath(condOut(cfg.Out, cond), d.name, spec, seed)); err == nil {
							skipped = append(skipped, r)
							continue
						}
					}
					todo = append(todo, j)
				}
			}
		}
	}
	return todo, skipped, nil
}

// attachSplits gives each job its split; splits are shared by the runs of
// a dataset and seed.
func attachSplits(todo []*job, protocol string) error {
	splits := map[string]*split{}
	for _, j := range todo {
		k := j.data.name + "\x00" + strconv.FormatUint(j.seed, 10) + "\x00" + j.cond.String()
		if splits[k] == nil {
			sp, err := splitDataCond(j.data.d, protocol, j.seed, j.cond)
			if err != nil {
				return fmt.Errorf("bench: %s: seed %d: %w", j.data.path, j.seed, err)
			}
			splits[k] = sp
		}
		j.split = splits[k]
	}
	return nil
}

// skip counts the skipped runs and reports them as progress.
func (rs *runState) skip(skipped []Row) {
	for i := range skipped {
		rs.done++
		rs.sum.Skipped++
		if rs.cfg.Progress != nil {
			rs.cfg.Progress(Event{Row: &skipped[i], Skipped: true, Done: rs.done, Total: rs.sum.Runs})
		}
	}
}

// runAll fits and scores the jobs, cfg.Jobs at a time, saving each as it
// finishes.
func (rs *runState) runAll(ctx context.Context, todo []*job) error {
	workers := rs.cfg.Threads
	if rs.cfg.Jobs > 1 {
		workers = 1
	}
	_, err := learn.ForEach(ctx, rs.cfg.Jobs, len(todo), func() func(context.Context, int) error {
		return func(ctx context.Context, k int) error {
			o, err := fitAndScore(ctx, todo[k], rs.cfg.Grid, rs.cfg.ThresholdRule, rs.cfg.CrossFit, workers)
			if err != nil {
				return err
			}
			return rs.save(o, todo[k])
		}
	}, nil)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// save writes a finished run's predictions and tuning summary, rewrites
// runs.csv with its row, and counts and reports it.
func (rs *runState) save(o *outcome, j *job) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	cfg := rs.cfg
	cfg.Out = condOut(cfg.Out, j.cond)
	if o.multi != nil {
		p := PredsPath(cfg.Out, j.data.name, j.spec, j.seed)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(p, func(w io.Writer) error { return predfile.WriteMultiPredictions(w, o.multi, o.idColumn, o.ids) }); err != nil {
			return err
		}
		if err := saveTuning(SummaryPath(cfg.Out, j.data.name, j.spec, j.seed), nil); err != nil {
			return err
		}
	}
	if o.preds != nil {
		p := PredsPath(cfg.Out, j.data.name, j.spec, j.seed)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(p, func(w io.Writer) error { return predfile.WritePredictions(w, o.preds) }); err != nil {
			return err
		}
		if err := saveTuning(SummaryPath(cfg.Out, j.data.name, j.spec, j.seed), o.tuning); err != nil {
			return err
		}
	}
	rs.rows[keyOf(&o.row)] = o.row
	if err := atomicfile.Write(rs.runsPath, func(w io.Writer) error { return writeRuns(w, sortedRows(rs.rows), rs.contaminated) }); err != nil {
		return err
	}
	rs.done++
	rs.sum.Ran++
	if o.row.Status != "ok" {
		rs.sum.Failed++
		cfg.Logger.Warn(fmt.Sprintf("%s %s seed %d failed: %s", o.row.Dataset, o.row.Method, o.row.Seed, o.row.Error))
	}
	if cfg.Progress != nil {
		r := o.row
		cfg.Progress(Event{Row: &r, Done: rs.done, Total: rs.sum.Runs})
	}
	return nil
}

// sortedRows returns the rows by contamination (clean first), dataset,
// method and seed, so runs.csv does not depend on the order runs finished
// in.
func sortedRows(m map[runKey]Row) []Row {
	out := make([]Row, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(a, b int) bool {
		x, y := &out[a], &out[b]
		if x.Contamination != y.Contamination {
			return x.Contamination < y.Contamination
		}
		if x.Dataset != y.Dataset {
			return x.Dataset < y.Dataset
		}
		if x.Method != y.Method {
			return x.Method < y.Method
		}
		return x.Seed < y.Seed
	})
	return out
}
