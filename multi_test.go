package aer_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/metrics"
	"github.com/aer-go/aer/serve"
)

// TestFitMultiClass fits the shared glass table (6 classes) with gbdt
// one-vs-rest and one-vs-one, and through aer.Fit: a
// multi-class model whose file reads back and scores the same, writes
// label, pred and score_<class> columns, and ranks the test rows well.
func TestFitMultiClass(t *testing.T) {
	path := filepath.Join(sharedtest.Path(t), "datasets-multiclass", "glass.csv")
	all, err := aer.ReadTable(path, nil)
	if err != nil {
		t.Skipf("%v (the multi-class datasets are in ../shared/datasets-multiclass)", err)
	}
	if !slicesEqual(all.Dataset().Classes, []string{"1", "2", "3", "5", "6", "7"}) {
		t.Fatalf("labels %q", all.Dataset().Classes)
	}
	parts, err := dataset.StratifiedSplit(all.Dataset().Y, []float64{3, 1, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	train, valid, test := all.Subset(parts[0]), all.Subset(parts[1]), all.Subset(parts[2])
	for _, strategy := range []string{aer.OneVsRest, aer.OneVsOne} {
		method, _ := aer.Method("gbdt")
		m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Spec: aer.Spec{Decomposition: strategy, Params: []string{"n_estimators=30"}}, Env: aer.Env{Seed: 1}}, method)
		if err != nil {
			t.Fatal(err)
		}
		if m.NumClasses() < 3 || m.Header().Multiclass != strategy {
			t.Fatalf("%s: multi-class %v, header %q", strategy, m.NumClasses() > 2, m.Header().Multiclass)
		}
		p, err := m.Predict(context.Background(), test, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := metrics.EvaluateMulti(p.Label, p.Pred, p.Proba, len(p.Classes), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: balanced accuracy %.3f, MAUC %.3f", strategy, r.BalancedAccuracy, r.MAUC)
		if r.MAUC < 0.8 {
			t.Errorf("%s: MAUC %.3f", strategy, r.MAUC)
		}
		var file bytes.Buffer
		if _, err := m.WriteTo(&file); err != nil {
			t.Fatal(err)
		}
		back, err := aer.ReadModel(bytes.NewReader(file.Bytes()), "m.aer")
		if err != nil {
			t.Fatal(err)
		}
		q, err := back.Predict(context.Background(), test, nil)
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		if err := p.WriteCSV(&a); err != nil {
			t.Fatal(err)
		}
		if err := q.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: the model read back predicts differently", strategy)
		}
		rows, err := csv.NewReader(strings.NewReader(a.String())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if want := "label,pred,score_1,score_2,score_3,score_5,score_6,score_7"; strings.Join(rows[0], ",") != want || len(rows) != test.Rows()+1 {
			t.Errorf("%s: header %q and %d rows; want %q and %d", strategy, rows[0], len(rows)-1, want, test.Rows())
		}
		// The stream path writes the same file.
		var s bytes.Buffer
		if _, err := back.PredictStream(context.Background(), strings.NewReader(csvOf(t, test)), "test.csv", &s, nil); err != nil {
			t.Fatal(err)
		}
		if s.String() != a.String() {
			t.Errorf("%s: PredictStream writes another file than Predict", strategy)
		}
	}
	// logreg and gbdt fit multi-class labels themselves (multinomial,
	// softmax): native by default.
	for _, name := range []string{"logreg", "gbdt"} {
		method, _ := aer.Method(name)
		m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Env: aer.Env{Seed: 1}}, method)
		if err != nil {
			t.Fatal(err)
		}
		if m.Header().Multiclass != aer.Native {
			t.Errorf("%s: multiclass %q, want native", name, m.Header().Multiclass)
		}
		var file bytes.Buffer
		if _, err := m.WriteTo(&file); err != nil {
			t.Fatal(err)
		}
		if _, err := aer.ReadModel(bytes.NewReader(file.Bytes()), name+".aer"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// serve answers with the class, its probability and every class's, as
	// Predict gives them.
	gbdtMethod, _ := aer.Method("gbdt")
	gm, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Env: aer.Env{Seed: 1}}, gbdtMethod)
	if err != nil {
		t.Fatal(err)
	}
	h, err := serve.Handler("glass", gm, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	first := test.Subset([]int{0, 1, 2})
	resp, err := http.Post(srv.URL+"/v1/predict", "text/csv", strings.NewReader(csvOf(t, first)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var pr serve.PredictResponse
	if err := json.NewDecoder(resp.Body).Decode(&pr); err != nil || resp.StatusCode != 200 {
		t.Fatalf("serve: status %d: %v", resp.StatusCode, err)
	}
	want, err := gm.Predict(context.Background(), first, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slicesEqual(pr.Classes, want.Classes) || len(pr.Rows) != 3 {
		t.Fatalf("served classes %q and %d rows", pr.Classes, len(pr.Rows))
	}
	for i, row := range pr.Rows {
		if row.Label != want.Class(i) || row.Score != want.Score[i] || len(row.Probabilities) != 6 || row.Probabilities[2] != want.Proba[i*6+2] {
			t.Errorf("row %d: served %+v, Predict %s %v", i, row, want.Class(i), want.Score[i])
		}
	}
	// Explain of one-vs-rest trees, whose attributions are of a probability
	// that their calibration does not map: the row's class and
	// probabilities, and why there are no attributions.
	method, _ := aer.Method("tree")
	m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Spec: aer.Spec{Decomposition: aer.OneVsRest}, Env: aer.Env{Seed: 1}}, method)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := m.Explain(context.Background(), test, 0)
	if err != nil || len(ex.Probabilities) != 6 || ex.ClassAttributions != nil || !strings.Contains(ex.Unavailable, "calibration") {
		t.Errorf("Explain of one-vs-rest trees: %v, %+v", err, ex)
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// csvOf writes a table as CSV.
func csvOf(t *testing.T, tb *aer.Table) string {
	t.Helper()
	var b bytes.Buffer
	if err := dataset.WriteCSV(&b, tb.Dataset()); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestFitMultiClassSmallComponents: the default aer one-vs-rest on the
// shared ecoli6 table (its omL class has 3 training rows), whose
// cross-tuning folds take every row of a class out of a small
// component's subset (the fit used to fail there), fits and ranks the
// test rows well.
func TestFitMultiClassSmallComponents(t *testing.T) {
	table, err := aer.ReadTable(sharedtest.Path(t, "datasets-multiclass", "ecoli6.csv"), nil)
	if err != nil {
		t.Skipf("%v (the multi-class datasets are in ../shared/datasets-multiclass)", err)
	}
	parts, err := (&dataset.Partition{Ratios: []float64{3, 1, 1}, Seed: 0}).Parts(table.Dataset().Y)
	if err != nil {
		t.Fatal(err)
	}
	train, valid, test := table.Subset(parts[0].Rows), table.Subset(parts[1].Rows), table.Subset(parts[2].Rows)
	method, _ := aer.Method("aer")
	m, err := aer.Fit(context.Background(), train, valid, &aer.Settings{Spec: aer.Spec{Decomposition: aer.OneVsRest}, Env: aer.Env{Seed: 1}}, method)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(context.Background(), test, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := metrics.EvaluateMulti(p.Label, p.Pred, p.Proba, len(p.Classes), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("balanced accuracy %.3f, MAUC %.3f", r.BalancedAccuracy, r.MAUC)
	if r.MAUC < 0.85 {
		t.Errorf("MAUC %.3f", r.MAUC)
	}
}
