package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/synth"
)

func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}

// task writes a generated imbalanced task as CSV: the training rows in
// parts files (rows shuffled by shuffle when not nil), the validation
// and test rows in one file each. It returns the directory.
func task(t *testing.T, n int, parts int, shuffle *rand.Rand) string {
	t.Helper()
	dir := t.TempDir()
	g, err := synth.Generate(&synth.Settings{Samples: n, Ratio: 12, Clusters: 3, Features: 6, Informative: 4}, 5)
	if err != nil {
		t.Fatal(err)
	}
	d := g.Dataset("task")
	split, err := dataset.StratifiedSplit(d.Y, []float64{3, 1, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, rows []int) {
		var b bytes.Buffer
		if err := dataset.WriteCSV(&b, d.Subset(rows)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr := split[0]
	if shuffle != nil {
		shuffle.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
	}
	os.MkdirAll(filepath.Join(dir, "train"), 0o755)
	for k := range parts {
		write(filepath.Join("train", "part-"+string(rune('a'+k))+".csv"), tr[k*len(tr)/parts:(k+1)*len(tr)/parts])
	}
	write("valid.csv", split[1])
	write("test.csv", split[2])
	return dir
}

// run fits on dir's files on Prism in-process and returns the model
// file's bytes.
func run(t *testing.T, dir string, spec Spec, valid bool) []byte {
	t.Helper()
	out := filepath.Join(dir, "model.aer")
	o := Options{Train: filepath.Join(dir, "train", "*.csv"), Out: out, Spec: spec}
	if valid {
		o.Valid = filepath.Join(dir, "valid.csv")
	}
	p, s := beam.NewPipelineWithRoot()
	Pipeline(s, o)
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testAUC scores dir's test rows with the model file m and returns the
// ROC-AUC and balanced accuracy at the model's threshold.
func testAUC(t *testing.T, dir string, m *aer.Model) (auc, ba float64) {
	t.Helper()
	tbl, err := m.ReadTable(filepath.Join(dir, "test.csv"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(context.Background(), tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := metrics.Evaluate(p.Label, p.Score, 0.5, nil)
	conf := metrics.Confusion{}
	for i, y := range p.Label {
		switch {
		case y == 1 && p.Pred[i] == 1:
			conf.TP++
		case y == 1:
			conf.FN++
		case p.Pred[i] == 1:
			conf.FP++
		default:
			conf.TN++
		}
	}
	return r.ROCAUC, metrics.BalancedAccuracy.Of(conf)
}

// TestDistributedFit fits AER on Prism from three training files and a
// validation file: the model file loads and scores as aer fit's does,
// has AER's parts (2L subset members, the member on all rows, the logreg
// peer, a calibrated decision layer), and ranks the test rows as well as
// the one-machine fit of the same rows (within 0.02 ROC-AUC).
func TestDistributedFit(t *testing.T) {
	dir := task(t, 3000, 3, nil)
	spec := Spec{Seed: 3, Params: []string{"components=2,3", "n_estimators=30"}}
	b := run(t, dir, spec, true)
	m, err := aer.ReadModel(bytes.NewReader(b), "model.aer")
	if err != nil {
		t.Fatal(err)
	}
	if m.Method() != adaptive.MethodName {
		t.Fatalf("method %q", m.Method())
	}
	am, ok := decision.Detach(m.Learned().(learn.Scorer)).(*adaptive.Model)
	if !ok {
		t.Fatalf("model %T, want AER's", decision.Detach(m.Learned().(learn.Scorer)))
	}
	L := am.Mixture().K()
	if got, want := len(am.Members()), 2*L+3; got != want {
		t.Errorf("%d members, want %d (2L = %d, all rows, logreg, svm)", got, want, 2*L)
	}
	if m.Scores() != "probability" {
		t.Errorf("scores %q, want probability", m.Scores())
	}
	auc, ba := testAUC(t, dir, m)

	// The same rows on one machine.
	train, err := aer.ReadTable(filepath.Join(dir, "train", "part-a.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = train
	tables := []*aer.Table{}
	for _, p := range []string{"part-a", "part-b", "part-c"} {
		tb, err := aer.ReadTable(filepath.Join(dir, "train", p+".csv"), nil)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tb)
	}
	all := concat(t, tables)
	valid, err := aer.ReadTable(filepath.Join(dir, "valid.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	method, err := aer.Method("aer")
	if err != nil {
		t.Fatal(err)
	}
	one, err := aer.Fit(context.Background(), all, valid, &aer.Settings{Spec: aer.Spec{Params: spec.Params}, Env: aer.Env{Seed: 3}}, method)
	if err != nil {
		t.Fatal(err)
	}
	auc1, ba1 := testAUC(t, dir, one)
	t.Logf("test ROC-AUC %.4f (one machine %.4f), balanced accuracy %.4f (%.4f)", auc, auc1, ba, ba1)
	if auc < auc1-0.02 {
		t.Errorf("test ROC-AUC %.4f, one machine %.4f", auc, auc1)
	}
	if auc < 0.8 {
		t.Errorf("test ROC-AUC %.4f: not a working model", auc)
	}
}

// TestDistributedFitDeterministic checks that the model file depends on
// the rows only: the same training rows in one file (one block) or in
// three, in another order and in blocks of 64 rows, give the same bytes;
// and that without validation files a quarter of the rows is held out.
func TestDistributedFitDeterministic(t *testing.T) {
	spec := Spec{Seed: 9, Params: []string{"components=2,3", "n_estimators=20"}}
	a := run(t, task(t, 1500, 1, nil), spec, false)
	defer func(n int) { maxBlockRows = n }(maxBlockRows)
	maxBlockRows = 64
	b := run(t, task(t, 1500, 3, rand.New(rand.NewPCG(4, 4))), spec, false)
	if !bytes.Equal(a, b) {
		t.Fatalf("one file and three shuffled files give different models (%d and %d bytes)", len(a), len(b))
	}
	m, err := aer.ReadModel(bytes.NewReader(a), "m.aer")
	if err != nil {
		t.Fatal(err)
	}
	var cfg aer.FitConfig
	if err := json.Unmarshal(m.Header().Config, &cfg); err != nil {
		t.Fatal(err)
	}
	if tr := cfg.Train; tr == nil || tr.Rows+tr.ValidRows != 900 || tr.ValidRows < 180 || tr.ValidRows > 270 {
		t.Fatalf("train summary %+v: want 900 rows, about a quarter held out", tr)
	}
}

// concat returns the tables' rows as one table (same columns).
func concat(t *testing.T, tables []*aer.Table) *aer.Table {
	t.Helper()
	var b bytes.Buffer
	for k, tb := range tables {
		var part bytes.Buffer
		if err := dataset.WriteCSV(&part, tb.Dataset()); err != nil {
			t.Fatal(err)
		}
		lines := part.Bytes()
		if k > 0 {
			lines = lines[bytes.IndexByte(lines, '\n')+1:]
		}
		b.Write(lines)
	}
	out, err := aer.DecodeTable(&b, "train", nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
