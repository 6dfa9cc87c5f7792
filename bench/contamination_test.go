package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aer-go/aer/bench"
	"github.com/aer-go/aer/contaminate"
)

// A contaminated bench runs every condition, writes each one's report
// beside the clean one's and the summary, resumes a clean bench's runs,
// and gives the same runs on 1 and 2 jobs.
func TestRunContaminated(t *testing.T) {
	out := t.TempDir()
	cfg := tinyBench(t, out)
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	plain := readCSV(t, filepath.Join(out, bench.RunsFile))
	if slices.Contains(plain[0], bench.ContaminationColumn) {
		t.Fatal("a clean bench's runs.csv has the contamination column")
	}
	conds, err := contaminate.Parse("flip:0.1,outliers:0.2,none")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Contaminate = conds
	sum, err := bench.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 2 datasets x 3 methods x 2 seeds x 3 conditions; the clean ones done.
	if sum.Runs != 36 || sum.Skipped != 12 || sum.Ran != 24 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	for _, f := range []string{"contamination.md", "contamination.csv", "contaminated/flip-0.1/report.md",
		"contaminated/outliers-0.2/tests.csv", "contaminated/flip-0.1/preds/alpha/gbdt_n_estimators=20/1.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
		if f != "contaminated/flip-0.1/preds/alpha/gbdt_n_estimators=20/1.csv" && !slices.Contains(sum.Files, f) {
			t.Errorf("summary's files lack %s", f)
		}
	}
	runs := readCSV(t, filepath.Join(out, bench.RunsFile))
	head := runs[0]
	if head[len(head)-1] != bench.ContaminationColumn || len(runs) != 37 {
		t.Fatalf("runs.csv: %d lines, head %v", len(runs), head)
	}
	byCond := map[string]int{}
	for i, r := range runs[1:] {
		byCond[r[len(r)-1]]++
		if i < 12 && !slices.Equal(r[:len(r)-1], plain[i+1]) {
			t.Errorf("clean run %d changed:\n%v\n%v", i, r, plain[i+1])
		}
	}
	if byCond["none"] != 12 || byCond["flip:0.1"] != 12 || byCond["outliers:0.2"] != 12 {
		t.Errorf("runs by condition %v", byCond)
	}
	if c := sum.Contamination; c == nil || len(c.Conditions) != 3 || c.Conditions[1].Condition != "flip:0.1" || c.Reference != "gbdt:n_estimators=20" {
		t.Fatalf("contamination summary %+v", c)
	}

	// Two jobs at once: the same runs, but for the timing columns.
	out2 := t.TempDir()
	cfg.Out, cfg.Jobs = out2, 2
	if _, err := bench.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	again := readCSV(t, filepath.Join(out2, bench.RunsFile))
	timing := map[int]bool{}
	for i, h := range head {
		timing[i] = slices.Contains(bench.TimingColumns, h)
	}
	for i := range runs {
		for j := range runs[i] {
			if !timing[j] && runs[i][j] != again[i][j] {
				t.Fatalf("line %d column %s: %q on 1 job, %q on 2", i+1, head[j], runs[i][j], again[i][j])
			}
		}
	}
	for _, c := range []string{"flip-0.1", "outliers-0.2"} {
		clean, _ := os.ReadFile(filepath.Join(out, "preds/beta/logreg/0.csv"))
		dirty, _ := os.ReadFile(filepath.Join(out, "contaminated", c, "preds/beta/logreg/0.csv"))
		if len(clean) == 0 || string(clean) == string(dirty) {
			t.Errorf("%s: the predictions are the clean ones", c)
		}
	}
	a, _ := os.ReadFile(filepath.Join(out, "contaminated/outliers-0.2/preds/beta/logreg/0.csv"))
	b, _ := os.ReadFile(filepath.Join(out2, "contaminated/outliers-0.2/preds/beta/logreg/0.csv"))
	if len(a) == 0 || string(a) != string(b) {
		t.Error("the predictions of a contaminated run differ between 1 and 2 jobs")
	}
}
