package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/stattest"
)

// rowLoss is the per-row quantity the Wilcoxon test compares: aer
// compare's default, |label - score|.
const rowLoss = "abs-error"

// nemenyiAlpha is the significance level of the critical difference.
const nemenyiAlpha = 0.05

// cell is one dataset and spec of the report: its runs in seed order.
type cell struct {
	spec Spec
	rows []*Row // ok runs
	runs int    // runs asked for
}

func (c *cell) values(f func(*Row) float64) []float64 {
	v := make([]float64, len(c.rows))
	for i, r := range c.rows {
		v[i] = f(r)
	}
	return v
}

// pairTest is the comparison of the reference with one other spec on one
// dataset, predictions of all seeds concatenated.
type pairTest struct {
	dataset string
	a, b    Spec
	rows    int
	seeds   int
	p       *stattest.Paired
	err     error
}

// report is everything the report says, computed once and written as
// Markdown and HTML.
type report struct {
	cfg      Config
	ds       []*data
	rows     map[runKey]Row
	ref      Spec
	cells    map[string][]*cell // by dataset, in spec order
	tests    map[string][]*pairTest
	anchors  anchorRuns
	plus     *plusMeans // the Python AER+'s means, nil without aerplus.md
	friedman *stattest.FriedmanResult
	nemenyi  *stattest.Nemenyi
	rankSets []string // datasets in the ranks
	rankNote string
	figures  map[string][]figure // by dataset; "" for across datasets
}

func (rp *report) reference() Spec {
	if rp.cfg.Reference != "" {
		for _, s := range rp.cfg.Methods {
			if s.String() == rp.cfg.Reference {
				return s
			}
		}
	}
	for _, s := range rp.cfg.Methods {
		if s.Name == "aer" {
			return s
		}
	}
	return rp.cfg.Methods[0]
}

// buildReport gathers the runs of cfg from rows and computes the tests.
func buildReport(cfg Config, ds []*data, rows map[runKey]Row) (*report, error) {
	rp := &report{cfg: cfg, ds: ds, rows: rows, cells: map[string][]*cell{}, tests: map[string][]*pairTest{}, figures: map[string][]figure{}}
	rp.ref = rp.reference()
	var err error
	if rp.anchors, err = readAnchors(cfg.Anchors); err != nil {
		return nil, err
	}
	if rp.plus, err = readPlusMeans(cfg.Anchors); err != nil {
		return nil, err
	}
	for _, d := range ds {
		for _, s := range cfg.Methods {
			c := &cell{spec: s, runs: len(cfg.Seeds)}
			for _, seed := range cfg.Seeds {
				if r, ok := rows[runKey{d.name, s.String(), seed, ""}]; ok && r.Status == "ok" {
					c.rows = append(c.rows, &r)
				}
			}
			rp.cells[d.name] = append(rp.cells[d.name], c)
		}
		if err := rp.pairTests(d.name); err != nil {
			return nil, err
		}
	}
	rp.ranks()
	return rp, nil
}

// pooledPreds concatenates the test predictions of spec's runs on dataset
// over seeds, in seed order.
func pooledPreds(out, name string, spec Spec, seeds []uint64) (*predfile.Predictions, error) {
	all := &predfile.Predictions{}
	for _, seed := range seeds {
		p, err := predfile.LoadPredictions(PredsPath(out, name, spec, seed))
		if err != nil {
			return nil, err
		}
		all.Label = append(all.Label, p.Label...)
		all.Score = append(all.Score, p.Score...)
		all.Pred = append(all.Pred, p.Pred...)
	}
	return all, nil
}

// pooledTests reads the test predictions of spec's runs on dataset over
// seeds, in seed order, and returns each row's correctness and its
// quantity q of the score: of a multi-class run, q's counterpart on the
// true class's probability p (abs-error 1 - p).
func pooledTests(out, name string, spec Spec, seeds []uint64, q metrics.RowLoss) ([]bool, []float64, error) {
	var (
		correct []bool
		loss    []float64
	)
	for _, seed := range seeds {
		path := PredsPath(out, name, spec, seed)
		multi, err := isClassesFile(path)
		if err != nil {
			return nil, nil, err
		}
		if multi {
			c, l, err := classesCorrectAndLoss(path)
			if err != nil {
				return nil, nil, err
			}
			correct, loss = append(correct, c...), append(loss, l...)
			continue
		}
		p, err := predfile.LoadPredictions(path)
		if err != nil {
			return nil, nil, err
		}
		c, l, err := correctAndLoss(p, q)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		correct, loss = append(correct, c...), append(loss, l...)
	}
	return correct, loss, nil
}

// okSeeds returns the seeds at which every given cell has an ok run.
func okSeeds(seeds []uint64, cells ...*cell) []uint64 {
	var out []uint64
	for _, s := range seeds {
		all := true
		for _, c := range cells {
			found := false
			for _, r := range c.rows {
				found = found || r.Seed == s
			}
			all = all && found
		}
		if all {
			out = append(out, s)
		}
	}
	return out
}

// pairTests compares the reference with every other spec on dataset d by
// the functions aer compare uses, with its defaults: McNemar's test on the
// pred column's correctness, Wilcoxon on |label - score| (zero method
// wilcox, mode auto).
func (rp *report) pairTests(d string) error {
	var refCell *cell
	for _, c := range rp.cells[d] {
		if c.spec.String() == rp.ref.String() {
			refCell = c
		}
	}
	q, err := metrics.ParseRowLoss(rowLoss)
	if err != nil {
		return err
	}
	for _, c := range rp.cells[d] {
		if c == refCell {
			continue
		}
		t := &pairTest{dataset: d, a: rp.ref, b: c.spec}
		rp.tests[d] = append(rp.tests[d], t)
		seeds := okSeeds(rp.cfg.Seeds, refCell, c)
		t.seeds = len(seeds)
		if len(seeds) == 0 {
			t.err = errors.New("no seed where both ran")
			continue
		}
		ca, qa, err := pooledTests(rp.cfg.Out, d, rp.ref, seeds, q)
		if err != nil {
			return err
		}
		cb, qb, err := pooledTests(rp.cfg.Out, d, c.spec, seeds, q)
		if err != nil {
			return err
		}
		t.rows = len(ca)
		t.p, t.err = stattest.ComparePaired(ca, cb, qa, qb, nil)
	}
	return nil
}

func correctAndLoss(p *predfile.Predictions, q metrics.RowLoss) ([]bool, []float64, error) {
	c := make([]bool, len(p.Label))
	l := make([]float64, len(p.Label))
	for i, y := range p.Label {
		c[i] = p.Pred[i] == y
		v, err := q.Of(y, p.Score[i])
		if err != nil {
			return nil, nil, fmt.Errorf("row %d: %w", i+1, err)
		}
		l[i] = v
	}
	return c, l, nil
}

// isClassesFile says whether the predictions file at path is one of
// three or more classes (score_<class> columns).
func isClassesFile(path string) (bool, error) {
	return predfile.IsMultiPredictionsFile(path)
}

// classesCorrectAndLoss reads a predictions file of three or more
// classes: each row's correctness (pred = label) and 1 - the true
// class's probability.
func classesCorrectAndLoss(path string) ([]bool, []float64, error) {
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

// ranks runs Friedman's test on the mean balanced accuracy (tuned
// threshold) of every spec per dataset, over the datasets where every spec
// has all its runs.
func (rp *report) ranks() {
	var scores [][]float64
	var left []string
	for _, d := range rp.ds {
		row := make([]float64, 0, len(rp.cfg.Methods))
		for _, c := range rp.cells[d.name] {
			if len(c.rows) != c.runs {
				break
			}
			row = append(row, mean(c.values(func(r *Row) float64 { return r.BalancedAccuracy })))
		}
		if len(row) != len(rp.cfg.Methods) {
			left = append(left, d.name)
			continue
		}
		scores = append(scores, row)
		rp.rankSets = append(rp.rankSets, d.name)
	}
	if len(left) > 0 {
		rp.rankNote = "Left out (a method failed on some seed): " + strings.Join(left, ", ") + ". "
	}
	if len(scores) < 2 || len(rp.cfg.Methods) < 2 {
		rp.rankNote += "Friedman's test needs at least 2 complete datasets and 2 methods."
		return
	}
	fr, err := stattest.Friedman(scores, true)
	if err != nil {
		rp.rankNote += "Friedman's test: " + err.Error()
		return
	}
	rp.friedman = fr
	if nm, err := stattest.NewNemenyi(fr.MeanRanks, fr.N, nemenyiAlpha); err == nil {
		rp.nemenyi = nm
	} else {
		rp.rankNote += "Nemenyi: " + err.Error()
	}
}

// anchorMean is the anchors' balanced accuracy of method a averaged over
// the ranked datasets (each the mean over the bench's seeds), "" when a
// run is missing.
func (rp *report) anchorMean(a string) string {
	if a == "" {
		return ""
	}
	var v []float64
	if a == plusAnchor {
		if rp.plus == nil {
			return ""
		}
		for _, d := range rp.rankSets {
			ba, ok := rp.plus.ba[d]
			if !ok {
				return ""
			}
			v = append(v, ba)
		}
		return fmt.Sprintf("%.4f (means of %s)", mean(v), rp.plus.seedsText())
	}
	for _, d := range rp.rankSets {
		var ba []float64
		for _, s := range rp.cfg.Seeds {
			r, ok := rp.anchors[d][a][s]
			if !ok {
				return ""
			}
			ba = append(ba, r.ba)
		}
		v = append(v, mean(ba))
	}
	return fmt.Sprintf("%.4f", mean(v))
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// std is the sample standard deviation (n-1); 0 for one value.
func std(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	m, s := mean(v), 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}

// MeanStd is a mean and a sample standard deviation (n-1), as the
// report's cells give them over seeds.
type MeanStd struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// Summarise returns the mean and the sample standard deviation (n-1; 0
// for one value) of v; the mean of no values is NaN.
func Summarise(v []float64) MeanStd { return MeanStd{Mean: mean(v), Std: std(v)} }

// meanStd formats the mean and spread of v; infinite values (a TP-FP
// ratio with no false positive) are left out and counted.
func meanStd(v []float64) string {
	var fin []float64
	inf, nans := 0, 0
	for _, x := range v {
		switch {
		case math.IsInf(x, 0):
			inf++
		case math.IsNaN(x):
			nans++
		default:
			fin = append(fin, x)
		}
	}
	if len(fin) == 0 {
		switch {
		case inf > 0:
			return "inf"
		default:
			return "n/a"
		}
	}
	s := fmt.Sprintf("%.4f ± %.4f", mean(fin), std(fin))
	if inf > 0 {
		s += fmt.Sprintf(" (+%d inf)", inf)
	}
	if nans > 0 {
		s += fmt.Sprintf(" (%d n/a)", nans)
	}
	return s
}

func fmtP(p float64) string {
	if p != 0 && p < 1e-4 {
		return strconv.FormatFloat(p, 'e', 2, 64)
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// metricCols are the per-dataset table's metrics, in the paper's layout.
var metricCols = []struct {
	head string
	f    func(*Row) float64
}{
	{"balanced accuracy", func(r *Row) float64 { return r.BalancedAccuracy }},
	{"minority recall", func(r *Row) float64 { return r.MinorityRecall }},
	{"majority recall", func(r *Row) float64 { return r.MajorityRecall }},
	{"F1", func(r *Row) float64 { return r.F1 }},
	{"Fowlkes-Mallows (paper's G-mean)", func(r *Row) float64 { return r.FowlkesMallows }},
	{"TP-FP ratio", func(r *Row) float64 { return r.TPFPRatio }},
	{"ROC-AUC", func(r *Row) float64 { return r.ROCAUC }},
	{"BA at default threshold", func(r *Row) float64 { return r.DefaultBA }},
	{"fit s", func(r *Row) float64 { return r.FitSeconds }},
}

// multiMetricCols are the per-dataset table's metrics for a dataset of
// three or more classes.
var multiMetricCols = []struct {
	head string
	f    func(*Row) float64
}{
	{"balanced accuracy", func(r *Row) float64 { return r.BalancedAccuracy }},
	{"macro F1", func(r *Row) float64 { return r.F1 }},
	{"G-mean", func(r *Row) float64 { return r.GMean }},
	{"MAUC", func(r *Row) float64 { return r.ROCAUC }},
	{"log-loss", func(r *Row) float64 { return r.LogLoss }},
	{"Brier", func(r *Row) float64 { return r.Brier }},
	{"BA at the most probable class", func(r *Row) float64 { return r.DefaultBA }},
	{"fit s", func(r *Row) float64 { return r.FitSeconds }},
}

// multiNames are the names of the bench's datasets of three or more
// classes.
func (rp *report) multiNames() []string {
	var out []string
	for _, d := range rp.ds {
		if d.d.NumClasses() > 2 {
			out = append(out, d.name)
		}
	}
	return out
}

// document lays the report out as blocks, for both renderings: the
// ranking across datasets and its tests first (what a reader opens the
// report for), then failed runs, the setup and the methods, and each
// dataset's tables, tests and figures.
func (rp *report) document() *doc {
	var dc doc
	if c := rp.cfg.condition; !c.Clean() {
		dc.h(1, "aer bench, contaminated: "+c.String())
	} else {
		dc.h(1, "aer bench")
	}
	dc.p(rp.headline())
	nav := []string{rankingHeading}
	if rp.failedRuns() != nil {
		nav = append(nav, failedHeading)
	}
	nav = append(nav, setupHeading)
	for _, d := range rp.ds {
		nav = append(nav, d.name)
	}
	dc.navigation(nav...)
	rp.docAcross(&dc)
	for _, f := range rp.figures[""] {
		dc.figure(f)
	}
	rp.docFailed(&dc)
	dc.h(2, setupHeading)
	rp.docIntro(&dc)
	rp.docMethods(&dc)
	for _, d := range rp.ds {
		rp.docDataset(&dc, d)
	}
	return &dc
}

// The report's section headings.
const (
	rankingHeading = "Ranking across datasets"
	failedHeading  = "Failed runs"
	setupHeading   = "Setup and methods"
)

// headline is the report's first line: what was compared, on what.
func (rp *report) headline() string {
	names := make([]string, len(rp.ds))
	for i, d := range rp.ds {
		names[i] = d.name
	}
	seeds := make([]string, len(rp.cfg.Seeds))
	for i, s := range rp.cfg.Seeds {
		seeds[i] = strconv.FormatUint(s, 10)
	}
	return fmt.Sprintf("%d methods on %d datasets (%s), seeds %s; the tests compare %s with every other method. The setup, each dataset's tables, tests and figures follow the ranking.",
		len(rp.cfg.Methods), len(rp.ds), strings.Join(names, ", "), strings.Join(seeds, ", "), rp.ref.String())
}

// docIntro says what was run: datasets, seeds, split, hyper-parameters
// and the threshold rule.
func (rp *report) docIntro(dc *doc) {
	cfg := rp.cfg
	names := make([]string, len(rp.ds))
	for i, d := range rp.ds {
		names[i] = d.name
	}
	seeds := make([]string, len(cfg.Seeds))
	for i, s := range cfg.Seeds {
		seeds[i] = strconv.FormatUint(s, 10)
	}
	grid := "each method's defaults (no grid search)"
	if cfg.Grid == GridPaper {
		grid = "the paper's appendix grid of each method that has one (learn.Gridder), chosen on the validation rows at each point's best threshold; methods without a paper grid run at their defaults"
	}
	split := "stratified train/validation/test 3:1:1 per seed, the Python anchors' split row for row (scikit-learn's train_test_split(test_size=0.4, random_state=seed), then the 40% halved the same way)"
	if cfg.Protocol == ProtocolSplitColumn {
		split = "each dataset's own split column (train, valid, test); the seed changes only the methods' randomness"
	}
	dc.p(fmt.Sprintf("Datasets: %s. Seeds: %s. Methods: %d. Split: %s. Features standardised with the training rows' means and deviations. Hyper-parameters: %s.",
		strings.Join(names, ", "), strings.Join(seeds, ", "), len(cfg.Methods), split, grid))
	if c := cfg.condition; !c.Clean() {
		dc.caveat(fmt.Sprintf("Contaminated: %s. The training and validation rows of every split were contaminated (package contaminate) before the standardisation, the same rows for every method of a dataset and seed; the test rows are clean. The clean runs' report is %s at the bench's top folder, and %s there compares the conditions.", c, ReportMD, ContaminationMD))
	}
	rule := "Every method's decision threshold is tuned on the validation rows for balanced accuracy, the Python anchors' rule (candidates 0.01, ..., 0.99 and the validation scores' quantiles; of tied best thresholds, the middle one), on its raw scores"
	if rp.cfg.ThresholdRule == decision.RuleBayes {
		rule = "Every method's scores pass through aer fit's default decision layer: a sigmoid calibration (Platt, on the logit of the scores) fitted on the validation rows, so that they are probabilities, and the Bayes threshold for balanced accuracy, the training rows' positive share"
	}
	if multi := rp.multiNames(); len(multi) > 0 {
		dc.p(fmt.Sprintf("Datasets of three or more classes (%s) are fitted as aer fit fits them (a method's own multi-class model where it has one, else one binary model per class behind its calibration), and each row is predicted by the model's multi-class decision (%s); their tables give balanced accuracy as the mean of the per-class recalls, macro F1, G-mean (the geometric mean of the recalls), MAUC (Hand and Till), multi-class log-loss and Brier, and BA at the most probable class.",
			strings.Join(multi, ", "), multiRuleText(rp.cfg.ThresholdRule)))
	}
	if len(rp.multiNames()) == len(rp.ds) {
		return
	}
	dc.p(rule + "; the metrics below are the test rows' at that threshold. \"BA at default threshold\" uses 0.5, or the threshold a method tunes itself (aer, dynens, gbdt-tuned). Each cell is the mean ± standard deviation (n-1) over seeds. Fowlkes-Mallows is sqrt(precision x recall), which the paper calls \"G-mean\"; TP-FP ratio is TPR/FPR, infinite when a run has no false positive (such runs are left out of the mean and counted).")
}

// docMethods tables the methods with their parameters and grids, and
// says how the pair tests were made.
func (rp *report) docMethods(dc *doc) {
	cfg := rp.cfg
	anchored := rp.anchored()
	mt := &table{head: []string{"method", "parameters", "grid searched"}}
	if anchored {
		mt.head = append(mt.head, "Python anchor")
	}
	for _, s := range cfg.Methods {
		g := "none (defaults)"
		if cfg.Grid == GridPaper {
			g = "none: no paper grid, defaults"
			if axes := (&job{spec: s}).axes(cfg.Grid); axes != nil {
				var parts []string
				for _, a := range axes {
					parts = append(parts, a.Key+" in {"+strings.Join(a.Values, ", ")+"}")
				}
				g = strings.Join(parts, " x ")
			}
		}
		row := []string{s.String(), s.paramText(), g}
		if anchored {
			row = append(row, anchorOf(s))
		}
		mt.rows = append(mt.rows, row)
	}
	dc.table(mt)
	if anchored {
		dc.p(fmt.Sprintf("Python anchor: the anchors' run of the same settings (../shared/anchors/README.md); for %s the anchors' faithful AER, %s.", PaperPreset, paperAnchor))
		if rp.plus != nil && rp.hasPlusSpec() {
			dc.p(rp.plusNote())
		}
	}
	ref := rp.ref.String()
	dc.p(fmt.Sprintf("Tests per dataset compare %s with every other method on the test predictions of all seeds concatenated (each seed's test rows are different rows, so concatenation pools them honestly): McNemar's test on per-row correctness at the tuned thresholds (chi-square with continuity correction, and the exact binomial p for few discordant rows), and the Wilcoxon signed-rank test on d = |label - score| of %s minus that of the other (negative: %s better; zero differences dropped, exact distribution up to 50 rows, else the normal approximation). These are aer compare's tests with its defaults: `aer compare` on the concatenated files gives the same statistics; tests.csv holds them at full precision.", ref, ref, ref))
	if len(rp.multiNames()) > 0 {
		dc.p("On a dataset of three or more classes, a row is right when its predicted class is its label, and d is 1 - the probability of the row's true class (aer compare's abs-error on multi-class files).")
	}
}

// docDataset is one dataset's section: its size, the metrics table, the
// pair tests and the figures.
func (rp *report) docDataset(dc *doc, d *data) {
	counts := d.d.ClassCounts()
	dc.h(2, fmt.Sprintf("%s", d.name))
	if len(counts) > 2 {
		parts := make([]string, len(counts))
		for c, n := range counts {
			parts[c] = fmt.Sprintf("%s %d", d.d.Classes[c], n)
		}
		dc.p(fmt.Sprintf("%d rows of %d classes (%s), %d features; file %s.", d.d.Rows(), len(counts), strings.Join(parts, ", "), d.d.Cols(), filepath.Base(d.path)))
	} else {
		neg, pos := counts[0], counts[1]
		dc.p(fmt.Sprintf("%d rows (%d minority, %d majority), %d features; file %s.", neg+pos, pos, neg, d.d.Cols(), filepath.Base(d.path)))
	}
	anch := rp.anchors[d.name]
	_, plus := rp.plusOf(d.name)
	mt, at := rp.metricsTable(d.name, anch)
	dc.table(mt)
	if at != nil {
		dc.h(3, d.name+": beside the Python anchors")
		dc.table(at)
	}
	if anch != nil {
		dc.p("Anchors: the Python stack's runs of the same settings on the same splits (../shared/anchors/runs.csv), mean ± std over the same seeds.")
	}
	if plus && rp.hasPlusSpec() {
		dc.p(fmt.Sprintf("%s, the default aer's anchor: the Python AER+'s mean test balanced accuracy over %s (../shared/anchors/aerplus.md), not per run and not a run of the same settings (see the methods above).", plusAnchor, rp.plus.seedsText()))
	}
	if tests := rp.tests[d.name]; len(tests) > 0 {
		ref := rp.ref.String()
		dc.h(3, fmt.Sprintf("%s: %s against each method", d.name, ref))
		dc.table(testsTable(ref, tests))
	}
	for _, f := range rp.figures[d.name] {
		dc.figure(f)
	}
}

// metricsTable is one dataset's metrics, a row per method, and, when
// anch is not nil or the dataset has an AER+ mean, a second table of our
// balanced accuracy and ROC-AUC beside the Python anchors' (one table of
// both would not fit a laptop's screen).
func (rp *report) metricsTable(name string, anch map[string]map[uint64]anchorRun) (*table, *table) {
	cols := metricCols
	if slices.Contains(rp.multiNames(), name) {
		cols = multiMetricCols
	}
	head := []string{"method"}
	for _, m := range cols {
		head = append(head, m.head)
	}
	_, plus := rp.plusOf(name)
	t := &table{head: head}
	var at *table
	if anch != nil || plus && rp.hasPlusSpec() {
		at = &table{head: []string{"method", cols[0].head, "ROC-AUC", "Python anchor", "anchor BA", "anchor ROC-AUC"}}
	}
	for _, c := range rp.cells[name] {
		method := c.spec.String()
		if len(c.rows) < c.runs {
			method += fmt.Sprintf(" (%d/%d seeds)", len(c.rows), c.runs)
		}
		r := []string{method}
		for _, m := range cols {
			r = append(r, meanStd(c.values(m.f)))
		}
		t.rows = append(t.rows, r)
		if at != nil {
			ar := []string{method, r[1], meanStd(c.values(func(r *Row) float64 { return r.ROCAUC }))}
			at.rows = append(at.rows, append(ar, rp.anchorCells(name, anch, c.spec)...))
		}
	}
	return t, at
}

// anchorCells are the anchor, anchor BA and anchor ROC-AUC cells of spec
// s on dataset d; blank when it has no anchor run at the bench's seeds.
// The default aer's AER+ has only a mean balanced accuracy over the
// anchors' seeds.
func (rp *report) anchorCells(d string, anch map[string]map[uint64]anchorRun, s Spec) []string {
	a := anchorOf(s)
	if a == plusAnchor {
		ba, ok := rp.plusOf(d)
		if !ok {
			return []string{"", "", ""}
		}
		return []string{a + " (aerplus.md)", fmt.Sprintf("%.3f (mean of %s)", ba, rp.plus.seedsText()), ""}
	}
	var ba, auc []float64
	for _, seed := range rp.cfg.Seeds {
		if v, ok := anch[a][seed]; ok {
			ba, auc = append(ba, v.ba), append(auc, v.auc)
		}
	}
	if a == "" || len(ba) == 0 {
		return []string{"", "", ""}
	}
	return []string{a, meanStd(ba), meanStd(auc)}
}

// testsTable is one dataset's pair tests of the reference ref against
// each other method.
func testsTable(ref string, tests []*pairTest) *table {
	tt := &table{head: []string{"method", "seeds", "rows", "only " + ref + " right", "only other right", "McNemar chi2", "p (chi2)", "p (exact)", "Wilcoxon W", "z", "p", "mean d"}}
	for _, t := range tests {
		if t.err != nil {
			tt.rows = append(tt.rows, []string{t.b.String(), strconv.Itoa(t.seeds), strconv.Itoa(t.rows), "", "", "", "", "", "", "", "", t.err.Error()})
			continue
		}
		m, w := t.p.McNemar, t.p.Wilcoxon
		tt.rows = append(tt.rows, []string{t.b.String(), strconv.Itoa(t.seeds), strconv.Itoa(t.rows),
			strconv.Itoa(m.B), strconv.Itoa(m.C), fmt.Sprintf("%.4f", m.ChiSquare), fmtP(m.ChiSquareP), fmtP(m.ExactP),
			fmt.Sprintf("%g", w.Statistic), fmt.Sprintf("%.4f", w.Z), fmtP(w.P), fmt.Sprintf("%+.4f", t.p.MeanDifference)})
	}
	return tt
}

// failedRuns lists the runs that failed, nil when none did.
func (rp *report) failedRuns() []string {
	var failed []string
	for _, d := range rp.ds {
		for _, c := range rp.cells[d.name] {
			for _, seed := range rp.cfg.Seeds {
				if r, ok := rp.rows[runKey{d.name, c.spec.String(), seed, ""}]; ok && r.Status != "ok" {
					failed = append(failed, fmt.Sprintf("%s %s seed %d: %s", d.name, r.Method, seed, r.Error))
				}
			}
		}
	}
	return failed
}

// docFailed lists the runs that failed, if any.
func (rp *report) docFailed(dc *doc) {
	if failed := rp.failedRuns(); len(failed) > 0 {
		dc.h(2, failedHeading)
		dc.p(strings.Join(failed, "; ") + ".")
	}
}

// FewDatasets is the fewest datasets whose ranks the report and aer
// bench give without a caveat. Friedman's chi-square and the Nemenyi
// critical difference are large-sample approximations: Demsar (2006,
// JMLR 7) asks for more than 10 datasets (and 5 methods) before trusting
// the chi-square; below 5 datasets the mean ranks can barely differ
// (the critical difference of 10 methods on 4 datasets spans 6.8 ranks).
const FewDatasets = 5

// fewText is the caveat of ranks over n datasets, "" when n is enough.
func fewText(n int) string {
	if n >= FewDatasets {
		return ""
	}
	return fmt.Sprintf("on %d datasets: too few for Friedman's and Nemenyi's tests to mean much (the report warns below %d datasets; Demsar 2006 asks for more than 10). Read the ranks as a description of these datasets, not as evidence.", n, FewDatasets)
}

// docAcross is the section across datasets: the mean ranks, Friedman's
// and Iman-Davenport's tests and the Nemenyi post-hoc test.
func (rp *report) docAcross(dc *doc) {
	dc.h(2, rankingHeading)
	if rp.rankNote != "" {
		dc.p(rp.rankNote)
	}
	fr := rp.friedman
	if fr == nil {
		return
	}
	if c := fewText(fr.N); c != "" {
		dc.caveat(c)
	}
	dc.p(fmt.Sprintf("Mean ranks of the mean test balanced accuracy (at the threshold found on validation) over %d datasets (%s); rank 1 is the best, ties share the average rank.", fr.N, strings.Join(rp.rankSets, ", ")))
	dc.table(rp.ranksTable())
	idf := "+Inf (identical rankings on every dataset)"
	if !math.IsInf(fr.ImanDavenport, 0) {
		idf = fmt.Sprintf("%.4f", fr.ImanDavenport)
	}
	dc.p(fmt.Sprintf("Friedman's test: chi2 = %.4f, df = %d, p = %s. Iman-Davenport: F = %s, df = (%g, %g), p = %s.",
		fr.ChiSquare, fr.K-1, fmtP(fr.P), idf, fr.DF1, fr.DF2, fmtP(fr.ImanDavenportP)))
	if nm := rp.nemenyi; nm != nil {
		dc.p(rp.nemenyiText(nm))
	}
	ref := rp.ref.String()
	dc.p(fmt.Sprintf("%s: on how many datasets the Wilcoxon signed-rank test of each dataset's section (|label - score| on the pooled test rows) finds the method better than %s, no difference at %g, or worse; p-values not adjusted for the %d comparisons.",
		wilcoxonHead(ref), ref, wilcoxonAlpha, len(rp.cfg.Methods)-1))
	if rp.anchored() {
		dc.p("Anchor mean balanced accuracy: the Python run of the same settings, averaged over the same datasets and seeds (blank when it lacks one of them); for AER+, the mean over the same datasets of its per-dataset means over the anchors' seeds.")
	}
}

// wilcoxonAlpha is the level at which the ranking's Wilcoxon column
// counts a dataset's test as a difference.
const wilcoxonAlpha = 0.05

func wilcoxonHead(ref string) string { return "Wilcoxon vs " + ref + ": better / n.s. / worse" }

// wilcoxonTally counts the datasets on which spec s's Wilcoxon test
// against the reference finds it better (lower |label - score|), no
// different at wilcoxonAlpha, or worse; "reference" for the reference.
func (rp *report) wilcoxonTally(s Spec) string {
	if s.String() == rp.ref.String() {
		return "reference"
	}
	var better, same, worse int
	for _, d := range rp.ds {
		for _, t := range rp.tests[d.name] {
			if t.b.String() != s.String() || t.err != nil {
				continue
			}
			w := t.p.Wilcoxon
			switch {
			case w.P >= wilcoxonAlpha || w.WPlus == w.WMinus:
				same++
			case w.WPlus > w.WMinus: // d = reference's loss - s's: s lower
				better++
			default:
				worse++
			}
		}
	}
	return fmt.Sprintf("%d / %d / %d", better, same, worse)
}

// ranksTable is the methods in order of mean rank, with their mean
// balanced accuracy over the ranked datasets.
func (rp *report) ranksTable() *table {
	t := &table{id: "ranking", head: []string{"method", "mean rank", "mean balanced accuracy", wilcoxonHead(rp.ref.String())}}
	withAnchors := rp.anchored()
	if withAnchors {
		t.head = append(t.head, "Python anchor", "anchor mean balanced accuracy")
	}
	for _, m := range rp.ranking().Methods {
		r := []string{m.Method, fmt.Sprintf("%.3f", m.MeanRank), fmt.Sprintf("%.4f", m.BalancedAccuracy), rp.wilcoxonTally(m.spec)}
		if withAnchors {
			a := anchorOf(m.spec)
			r = append(r, a, rp.anchorMean(a))
		}
		t.rows = append(t.rows, r)
	}
	return t
}

// nemenyiText is the Nemenyi paragraph: q, the critical difference and
// the pairs of methods that differ by more.
func (rp *report) nemenyiText(nm *stattest.Nemenyi) string {
	var sig []string
	for _, p := range nm.Pairs {
		if p.Significant {
			a, b := rp.cfg.Methods[p.I].String(), rp.cfg.Methods[p.J].String()
			if p.RankDiff > 0 {
				a, b = b, a
			}
			sig = append(sig, fmt.Sprintf("%s better than %s (%.3f)", a, b, math.Abs(p.RankDiff)))
		}
	}
	s := "no pair of methods differs by more than CD"
	if len(sig) > 0 {
		s = "pairs differing by more than CD: " + strings.Join(sig, "; ")
	}
	return fmt.Sprintf("Nemenyi post-hoc test (Demsar 2006), alpha %g: q = %.4f, critical difference CD = %.4f; %s.", nm.Alpha, nm.Q, nm.CD, s)
}

// writeTests writes every pair test at full precision, for programs and
// for checking against aer compare.
func (rp *report) writeTests(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"dataset", "a", "b", "seeds", "rows", "mcnemar_b", "mcnemar_c", "mcnemar_chi2", "mcnemar_chi2_p", "mcnemar_exact_p",
		"wilcoxon_quantity", "wilcoxon_statistic", "wilcoxon_w_plus", "wilcoxon_w_minus", "wilcoxon_z", "wilcoxon_p", "mean_difference", "error"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, d := range rp.ds {
		for _, t := range rp.tests[d.name] {
			rec := []string{d.name, t.a.String(), t.b.String(), strconv.Itoa(t.seeds), strconv.Itoa(t.rows)}
			if t.err != nil {
				rec = append(rec, "", "", "", "", "", rowLoss, "", "", "", "", "", "", t.err.Error())
			} else {
				m, wx := t.p.McNemar, t.p.Wilcoxon
				rec = append(rec, strconv.Itoa(m.B), strconv.Itoa(m.C), g(m.ChiSquare), g(m.ChiSquareP), g(m.ExactP),
					rowLoss, g(wx.Statistic), g(wx.WPlus), g(wx.WMinus), g(wx.Z), g(wx.P), g(t.p.MeanDifference), "")
			}
			cw.Write(rec)
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeReport writes the report files of a finished bench and returns
// their names relative to cfg.Out.
func writeReport(cfg Config, ds []*data, rows map[runKey]Row) ([]string, *Ranking, error) {
	rp, err := buildReport(cfg, ds, rows)
	if err != nil {
		return nil, nil, err
	}
	figs, err := rp.writeFigures()
	if err != nil {
		return nil, nil, err
	}
	dc := rp.document()
	files := []string{TestsFile, ReportMD, ReportHTML}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{TestsFile, rp.writeTests},
		{ReportMD, dc.markdown},
		{ReportHTML, func(w io.Writer) error { return dc.html(w, cfg.Out) }},
	} {
		if err := atomicfile.Write(filepath.Join(cfg.Out, f.name), f.write); err != nil {
			return nil, nil, err
		}
	}
	return append(files, figs...), rp.ranking(), nil
}

// Ranking is the benchmark's result across datasets, as the report's
// "Ranking across datasets" section gives it: the methods in order of mean rank
// of their mean test balanced accuracy (rank 1 the best), over the
// datasets where every method ran on every seed.
type Ranking struct {
	// Datasets are the ranked datasets; Note says which were left out
	// and why, or why there is no ranking (fewer than two complete
	// datasets or methods: Methods is then empty).
	Datasets []string `json:"datasets"`
	Note     string   `json:"note,omitempty"`
	Methods  []Ranked `json:"methods"`
	// P is Friedman's test's p-value (chi-square), nil without a
	// ranking.
	P *float64 `json:"friedman_p,omitempty"`
}

// Ranked is one method of a Ranking.
type Ranked struct {
	Method           string  `json:"method"`
	MeanRank         float64 `json:"mean_rank"`
	BalancedAccuracy float64 `json:"mean_balanced_accuracy"`
	spec             Spec
}

// ranking is the report's ranking across datasets.
func (rp *report) ranking() *Ranking {
	r := &Ranking{Datasets: rp.rankSets, Note: rp.rankNote, Methods: []Ranked{}}
	fr := rp.friedman
	if fr == nil {
		return r
	}
	p := fr.P
	r.P = &p
	order := make([]int, fr.K)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return fr.MeanRanks[order[a]] < fr.MeanRanks[order[b]] })
	for _, j := range order {
		var v []float64
		for _, d := range rp.rankSets {
			v = append(v, mean(rp.cells[d][j].values(func(r *Row) float64 { return r.BalancedAccuracy })))
		}
		r.Methods = append(r.Methods, Ranked{Method: rp.cfg.Methods[j].String(), MeanRank: fr.MeanRanks[j], BalancedAccuracy: mean(v), spec: rp.cfg.Methods[j]})
	}
	return r
}

// plusOf returns the Python AER+'s mean balanced accuracy on dataset d.
func (rp *report) plusOf(d string) (float64, bool) {
	if rp.plus == nil {
		return 0, false
	}
	v, ok := rp.plus.ba[d]
	return v, ok
}

// hasPlusSpec reports whether a spec of the bench has AER+ as anchor.
func (rp *report) hasPlusSpec() bool {
	for _, s := range rp.cfg.Methods {
		if anchorOf(s) == plusAnchor {
			return true
		}
	}
	return false
}

// plusNote says what the default aer's AER+ anchor is and is not.
func (rp *report) plusNote() string {
	return fmt.Sprintf("The default aer's anchor is the Python reference's %s (../shared/anchors/aerplus.md), the combination AER's default preset grew from. It is known only as its mean test balanced accuracy per dataset over %s (the anchors' splits), not per run: no standard deviation, no ROC-AUC, and not over this bench's seeds unless they are the same. AER's default preset is not its settings (its rules for lambda and delta, for one, are those the figures' captions name), so %s is a reference, not a pair run for run.",
		plusAnchor, rp.plus.seedsText(), plusAnchor)
}

// multiRuleText says how a multi-class decision is made under the
// bench's threshold rule.
func multiRuleText(rule string) string {
	if rule == decision.RuleTuned {
		return "class weights tuned on the validation rows for balanced accuracy"
	}
	return "the Bayes rule for balanced accuracy: the class of largest probability over the model's mean validation probability of that class"
}

// anchored says whether the Python anchors (or AER+) have numbers for any
// of the bench's datasets: the anchors' columns are shown only then.
func (rp *report) anchored() bool {
	for _, d := range rp.ds {
		if rp.anchors[d.name] != nil {
			return true
		}
		if _, ok := rp.plusOf(d.name); ok && rp.hasPlusSpec() {
			return true
		}
	}
	return false
}
