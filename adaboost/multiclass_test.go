package adaboost

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
)

// multiTable reads a shared multi-class table (numeric features, a text
// label column "label", classes numbered in sorted order) and splits it
// as imblearn_multiclass.py does: rows 0, 4, 8, ... are the test rows.
// It skips the test when ../shared is absent.
func multiTable(t *testing.T, name string) (train, test *learn.Data, k int) {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "datasets-multiclass", name+".csv")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("%s is absent: the shared multi-class datasets are needed", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	li := slices.Index(recs[0], "label")
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		seen[r[li]] = true
	}
	var classes []string
	for c := range seen {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	p := len(recs[0]) - 1
	var xtr, xte []float64
	var ytr, yte []int
	for i, r := range recs[1:] {
		var row []float64
		for j, v := range r {
			if j == li {
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s line %d: %v", path, i+2, err)
			}
			row = append(row, x)
		}
		y := slices.Index(classes, r[li])
		if i%4 == 0 {
			xte, yte = append(xte, row...), append(yte, y)
		} else {
			xtr, ytr = append(xtr, row...), append(ytr, y)
		}
	}
	return &learn.Data{X: mat.NewDense(len(ytr), p, xtr), Y: ytr}, &learn.Data{X: mat.NewDense(len(yte), p, xte), Y: yte}, len(classes)
}

// macroAUC is the macro one-vs-one AUC (Hand and Till, scikit-learn's
// roc_auc_score(multi_class="ovo")) of class probabilities p.
func macroAUC(y []int, p []float64, k int) float64 {
	s, pairs := 0.0, 0
	for a := range k {
		for b := a + 1; b < k; b++ {
			s += (pairAUC(y, p, k, a, b) + pairAUC(y, p, k, b, a)) / 2
			pairs++
		}
	}
	return s / float64(pairs)
}

// pairAUC is the AUC of class a's probability separating the rows of
// class a from those of class b (ties count half).
func pairAUC(y []int, p []float64, k, a, b int) float64 {
	var pos, neg []float64
	for i, c := range y {
		switch c {
		case a:
			pos = append(pos, p[i*k+a])
		case b:
			neg = append(neg, p[i*k+a])
		}
	}
	hit := 0.0
	for _, u := range pos {
		for _, v := range neg {
			switch {
			case u > v:
				hit++
			case u == v:
				hit += 0.5
			}
		}
	}
	return hit / float64(len(pos)*len(neg))
}

// TestMultiQuality compares RUSBoost's and EasyEnsemble's multi-class
// fits, seeds 0-4, with imbalanced-learn 0.10's on three shared
// multi-class tables
// (testdata/imblearn_multiclass.json): the mean balanced accuracy and
// macro AUC over the tables may not fall more than 0.02 below
// imbalanced-learn's (the random draws differ).
func TestMultiQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	b, err := os.ReadFile(filepath.Join("testdata", "imblearn_multiclass.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Tables map[string]map[string]struct {
			BA   float64 `json:"balanced_accuracy"`
			MAUC float64 `json:"mauc"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	names := []string{"glass", "ecoli6", "vehicle"}
	for _, mk := range []func() learn.Method{NewRUSBoost, NewEasyEnsemble} {
		m := mk().(*Method)
		var dBA, dAUC float64
		for _, name := range names {
			train, test, k := multiTable(t, name)
			var ba, auc float64
			for seed := range uint64(5) {
				mm, err := m.FitMulti(context.Background(), train, nil, k, learn.Env{Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				p, err := mm.PredictClassProba(test.X, nil)
				if err != nil {
					t.Fatal(err)
				}
				ba += balancedAccuracy(test.Y, p, k) / 5
				auc += macroAUC(test.Y, p, k) / 5
			}
			r := ref.Tables[name][m.Name()]
			t.Logf("%s %s: balanced accuracy %.4f (imbalanced-learn %.4f), macro AUC %.4f (%.4f)", m.Name(), name, ba, r.BA, auc, r.MAUC)
			dBA += (ba - r.BA) / float64(len(names))
			dAUC += (auc - r.MAUC) / float64(len(names))
		}
		if dBA < -0.02 || dAUC < -0.02 || math.IsNaN(dBA+dAUC) {
			t.Errorf("%s: mean balanced accuracy %+.4f, macro AUC %+.4f against imbalanced-learn's", m.Name(), dBA, dAUC)
		}
	}
}

// balancedAccuracy is the mean of the per-class recalls of the most
// probable class.
func balancedAccuracy(y []int, p []float64, k int) float64 {
	hit, n := make([]float64, k), make([]float64, k)
	for i, c := range y {
		row := p[i*k : (i+1)*k]
		best := 0
		for j := range row {
			if row[j] > row[best] {
				best = j
			}
		}
		n[c]++
		if best == c {
			hit[c]++
		}
	}
	s, m := 0.0, 0
	for c := range k {
		if n[c] > 0 {
			s += hit[c] / n[c]
			m++
		}
	}
	return s / float64(m)
}

// TestFitMultiInvariants checks RUSBoost and EasyEnsemble on the shared
// glass table: probabilities summing to 1, the same bits on 1, 2 and 3
// workers, and the payload's round trip.
func TestFitMultiInvariants(t *testing.T) {
	train, test, k := multiTable(t, "glass")
	for _, mk := range []func() learn.Method{NewRUSBoost, NewEasyEnsemble} {
		m := mk().(*Method)
		var ref []float64
		var refPayload []byte
		for _, workers := range []int{1, 2, 3} {
			mm, err := m.FitMulti(context.Background(), train, nil, k, learn.Env{Seed: 3, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if mm.Classes() != k || mm.NumFeatures() != 9 {
				t.Fatalf("%d classes, %d features", mm.Classes(), mm.NumFeatures())
			}
			p, err := mm.PredictClassProba(test.X, nil)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := mm.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if ref != nil {
				if !slices.Equal(p, ref) || !slices.Equal(payload, refPayload) {
					t.Fatalf("%s: %d workers give another model than 1", m.Name(), workers)
				}
				continue
			}
			ref, refPayload = p, payload
			for i := 0; i < len(p); i += k {
				s := 0.0
				for _, v := range p[i : i+k] {
					s += v
				}
				if math.Abs(s-1) > 1e-12 {
					t.Fatalf("%s: row %d: probabilities sum to %v", m.Name(), i/k, s)
				}
			}
			back, err := m.LoadMulti(payload)
			if err != nil {
				t.Fatal(err)
			}
			q, _ := back.PredictClassProba(test.X, nil)
			if !slices.Equal(p, q) {
				t.Fatalf("%s: probabilities changed in the round trip", m.Name())
			}
			if again, _ := back.MarshalBinary(); !slices.Equal(again, payload) {
				t.Fatalf("%s: payload changed in the round trip", m.Name())
			}
			for _, cut := range []int{0, 7, 20, len(payload) / 2, len(payload) - 1} {
				if _, err := m.LoadMulti(payload[:cut]); err == nil {
					t.Fatalf("%s: a payload cut to %d bytes loaded", m.Name(), cut)
				}
			}
			if _, err := m.Load(payload); err == nil {
				t.Fatalf("%s: a multi-class payload loaded as a binary model", m.Name())
			}
		}
	}
	m := NewRUSBoost().(*Method)
	if err := m.Set("class_weight", "0:1,1:4"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.FitMulti(context.Background(), train, nil, k, learn.Env{}); err == nil {
		t.Error("explicit two-class weights were taken for 6 classes")
	}
}

// TestDrawBalancedMulti checks the multi-class under-sample: every
// class but the smallest drawn down to its size, without replacement.
func TestDrawBalancedMulti(t *testing.T) {
	cls := [][]int{{0, 1, 2, 3, 4, 5, 6}, {7, 8}, {}, {9, 10, 11}}
	for trial := range 20 {
		count := make([]int32, 12)
		drawBalancedMulti(cls, count, false, rng.Derive(1, uint64(trial)))
		per := make([]int32, 4)
		for c, rows := range cls {
			for _, i := range rows {
				if count[i] > 1 {
					t.Fatalf("row %d drawn %d times without replacement", i, count[i])
				}
				per[c] += count[i]
			}
		}
		if !slices.Equal(per, []int32{2, 2, 0, 2}) || count[7] != 1 || count[8] != 1 {
			t.Fatalf("class counts %v", per)
		}
	}
}
