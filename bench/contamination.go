package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aer-go/aer/contaminate"
	"github.com/aer-go/aer/internal/atomicfile"
)

// Paths of a contaminated bench's output, relative to Config.Out.
const (
	// ContaminatedDir holds one folder per contaminated condition
	// (Condition.Dir), each a bench's output of its own: preds/,
	// summaries/, tests.csv, report.md, report.html, figures/.
	ContaminatedDir = "contaminated"
	// ContaminationMD and ContaminationCSV summarise every condition.
	ContaminationMD  = "contamination.md"
	ContaminationCSV = "contamination.csv"
)

// conditions are the conditions the bench runs: the clean one first,
// then each of Contaminate's contaminated ones once, in order.
func (c *Config) conditions() []contaminate.Condition {
	out := []contaminate.Condition{{}}
	for _, cond := range c.Contaminate {
		if !cond.Clean() && !slices.Contains(out, cond) {
			out = append(out, cond)
		}
	}
	return out
}

// condName is a condition as Row.Contamination holds it: "" when clean.
func condName(c contaminate.Condition) string {
	if c.Clean() {
		return ""
	}
	return c.String()
}

// condOut is the output directory of a condition's predictions,
// summaries and report: out itself when clean.
func condOut(out string, c contaminate.Condition) string {
	if c.Clean() {
		return out
	}
	return filepath.Join(out, ContaminatedDir, c.Dir())
}

// rowsOf returns the runs of condition c keyed as a clean bench's are,
// for its report.
func (rs *runState) rowsOf(c contaminate.Condition) map[runKey]Row {
	out := map[runKey]Row{}
	for k, r := range rs.rows {
		if k.cond == condName(c) {
			k.cond = ""
			out[k] = r
		}
	}
	return out
}

// contaminationReports writes each contaminated condition's report in
// its folder, and the summary of every condition.
func (rs *runState) contaminationReports(ds []*data) error {
	conds := rs.cfg.conditions()
	for _, c := range conds[1:] {
		cfg := rs.cfg
		cfg.Out, cfg.Anchors, cfg.condition = condOut(rs.cfg.Out, c), "", c
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return err
		}
		files, _, err := writeReport(cfg, ds, rs.rowsOf(c))
		if err != nil {
			return fmt.Errorf("%s: %w", c, err)
		}
		for _, f := range files {
			rs.sum.Files = append(rs.sum.Files, filepath.Join(ContaminatedDir, c.Dir(), f))
		}
	}
	ct := summariseContamination(rs.cfg, ds, conds, rs.rows)
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{ContaminationMD, ct.markdown}, {ContaminationCSV, ct.writeCSV}} {
		if err := atomicfile.Write(filepath.Join(rs.cfg.Out, f.name), f.write); err != nil {
			return err
		}
		rs.sum.Files = append(rs.sum.Files, f.name)
	}
	rs.sum.Contamination = ct
	return nil
}

// Contamination summarises a contaminated bench: for each condition and
// method the mean test balanced accuracy and ROC-AUC, the reference's
// paired difference from each other method, and each method's paired
// change from the clean condition.
//
// A mean is over datasets of the mean over seeds of the method's ok runs.
// A paired difference is taken per dataset over the seeds where both runs
// are ok, averaged over seeds, then over datasets; its standard error is
// the standard deviation of the per-dataset differences over the square
// root of their number (the datasets are the units of the comparison,
// the seeds within a dataset are not independent of each other).
type Contamination struct {
	// Reference is the method the others are compared with
	// (Config.Reference, else the first spec named aer).
	Reference  string             `json:"reference"`
	Datasets   int                `json:"datasets"`
	Seeds      int                `json:"seeds"`
	Conditions []ConditionSummary `json:"conditions"`
}

// ConditionSummary is one condition of a Contamination.
type ConditionSummary struct {
	// Condition is "none" or KIND:LEVEL.
	Condition string          `json:"condition"`
	Methods   []MethodSummary `json:"methods"`
}

// MethodSummary is one method under one condition.
type MethodSummary struct {
	Method string `json:"method"`
	// Runs counts the ok runs; Datasets the datasets with one at least.
	Runs     int `json:"runs"`
	Datasets int `json:"datasets"`
	// BalancedAccuracy and ROCAUC are the means (nil without runs).
	BalancedAccuracy *float64 `json:"balanced_accuracy,omitempty"`
	ROCAUC           *float64 `json:"roc_auc,omitempty"`
	// VsReference is the reference minus this method, per metric
	// (absent for the reference itself, and without a pair of runs).
	VsReference map[string]Paired `json:"reference_minus_method,omitempty"`
	// VsClean is this method under the condition minus this method
	// clean, per metric (absent for the clean condition, and without a
	// pair of runs).
	VsClean map[string]Paired `json:"change_from_clean,omitempty"`
}

// Paired is a paired difference over datasets.
type Paired struct {
	// Mean is the mean over datasets of the per-dataset mean difference.
	Mean float64 `json:"mean"`
	// SE is its standard error; nil with fewer than two datasets.
	SE *float64 `json:"se,omitempty"`
	// Datasets counts the datasets with a pair; Wins and Losses those
	// where the difference is above and below 0.
	Datasets int `json:"datasets"`
	Wins     int `json:"wins"`
	Losses   int `json:"losses"`
}

// String writes p as "+0.0123 ± 0.0045 (9/4)": mean, standard error, and
// datasets above / below 0.
func (p Paired) String() string {
	se := "n/a"
	if p.SE != nil {
		se = fmt.Sprintf("%.4f", *p.SE)
	}
	return fmt.Sprintf("%+.4f ± %s (%d/%d)", p.Mean, se, p.Wins, p.Losses)
}

// contaminationMetrics are the metrics the summary gives, by runs.csv
// column name.
var contaminationMetrics = []struct {
	name, title, lower string
	get                func(*Row) float64
}{
	{"balanced_accuracy", "Balanced accuracy", "balanced accuracy", func(r *Row) float64 { return r.BalancedAccuracy }},
	{"roc_auc", "ROC-AUC", "ROC-AUC", func(r *Row) float64 { return r.ROCAUC }},
}

// summariseContamination computes the Contamination of rows.
func summariseContamination(cfg Config, ds []*data, conds []contaminate.Condition, rows map[runKey]Row) *Contamination {
	ref := (&report{cfg: cfg}).reference().String()
	ct := &Contamination{Reference: ref, Datasets: len(ds), Seeds: len(cfg.Seeds)}
	value := func(c contaminate.Condition, method, dataset string, seed uint64, get func(*Row) float64) float64 {
		r, ok := rows[runKey{dataset, method, seed, condName(c)}]
		if !ok || r.Status != "ok" {
			return math.NaN()
		}
		return get(&r)
	}
	for _, c := range conds {
		cs := ConditionSummary{Condition: c.String()}
		for _, spec := range cfg.Methods {
			m := spec.String()
			ms := MethodSummary{Method: m}
			for _, d := range ds {
				n := 0
				for _, seed := range cfg.Seeds {
					if !math.IsNaN(value(c, m, d.name, seed, func(*Row) float64 { return 0 })) {
						n++
					}
				}
				ms.Runs += n
				if n > 0 {
					ms.Datasets++
				}
			}
			for _, mt := range contaminationMetrics {
				per := func(a, b func(string, uint64) float64) Paired { return paired(ds, cfg.Seeds, a, b) }
				own := func(d string, s uint64) float64 { return value(c, m, d, s, mt.get) }
				mean := per(own, func(string, uint64) float64 { return 0 })
				if mean.Datasets > 0 {
					v := mean.Mean
					if mt.name == "balanced_accuracy" {
						ms.BalancedAccuracy = &v
					} else {
						ms.ROCAUC = &v
					}
				}
				if p := per(func(d string, s uint64) float64 { return value(c, ref, d, s, mt.get) }, own); m != ref && p.Datasets > 0 {
					if ms.VsReference == nil {
						ms.VsReference = map[string]Paired{}
					}
					ms.VsReference[mt.name] = p
				}
				if p := per(own, func(d string, s uint64) float64 { return value(contaminate.Condition{}, m, d, s, mt.get) }); !c.Clean() && p.Datasets > 0 {
					if ms.VsClean == nil {
						ms.VsClean = map[string]Paired{}
					}
					ms.VsClean[mt.name] = p
				}
			}
			cs.Methods = append(cs.Methods, ms)
		}
		ct.Conditions = append(ct.Conditions, cs)
	}
	return ct
}

// paired is the paired difference a - b over datasets: per dataset the
// mean over the seeds where both are numbers.
func paired(ds []*data, seeds []uint64, a, b func(string, uint64) float64) Paired {
	var per []float64
	var p Paired
	for _, d := range ds {
		var diff []float64
		for _, s := range seeds {
			if x, y := a(d.name, s), b(d.name, s); !math.IsNaN(x) && !math.IsNaN(y) {
				diff = append(diff, x-y)
			}
		}
		if len(diff) == 0 {
			continue
		}
		v := mean(diff)
		per = append(per, v)
		switch {
		case v > 0:
			p.Wins++
		case v < 0:
			p.Losses++
		}
	}
	p.Datasets = len(per)
	if p.Datasets == 0 {
		p.Mean = math.NaN()
		return p
	}
	p.Mean = mean(per)
	if p.Datasets > 1 {
		se := std(per) / math.Sqrt(float64(p.Datasets))
		p.SE = &se
	}
	return p
}

// fmtPaired writes the paired difference of metric in m, "n/a" when
// absent.
func fmtPaired(m map[string]Paired, metric string) string {
	if p, ok := m[metric]; ok {
		return p.String()
	}
	return "n/a"
}

// fmtMean writes a mean, "n/a" when absent.
func fmtMean(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.4f", *v)
}

// tables returns, for metric mt, the table of each method's mean per
// condition, the reference's paired differences and each method's change
// from clean.
func (ct *Contamination) tables(metric string) (means, vsRef, vsClean *table) {
	means = &table{head: []string{"condition"}}
	vsRef = &table{head: []string{"condition"}}
	vsClean = &table{head: []string{"condition"}}
	for _, m := range ct.Conditions[0].Methods {
		means.head = append(means.head, m.Method)
		vsClean.head = append(vsClean.head, m.Method)
		if m.Method != ct.Reference {
			vsRef.head = append(vsRef.head, ct.Reference+" − "+m.Method)
		}
	}
	for _, c := range ct.Conditions {
		mr, rr, cr := []string{c.Condition}, []string{c.Condition}, []string{c.Condition}
		for _, m := range c.Methods {
			v := m.BalancedAccuracy
			if metric == "roc_auc" {
				v = m.ROCAUC
			}
			mr = append(mr, fmtMean(v))
			if m.Method != ct.Reference {
				rr = append(rr, fmtPaired(m.VsReference, metric))
			}
			cr = append(cr, fmtPaired(m.VsClean, metric))
		}
		means.rows = append(means.rows, mr)
		vsRef.rows = append(vsRef.rows, rr)
		if c.Condition != contaminate.None {
			vsClean.rows = append(vsClean.rows, cr)
		}
	}
	return means, vsRef, vsClean
}

// markdown writes contamination.md.
func (ct *Contamination) markdown(w io.Writer) error {
	var dc doc
	dc.h(1, "Contamination")
	dc.p(fmt.Sprintf("Every method on %d datasets and %d seeds under each condition: the training and validation rows of each split contaminated (package contaminate; flip: a share of each class's labels flipped, flip-minority: a share of the minority rows relabelled as majority, outliers: a share of each class's rows replaced by gross outliers, every feature at its mean ± 10 standard deviations), before the standardisation; the test rows untouched. Every method of a dataset and seed sees the same contaminated rows. Each condition's full report is under %s/.", ct.Datasets, ct.Seeds, ContaminatedDir))
	dc.p(fmt.Sprintf("Means are over datasets of the mean over seeds. A difference is paired: per dataset, the mean over seeds of the difference of two runs on the same split, then the mean over datasets ± its standard error (the standard deviation of the per-dataset differences over the square root of their number), and in brackets the datasets above / below 0. The reference is %s.", ct.Reference))
	for _, mt := range contaminationMetrics {
		means, vsRef, vsClean := ct.tables(mt.name)
		dc.h(2, mt.title)
		dc.p("Mean test " + mt.lower + ":")
		dc.table(means)
		if len(vsRef.head) > 1 {
			dc.p(fmt.Sprintf("The reference %s minus each other method:", ct.Reference))
			dc.table(vsRef)
		}
		if len(vsClean.rows) > 0 {
			dc.p("Each method's change from its clean runs:")
			dc.table(vsClean)
		}
	}
	return dc.markdown(w)
}

// WriteText writes the means and the reference's paired differences of
// every condition as aligned text, as aer bench prints them.
func (ct *Contamination) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	for _, mt := range contaminationMetrics {
		means, vsRef, _ := ct.tables(mt.name)
		ew.printf("%s, mean over %d datasets and %d seeds:\n", mt.title, ct.Datasets, ct.Seeds)
		textTable(ew, means)
		if len(vsRef.head) > 1 {
			ew.printf("%s, paired difference ± standard error over datasets (datasets above/below 0):\n", mt.title)
			textTable(ew, vsRef)
		}
	}
	return ew.err
}

// textTable writes t with its columns aligned, two spaces in.
func textTable(ew *errWriter, t *table) {
	width := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range append([][]string{t.head}, t.rows...) {
		var b strings.Builder
		for i, c := range r {
			pad := width[i] - len([]rune(c))
			if i == 0 {
				b.WriteString("  " + c + strings.Repeat(" ", pad))
			} else {
				b.WriteString("  " + strings.Repeat(" ", pad) + c)
			}
		}
		ew.printf("%s\n", b.String())
	}
}

// writeCSV writes contamination.csv: one row per condition, method and
// metric.
func (ct *Contamination) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"condition", "method", "metric", "mean", "runs", "datasets",
		"reference_minus_method", "reference_minus_method_se", "change_from_clean", "change_from_clean_se"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	fp := func(v *float64) string {
		if v == nil {
			return ""
		}
		return f(*v)
	}
	for _, c := range ct.Conditions {
		for _, m := range c.Methods {
			for _, mt := range contaminationMetrics {
				v := m.BalancedAccuracy
				if mt.name == "roc_auc" {
					v = m.ROCAUC
				}
				rec := []string{c.Condition, m.Method, mt.name, fp(v), strconv.Itoa(m.Runs), strconv.Itoa(m.Datasets), "", "", "", ""}
				if p, ok := m.VsReference[mt.name]; ok {
					rec[6], rec[7] = f(p.Mean), fp(p.SE)
				}
				if p, ok := m.VsClean[mt.name]; ok {
					rec[8], rec[9] = f(p.Mean), fp(p.SE)
				}
				cw.Write(rec)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
