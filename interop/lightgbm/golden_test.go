package lightgbm

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/interop/internal/treeimport"
)

// The fixtures are those of github.com/dmitryikh/leaves (testdata/README.md
// names them, their commit and licence): LightGBM models with the rows
// LightGBM scored and what it gave.

// readMatrix reads a file of numbers, one row a line, split by sep
// (libsvm: "label i:v ..." lines, the label dropped, absent features 0).
func readMatrix(t *testing.T, name string, libsvm bool, cols int) [][]float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for ln, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		words := strings.Fields(line)
		var row []float64
		if libsvm {
			row = make([]float64, cols)
			for _, w := range words[1:] {
				i, v, _ := strings.Cut(w, ":")
				j, err1 := strconv.Atoi(i)
				x, err2 := strconv.ParseFloat(v, 64)
				if err1 != nil || err2 != nil || j >= cols {
					t.Fatalf("%s:%d: %q", name, ln+1, w)
				}
				row[j] = x
			}
		} else {
			for _, w := range words {
				x, err := strconv.ParseFloat(w, 64)
				if err != nil {
					t.Fatalf("%s:%d: %v", name, ln+1, err)
				}
				row = append(row, x)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func decodeFile(t *testing.T, name string) *Model {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkSHAP checks TreeSHAP's local accuracy on every row (the values sum
// to the margin minus the expected value), and that the expected value is
// LightGBM's: each tree's leaves weighted by leaf_count / internal_count
// of the root (Tree::ExpectedValue), times the scale.
func checkSHAP(t *testing.T, m *Model, bm *boost.Model, x *mat.Dense) {
	t.Helper()
	phi, err := bm.SHAP(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	margins := bm.PredictMargin(x, nil)
	worst := 0.0
	for i := range margins {
		worst = max(worst, math.Abs(bm.SHAPBase()+mat.Sum(phi.RowView(i))-margins[i]))
	}
	if worst > 1e-9 {
		t.Errorf("max |SHAP base + values - margin| = %.3g, want <= 1e-9", worst)
	}
	want := 0.0
	for _, tr := range m.Trees {
		if tr.NumLeaves == 1 {
			want += tr.LeafValue[0] * m.Scale()
			continue
		}
		for j, v := range tr.LeafValue {
			want += tr.LeafCount[j] / tr.InternalCount[0] * v * m.Scale()
		}
	}
	if d := math.Abs(bm.SHAPBase() - want); d > 1e-9 {
		t.Errorf("SHAP base %v, LightGBM's expected value %v", bm.SHAPBase(), want)
	}
}

func dense(rows [][]float64) *mat.Dense {
	x := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		x.SetRow(i, r)
	}
	return x
}

// TestBreastCancerLeaves: LightGBM 3's model (v3, 39 trees) sends each of
// the 57 rows to the leaves its pred_leaf output names, in every tree;
// the margin is the sum of those leaves' values.
func TestBreastCancerLeaves(t *testing.T) {
	m := decodeFile(t, "lg_breast_cancer.txt")
	if m.Version != "v3" || len(m.Trees) != 39 || m.NumFeature != 30 || m.Sigmoid != 1 || m.Boosting != "gbdt" {
		t.Fatalf("read version %s, %d trees, %d features, sigmoid %v, boosting %q", m.Version, len(m.Trees), m.NumFeature, m.Sigmoid, m.Boosting)
	}
	rows := readMatrix(t, "lg_breast_cancer_data.txt", false, 0)
	leaves := readMatrix(t, "lg_breast_cancer_data_pred_leaves.txt", false, 0)
	bm, err := m.Boost()
	if err != nil {
		t.Fatal(err)
	}
	orders := make([][]int32, len(m.Trees))
	for ti := range m.Trees {
		_, orders[ti], _ = m.Trees[ti].boost(1, m.NumFeature, &treeimport.Codes{})
	}
	worst := 0.0
	for i, row := range rows {
		want := 0.0
		for ti := range m.Trees {
			leaf := int(leaves[i][ti])
			want += m.Trees[ti].LeafValue[leaf]
			if got := ^orders[ti][bm.Trees[ti].Leaf(row)]; int(got) != leaf {
				t.Errorf("row %d tree %d: leaf %d, LightGBM's pred_leaf %d", i, ti, got, leaf)
			}
		}
		worst = max(worst, math.Abs(bm.PredictRowMargin(row)-want))
	}
	t.Logf("lg_breast_cancer: max |margin - LightGBM's leaves' sum| = %.3g over %d rows", worst, len(rows))
	if worst > 1e-12 {
		t.Errorf("max |margin - sum of LightGBM's leaves| = %.3g, want <= 1e-12", worst)
	}
	checkSHAP(t, m, bm, dense(rows))
}

// compareProba compares sigmoid(margin) with LightGBM's predictions.
func compareProba(t *testing.T, name string, bm *boost.Model, rows [][]float64, want []float64) {
	t.Helper()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, %d predictions", len(rows), len(want))
	}
	got := bm.Predict(dense(rows), nil)
	worst := 0.0
	for i := range got {
		worst = max(worst, math.Abs(got[i]-want[i]))
		if r := bm.PredictRow(rows[i]); r != got[i] {
			t.Errorf("row %d: one row scores %v, the batch %v", i, r, got[i])
		}
	}
	t.Logf("%s: max |score - LightGBM's predict| = %.3g over %d rows", name, worst, len(rows))
	if worst > 1e-6 {
		t.Errorf("%s: max |score - LightGBM's predict| = %.3g, want <= 1e-6", name, worst)
	}
}

func column(rows [][]float64, j int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = r[j]
	}
	return out
}

// TestDARTBreastCancer: a dart model (v2) scores the 57 rows as LightGBM
// did.
func TestDARTBreastCancer(t *testing.T) {
	m := decodeFile(t, "lg_dart_breast_cancer.model")
	if m.Version != "v2" || m.Boosting != "dart" || len(m.Trees) != 10 {
		t.Fatalf("read version %s, boosting %q, %d trees", m.Version, m.Boosting, len(m.Trees))
	}
	bm, err := m.Boost()
	if err != nil {
		t.Fatal(err)
	}
	rows := readMatrix(t, "breast_cancer_test.tsv", false, 0)
	compareProba(t, "lg_dart_breast_cancer", bm, rows, column(readMatrix(t, "lg_dart_breast_cancer_true_predictions.txt", false, 0), 0))
	checkSHAP(t, m, bm, dense(rows))
}

// TestRFIrisV2: LightGBM's random forests (average_output) of format v2
// are refused, because LightGBM 2.2.3 changed their leaves and a v2 file
// does not say which version wrote it: this one, older, holds
// probabilities (its trees' mean is LightGBM's prediction, no sigmoid
// applied), where 2.2.3 and later hold margins.
func TestRFIrisV2(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "lg_rf_iris.model"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(b); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "average_output") {
		t.Fatalf("Decode = %v, want average_output in a v2 file refused", err)
	}
	// As v3 it reads (v3's rule: the trees' mean, then the sigmoid), and
	// the trees' mean alone is what old LightGBM predicted.
	m, err := Decode(bytes.Replace(b, []byte("version=v2"), []byte("version=v3"), 1))
	if err != nil {
		t.Fatal(err)
	}
	if !m.AverageOutput || m.Boosting != "rf" || len(m.Trees) != 30 || m.Scale() != 1.0/30 {
		t.Fatalf("read average_output %v, boosting %q, %d trees, scale %v", m.AverageOutput, m.Boosting, len(m.Trees), m.Scale())
	}
	bm, err := m.Boost()
	if err != nil {
		t.Fatal(err)
	}
	rows := readMatrix(t, "iris_test.libsvm", true, 4)
	want := readMatrix(t, "lg_rf_iris_true_predictions.txt", false, 0)
	worst := 0.0
	for i, r := range rows {
		worst = max(worst, math.Abs(bm.PredictRowMargin(r)-want[i][0]))
	}
	if worst > 1e-12 {
		t.Errorf("max |mean of the trees - old LightGBM's prediction| = %.3g", worst)
	}
	checkSHAP(t, m, bm, dense(rows))
}

// classModel rewrites a multiclass model's text as the binary model of
// its class k: the header says one class (objective binary sigmoid:1, no
// tree_sizes) and keeps the trees of class k (trees k, k+classes, ...),
// renumbered, whose sum is LightGBM's raw score of class k.
func classModel(t *testing.T, text string, k, classes int) []byte {
	t.Helper()
	head, rest, ok := strings.Cut(text, "\nTree=0\n")
	body, tail, ok2 := strings.Cut(rest, "\nend of trees\n")
	if !ok || !ok2 {
		t.Fatal("not a model text")
	}
	var out strings.Builder
	for _, line := range strings.Split(head, "\n") {
		switch key, _, _ := strings.Cut(line, "="); key {
		case "num_class", "num_tree_per_iteration":
			line = key + "=1"
		case "objective":
			line = "objective=binary sigmoid:1"
		case "tree_sizes":
			continue
		}
		out.WriteString(line + "\n")
	}
	blocks := strings.Split("Tree=0\n"+body, "\nTree=")
	n := 0
	for i, b := range blocks {
		if i%classes != k {
			continue
		}
		if i > 0 {
			b = "Tree=" + b
		}
		_, b, _ = strings.Cut(b, "\n")
		fmt.Fprintf(&out, "\nTree=%d\n%s\n", n, strings.TrimRight(b, "\n"))
		n++
	}
	out.WriteString("\nend of trees\n" + tail)
	return []byte(out.String())
}

// TestKDDCup99Categorical: LightGBM's multiclass model of KDD Cup 99, with
// 14 categorical features (codes up to 511, so bitsets of many words),
// taken a class at a time as a binary model: each class's margins are
// LightGBM's raw scores of the class on the 504 rows.
func TestKDDCup99Categorical(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "lg_kddcup99.model"))
	if err != nil {
		t.Fatal(err)
	}
	rows := readMatrix(t, "kddcup99_test.tsv", false, 0)
	raw := readMatrix(t, "lg_kddcup99_true_predictions.txt", false, 0)
	const classes = 13
	worst, cats := 0.0, 0
	for k := range classes {
		m, err := Decode(classModel(t, string(b), k, classes))
		if err != nil {
			t.Fatalf("class %d: %v", k, err)
		}
		bm, err := m.Boost()
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range bm.Trees {
			for _, c := range tr.Categories {
				if c != nil {
					cats++
				}
			}
		}
		got := bm.PredictMargin(dense(rows), nil)
		for i := range rows {
			worst = max(worst, math.Abs(got[i]-raw[i][k]))
		}
		checkSHAP(t, m, bm, dense(rows))
	}
	t.Logf("lg_kddcup99 (13 classes as binary models, %d categorical splits): max |margin - LightGBM's raw score| = %.3g over %d rows", cats, worst, len(rows))
	if cats < 100 {
		t.Errorf("only %d categorical splits", cats)
	}
	if worst > 1e-6 {
		t.Errorf("max |margin - LightGBM's raw score| = %.3g, want <= 1e-6", worst)
	}
}
