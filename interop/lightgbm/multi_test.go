package lightgbm

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKDDCup99Multi: LightGBM's multiclass model of KDD Cup 99 (13
// classes, 10 iterations, 14 categorical features) as one multi-class
// model: its class margins are LightGBM's raw scores of the 504 test rows
// within 1e-6, its class probabilities the softmax of those raw scores
// (LightGBM's predict) within 1e-6, and its most probable class
// LightGBM's on every row.
func TestKDDCup99Multi(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "lg_kddcup99.model"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumClass != 13 || m.Sigmoid != 0 {
		t.Fatalf("%d classes, sigmoid %v; want 13, 0", m.NumClass, m.Sigmoid)
	}
	if _, err := m.Boost(); err == nil || !strings.Contains(err.Error(), "13 classes") {
		t.Errorf("Boost of the multiclass model: %v, want it refused for its 13 classes", err)
	}
	mm, err := m.BoostMulti()
	if err != nil {
		t.Fatal(err)
	}
	if len(mm.Trees) != len(m.Trees)/13 {
		t.Errorf("%d rounds of %d trees", len(mm.Trees), len(m.Trees))
	}
	rows := readMatrix(t, "kddcup99_test.tsv", false, 0)
	raw := readMatrix(t, "lg_kddcup99_true_predictions.txt", false, 0)
	x := dense(rows)
	margin, err := mm.Margins(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	proba, err := mm.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	const k = 13
	worstM, worstP, wrong := 0.0, 0.0, 0
	for i := range rows {
		// LightGBM's predict: the softmax of its raw scores.
		hi := math.Inf(-1)
		for _, v := range raw[i] {
			hi = max(hi, v)
		}
		sum := 0.0
		for _, v := range raw[i] {
			sum += math.Exp(v - hi)
		}
		best, want := 0, 0
		for c := range k {
			p := math.Exp(raw[i][c]-hi) / sum
			worstM = max(worstM, math.Abs(margin[i*k+c]-raw[i][c]))
			worstP = max(worstP, math.Abs(proba[i*k+c]-p))
			if proba[i*k+c] > proba[i*k+best] {
				best = c
			}
			if raw[i][c] > raw[i][want] {
				want = c
			}
		}
		if best != want {
			wrong++
		}
	}
	t.Logf("lg_kddcup99: %d rows, 13 classes: max |margin - LightGBM's raw score| = %.3g, max |p - softmax(raw score)| = %.3g, %d labels differ",
		len(rows), worstM, worstP, wrong)
	if !(worstM <= 1e-6) || !(worstP <= 1e-6) || wrong > 0 {
		t.Errorf("max |margin - raw| = %.3g, max |p - softmax(raw)| = %.3g (want <= 1e-6), %d labels differ (want 0)", worstM, worstP, wrong)
	}
}

// handMulticlass is a multiclass model of 3 classes and 2 iterations
// written by hand in LightGBM's text format: 6 trees of one split, tree
// i of class i % 3.
var handMulticlass = `tree
version=v3
num_class=3
num_tree_per_iteration=3
label_index=0
max_feature_idx=1
objective=multiclass num_class:3
feature_names=x0 x1
feature_infos=[0:3] [0:4]
tree_sizes=1 1 1 1 1 1

` + handTrees + `end of trees
`

// handTrees: (feature, threshold, left leaf, right leaf) per tree.
var handTrees = func() string {
	var b strings.Builder
	for k, tr := range []struct {
		f           int
		thr, lo, hi string
	}{{0, "0.5", "0.1", "0.7"}, {1, "1", "-0.2", "0.4"}, {0, "2", "0.3", "-0.5"},
		{1, "0", "0.05", "-0.15"}, {0, "1.5", "0.2", "0"}, {1, "3", "-0.1", "0.6"}} {
		fmt.Fprintf(&b, "Tree=%d\nnum_leaves=2\nnum_cat=0\nsplit_feature=%d\nsplit_gain=1\nthreshold=%s\n"+
			"decision_type=2\nleft_child=-1\nright_child=-2\nleaf_value=%s %s\nleaf_count=10 10\n"+
			"internal_value=0\ninternal_count=20\nshrinkage=1\n\n\n", k, tr.f, tr.thr, tr.lo, tr.hi)
	}
	return b.String()
}()

// TestHandMulticlass: the hand-written model's class margins are the sums
// of each class's two leaves worked out by hand (x <= threshold goes
// left), its probabilities their softmax.
func TestHandMulticlass(t *testing.T) {
	m, err := Decode([]byte(handMulticlass))
	if err != nil {
		t.Fatal(err)
	}
	mm, err := m.BoostMulti()
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]float64{{0, 0}, {1, 2}, {3, 4}, {0.5, 1}}
	want := [][]float64{
		{0.1 + 0.05, -0.2 + 0.2, 0.3 - 0.1}, // x0 <= 0.5, x1 <= 1, x0 <= 2; x1 <= 0, x0 <= 1.5, x1 <= 3
		{0.7 - 0.15, 0.4 + 0.2, 0.3 - 0.1},  // x0 > 0.5, x1 > 1, x0 <= 2; x1 > 0, x0 <= 1.5, x1 <= 3
		{0.7 - 0.15, 0.4 + 0, -0.5 + 0.6},   // x0 > 0.5, x1 > 1, x0 > 2; x1 > 0, x0 > 1.5, x1 > 3
		{0.1 - 0.15, -0.2 + 0.2, 0.3 - 0.1}, // x0 <= 0.5, x1 <= 1, x0 <= 2; x1 > 0, x0 <= 1.5, x1 <= 3
	}
	x := dense(rows)
	proba, err := mm.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, z := range want {
		sum := 0.0
		for _, v := range z {
			sum += math.Exp(v)
		}
		for c, v := range z {
			if p := math.Exp(v) / sum; math.Abs(proba[i*3+c]-p) > 1e-15 {
				t.Errorf("row %d class %d: p = %v, want %v", i, c, proba[i*3+c], p)
			}
		}
	}
}
