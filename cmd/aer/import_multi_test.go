package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportMulti imports XGBoost's 4-class multi:softprob model
// (interop/xgboost/testdata/multi.json) with its rows, their labels
// renamed d, c, b, a for 0..3 and named in the model's order by --labels,
// and scores them with aer predict: the multi-class predictions (label,
// pred, score_<class>) give XGBoost's class (renamed) on every row and
// its probabilities within 1e-6.
func TestImportMulti(t *testing.T) {
	dir := t.TempDir()
	names := []string{"d", "c", "b", "a"}
	src := mustRead(t, filepath.Join(xgbFixtures, "multi.csv"))
	lines := strings.Split(strings.TrimSpace(src), "\n")
	for i := 1; i < len(lines); i++ {
		j := strings.LastIndexByte(lines[i], ',')
		lines[i] = lines[i][:j+1] + names[lines[i][j+1]-'0']
	}
	data := filepath.Join(dir, "multi.csv")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "multi.aer")
	out, errOut, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "multi.json"),
		"--data", data, "--labels", "d,c,b,a", "--out", model, "--json")
	if code != 0 {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	var o importOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if o.Classes != nil || strings.Join(o.Labels, ",") != "d,c,b,a" || o.Accuracy == nil || o.Imported.Classes != 4 || o.ROCAUC != nil {
		t.Errorf("import --json: %s", out)
	}
	preds := filepath.Join(dir, "preds.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", data, "--out", preds); code != 0 {
		t.Fatalf("predict: exit %d\n%s", code, errOut)
	}
	var g struct {
		Proba [][]float64 `json:"proba"`
		Label []int       `json:"label"`
	}
	if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(xgbFixtures, "multi.golden.json"))), &g); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(preds)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if h := strings.Join(recs[0], ","); h != "label,pred,score_d,score_c,score_b,score_a" {
		t.Fatalf("predictions header %q", h)
	}
	worst, wrong := 0.0, 0
	for i, r := range recs[1:] {
		if r[1] != names[g.Label[i]] {
			wrong++
		}
		for c := range 4 {
			worst = max(worst, absDiff(t, r[2+c], g.Proba[i][c]))
		}
	}
	t.Logf("aer predict of the imported multi.json: max |p - XGBoost's| = %.3g, %d of %d labels differ", worst, wrong, len(recs)-1)
	if worst > 1e-6 || wrong > 0 {
		t.Errorf("max |p - XGBoost's| = %.3g (want <= 1e-6), %d labels differ (want 0)", worst, wrong)
	}

	// Without --labels the labels sort a, b, c, d: not the model's order,
	// and most rows are mispredicted; --positive and too few --labels are
	// refused.
	out, errOut, code = aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "multi.json"),
		"--data", data, "--out", filepath.Join(dir, "sorted.aer"))
	if code != 0 || !strings.Contains(out, "classes a, b, c, d") {
		t.Errorf("import without --labels: exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"--labels", "a,b"}, {"--labels", "a,b,b,c"}, {"--positive", "a"}} {
		_, errOut, code = aer(t, append([]string{"import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "multi.json"),
			"--data", data, "--out", filepath.Join(dir, "bad.aer")}, args...)...)
		if code != 2 {
			t.Errorf("%q: exit %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}

func absDiff(t *testing.T, cell string, want float64) float64 {
	t.Helper()
	var v float64
	if err := json.Unmarshal([]byte(cell), &v); err != nil {
		t.Fatalf("cell %q: %v", cell, err)
	}
	if v > want {
		return v - want
	}
	return want - v
}
