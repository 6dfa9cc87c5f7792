package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/predfile"
)

// xgbFixtures is the folder of the XGBoost fixtures (interop/xgboost).
const xgbFixtures = "../../interop/xgboost/testdata"

// TestImportXGBoost imports XGBoost's categorical model with aer import,
// scores the rows XGBoost scored with aer predict, and compares; then
// aer explain, aer eval and aer info read the file.
func TestImportXGBoost(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "cat.aer")
	out, errOut, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "categorical.json"),
		"--data", filepath.Join(xgbFixtures, "categorical.csv"), "--out", model)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	golden(t, "import/categorical.txt", strings.ReplaceAll(out, dir, "DIR"))

	var g struct {
		Rows, Probe struct {
			Predict  []float64   `json:"predict"`
			Contribs [][]float64 `json:"contribs"`
		}
	}
	b, err := os.ReadFile(filepath.Join(xgbFixtures, "categorical.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	// The probe rows hold codes XGBoost never saw (too large, negative,
	// fractional, beyond 2^24) and missing ones.
	preds := filepath.Join(dir, "preds.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", filepath.Join(xgbFixtures, "categorical.probe.csv"), "--out", preds); code != 0 {
		t.Fatalf("predict: exit %d\n%s", code, errOut)
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
	if len(recs)-1 != len(g.Probe.Predict) || strings.Join(recs[0], ",") != "label,score,pred" {
		t.Fatalf("predict wrote %d rows (%v), XGBoost scored %d", len(recs)-1, recs[0], len(g.Probe.Predict))
	}
	worst := 0.0
	for i, r := range recs[1:] {
		s, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		worst = max(worst, math.Abs(s-g.Probe.Predict[i]))
	}
	if worst > 1e-6 {
		t.Errorf("max |aer predict - Booster.predict| = %.3g, want <= 1e-6", worst)
	}

	out, errOut, code = aer(t, "explain", "--model", model, "--data", filepath.Join(xgbFixtures, "categorical.csv"), "--rows", "1-3", "--json")
	if code != 0 {
		t.Fatalf("explain: exit %d\n%s", code, errOut)
	}
	var ex struct {
		Rows []struct {
			Row      int `json:"row"`
			Features struct {
				Base   float64 `json:"base"`
				Values []struct {
					Feature     string  `json:"feature"`
					Attribution float64 `json:"attribution"`
				} `json:"values"`
			} `json:"features"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatal(err)
	}
	if len(ex.Rows) != 3 {
		t.Fatalf("explain gave %d rows", len(ex.Rows))
	}
	for _, r := range ex.Rows {
		want := g.Rows.Contribs[r.Row-1] // --rows count from 1
		d := math.Abs(r.Features.Base - want[2])
		for _, v := range r.Features.Values {
			d = max(d, math.Abs(v.Attribution-want[map[string]int{"x": 0, "colour": 1}[v.Feature]]))
		}
		if d > 1e-5 {
			t.Errorf("explain row %d: attributions differ from pred_contribs by %.3g", r.Row, d)
		}
	}

	if _, errOut, code := aer(t, "predict", "--model", model, "--data", filepath.Join(xgbFixtures, "categorical.csv"), "--out", preds); code != 0 {
		t.Fatalf("predict: exit %d\n%s", code, errOut)
	}
	out, errOut, code = aer(t, "eval", "--data", preds, "--json")
	if code != 0 || !strings.Contains(out, `"roc_auc"`) {
		t.Errorf("eval: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = aer(t, "info", "--model", model)
	if code != 0 || !strings.Contains(out, "imported        from xgboost 1.7.4 (json") {
		t.Errorf("info: exit %d\n%s%s", code, out, errOut)
	}
}

// TestImportJSONAndStdin: --json describes the import; --model - reads the
// model from standard input; the UBJSON file gives the same model file as
// the JSON one.
func TestImportJSONAndStdin(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(xgbFixtures, "plain.csv")
	out, errOut, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "plain.ubj"), "--data", data,
		"--out", filepath.Join(dir, "a.aer"), "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var doc struct {
		Format, Version, Objective string
		Trees                      int
		Features                   []string
		Classes                    [2]string
		ROCAUC                     float64 `json:"roc_auc"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != "ubjson" || doc.Version != "1.7.4" || doc.Trees != 30 || len(doc.Features) != 4 || doc.Classes[1] != "1" || doc.ROCAUC < 0.9 {
		t.Errorf("--json: %s", out)
	}
	raw, err := os.ReadFile(filepath.Join(xgbFixtures, "plain.json"))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = runContext(withStdin(context.Background(), bytes.NewReader(raw)), []string{"import", "--from", "xgboost", "--model", "-", "--data", data, "--out", filepath.Join(dir, "b.aer")}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("--model -: %v\n%s", err, stderr.String())
	}
	// The two files differ only in the format and hash they record: the
	// models are the same.
	_, pa, errA := modelfile.Load(filepath.Join(dir, "a.aer"))
	_, pb, errB := modelfile.Load(filepath.Join(dir, "b.aer"))
	if errA != nil || errB != nil || !bytes.Equal(pa, pb) {
		t.Errorf("the UBJSON and JSON files import to different models (%v, %v)", errA, errB)
	}
}

// TestImportRefused: each refusal exits with the documented status, says
// why, and writes nothing.
func TestImportRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.aer")
	plain, plainCSV := filepath.Join(xgbFixtures, "plain.json"), filepath.Join(xgbFixtures, "plain.csv")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	raw, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	softprob := write("softprob.json", strings.Replace(string(raw), `"binary:logistic"`, `"multi:softprob"`, 1))
	cut := write("cut.json", string(raw[:len(raw)/3]))
	yesNo := write("yesno.csv", strings.NewReplacer(",0\n", ",no\n", ",1\n", ",yes\n").Replace(mustRead(t, plainCSV)))
	renamed := write("renamed.csv", strings.Replace(mustRead(t, plainCSV), "age,dose", "dose,age", 1))
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no from", []string{"--model", plain, "--data", plainCSV, "--out", out}, 2, "--from is required"},
		{"catboost", []string{"--from", "catboost", "--model", plain, "--data", plainCSV, "--out", out}, 2, `--from "catboost"`},
		{"xgboost as lightgbm", []string{"--from", "lightgbm", "--model", plain, "--data", plainCSV, "--out", out}, 1, "plain.json: not a well-formed LightGBM model: the file is JSON"},
		{"no out", []string{"--from", "xgboost", "--model", plain, "--data", plainCSV}, 2, "--out is required"},
		{"overwrite", []string{"--from", "xgboost", "--model", plain, "--data", plainCSV, "--out", plain}, 2, "refusing to overwrite an input"},
		{"objective", []string{"--from", "xgboost", "--model", softprob, "--data", plainCSV, "--out", out}, 1, "num_class: multi:softprob has 0 classes"},
		{"truncated", []string{"--from", "xgboost", "--model", cut, "--data", plainCSV, "--out", out}, 1, "cut.json: not a well-formed XGBoost model: JSON at byte"},
		{"labels", []string{"--from", "xgboost", "--model", plain, "--data", yesNo, "--out", out}, 2, `the labels are "no" and "yes", not 0 and 1`},
		{"positive 0", []string{"--from", "xgboost", "--model", plain, "--data", plainCSV, "--positive", "0", "--out", out}, 2, "score the label 1, not 0"},
		{"names", []string{"--from", "xgboost", "--model", plain, "--data", renamed, "--out", out}, 1, `feature 1 is "age" in the XGBoost model, "dose" in the table`},
	} {
		_, errOut, code := aer(t, append([]string{"import"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d saying %q", c.name, code, errOut, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: wrote %s", c.name, out)
		}
	}
	// With --positive, other labels import, and the positive class is it.
	if _, errOut, code := aer(t, "import", "--from", "xgboost", "--model", plain, "--data", yesNo, "--positive", "yes", "--out", out); code != 0 {
		t.Errorf("--positive yes: exit %d\n%s", code, errOut)
	}
	// Naming the wrong class warns: the scores rank it below chance.
	_, errOut, code := aer(t, "import", "--from", "xgboost", "--model", plain, "--data", yesNo, "--positive", "no", "--out", out)
	if code != 0 || !strings.Contains(errOut, "below chance") {
		t.Errorf("--positive no: exit %d, stderr %q", code, errOut)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

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

// TestImportValid: --valid fits the imported model's decision layer, as
// aer fit fits one on validation rows: a calibration and the Bayes
// threshold at the validation rows' positive share, which aer predict
// then decides at (a multi-class model: Bayes class weights); the
// decision flags without --valid are a usage error.
func TestImportValid(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(xgbFixtures, "plain.csv")
	model := filepath.Join(dir, "v.aer")
	out, errOut, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "plain.json"), "--data", data,
		"--valid", data, "--out", model, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var doc struct {
		Valid    string
		Decision *decision.Layer
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	tab, err := dataset.Load(data, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	share := float64(tab.ClassCounts()[1]) / float64(tab.Rows())
	if l := doc.Decision; doc.Valid != data || l == nil || l.Rule != decision.RuleBayes || l.Calibration == nil || l.Threshold != share {
		t.Fatalf("decision %+v, want the Bayes threshold %v: %s", doc.Decision, share, out)
	}
	preds := filepath.Join(dir, "p.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", data, "--out", preds); code != 0 {
		t.Fatalf("predict: %s", errOut)
	}
	p, err := predfile.LoadPredictions(preds)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range p.Score {
		if (s >= share) != (p.Pred[i] == 1) {
			t.Fatalf("row %d: score %v predicted %d at threshold %v", i, s, p.Pred[i], share)
		}
	}
	text, _, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "multi.json"), "--data", filepath.Join(xgbFixtures, "multi.csv"),
		"--valid", filepath.Join(xgbFixtures, "multi.csv"), "--out", filepath.Join(dir, "m.aer"))
	if code != 0 || !strings.Contains(text, "decision   ") || !strings.Contains(text, "bayes") {
		t.Errorf("multi-class --valid: exit %d: %s", code, text)
	}
	if long := regexp.MustCompile(`[0-9]\.[0-9]{5,}`).FindString(text); long != "" {
		t.Errorf("multi-class --valid: %s printed past 4 digits: %s", long, text)
	}
	_, errOut, code = aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "plain.json"), "--data", data,
		"--cost", "fn=5,fp=1", "--out", filepath.Join(dir, "c.aer"))
	if code != 2 || !strings.Contains(errOut, "give --valid") {
		t.Errorf("--cost without --valid: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.aer")); err == nil {
		t.Error("a refused import wrote its model")
	}
}

// TestImportDensity: an imported model gets an out-of-distribution
// density on --data's rows, so aer predict --ood flags a far row and not
// the ordinary ones; --ood-density=false leaves none, which predict --ood
// refuses.
func TestImportDensity(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(xgbFixtures, "plain.csv")
	model := filepath.Join(dir, "d.aer")
	if _, errOut, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "plain.json"), "--data", data, "--out", model); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	// The last row, every feature far out (the label kept).
	cells := strings.Split(lines[1], ",")
	for j := range cells[:len(cells)-1] {
		cells[j] = "1e6"
	}
	far := filepath.Join(dir, "far.csv")
	if err := os.WriteFile(far, []byte(strings.Join(append(lines, strings.Join(cells, ",")), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	preds := filepath.Join(dir, "p.csv")
	if _, errOut, code := aer(t, "predict", "--model", model, "--data", far, "--ood", "--out", preds); code != 0 {
		t.Fatalf("predict --ood: exit %d %s", code, errOut)
	}
	got, err := os.ReadFile(preds)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(got)), "\n")
	if !strings.HasSuffix(rows[0], "ood_score,ood") || !strings.HasSuffix(rows[len(rows)-1], ",1") {
		t.Fatalf("header %q, far row %q: want the far row flagged", rows[0], rows[len(rows)-1])
	}
	flagged := 0
	for _, r := range rows[1 : len(rows)-1] {
		if strings.HasSuffix(r, ",1") {
			flagged++
		}
	}
	if n := len(rows) - 2; flagged > n/20+1 {
		t.Errorf("%d of %d ordinary rows flagged", flagged, n)
	}
	none := filepath.Join(dir, "n.aer")
	if _, errOut, code := aer(t, "import", "--from", "xgboost", "--model", filepath.Join(xgbFixtures, "plain.json"), "--data", data, "--ood-density=false", "--out", none); code != 0 {
		t.Fatalf("--ood-density=false: exit %d %s", code, errOut)
	}
	if _, _, code := aer(t, "predict", "--model", none, "--data", data, "--ood", "--out", filepath.Join(dir, "q.csv")); code == 0 {
		t.Error("predict --ood of a model without a density succeeded")
	}
}
