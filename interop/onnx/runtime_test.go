package onnx_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/boost"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods"
)

// runtime returns the node binary and the folder holding
// node_modules/onnxruntime-node ($AER_ONNXRUNTIME, else testdata), or
// skips t saying what is missing.
func runtime(t *testing.T) (node, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: the comparison with ONNX Runtime needs Node.js and npm's onnxruntime-node (cd interop/onnx/testdata && npm install --ignore-scripts --no-package-lock)")
	}
	dirs := []string{"testdata"}
	if d := os.Getenv("AER_ONNXRUNTIME"); d != "" {
		dirs = append([]string{d}, dirs...)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "node_modules", "onnxruntime-node", "package.json")); err == nil {
			abs, err := filepath.Abs("testdata/score.js")
			if err != nil {
				t.Fatal(err)
			}
			return node, abs
		}
	}
	t.Skipf("onnxruntime-node not found in %s: install it with (cd interop/onnx/testdata && npm install --ignore-scripts --no-package-lock), or name a folder holding node_modules/onnxruntime-node in $AER_ONNXRUNTIME", strings.Join(dirs, " or "))
	return "", ""
}

// scoreORT scores x (rows of features) with the ONNX file in ONNX
// Runtime and returns its probabilities and labels.
func scoreORT(t *testing.T, node, script, model string, x [][]float64) ([]float64, []int) {
	t.Helper()
	var csv bytes.Buffer
	for _, row := range x {
		for j, v := range row {
			if j > 0 {
				csv.WriteByte(',')
			}
			if !math.IsNaN(v) {
				csv.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		csv.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(path, csv.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, model, path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s %s: %v\n%s", filepath.Base(script), model, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(x) {
		t.Fatalf("ONNX Runtime scored %d rows of %d", len(lines), len(x))
	}
	p, label := make([]float64, len(x)), make([]int, len(x))
	for i, l := range lines {
		a, b, ok := strings.Cut(l, ",")
		v, err1 := strconv.ParseFloat(a, 64)
		k, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("ONNX Runtime's line %d: %q", i+1, l)
		}
		p[i], label[i] = v, k
	}
	return p, label
}

// rows returns the rows of a table's features.
func rows(tb *aer.Table) [][]float64 {
	x := tb.Dataset().X
	r, _ := x.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = x.RawRowView(i)
	}
	return out
}

// float32Rows returns a copy of t with every feature value rounded to
// float32, the values ONNX Runtime reads.
func float32Table(t *aer.Table) *aer.Table {
	c := t.Subset(seq(t.Rows()))
	raw := c.Dataset().X.RawMatrix()
	for i, v := range raw.Data {
		raw.Data[i] = float64(float32(v))
	}
	return c
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// The exports of gbdt, logreg, balanced-rf, svm and AER, fitted on the
// shared wine_quality dataset (aer split's stratified 3:1:1 split, seed
// 0), and of AER's paper preset on ecoli and its default on car_eval_34
// (one-hot features), score the test rows in ONNX Runtime as aer predict
// does: within 1e-5 of the probability and at the same label, on the
// test rows as the file holds them (ONNX Runtime reads them rounded to
// float32). On the test rows rounded to float32 beforehand (what the
// graph's float32 input holds), logreg and svm, which have no
// thresholds, agree within 1e-6 too; the tree models are reported only
// there, since a value that float32 rounds across a split's data value
// is decided as the value as written (see input.split).
//
// AER's paper preset on wine_quality is within 1.1e-5: the float32
// rounding of the density column (values 0.99, standard deviation 0.003)
// moves a narrow mixture component's log-density; the graph scores the
// rounded values as aer does.
func TestONNXRuntime(t *testing.T) {
	node, script := runtime(t)
	ctx := context.Background()
	cases := []struct {
		dataset string
		method  string
		params  []string
	}{
		{"wine_quality", "gbdt", nil},
		{"wine_quality", "logreg", nil},
		{"wine_quality", "balanced-rf", nil},
		{"wine_quality", "svm", nil},
		{"wine_quality", "aer", nil},
		{"ecoli", "aer", []string{"preset=paper"}},
		{"car_eval_34", "aer", nil},
	}
	type split struct{ train, valid, test *aer.Table }
	splits := map[string]split{}
	for _, tc := range cases {
		if _, ok := splits[tc.dataset]; ok {
			continue
		}
		table, err := aer.ReadTable(sharedtest.Path(t, "datasets", tc.dataset+".csv"), nil)
		if err != nil {
			t.Fatal(err)
		}
		parts, err := (&dataset.Partition{Ratios: []float64{3, 1, 1}, Seed: 0}).Parts(table.Dataset().Y)
		if err != nil {
			t.Fatal(err)
		}
		splits[tc.dataset] = split{table.Subset(parts[0].Rows), table.Subset(parts[1].Rows), table.Subset(parts[2].Rows)}
	}
	for _, tc := range cases {
		name := strings.Join(append([]string{tc.dataset, tc.method}, tc.params...), ",")
		t.Run(name, func(t *testing.T) {
			sp := splits[tc.dataset]
			method, err := learn.New(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			model, err := aer.Fit(ctx, sp.train, sp.valid, &aer.Settings{Spec: aer.Spec{Params: tc.params}, Env: aer.Env{Seed: 1}}, method)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "model.onnx")
			if err := model.ExportONNXFile(ctx, file); err != nil {
				t.Fatal(err)
			}
			for _, in := range []struct {
				name  string
				table *aer.Table
				tol   float64 // 0: reported only
			}{
				{"as read", sp.test, 1e-5},
				{"rounded to float32", float32Table(sp.test), map[string]float64{"logreg": 1e-6, "svm": 1e-6}[tc.method]},
			} {
				preds, err := model.Predict(ctx, in.table, nil)
				if err != nil {
					t.Fatal(err)
				}
				x, err := model.ONNXInput(in.table)
				if err != nil {
					t.Fatal(err)
				}
				p, label := scoreORT(t, node, script, file, x)
				worst, at, wrong := 0.0, 0, 0
				for i := range p {
					if d := math.Abs(p[i] - preds.Score[i]); d > worst || math.IsNaN(d) {
						worst, at = d, i
					}
					if label[i] != preds.Pred[i] {
						wrong++
					}
				}
				t.Logf("%s, test rows %s: max |ONNX Runtime - aer predict| = %.3g (row %d: %v, %v); %d of %d labels differ",
					name, in.name, worst, at+1, p[at], preds.Score[at], wrong, len(p))
				if in.tol > 0 && (!(worst <= in.tol) || wrong > 0) {
					t.Errorf("%s, test rows %s: max |ONNX Runtime - aer predict| = %.3g at row %d (%v, %v), %d labels differ; want at most %g and none",
						name, in.name, worst, at+1, p[at], preds.Score[at], wrong, in.tol)
				}
			}
		})
	}
}

// withMissing writes a copy of the CSV file at src into dir with about
// one numeric cell in eight of the given columns left empty (missing),
// and returns its path.
func withMissing(t *testing.T, src, dir string, cols ...string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	head := strings.Split(lines[0], ",")
	blank := map[int]bool{}
	for j, h := range head {
		for _, c := range cols {
			if h == c {
				blank[j] = true
			}
		}
	}
	for i := 1; i < len(lines); i++ {
		cells := strings.Split(lines[i], ",")
		for j := range cells {
			if blank[j] && (i*7+j*3)%8 == 0 {
				cells[j] = ""
			}
		}
		lines[i] = strings.Join(cells, ",")
	}
	out := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every exported method, on the clinic tables of the module's testdata
// (an id, five measurements, a text column one-hot encoded, the test
// table's columns in another order with one clinic unseen in training)
// with missing values in every measurement: ONNX Runtime gives aer
// predict's probabilities within 1e-5 and its labels, for the decision
// layer's sigmoid and isotonic calibrations and for methods that tune
// their own threshold.
func TestONNXRuntimeMethods(t *testing.T) {
	node, script := runtime(t)
	ctx := context.Background()
	dir := t.TempDir()
	measured := []string{"age", "dose", "heart_rate", "bmi", "noise"}
	read := &aer.ReadOptions{ID: "id", Label: "outcome"}
	var tables [3]*aer.Table
	for k, name := range []string{"train", "valid", "test"} {
		path := withMissing(t, filepath.Join("..", "..", "testdata", "clinic."+name+".csv"), dir, measured...)
		tb, err := aer.ReadTable(path, read)
		if err != nil {
			t.Fatal(err)
		}
		tables[k] = tb
	}
	iso := decision.Options{Calibrate: decision.Isotonic}
	cases := []struct {
		method string
		params []string
		dec    decision.Options
	}{
		{method: "gbdt"},
		{method: "gbdt", dec: iso},
		{method: "gbdt-tuned"},
		{method: "gbdt-leafwise"},
		{method: "gbdt-focal"},
		{method: "rus-gbdt"},
		{method: "smote-gbdt"},
		{method: "logreg"},
		{method: "svm"},
		{method: "svm", params: []string{"kernel=linear"}},
		{method: "svm", params: []string{"kernel=poly", "degree=3"}},
		{method: "tree"},
		{method: "tree", dec: iso},
		{method: "balanced-rf", params: []string{"n_estimators=30"}},
		{method: "balanced-bagging", params: []string{"n_estimators=10"}},
		{method: "rusboost", params: []string{"n_estimators=20"}},
		{method: "easy-ensemble", params: []string{"n_estimators=4"}},
		{method: "aer"},
		{method: "aer", params: []string{"preset=paper"}},
		{method: "aer", params: []string{"covariance=diag", "likelihood=exp"}},
		{method: "aer", params: []string{"covariance=spherical", "likelihood=log"}},
		{method: "aer", params: []string{"covariance=tied", "likelihood=uniform"}},
		{method: "dynens"},
	}
	for _, tc := range cases {
		name := strings.Join(append([]string{tc.method}, tc.params...), ",")
		if tc.dec.Calibrate != "" {
			name += ",calibrate=" + tc.dec.Calibrate
		}
		t.Run(name, func(t *testing.T) {
			method, err := learn.New(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			model, err := aer.Fit(ctx, tables[0], tables[1], &aer.Settings{Spec: aer.Spec{Params: tc.params, Decision: tc.dec}, Env: aer.Env{Seed: 1}}, method)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "model.onnx")
			if err := model.ExportONNXFile(ctx, file); err != nil {
				t.Fatal(err)
			}
			test := tables[2]
			preds, err := model.Predict(ctx, test, nil)
			if err != nil {
				t.Fatal(err)
			}
			x, err := model.ONNXInput(test)
			if err != nil {
				t.Fatal(err)
			}
			if sch := model.Schema(); len(sch.Categories) == 0 || len(x[0]) != len(sch.RawColumns()) {
				t.Fatalf("the clinic table's text column: categories %v, %d input columns", sch.Categories, len(x[0]))
			}
			p, label := scoreORT(t, node, script, file, x)
			worst, at, wrong := 0.0, 0, 0
			for i := range p {
				if d := math.Abs(p[i] - preds.Score[i]); d > worst || math.IsNaN(d) {
					worst, at = d, i
				}
				if label[i] != preds.Pred[i] {
					wrong++
				}
			}
			th, _ := model.Threshold()
			t.Logf("max |ONNX Runtime - aer predict| = %.3g (row %d); %d of %d labels differ; threshold %.4g, %s",
				worst, at+1, wrong, len(p), th, model.Scores())
			if !(worst <= 1e-5) || wrong > 0 {
				t.Errorf("max |ONNX Runtime - aer predict| = %.3g at row %d (%v, %v), %d labels differ",
					worst, at+1, p[at], preds.Score[at], wrong)
			}
		})
	}
}

// Models XGBoost and LightGBM trained, imported (aer import), export and
// score in ONNX Runtime as aer predict scores them, missing values
// included; XGBoost's float32 split conditions become float64
// thresholds (interop/xgboost) whose float32 buckets the graph splits
// exactly where XGBoost does. A model with categorical splits is refused.
func TestONNXRuntimeImported(t *testing.T) {
	node, script := runtime(t)
	ctx := context.Background()
	xgb, lgb := filepath.Join("..", "xgboost", "testdata"), filepath.Join("..", "lightgbm", "testdata")
	for _, tc := range []struct {
		from, model, data string
	}{
		{aer.FromXGBoost, filepath.Join(xgb, "plain.json"), filepath.Join(xgb, "plain.csv")},
		{aer.FromXGBoost, filepath.Join(xgb, "missing.ubj"), filepath.Join(xgb, "missing.csv")},
		{aer.FromXGBoost, filepath.Join(xgb, "many.json"), filepath.Join(xgb, "many.csv")},
		{aer.FromXGBoost, filepath.Join(xgb, "dart.ubj"), filepath.Join(xgb, "dart.csv")},
		{aer.FromLightGBM, filepath.Join(lgb, "lg_dart_breast_cancer.model"), filepath.Join(lgb, "breast_cancer_test.csv")},
	} {
		t.Run(filepath.Base(tc.model), func(t *testing.T) {
			table, err := aer.ReadTable(tc.data, nil)
			if err != nil {
				t.Fatal(err)
			}
			model, err := aer.ImportFile(ctx, tc.model, tc.from, table)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "model.onnx")
			if err := model.ExportONNXFile(ctx, file); err != nil {
				t.Fatal(err)
			}
			preds, err := model.Predict(ctx, table, nil)
			if err != nil {
				t.Fatal(err)
			}
			p, label := scoreORT(t, node, script, file, rows(table))
			worst, wrong := 0.0, 0
			for i := range p {
				worst = max(worst, math.Abs(p[i]-preds.Score[i]))
				if label[i] != preds.Pred[i] {
					wrong++
				}
			}
			t.Logf("%s: max |ONNX Runtime - aer predict| = %.3g over %d rows; %d labels differ", tc.model, worst, len(p), wrong)
			if !(worst <= 1e-5) || wrong > 0 {
				t.Errorf("%s: max |ONNX Runtime - aer predict| = %.3g, %d labels differ", tc.model, worst, wrong)
			}
		})
	}
	table, err := aer.ReadTable(filepath.Join(xgb, "categorical.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	model, err := aer.ImportFile(ctx, filepath.Join(xgb, "categorical.json"), aer.FromXGBoost, table)
	if err != nil {
		t.Fatal(err)
	}
	if err := model.ExportONNX(io.Discard); !errors.Is(err, onnx.ErrUnsupported) {
		t.Errorf("categorical XGBoost model: %v", err)
	}
}

// Edge cases ONNX Runtime must take as aer scores them: a boosted model
// without trees (its base margin), a tree that is one leaf, a split whose
// missing values go left, rows with every feature missing.
func TestONNXRuntimeEdgeCases(t *testing.T) {
	node, script := runtime(t)
	leaf := boost.Tree{Feature: []int32{-1}, Threshold: []float64{0}, DefaultLeft: []bool{false}, Left: []int32{-1}, Value: []float64{0.75},
		Gain: []float64{0}, Cover: []float64{1}}
	split := boost.Tree{Feature: []int32{1, -1, -1}, Threshold: []float64{0.27, 0, 0}, DefaultLeft: []bool{true, false, false},
		Left: []int32{1, -1, -1}, Value: []float64{0, -1.5, 2.25}, Gain: make([]float64, 3), Cover: make([]float64, 3)}
	x := [][]float64{{0, 0.27}, {1, 0.2699999}, {math.NaN(), math.NaN()}, {-3, 1e30}, {2, -1e-30}}
	for _, tc := range []struct {
		name  string
		trees []boost.Tree
	}{
		{"no trees", nil},
		{"one leaf", []boost.Tree{leaf}},
		{"leaf and split", []boost.Tree{leaf, split}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &boost.Model{NumFeatures: 2, BaseMargin: -0.5, Trees: tc.trees}
			file := filepath.Join(t.TempDir(), "model.onnx")
			b, err := onnx.Marshal(&onnx.Spec{Model: &boost.Fitted{Model: m}, Threshold: 0.5, Method: "gbdt"})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, b, 0o666); err != nil {
				t.Fatal(err)
			}
			p, label := scoreORT(t, node, script, file, x)
			for i, row := range x {
				want := m.PredictRow(row)
				if math.Abs(p[i]-want) > 1e-7 || label[i] != map[bool]int{true: 1, false: 0}[want >= 0.5] {
					t.Errorf("row %v: ONNX Runtime %v (label %d), aer %v", row, p[i], label[i], want)
				}
			}
		})
	}
}
