package bench

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/contaminate"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/synth"
)

// A contaminated split changes exactly the share asked of the training
// and validation rows of each class and leaves the test rows as they
// are; the same seed gives the same split.
func TestSplitContaminated(t *testing.T) {
	g, err := synth.Generate(&synth.Settings{Samples: 500, Features: 6, Informative: 3, Ratio: 6}, 2)
	if err != nil {
		t.Fatal(err)
	}
	d := g.Dataset("task")
	clean, err := rawSplit(d, ProtocolSklearn, 3, contaminate.Condition{})
	if err != nil {
		t.Fatal(err)
	}
	counts := func(y []int) (n [2]int) {
		for _, v := range y {
			n[v]++
		}
		return n
	}
	for _, kind := range contaminate.Kinds {
		cond := contaminate.Condition{Kind: kind, Level: 0.1}
		dirty, err := rawSplit(d, ProtocolSklearn, 3, cond)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(clean.test.X, dirty.test.X) || !slices.Equal(clean.test.Y, dirty.test.Y) {
			t.Fatalf("%s: test rows changed", kind)
		}
		for _, p := range []struct {
			name         string
			clean, dirty *learn.Data
		}{{"train", clean.train, dirty.train}, {"valid", clean.valid, dirty.valid}} {
			n := counts(p.clean.Y)
			want := contaminate.Count(0.1, n[0]) + contaminate.Count(0.1, n[1])
			if kind == contaminate.FlipMinority {
				want = contaminate.Count(0.1, n[1])
			}
			labels, rows := 0, 0
			for i := range p.clean.Y {
				if p.clean.Y[i] != p.dirty.Y[i] {
					labels++
				}
				if !mat.Equal(p.clean.X.RowView(i), p.dirty.X.RowView(i)) {
					rows++
				}
			}
			got := labels
			if kind == contaminate.Outliers {
				got = rows
				if labels != 0 {
					t.Errorf("%s %s: %d labels changed", kind, p.name, labels)
				}
			} else if rows != 0 {
				t.Errorf("%s %s: %d rows changed", kind, p.name, rows)
			}
			if got != want || want == 0 {
				t.Errorf("%s %s: %d rows contaminated, want %d", kind, p.name, got, want)
			}
		}
		again, _ := splitDataCond(d, ProtocolSklearn, 3, cond)
		once, _ := splitDataCond(d, ProtocolSklearn, 3, cond)
		if !mat.Equal(again.train.X, once.train.X) || !slices.Equal(again.train.Y, once.train.Y) || !slices.Equal(again.valid.Y, once.valid.Y) {
			t.Errorf("%s: the same seed contaminates differently", kind)
		}
		other, _ := rawSplit(d, ProtocolSklearn, 4, cond)
		if mat.Equal(other.train.X, dirty.train.X) && slices.Equal(other.train.Y, dirty.train.Y) {
			t.Errorf("%s: seeds 3 and 4 give the same split", kind)
		}
	}
}

// The summary's means, paired differences, standard errors and tallies on
// runs of known values.
func TestSummariseContamination(t *testing.T) {
	ds := []*data{{name: "a"}, {name: "b"}, {name: "c"}}
	ref, other := Spec{Name: "aer", Params: []Param{{"mixture", "t"}}}, Spec{Name: "gbdt"}
	cfg := Config{Methods: []Spec{ref, other}, Seeds: []uint64{0, 1}}
	flip := contaminate.Condition{Kind: contaminate.Flip, Level: 0.1}
	rows := map[runKey]Row{}
	add := func(c contaminate.Condition, s Spec, d string, seed uint64, ba, auc float64) {
		r := Row{Dataset: d, Method: s.String(), Seed: seed, Status: "ok", BalancedAccuracy: ba, ROCAUC: auc, Contamination: condName(c)}
		rows[keyOf(&r)] = r
	}
	// Clean: ref 0.9 everywhere; gbdt 0.8, 0.85, 0.9 on a, b, c (both seeds).
	for i, d := range []string{"a", "b", "c"} {
		for seed := range uint64(2) {
			add(contaminate.Condition{}, ref, d, seed, 0.9, 0.95)
			add(contaminate.Condition{}, other, d, seed, 0.8+0.05*float64(i), 0.9)
			add(flip, ref, d, seed, 0.8, 0.9)
			add(flip, other, d, seed, 0.7+0.1*float64(seed), 0.9) // seeds differ: mean 0.75
		}
	}
	// A failed run drops its seed from the pairs of dataset c.
	r := rows[runKey{"c", "gbdt", 1, "flip:0.1"}]
	r.Status = "error"
	rows[keyOf(&r)] = r

	ct := summariseContamination(cfg, ds, []contaminate.Condition{{}, flip}, rows)
	if ct.Reference != "aer:mixture=t" || len(ct.Conditions) != 2 {
		t.Fatalf("reference %s, %d conditions", ct.Reference, len(ct.Conditions))
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", what, got, want)
		}
	}
	g := ct.Conditions[0].Methods[1]
	near("clean gbdt BA", *g.BalancedAccuracy, 0.85)
	p := g.VsReference["balanced_accuracy"]
	near("clean ref-gbdt", p.Mean, 0.05)
	near("clean ref-gbdt se", *p.SE, 0.05/math.Sqrt(3)) // differences 0.1, 0.05, 0
	if p.Wins != 2 || p.Losses != 0 || p.Datasets != 3 || g.VsClean != nil {
		t.Errorf("clean tally %+v, vs clean %v", p, g.VsClean)
	}
	g = ct.Conditions[1].Methods[1]
	if g.Runs != 5 || g.Datasets != 3 {
		t.Errorf("flip gbdt: %d runs on %d datasets, want 5 on 3", g.Runs, g.Datasets)
	}
	// Dataset c has seed 0 only (0.7): means 0.75, 0.75, 0.7.
	near("flip gbdt BA", *g.BalancedAccuracy, (0.75+0.75+0.7)/3)
	near("flip ref-gbdt", g.VsReference["balanced_accuracy"].Mean, (0.05+0.05+0.1)/3)
	// gbdt's change from clean: a 0.75-0.8, b 0.75-0.85, c 0.7-0.9.
	near("flip gbdt vs clean", g.VsClean["balanced_accuracy"].Mean, (-0.05-0.1-0.2)/3)
	if c := g.VsClean["roc_auc"]; c.Mean != 0 || c.Wins+c.Losses != 0 || *c.SE != 0 {
		t.Errorf("ROC-AUC unchanged, got %+v", c)
	}
	if _, ok := ct.Conditions[1].Methods[0].VsReference["roc_auc"]; ok {
		t.Error("the reference compared with itself")
	}

	var md, text, csvOut bytes.Buffer
	if err := ct.markdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := ct.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := ct.writeCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| flip:0.1 | 0.8000 | 0.7333 |", "+0.0500 ± 0.0289 (2/0)", "aer:mixture=t − gbdt", "Mean test ROC-AUC:"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("contamination.md lacks %q:\n%s", want, md.String())
		}
	}
	if !strings.Contains(text.String(), "flip:0.1") || !strings.Contains(text.String(), "+0.0667 ± 0.0167 (3/0)") {
		t.Errorf("text:\n%s", text.String())
	}
	if n := strings.Count(csvOut.String(), "\n"); n != 1+2*2*2 {
		t.Errorf("contamination.csv has %d lines:\n%s", n, csvOut.String())
	}
}

// runs.csv has the contamination column, last, only when a row is
// contaminated, and reads it back.
func TestRunsContaminationColumn(t *testing.T) {
	rows := []Row{{Dataset: "a", Method: "gbdt", Status: "ok"}, {Dataset: "a", Method: "gbdt", Status: "ok", Contamination: "outliers:0.2"}}
	var plain, with bytes.Buffer
	if err := WriteRuns(&plain, rows[:1]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), ContaminationColumn) {
		t.Error("a clean runs.csv has the contamination column")
	}
	if err := WriteRuns(&with, rows); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(with.String(), "\n")
	if !strings.HasSuffix(head, ",settings_hash,contamination") || !strings.Contains(with.String(), ",none\n") {
		t.Errorf("runs.csv:\n%s", with.String())
	}
	text := with.String()
	back, err := ReadRuns(&with, "runs.csv")
	if err != nil || len(back) != 2 || back[0].Contamination != "" || back[1].Contamination != "outliers:0.2" {
		t.Fatalf("read back %+v, %v", back, err)
	}
	bad := strings.Replace(text, "outliers:0.2", "outliers:2", 1)
	if _, err := ReadRuns(strings.NewReader(bad), "runs.csv"); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("a bad contamination reads: %v", err)
	}
}

// The conditions of a bench: clean first, each other once; level 0 of any
// kind is the clean one; a condition out of range is an error.
func TestConditions(t *testing.T) {
	flip := contaminate.Condition{Kind: contaminate.Flip, Level: 0.1}
	cfg := Config{Contaminate: []contaminate.Condition{flip, {Kind: contaminate.Outliers}, {}, flip}}
	if got := cfg.conditions(); !slices.Equal(got, []contaminate.Condition{{}, flip}) {
		t.Errorf("conditions %v", got)
	}
	base := Config{Datasets: []string{"x.csv"}, Seeds: []uint64{0}, Out: "out"}
	for _, c := range []contaminate.Condition{{Kind: "noise", Level: 0.1}, {Kind: contaminate.Flip, Level: 0.7}, {Kind: contaminate.Flip, Level: math.NaN()}, {Level: 0.1}} {
		cfg := base
		cfg.Contaminate = []contaminate.Condition{c}
		if err := cfg.check(); err == nil {
			t.Errorf("condition %+v accepted", c)
		}
	}
	cfg = base
	cfg.Contaminate = []contaminate.Condition{{Kind: contaminate.Flip}, flip}
	if err := cfg.check(); err != nil {
		t.Error(err)
	}
}
