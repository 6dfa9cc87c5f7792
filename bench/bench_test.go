package bench_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aer-go/aer/bench"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/atomicfile"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods"
	"github.com/aer-go/aer/predfile"
	"github.com/aer-go/aer/synth"
)

// writeTask writes a small synthetic imbalanced task as dir/name.csv.
func writeTask(tb testing.TB, dir, name string, seed uint64) string {
	tb.Helper()
	d, err := synth.Generate(&synth.Settings{Samples: 300, Features: 5, Informative: 3, Ratio: 5, Clusters: 1}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name+".csv")
	if err := atomicfile.Write(path, func(w io.Writer) error { return dataset.WriteCSV(w, d.Dataset(name)) }); err != nil {
		tb.Fatal(err)
	}
	return path
}

// tinyBench is two small datasets, two seeds and three fast methods.
func tinyBench(tb testing.TB, out string) bench.Config {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	writeTask(tb, dir, "alpha", 1)
	writeTask(tb, dir, "beta", 2)
	files, err := bench.ExpandDatasets([]string{dir})
	if err != nil {
		tb.Fatal(err)
	}
	specs, err := bench.ParseSpecs("gbdt:n_estimators=20,logreg,tree:max_depth=4")
	if err != nil {
		tb.Fatal(err)
	}
	return bench.Config{Datasets: files, Seeds: []uint64{0, 1}, Methods: specs, Out: out}
}

func readCSV(tb testing.TB, path string) [][]string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return recs
}

func TestRunWritesEverything(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	var events int
	cfg.Progress = func(e bench.Event) {
		events++
		if e.Done != events || e.Total != 12 || e.Skipped {
			t.Errorf("event %d: %+v", events, e)
		}
	}
	sum, err := bench.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Runs != 12 || sum.Ran != 12 || sum.Failed != 0 || sum.Skipped != 0 || events != 12 {
		t.Errorf("summary %+v, %d events", sum, events)
	}
	runs := readCSV(t, filepath.Join(out, bench.RunsFile))
	if !slices.Equal(runs[0], bench.Columns()) || len(runs) != 13 {
		t.Fatalf("runs.csv: header %v, %d lines", runs[0], len(runs))
	}
	col := map[string]int{}
	for j, h := range runs[0] {
		col[h] = j
	}
	for _, r := range runs[1:] {
		if r[col["status"]] != "ok" || r[col["settings_hash"]] == "" {
			t.Errorf("run %v", r)
		}
		if r[col["method"]] == "tree:max_depth=4" && r[col["params"]] != "max_depth=4" {
			t.Errorf("params %q", r[col["params"]])
		}
	}
	for _, ds := range []string{"alpha", "beta"} {
		for _, m := range []string{"gbdt_n_estimators=20", "logreg", "tree_max_depth=4"} {
			for _, s := range []string{"0", "1"} {
				p, err := predfile.LoadPredictions(filepath.Join(out, "preds", ds, m, s+".csv"))
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Label) != 60 || p.Pred == nil {
					t.Errorf("%s/%s/%s: %d rows, pred %v", ds, m, s, len(p.Label), p.Pred != nil)
				}
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(out, bench.ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## alpha", "## beta", "### alpha: gbdt:n_estimators=20 against each method",
		"Fowlkes-Mallows (paper's G-mean)", "TP-FP ratio", "## Ranking across datasets", "Friedman's test: chi2 =",
		"critical difference CD =", "concatenated"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	html, err := os.ReadFile(filepath.Join(out, bench.ReportHTML))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"alpha_roc", "alpha_pr", "alpha_reliability", "beta_roc", "beta_pr", "beta_reliability", "critical_difference"} {
		for _, ext := range []string{".svg", ".png"} {
			if st, err := os.Stat(filepath.Join(out, bench.FiguresDir, f+ext)); err != nil || st.Size() < 1000 {
				t.Errorf("figure %s%s: %v", f, ext, err)
			}
		}
		if !strings.Contains(string(md), "figures/"+f+".png") {
			t.Errorf("report.md does not show %s", f)
		}
	}
	if bytes.Count(html, []byte("<svg")) != 7 {
		t.Errorf("report.html inlines %d figures, want 7", bytes.Count(html, []byte("<svg")))
	}
	if !bytes.Contains(html, []byte("<table>")) || bytes.Contains(html, []byte(`src="http`)) || bytes.Contains(html, []byte(`href="http`)) {
		t.Error("report.html: no table, or it fetches from the network")
	}
	tests := readCSV(t, filepath.Join(out, bench.TestsFile))
	if len(tests) != 5 { // 2 datasets x 2 other methods
		t.Errorf("tests.csv: %d lines", len(tests))
	}
	for _, f := range sum.Files {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestRunResumes(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	runsPath := filepath.Join(out, bench.RunsFile)
	before, _ := os.ReadFile(runsPath)

	sum, err := bench.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(runsPath)
	if sum.Ran != 0 || sum.Skipped != 12 || !bytes.Equal(before, after) {
		t.Errorf("second run: %+v; runs.csv changed: %v", sum, !bytes.Equal(before, after))
	}

	// A lost predictions file, a new parameter and changed data each
	// make new runs; nothing else reruns.
	os.Remove(bench.PredsPath(out, "alpha", cfg.Methods[1], 1))
	cfg.Methods[2].Params[0].Value = "3"
	if sum, err = bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 1+4 || sum.Skipped != 7 {
		t.Errorf("after a lost file and a new parameter: %+v", sum)
	}
	writeTask(t, filepath.Dir(cfg.Datasets[1]), "beta", 7)
	if sum, err = bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 6 || sum.Skipped != 6 {
		t.Errorf("after new data: %+v", sum)
	}
	// Rows of the spec no longer asked for stay in runs.csv.
	if n := len(readCSV(t, runsPath)); n != 1+16 {
		t.Errorf("runs.csv has %d lines, want 17", n)
	}
}

// TestRunJobs checks that parallel runs give runs.csv and predictions
// identical to serial ones, timings aside.
func TestRunJobs(t *testing.T) {
	serial, parallel := t.TempDir(), t.TempDir()
	cfg := tinyBench(t, serial)
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Out, cfg.Jobs = parallel, 2
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	a, b := readCSV(t, filepath.Join(serial, bench.RunsFile)), readCSV(t, filepath.Join(parallel, bench.RunsFile))
	if len(a) != len(b) {
		t.Fatalf("%d and %d lines", len(a), len(b))
	}
	for i := range a {
		for j, h := range a[0] {
			if !slices.Contains(bench.TimingColumns, h) && a[i][j] != b[i][j] {
				t.Errorf("line %d, %s: %q serial, %q parallel", i+1, h, a[i][j], b[i][j])
			}
		}
	}
	n := 0
	filepath.WalkDir(filepath.Join(serial, "preds"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(serial, path)
		x, _ := os.ReadFile(path)
		y, err := os.ReadFile(filepath.Join(parallel, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs (%v)", rel, err)
		}
		n++
		return nil
	})
	if n != 12 {
		t.Errorf("%d predictions files", n)
	}
	for _, f := range []string{bench.TestsFile, bench.ReportMD} {
		x, _ := os.ReadFile(filepath.Join(serial, f))
		y, _ := os.ReadFile(filepath.Join(parallel, f))
		if f == bench.TestsFile && !bytes.Equal(x, y) {
			t.Errorf("%s differs", f)
		}
	}
}

// TestRunInterrupted cancels a bench after its third run: the finished runs
// are kept in a valid runs.csv and the report is not written.
func TestRunInterrupted(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.Progress = func(e bench.Event) {
		if e.Done == 3 {
			cancel()
		}
	}
	_, err := bench.Run(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	runs := readCSV(t, filepath.Join(out, bench.RunsFile))
	if len(runs) != 1+3 {
		t.Errorf("runs.csv: %d lines after 3 runs", len(runs))
	}
	if _, err := os.Stat(filepath.Join(out, bench.ReportMD)); err == nil {
		t.Error("an interrupted bench wrote a report")
	}
	cfg.Progress = nil
	sum, err := bench.Run(context.Background(), cfg)
	if err != nil || sum.Skipped != 3 || sum.Ran != 9 {
		t.Errorf("resumed: %+v, %v", sum, err)
	}
}

// TestRunGridPaper tunes the tree over its paper grid: the chosen values
// are in the params column, and the grid is a setting of its own.
func TestRunGridPaper(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	cfg.Datasets, cfg.Seeds, cfg.Methods = cfg.Datasets[:1], []uint64{0}, cfg.Methods[2:]
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Grid = bench.GridPaper
	sum, err := bench.Run(context.Background(), cfg)
	if err != nil || sum.Ran != 1 {
		t.Fatalf("with the grid: %+v, %v", sum, err)
	}
	runs := readCSV(t, filepath.Join(out, bench.RunsFile))
	params := runs[1][slices.Index(runs[0], "params")]
	if !strings.HasPrefix(params, "max_depth=4 ") || !strings.Contains(params, "criterion=") || !strings.Contains(params, "class_weight=") {
		t.Errorf("params %q: want the spec's and the chosen grid values", params)
	}
	md, _ := os.ReadFile(filepath.Join(out, bench.ReportMD))
	if !strings.Contains(string(md), "criterion in {gini, entropy}") {
		t.Error("report.md does not name the grid searched")
	}
}

// failing is a method that fails to fit at seed 1.
type failing struct{}

func (failing) Name() string { return "bench-test-failing" }
func (failing) Set(key, value string) error {
	return fmt.Errorf("%w: no parameter %q", learn.ErrParam, key)
}
func (failing) Params() []learn.Param             { return nil }
func (failing) Load([]byte) (learn.Scorer, error) { return nil, errors.New("no models") }
func (failing) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	if env.Seed == 1 {
		return nil, errors.New("no luck at seed 1")
	}
	m, _ := learn.New("logreg")
	return m.Fit(ctx, train, valid, env)
}

func init() { learn.Register(func() learn.Method { return failing{} }) }

// TestRunFailure records a method's failure as an error row, reports it,
// keeps the other runs, and tries it again on the next bench.
func TestRunFailure(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	cfg.Methods = append(cfg.Methods[:1], bench.Spec{Name: "bench-test-failing"})
	sum, err := bench.Run(context.Background(), cfg)
	if err != nil || sum.Ran != 8 || sum.Failed != 2 {
		t.Fatalf("%+v, %v", sum, err)
	}
	runs := readCSV(t, filepath.Join(out, bench.RunsFile))
	status, msg, ba := slices.Index(runs[0], "status"), slices.Index(runs[0], "error"), slices.Index(runs[0], "balanced_accuracy")
	n := 0
	for _, r := range runs[1:] {
		if r[status] == "error" {
			n++
			if !strings.Contains(r[msg], "no luck at seed 1") || r[ba] != "NaN" {
				t.Errorf("error row %v", r)
			}
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, bench.ReportMD))
	if n != 2 || !strings.Contains(string(md), "## Failed runs") || !strings.Contains(string(md), "bench-test-failing (1/2 seeds)") {
		t.Errorf("%d error rows; report:\n%s", n, md)
	}
	if sum, err = bench.Run(context.Background(), cfg); err != nil || sum.Ran != 2 || sum.Skipped != 6 {
		t.Errorf("second bench: %+v, %v", sum, err)
	}
}

func TestParseSeeds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []uint64
	}{{"0-4", []uint64{0, 1, 2, 3, 4}}, {"3", []uint64{3}}, {"1,3,7", []uint64{1, 3, 7}}, {"0-2,9,1", []uint64{0, 1, 2, 9}}} {
		got, err := bench.ParseSeeds(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "a", "4-2", "1-", "-1", "1,,2"} {
		if _, err := bench.ParseSeeds(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseSpec(t *testing.T) {
	s, err := bench.ParseSpec("gbdt:n_estimators=20:max_depth=3")
	if err != nil || s.Name != "gbdt" || len(s.Params) != 2 || s.String() != "gbdt:n_estimators=20:max_depth=3" {
		t.Errorf("%+v, %v", s, err)
	}
	for _, bad := range []string{"", "nosuch", "gbdt:n_estimators", "gbdt:nosuch=1", "gbdt:n_estimators=-3", ":a=1"} {
		if _, err := bench.ParseSpec(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	specs := bench.DefaultSpecs()
	if len(specs) < 10 || specs[0].String() != "aer" {
		t.Errorf("default specs %v", specs)
	}
}

// TestRunAERFigures checks the paper's AER figures: drawn from the fit
// summaries kept per run, for aer and not for a method without them, and
// drawn again from those files when a resumed bench fits nothing.
func TestRunAERFigures(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	specs, err := bench.ParseSpecs("aer,logreg,aer:preset=paper")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Datasets, cfg.Methods = cfg.Datasets[:1], specs
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, seed := range cfg.Seeds {
		b, err := os.ReadFile(bench.SummaryPath(out, "alpha", specs[0], seed))
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Members  []string         `json:"members"`
			Static   []float64        `json:"static"`
			ByLambda []map[string]any `json:"by_lambda"`
			ByDelta  []map[string]any `json:"by_delta"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if len(s.Static) == 0 || len(s.Members) != len(s.Static) || !strings.HasPrefix(s.Members[0], "global 0") || len(s.ByLambda) < 2 || len(s.ByDelta) < 2 {
			t.Errorf("seed %d: summary %s", seed, b)
		}
		if _, err := os.Stat(bench.SummaryPath(out, "alpha", specs[1], seed)); err == nil {
			t.Errorf("seed %d: logreg has a summary file", seed)
		}
	}
	figs := []string{"alpha_aer_weights", "alpha_aer_lambda", "alpha_aer_delta", "alpha_aer_f1_fm",
		"alpha_aer_preset=paper_weights", "alpha_aer_preset=paper_lambda", "alpha_aer_preset=paper_delta", "alpha_aer_preset=paper_f1_fm"}
	check := func() {
		t.Helper()
		md, err := os.ReadFile(filepath.Join(out, bench.ReportMD))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range figs {
			for _, ext := range []string{".svg", ".png"} {
				if st, err := os.Stat(filepath.Join(out, bench.FiguresDir, f+ext)); err != nil || st.Size() < 1000 {
					t.Errorf("figure %s%s: %v", f, ext, err)
				}
			}
			if !strings.Contains(string(md), "figures/"+f+".png") {
				t.Errorf("report.md does not show %s", f)
			}
		}
		if strings.Contains(string(md), "alpha_logreg_weights") || !strings.Contains(string(md), "seeds 0, 1") || !strings.Contains(string(md), "Validation curves") {
			t.Error("report.md: wrong AER figures or captions")
		}
		// Each figure names the rule that chose its marked point: the
		// default's lambda by validation ROC-AUC and delta by the Bayes
		// rule, the paper's both by the balanced accuracy curve drawn.
		for f, want := range map[string]string{
			"alpha_aer_lambda":              "Lambda (with the likelihood rule) was chosen by the validation ROC-AUC (select=auc)",
			"alpha_aer_delta":               "Delta was chosen by the Bayes rule of a sigmoid calibration of the validation scores",
			"alpha_aer_f1_fm":               "not for these: by the Bayes rule",
			"alpha_aer_preset=paper_lambda": "chosen by the validation balanced accuracy at its best delta (select=threshold)",
			"alpha_aer_preset=paper_delta":  "Delta was chosen as the best point of this curve (delta_rule=tuned",
		} {
			if c := caption(string(md), f); !strings.Contains(c, want) {
				t.Errorf("caption of %s lacks %q: %q", f, want, c)
			}
		}
		html, _ := os.ReadFile(filepath.Join(out, bench.ReportHTML))
		if n := bytes.Count(html, []byte("<svg")); n != 3+len(figs) {
			t.Errorf("report.html inlines %d figures, want %d", n, 3+len(figs))
		}
	}
	check()
	if err := os.RemoveAll(filepath.Join(out, bench.FiguresDir)); err != nil {
		t.Fatal(err)
	}
	sum, err := bench.Run(context.Background(), cfg)
	if err != nil || sum.Ran != 0 {
		t.Fatalf("resumed: %+v, %v", sum, err)
	}
	check()
}

// caption returns the alt text of figure f's image in report.md.
func caption(md, f string) string {
	end := strings.Index(md, "](figures/"+f+".png)")
	if end < 0 {
		return ""
	}
	start := strings.LastIndex(md[:end], "![")
	if start < 0 {
		return ""
	}
	return md[start+2 : end]
}

// TestRunAnchorPairs checks the report's anchor columns: aer:preset=paper
// beside the anchors' faithful AER run for run, the default aer beside
// the Python AER+'s mean over the anchors' seeds, said to be no more.
func TestRunAnchorPairs(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	specs, err := bench.ParseSpecs("aer,aer:preset=paper,logreg")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Methods = specs
	cfg.Anchors = t.TempDir()
	runs := "dataset,method,seed,status,tuned_ba,roc_auc\n" +
		"alpha,AER_exp_simplex,0,ok,0.61,0.70\nalpha,AER_exp_simplex,1,ok,0.63,0.72\n" +
		"beta,AER_exp_simplex,0,ok,0.51,0.60\nbeta,AER_exp_simplex,1,ok,0.53,0.62\n" +
		"alpha,LR_balanced,0,ok,0.5,0.5\nalpha,LR_balanced,1,ok,0.5,0.5\nbeta,LR_balanced,0,ok,0.5,0.5\nbeta,LR_balanced,1,ok,0.5,0.5\n"
	plus := "# AER+\n\nA study (seeds 0-4).\n\n| dataset | faithful AER | AER+ |\n|---|---|---|\n| alpha | 0.70 | 0.777 |\n| beta | 0.60 | 0.700 |\n| mean | 0.65 | 0.7385 |\n"
	for name, text := range map[string]string{"runs.csv": runs, "aerplus.md": plus} {
		if err := os.WriteFile(filepath.Join(cfg.Anchors, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, bench.ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	rows := map[string][]string{}
	for _, line := range strings.Split(md, "\n") {
		if cells := strings.Split(line, " | "); strings.HasPrefix(line, "| ") && len(cells) > 2 {
			name := strings.TrimPrefix(cells[0], "| ")
			rows[name] = append(rows[name], line)
		}
	}
	// The methods table, the two datasets' tables, the ranks table.
	for _, want := range []struct{ method, cells string }{
		{"aer", "| none (defaults) | AER+ |"},
		{"aer:preset=paper", "| none (defaults) | AER_exp_simplex |"},
		{"aer", "| AER+ (aerplus.md) | 0.777 (mean of the anchors' seeds 0-4) |  |"},
		{"aer:preset=paper", "| AER_exp_simplex | 0.6200 ± 0.0141 | 0.7100 ± 0.0141 |"},
		{"aer", "| AER+ (aerplus.md) | 0.700 (mean of the anchors' seeds 0-4) |  |"},
		{"aer:preset=paper", "| AER_exp_simplex | 0.5200 ± 0.0141 | 0.6100 ± 0.0141 |"},
		{"aer", "| AER+ | 0.7385 (means of the anchors' seeds 0-4) |"},
		{"aer:preset=paper", "| AER_exp_simplex | 0.5700 |"},
	} {
		if !slices.ContainsFunc(rows[want.method], func(r string) bool { return strings.HasSuffix(r, want.cells) }) {
			t.Errorf("no row of %s ends %q: %q", want.method, want.cells, rows[want.method])
		}
	}
	for _, want := range []string{"known only as its mean test balanced accuracy per dataset over the anchors' seeds 0-4", "not per run"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// The balanced accuracy at a method's own threshold (0.5, or the one it
// tuned) is of its own scores: the same whether the decision layer
// calibrates the scores (the default rule) or not (the tuned rule).
func TestDefaultThresholdRawScores(t *testing.T) {
	byRule := map[string][][]string{}
	for _, rule := range []string{"bayes", "tuned"} {
		out := t.TempDir()
		cfg := tinyBench(t, out)
		specs, err := bench.ParseSpecs("gbdt:n_estimators=20,gbdt-tuned:n_estimators=20")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Methods, cfg.ThresholdRule, cfg.CrossFit = specs, rule, -1
		if _, err := bench.Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		byRule[rule] = readCSV(t, filepath.Join(out, bench.RunsFile))
	}
	a, b := byRule["bayes"], byRule["tuned"]
	col := map[string]int{}
	for j, h := range a[0] {
		col[h] = j
	}
	for i := 1; i < len(a); i++ {
		for _, c := range []string{"default_threshold", "default_balanced_accuracy", "roc_auc"} {
			if a[i][col[c]] != b[i][col[c]] {
				t.Errorf("%s %s seed %s: %s %s under the bayes rule, %s under the tuned one", a[i][col["dataset"]], a[i][col["method"]], a[i][col["seed"]], c, a[i][col[c]], b[i][col[c]])
			}
		}
		if a[i][col["brier"]] == b[i][col["brier"]] {
			t.Errorf("run %d: the same Brier score with and without calibration", i)
		}
	}
}
