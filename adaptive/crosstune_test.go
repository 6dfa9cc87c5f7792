package adaptive

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/logreg"
	"github.com/aer-go/aer/metrics"
)

// TestCrossTune: without validation rows, cross_tune=3 tunes on the
// out-of-fold outputs of every training row (the held-out scores the
// decision layer sees are one per training row), leaves the caller's
// rows as they were, is deterministic and scores a working model; with
// validation rows it tunes on both, and cross_tune -1 on them alone.
func TestCrossTune(t *testing.T) {
	tr, va, te := task(t, 1200, 5)
	cfg := smallConfig()
	cfg.CrossTune = 3
	train := ld(tr)
	before := mat.DenseCopyOf(train.X)
	m, rep, err := Fit(context.Background(), train, nil, cfg, learn.Env{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(before, train.X) {
		t.Fatal("the fit changed the caller's rows")
	}
	if rep.CrossTune != 3 || !rep.Holdout || rep.TrainRows != len(tr.Y) || rep.ValidRows != len(tr.Y) {
		t.Fatalf("report: cross_tune %d, holdout %v, %d training and %d validation rows, want 3, true, %d, %d",
			rep.CrossTune, rep.Holdout, rep.TrainRows, rep.ValidRows, len(tr.Y), len(tr.Y))
	}
	y, score, _ := m.HeldOut()
	if len(y) != len(tr.Y) || len(score) != len(tr.Y) {
		t.Fatalf("held-out scores of %d rows, want every training row (%d)", len(score), len(tr.Y))
	}
	p, _, err := m.Score(te.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	if auc := metrics.Evaluate(te.Y, p, 0.5, nil).ROCAUC; auc < 0.85 {
		t.Errorf("test ROC-AUC %v", auc)
	}
	// The out-of-fold scores are honest: their ROC-AUC is not that of
	// the members on the rows they were trained on.
	if inAUC, oofAUC := metrics.Evaluate(tr.Y, mustScore(t, m, tr.X), 0.5, nil).ROCAUC, metrics.Evaluate(y, score, 0.5, nil).ROCAUC; !(oofAUC < inAUC) {
		t.Errorf("out-of-fold ROC-AUC %v not below the in-sample %v", oofAUC, inAUC)
	}
	again, _, err := Fit(context.Background(), ld(tr), nil, cfg, learn.Env{Seed: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m.MarshalBinary()
	b, _ := again.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave another model (workers 0 and 1)")
	}
	// With validation rows, the training rows' out-of-fold outputs are
	// tuning rows beside them; the report's validation metrics are still
	// the validation rows'.
	vm, vrep, err := Fit(context.Background(), ld(tr), ld(va), cfg, learn.Env{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if vrep.CrossTune != 3 || vrep.Holdout || vrep.ValidRows != len(va.Y) || vrep.ValidPositives != count1(va.Y) {
		t.Errorf("with validation rows: cross_tune %d, hold-out %v, %d validation rows (%d positive)", vrep.CrossTune, vrep.Holdout, vrep.ValidRows, vrep.ValidPositives)
	}
	if got := metrics.Evaluate(va.Y, mustScore(t, vm, va.X), vm.Threshold(), nil).BalancedAccuracy; math.Abs(got-vrep.Valid.BalancedAccuracy) > 1e-12 {
		t.Errorf("with validation rows: report's validation balanced accuracy %v, the model's on them %v", vrep.Valid.BalancedAccuracy, got)
	}
	// Validation rows with as many positives as cross_tune_below are
	// tuned on alone.
	below := *cfg
	below.CrossTuneBelow = count1(va.Y)
	if _, brep, err := Fit(context.Background(), ld(tr), ld(va), &below, learn.Env{Seed: 2}); err != nil || brep.CrossTune != 0 {
		t.Errorf("cross_tune_below %d (the validation positives): cross_tune %d, err %v", below.CrossTuneBelow, brep.CrossTune, err)
	}
	below.CrossTuneBelow = count1(va.Y) + 1
	if _, brep, err := Fit(context.Background(), ld(tr), ld(va), &below, learn.Env{Seed: 2}); err != nil || brep.CrossTune != 3 {
		t.Errorf("cross_tune_below %d: cross_tune %d, err %v", below.CrossTuneBelow, brep.CrossTune, err)
	}
	cfg.CrossTune = -1
	if _, vrep, err = Fit(context.Background(), ld(tr), ld(va), cfg, learn.Env{Seed: 2}); err != nil {
		t.Fatal(err)
	}
	if vrep.CrossTune != 0 || vrep.ValidRows != len(va.Y) {
		t.Errorf("with validation rows and cross_tune -1: cross_tune %d, %d validation rows", vrep.CrossTune, vrep.ValidRows)
	}
	for _, bad := range []int{1, -2} {
		c := smallConfig()
		c.CrossTune = bad
		if _, err := c.resolve(); err == nil {
			t.Errorf("cross_tune %d accepted", bad)
		}
	}
	c := smallConfig()
	c.CrossTuneBelow = -2
	if _, err := c.resolve(); err == nil {
		t.Error("cross_tune_below -2 accepted")
	}
	if r, _ := smallConfig().resolve(); r.CrossTuneBelow != 1000 {
		t.Errorf("plus's cross_tune_below %d, want 1000", r.CrossTuneBelow)
	}
}

func mustScore(t *testing.T, m *Model, x *mat.Dense) []float64 {
	t.Helper()
	p, _, err := m.Score(x, 0)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCrossTuneFewPositives: a class with fewer training rows than
// cross_tune's folds gets one fold per row (and a warning); with one row
// too few for 2 folds, a fit given validation rows tunes on them alone.
func TestCrossTuneFewPositives(t *testing.T) {
	tr, va, _ := task(t, 1200, 5)
	for _, keep := range []int{3, 2} {
		var rows []int
		pos := 0
		for i, v := range tr.Y {
			if v == 1 {
				if pos == keep {
					continue
				}
				pos++
			}
			rows = append(rows, i)
		}
		few := tr.Subset(rows)
		_, rep, err := Fit(context.Background(), ld(few), ld(va), smallConfig(), learn.Env{Seed: 1})
		if err != nil {
			t.Fatalf("%d positive training rows: %v", keep, err)
		}
		if rep.CrossTune != keep || len(rep.Warnings) == 0 || !strings.Contains(strings.Join(rep.Warnings, "\n"), "cross_tune") {
			t.Errorf("%d positive training rows: cross_tune %d, warnings %q", keep, rep.CrossTune, rep.Warnings)
		}
	}
	var warnings []string
	if k := crossTuneFolds([]int{0, 0, 0, 1}, 4, true, &warnings); k != 0 || len(warnings) != 1 {
		t.Errorf("one positive row: %d folds, warnings %q", k, warnings)
	}
	if k := crossTuneFolds([]int{0, 1, 0, 1, 1, 0, 1, 0, 1, 0}, 4, true, &warnings); k != 4 || len(warnings) != 1 {
		t.Errorf("five of each: %d folds, warnings %q", k, warnings)
	}
}

// TestBothClasses: a fold's subset can fit a member only with rows of
// both labels of positive weight.
func TestBothClasses(t *testing.T) {
	d := &learn.Data{Y: []int{0, 1, 1, 0}, W: []float64{1, 1, 1, 0}}
	for _, c := range []struct {
		rows []int
		want bool
	}{{[]int{0, 1}, true}, {[]int{1, 2}, false}, {[]int{1, 3}, false}, {nil, false}} {
		if got := bothClasses(d, c.rows); got != c.want {
			t.Errorf("rows %v: %v, want %v", c.rows, got, c.want)
		}
	}
	if got := allRows(3); len(got) != 3 || got[2] != 2 {
		t.Errorf("allRows(3) = %v", got)
	}
}

// TestFoldWorkers: a small table's folds run side by side on shares of
// the workers; a long or large one's one at a time on every worker.
func TestFoldWorkers(t *testing.T) {
	for _, c := range []struct {
		workers, folds, rows, cols int
		conc, threads              int
	}{
		{2, 4, 1000, 20, 2, 1},
		{16, 4, 1000, 20, 4, 4},
		{3, 4, 1000, 20, 3, 1},
		{6, 4, 1000, 20, 3, 2},
		{1, 4, 1000, 20, 1, 1},
		{16, 4, threadBlock, 20, 1, 16},
		{16, 4, 10000, 1000, 1, 16},
	} {
		conc, threads := foldWorkers(c.workers, c.folds, c.rows, c.cols)
		if conc != c.conc || threads != c.threads {
			t.Errorf("%d workers, %d folds, %dx%d: %d folds at once on %d workers each, want %d on %d",
				c.workers, c.folds, c.rows, c.cols, conc, threads, c.conc, c.threads)
		}
	}
}

// TestCrossTuneComponents: with fewer component folds
// (cross_tune_components) the global member's out-of-fold outputs are
// those of the one schedule bit for bit (same folds, same seeds), every
// component member's and peer's column is filled on every row by the
// component folds, and the fit is deterministic; cross_tune_components
// -1 and cross_tune give the same model.
func TestCrossTuneComponents(t *testing.T) {
	tr, _, _ := task(t, 1200, 5)
	oof := func(cc int, workers int) ([]memberSet, *fitRun) {
		t.Helper()
		cfg := smallConfig()
		cfg.CrossTune, cfg.CrossTuneComponents = 4, cc
		f, err := newFit(context.Background(), ld(tr), nil, cfg, learn.Env{Seed: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if err := runStages([]stage{{f.prepare, nil}, {f.fitMixture, nil}, {f.makeSubsets, nil}, {f.weightRows, nil}, {f.fitMembers, nil}}); err != nil {
			t.Fatal(err)
		}
		return f.sets, f
	}
	one, _ := oof(-1, 2)
	two, f := oof(2, 2)
	jobs, err := f.foldJobs()
	if err != nil {
		t.Fatal(err)
	}
	var parts [3]int
	for _, j := range jobs {
		parts[j.part]++
	}
	if parts != [3]int{0, 4, 2} {
		t.Fatalf("jobs by part (all, global, components) %v, want [0 4 2]", parts)
	}
	components, global := 0, 0
	peers := len(f.c.Peers)
	for g := range one {
		a, b := one[g].oof, two[g].oof
		rows, cols := a.Dims()
		for j := range cols {
			same := 0
			for i := range rows {
				v := b.At(i, j)
				if !(v > 0 && v < 1) { // 0: a cell no job filled
					t.Fatalf("set %d member %d row %d: out-of-fold output %v", g, j, i, v)
				}
				if math.Float64bits(v) == math.Float64bits(a.At(i, j)) {
					same++
				}
			}
			if two[g].owner[j] < 0 && j < cols-peers {
				global++
				if same != rows {
					t.Errorf("set %d member %d (global): %d of %d rows as with one schedule", g, j, same, rows)
				}
			} else {
				components++
				if same == rows {
					t.Errorf("set %d member %d (component %d, or a peer): every row as with one schedule", g, j, two[g].owner[j])
				}
			}
		}
	}
	if components <= peers || global == 0 || peers == 0 {
		t.Fatalf("%d component and peer columns (%d peers), %d global", components, peers, global)
	}
	again, _ := oof(2, 1)
	for g := range two {
		if !mat.Equal(two[g].oof, again[g].oof) {
			t.Errorf("set %d: out-of-fold outputs differ on 1 and 2 workers", g)
		}
	}
	// -1 and cross_tune itself are the one schedule.
	fit := func(cc int) []byte {
		cfg := smallConfig()
		cfg.CrossTune, cfg.CrossTuneComponents = 3, cc
		m, _, err := Fit(context.Background(), ld(tr), nil, cfg, learn.Env{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !bytes.Equal(fit(-1), fit(3)) {
		t.Error("cross_tune_components -1 and 3 (= cross_tune) gave different models")
	}
}

// TestFoldLearners: the cross-tuning refits' members get max_bin at most
// cross_tune_max_bin where they have the parameter (a copy: the members
// fitted on every row keep theirs), keep a smaller max_bin, and a method
// without max_bin is left as it is; -1 leaves them all.
func TestFoldLearners(t *testing.T) {
	wide := DefaultMember()
	narrow := DefaultMember()
	if err := narrow.Set("max_bin", "16"); err != nil {
		t.Fatal(err)
	}
	other := logreg.NewStandardized()
	in := []learn.Method{wide, narrow, other}
	same, err := foldLearners(in, -1)
	if err != nil || &same[0] != &in[0] {
		t.Fatalf("-1: %v, a new slice", err)
	}
	out, err := foldLearners(in, 32)
	if err != nil {
		t.Fatal(err)
	}
	maxBin := func(m learn.Method) string {
		for _, p := range m.Params() {
			if p.Key == "max_bin" {
				return p.Value
			}
		}
		return "none"
	}
	if got := maxBin(out[0]); got != "32" || out[0] == wide {
		t.Errorf("default member: max_bin %s in the refits (the same method: %v)", got, out[0] == wide)
	}
	if got := maxBin(wide); got != "256" {
		t.Errorf("the member fitted on every row: max_bin %s, want its own, 256", got)
	}
	if out[1] != narrow || out[2] != other {
		t.Error("a member with max_bin 16, or without max_bin, was replaced")
	}
}
