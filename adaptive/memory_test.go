package adaptive

import (
	"context"
	"testing"

	"github.com/aer-go/aer/learn"
)

// TestFitMemoryKnown: the estimate for the 6M-row fit of issue 14 (6M
// training and 2M validation rows of 20 features, 2 workers, the table
// standardised in place) is 2624777216 bytes with plus's one member
// setting (the session-7 binary's four gave 2768777216, which the paper
// preset's grid still gives), plus the members' trees held to the end
// (2L+1 = 17 per member setting, each as large as boost's ModelMemory
// says), and a copied table adds its 960 MB; all this tuned on the
// validation rows alone (cross_tune -1). Cross-tuned (the default), the
// training rows' out-of-fold outputs are tuning rows too: the estimate
// is that of as many more validation rows.
func TestFitMemoryKnown(t *testing.T) {
	m := NewMethod().(*Method)
	m.cfg.CrossTune = -1
	s := learn.Shape{Rows: 6_000_000, ValidRows: 2_000_000, Features: 20, Workers: 2, ConsumeTrain: true}
	want := 2624777216 + memberTrees(t, m, s.Rows)
	if got := m.FitMemory(s); got != want {
		t.Errorf("estimate %d, want %d", got, want)
	}
	s.ConsumeTrain = false
	if got := m.FitMemory(s); got != want+6_000_000*20*8 {
		t.Errorf("with the table copied: %d", got)
	}
	grid := NewMethod().(*Method)
	grid.cfg.Grid, grid.cfg.CrossTune = DefaultGrid(), -1
	s.ConsumeTrain = true
	if want := 2800777216 + memberTrees(t, grid, s.Rows); grid.FitMemory(s) != want {
		t.Errorf("the 2x2 member grid: estimate %d, want %d", grid.FitMemory(s), want)
	}
	tuned := NewMethod().(*Method)
	more := s
	more.ValidRows += s.Rows
	if got, want := tuned.FitMemory(s), m.FitMemory(more); got != want || got <= m.FitMemory(s) {
		t.Errorf("cross-tuned: estimate %d, want %d (that of %d validation rows), above %d", got, want, more.ValidRows, m.FitMemory(s))
	}
}

// memberTrees is the memory of m's members' trees at L = 8: 17 members
// per member setting, each of boost's ModelMemory on rows rows.
func memberTrees(t *testing.T, m *Method, rows int) int64 {
	t.Helper()
	r, err := m.cfg.resolve()
	if err != nil {
		t.Fatal(err)
	}
	var trees int64
	for _, lm := range r.learners {
		mm, ok := lm.(interface{ ModelMemory(rows int64) int64 })
		if !ok {
			t.Fatalf("member %s has no ModelMemory", lm.Name())
		}
		if one := mm.ModelMemory(int64(rows)); one <= 0 {
			t.Fatalf("member %s: ModelMemory %d", lm.Name(), one)
		} else {
			trees += 17 * one
		}
	}
	return trees
}

// TestMemoryPlan: a fit tells its MemoryPlan the memory the rest needs
// twice, after its mixture and after its subsets, each at most the one
// before (the first at most the estimate before the fit), and more with
// more mixture components (more members and outputs).
func TestMemoryPlan(t *testing.T) {
	tr, va, _ := task(t, 1500, 3)
	shape := learn.Shape{Rows: tr.Rows(), ValidRows: va.Rows(), Features: tr.Cols(), Workers: 1}
	var plans []int64
	for _, comps := range [][]int{{2}, {4}} {
		c := smallConfig()
		c.Components = comps
		var got []int64
		env := learn.Env{Workers: 1, MemoryPlan: func(b int64) { got = append(got, b) }}
		m, _, err := Fit(context.Background(), ld(tr), ld(va), c, env)
		if err != nil {
			t.Fatal(err)
		}
		if m.mixture.K() != comps[0] || len(got) != 2 {
			t.Fatalf("L = %d: %d plans %v", m.mixture.K(), len(got), got)
		}
		before := (&Method{cfg: *c}).FitMemory(shape)
		if got[1] <= 16<<20 || got[1] > got[0] || got[0] > before {
			t.Errorf("L = %d: plans %v, estimate before the fit %d", comps[0], got, before)
		}
		plans = append(plans, got[1])
	}
	if plans[1] <= plans[0] {
		t.Errorf("plan with L = 4 (%d) not above L = 2's (%d)", plans[1], plans[0])
	}
}

// TestFitMemoryCrossTune: without validation rows the default cross-tuned
// fit scores every training row out of fold, so its estimate exceeds the
// hold-out's, which trains on three quarters of the rows.
func TestFitMemoryCrossTune(t *testing.T) {
	s := learn.Shape{Rows: 1_000_000, Features: 20, Workers: 2}
	ct := NewMethod().(*Method)
	held := NewMethod().(*Method)
	if err := held.Set("cross_tune", "-1"); err != nil {
		t.Fatal(err)
	}
	if a, b := ct.FitMemory(s), held.FitMemory(s); !(a > b) {
		t.Errorf("cross-tuned estimate %d, hold-out's %d: want it larger", a, b)
	}
	// A small table's four folds, fitted side by side on 4 workers, hold
	// three more copies of the rows than one fold at a time.
	small := learn.Shape{Rows: 1000, Features: 20, Workers: 4}
	asValid := small
	asValid.ValidRows += small.Rows
	if got, want := ct.FitMemory(small), held.FitMemory(asValid)+3*1000*20*8; got != want {
		t.Errorf("small table on 4 workers: estimate %d, want %d", got, want)
	}
}
