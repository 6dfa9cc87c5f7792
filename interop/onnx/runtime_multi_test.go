package onnx_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/internal/sharedtest"
	"github.com/aer-go/aer/interop/onnx"
	"github.com/aer-go/aer/learn"
)

// scoreORTMulti scores x with a multi-class ONNX file in ONNX Runtime and
// returns its class probabilities (row-major, k per row) and labels.
func scoreORTMulti(t *testing.T, node, script, model string, x [][]float64, k int) ([]float64, []int) {
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
	p, label := make([]float64, 0, len(x)*k), make([]int, len(x))
	for i, l := range lines {
		cells := strings.Split(l, ",")
		if len(cells) != k+1 {
			t.Fatalf("ONNX Runtime's line %d: %q, want %d probabilities and a label", i+1, l, k)
		}
		for _, c := range cells[:k] {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				t.Fatalf("ONNX Runtime's line %d: %q", i+1, l)
			}
			p = append(p, v)
		}
		if label[i], err = strconv.Atoi(cells[k]); err != nil {
			t.Fatalf("ONNX Runtime's line %d: %q", i+1, l)
		}
	}
	return p, label
}

// The multi-class exports, fitted on the shared multi-class tables
// (datasets-multiclass, aer split's stratified 3:1:1 split, seed 0):
// gbdt's native softmax model and logreg's multinomial one on all five,
// one-vs-rest models (each member's graph and sigmoid calibration, the
// probabilities normalised) of logreg and balanced-rf on all five and of
// AER on glass and ecoli6, the native multi-class tree (tree's default,
// its leaves' class shares; grown whole and with max_depth=4) and forest
// (balanced-rf --multiclass native, the mean of its trees' shares) on
// all five, and gbdt and logreg with a cost-matrix decision on vehicle
// and ecoli6. ONNX Runtime gives aer predict's class probabilities
// within 1e-5 (the native trees and forests within 1e-7: their shares
// rounded to float32) and its labels (the decision's weighted
// argmax) on the test rows as the file holds them (ONNX Runtime reads
// them rounded to float32). On the rows rounded to float32 beforehand,
// logreg, which has no thresholds, agrees within 1e-6 too; the tree
// models are reported only there, as in TestONNXRuntime (input.split).
func TestONNXRuntimeMulti(t *testing.T) {
	node, script := runtime(t)
	ctx := context.Background()
	type split struct{ train, valid, test *aer.Table }
	splits := map[string]split{}
	all := []string{"dna", "ecoli6", "glass", "satellite", "vehicle"}
	for _, name := range all {
		table, err := aer.ReadTable(sharedtest.Path(t, "datasets-multiclass", name+".csv"), nil)
		if err != nil {
			t.Fatal(err)
		}
		parts, err := (&dataset.Partition{Ratios: []float64{3, 1, 1}, Seed: 0}).Parts(table.Dataset().Y)
		if err != nil {
			t.Fatal(err)
		}
		splits[name] = split{table.Subset(parts[0].Rows), table.Subset(parts[1].Rows), table.Subset(parts[2].Rows)}
	}
	type tcase struct {
		dataset, method, multiclass string
		cost                        bool   // a cost-matrix decision
		param                       string // key=value, "" for none
	}
	var cases []tcase
	for _, d := range all {
		cases = append(cases, tcase{d, "gbdt", "", false, ""}, tcase{d, "logreg", "", false, ""}, tcase{d, "logreg", aer.OneVsRest, false, ""}, tcase{d, "balanced-rf", aer.OneVsRest, false, ""},
			tcase{d, "tree", "", false, ""}, tcase{d, "tree", "", false, "max_depth=4"}, tcase{d, "balanced-rf", aer.Native, false, ""})
	}
	cases = append(cases, tcase{"glass", "aer", aer.OneVsRest, false, ""}, tcase{"ecoli6", "aer", aer.OneVsRest, false, ""},
		tcase{"vehicle", "gbdt", "", true, ""}, tcase{"ecoli6", "logreg", "", true, ""})
	for _, tc := range cases {
		name := tc.dataset + "," + tc.method
		if tc.multiclass != "" {
			name += "," + tc.multiclass
		}
		if tc.cost {
			name += ",cost"
		}
		if tc.param != "" {
			name += "," + tc.param
		}
		t.Run(name, func(t *testing.T) {
			sp := splits[tc.dataset]
			method, err := learn.New(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			if key, value, ok := strings.Cut(tc.param, "="); ok {
				if err := method.Set(key, value); err != nil {
					t.Fatal(err)
				}
			}
			set := &aer.Settings{Spec: aer.Spec{Decomposition: tc.multiclass}, Env: aer.Env{Seed: 1}}
			if tc.cost {
				// Missing class 0 costs 5, any other mistake 1.
				k := len(sp.train.Dataset().Classes)
				cost := make([][]float64, k)
				for i := range cost {
					cost[i] = make([]float64, k)
					for j := range k {
						if i != j {
							cost[i][j] = 1 + 4*float64(b2f(i == 0))
						}
					}
				}
				set.Decision.Objective = &decision.Objective{Matrix: cost}
			}
			model, err := aer.Fit(ctx, sp.train, sp.valid, set, method)
			if err != nil {
				t.Fatal(err)
			}
			if d := model.Layer(); tc.cost && (d.Rule != decision.RuleCost || d.Cost == nil) {
				t.Fatalf("decision %+v, want a cost matrix", d)
			}
			file := filepath.Join(t.TempDir(), "model.onnx")
			if err := model.ExportONNXFile(ctx, file); err != nil {
				t.Fatal(err)
			}
			k := len(model.Classes())
			rounded, read := 0.0, 1e-5
			if tc.method == "logreg" {
				rounded = 1e-6
			}
			if tc.method == "tree" || tc.multiclass == aer.Native {
				// The leaf shares, and the forest's sums, rounded to
				// float32 by TreeEnsembleRegressor.
				read = 1e-7
			}
			for _, in := range []struct {
				name  string
				table *aer.Table
				tol   float64 // 0: reported only
			}{
				{"as read", sp.test, read},
				{"rounded to float32", float32Table(sp.test), rounded},
			} {
				preds, err := model.Predict(ctx, in.table, nil)
				if err != nil {
					t.Fatal(err)
				}
				x, err := model.ONNXInput(in.table)
				if err != nil {
					t.Fatal(err)
				}
				p, label := scoreORTMulti(t, node, script, file, x, k)
				worst, at, wrong := 0.0, 0, 0
				for i := range p {
					if d := math.Abs(p[i] - preds.Proba[i]); d > worst || math.IsNaN(d) {
						worst, at = d, i
					}
				}
				for i := range label {
					if label[i] != preds.Pred[i] {
						wrong++
					}
				}
				t.Logf("%s, test rows %s: max |ONNX Runtime - aer predict| = %.3g (row %d, class %d); %d of %d labels differ",
					name, in.name, worst, at/k+1, at%k, wrong, len(label))
				if in.tol > 0 && (!(worst <= in.tol) || wrong > 0) {
					t.Errorf("%s, test rows %s: max |ONNX Runtime - aer predict| = %.3g, %d labels differ; want at most %g and none",
						name, in.name, worst, wrong, in.tol)
				}
			}
		})
	}
}

func b2f(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A one-vs-one model is refused, saying why, and nothing is written.
func TestONNXMultiOvORefused(t *testing.T) {
	ctx := context.Background()
	table, err := aer.ReadTable(sharedtest.Path(t, "datasets-multiclass", "glass.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	method, err := learn.New("logreg")
	if err != nil {
		t.Fatal(err)
	}
	model, err := aer.Fit(ctx, table, nil, &aer.Settings{Spec: aer.Spec{Decomposition: aer.OneVsOne}, Env: aer.Env{Seed: 1}}, method)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := model.ExportONNX(&buf); !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), "one-vs-one") || buf.Len() > 0 {
		t.Errorf("one-vs-one export: %v (%d bytes written), want ErrUnsupported naming one-vs-one", err, buf.Len())
	}
}

// The native multi-class models of rusboost (adaboost's SAMME) and AER
// have no graph: refused, naming the model, and nothing is written.
func TestONNXMultiNativeRefused(t *testing.T) {
	ctx := context.Background()
	table, err := aer.ReadTable(sharedtest.Path(t, "datasets-multiclass", "glass.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ method, model string }{{"rusboost", "adaboost.MultiModel"}, {"aer", "adaptive.MultiModel"}} {
		method, err := learn.New(c.method)
		if err != nil {
			t.Fatal(err)
		}
		model, err := aer.Fit(ctx, table, nil, &aer.Settings{Spec: aer.Spec{Decomposition: aer.Native}, Env: aer.Env{Seed: 1}}, method)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := model.ExportONNX(&buf); !errors.Is(err, onnx.ErrUnsupported) || !strings.Contains(err.Error(), c.model) || buf.Len() > 0 {
			t.Errorf("%s native export: %v (%d bytes written), want ErrUnsupported naming %s", c.method, err, buf.Len(), c.model)
		}
	}
}

// The multi-class models imported from XGBoost (interop/xgboost's
// fixtures: multi:softprob with 15% missing values, multi:softmax, dart
// with two trees per class per round; the categorical one has no graph):
// ONNX Runtime gives aer predict's probabilities within 1e-5 and its
// labels on the rows XGBoost was trained on.
func TestONNXRuntimeImportedMulti(t *testing.T) {
	node, script := runtime(t)
	ctx := context.Background()
	dir := filepath.Join("..", "xgboost", "testdata")
	for _, c := range []struct{ name, file string }{{"multi", "multi.json"}, {"softmax", "softmax.ubj"}, {"forest", "forest.json"}} {
		t.Run(c.file, func(t *testing.T) {
			table, err := aer.ReadTable(filepath.Join(dir, c.name+".csv"), nil)
			if err != nil {
				t.Fatal(err)
			}
			model, err := aer.ImportFile(ctx, filepath.Join(dir, c.file), aer.FromXGBoost, table)
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
			x, err := model.ONNXInput(table)
			if err != nil {
				t.Fatal(err)
			}
			k := len(model.Classes())
			p, label := scoreORTMulti(t, node, script, file, x, k)
			worst, wrong := 0.0, 0
			for i := range p {
				worst = max(worst, math.Abs(p[i]-preds.Proba[i]))
			}
			for i := range label {
				if label[i] != preds.Pred[i] {
					wrong++
				}
			}
			t.Logf("imported %s: max |ONNX Runtime - aer predict| = %.3g; %d of %d labels differ", c.file, worst, wrong, len(label))
			if !(worst <= 1e-5) || wrong > 0 {
				t.Errorf("max |ONNX Runtime - aer predict| = %.3g, %d labels differ; want at most 1e-5 and none", worst, wrong)
			}
		})
	}
}
