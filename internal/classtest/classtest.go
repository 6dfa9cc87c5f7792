package classtest

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/metrics"
)

// Table reads the shared multi-class table name (classes numbered in
// sorted order) and splits it as the reference scripts
// (testdata/imblearn_multiclass.py) do: rows 0, 4, 8, ... are the test
// rows. It skips the test when the shared datasets are absent.
func Table(tb testing.TB, name string) (train, test *learn.Data, k int) {
	tb.Helper()
	d, err := dataset.Load(filepath.Join(sharedtest.Path(tb, "datasets-multiclass"), name+".csv"), dataset.Options{MultiClass: true})
	if err != nil {
		tb.Fatal(err)
	}
	var tr, te []int
	for i := range d.Rows() {
		if i%4 == 0 {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	part := func(rows []int) *learn.Data {
		s := d.Subset(rows)
		return &learn.Data{X: s.X, Y: s.Y, Features: s.Features}
	}
	return part(tr), part(te), d.NumClasses()
}

// Stratified reads the shared multi-class table name and splits its rows
// 2:1, stratified on the classes (dataset.StratifiedSplit, seed 1). It
// skips the test when the shared datasets are absent.
func Stratified(tb testing.TB, name string) (train, test *learn.Data, k int) {
	tb.Helper()
	d, err := dataset.Load(filepath.Join(sharedtest.Path(tb, "datasets-multiclass"), name+".csv"), dataset.Options{MultiClass: true})
	if err != nil {
		tb.Fatal(err)
	}
	parts, err := dataset.StratifiedSplit(d.Y, []float64{2, 1}, 1)
	if err != nil {
		tb.Fatal(err)
	}
	tr, te := d.Subset(parts[0]), d.Subset(parts[1])
	return &learn.Data{X: tr.X, Y: tr.Y, Features: tr.Features}, &learn.Data{X: te.X, Y: te.Y}, d.NumClasses()
}

// ArgmaxBA is the balanced accuracy of the most probable class of each
// row of p (row-major, k per row).
func ArgmaxBA(tb testing.TB, y []int, p []float64, k int) float64 {
	tb.Helper()
	pred := make([]int, len(y))
	for i := range pred {
		for c := range k {
			if p[i*k+c] > p[i*k+pred[i]] {
				pred[i] = c
			}
		}
	}
	r, err := metrics.EvaluateMulti(y, pred, nil, k, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return r.BalancedAccuracy
}

// CompareImblearn fits each method's native multi-class model, seeds
// 0-4, on glass, ecoli6 and vehicle, and fails the test when the mean
// balanced accuracy (of the most probable class) or MAUC over the tables
// falls more than 0.02 below imbalanced-learn's in ref (the reference
// script's JSON: tables, then method names, balanced_accuracy and mauc).
func CompareImblearn(t *testing.T, ref string, methods ...learn.Method) {
	b, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Tables map[string]map[string]struct {
			BA   float64 `json:"balanced_accuracy"`
			MAUC float64 `json:"mauc"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	names := []string{"glass", "ecoli6", "vehicle"}
	for _, m := range methods {
		mf := m.(learn.ClassFitter)
		var dBA, dAUC float64
		for _, name := range names {
			train, test, k := Table(t, name)
			var ba, auc float64
			for seed := range uint64(5) {
				mm, err := mf.FitClasses(context.Background(), train, nil, k, learn.Env{Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				p, err := mm.PredictProba(test.X, nil)
				if err != nil {
					t.Fatal(err)
				}
				r, err := metrics.EvaluateMulti(test.Y, make([]int, len(test.Y)), p, k, nil)
				if err != nil {
					t.Fatal(err)
				}
				ba += ArgmaxBA(t, test.Y, p, k) / 5
				auc += r.MAUC / 5
			}
			r := want.Tables[name][m.Name()]
			t.Logf("%s %s: balanced accuracy %.4f (imbalanced-learn %.4f), macro AUC %.4f (%.4f)", m.Name(), name, ba, r.BA, auc, r.MAUC)
			dBA += (ba - r.BA) / float64(len(names))
			dAUC += (auc - r.MAUC) / float64(len(names))
		}
		if dBA < -0.02 || dAUC < -0.02 || math.IsNaN(dBA+dAUC) {
			t.Errorf("%s: mean balanced accuracy %+.4f, macro AUC %+.4f against imbalanced-learn's", m.Name(), dBA, dAUC)
		}
	}
}
