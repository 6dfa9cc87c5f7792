package aer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/dataset"
)

// TestImportMulti imports the multi-class XGBoost fixtures
// (interop/xgboost/testdata/make_multi.py) with their CSV, read as a
// multi-class table, as the schema: Predict gives XGBoost's class
// probabilities within 1e-6 and its class on every row, before and
// after a save and load, and the saved file is the one it loads from.
func TestImportMulti(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, file string
		classes    int
	}{
		{"multi", "multi.json", 4},
		{"multi", "multi.ubj", 4},
		{"softmax", "softmax.ubj", 3},
		{"multicat", "multicat.json", 3},
		{"forest", "forest.json", 3},
	} {
		t.Run(c.file, func(t *testing.T) {
			table, err := aer.ReadTable(filepath.Join(xgbData, c.name+".csv"), nil)
			if err != nil {
				t.Fatal(err)
			}
			m, err := aer.ImportFile(ctx, filepath.Join(xgbData, c.file), aer.FromXGBoost, table)
			if err != nil {
				t.Fatal(err)
			}
			if m.NumClasses() < 3 || len(m.Classes()) != c.classes || m.Method() != "gbdt" {
				t.Fatalf("multi-class %v, classes %q, method %s", m.NumClasses() > 2, m.Classes(), m.Method())
			}
			if src := m.ImportedFrom(); src == nil || src.Classes != c.classes || src.From != "xgboost" {
				t.Errorf("imported from %+v", src)
			}
			var g struct {
				Proba [][]float64 `json:"proba"`
				Label []int       `json:"label"`
			}
			b, err := os.ReadFile(filepath.Join(xgbData, c.name+".golden.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &g); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := m.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			loaded, err := aer.ReadModel(bytes.NewReader(buf.Bytes()), c.name)
			if err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if _, err := loaded.WriteTo(&again); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
				t.Errorf("a loaded imported model saves to other bytes (%v)", err)
			}
			for _, mm := range []*aer.Model{m, loaded} {
				preds, err := mm.Predict(ctx, table, nil)
				if err != nil {
					t.Fatal(err)
				}
				k := c.classes
				worst, wrong := 0.0, 0
				for i := range g.Proba {
					for j := range k {
						worst = max(worst, math.Abs(preds.Proba[i*k+j]-g.Proba[i][j]))
					}
					if preds.Pred[i] != g.Label[i] {
						wrong++
					}
				}
				t.Logf("%s: max |p - XGBoost's| = %.3g, %d of %d labels differ", c.file, worst, wrong, len(g.Label))
				if !(worst <= 1e-6) || wrong > 0 {
					t.Errorf("max |p - XGBoost's| = %.3g (want <= 1e-6), %d labels differ (want 0)", worst, wrong)
				}
			}
		})
	}
}

// A multi-class model needs a multi-class table of as many classes: a
// binary table, a table of other classes and a binary model on a
// multi-class table are refused (ErrImport), saying why.
func TestImportMultiRefused(t *testing.T) {
	ctx := context.Background()
	multi, err := aer.ReadTable(filepath.Join(xgbData, "multi.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	three, err := aer.ReadTable(filepath.Join(xgbData, "softmax.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	binary, err := aer.ReadTable(filepath.Join(xgbData, "plain.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file  string
		table *aer.Table
		want  string
	}{
		{"multi.json", binary, "has 4 classes, the table's label label has 2 classes"},
		{"multi.json", three, "has 4 classes, the table's label label has 3 classes"},
		{"softmax.ubj", multi, "has 3 classes, the table's label label has 4 classes"},
		{"plain.json", multi, "has 2 classes (a binary objective), the table's label label has 4 classes"},
	} {
		_, err := aer.ImportFile(ctx, filepath.Join(xgbData, c.file), aer.FromXGBoost, c.table)
		if !errors.Is(err, aer.ErrImport) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrImport saying %q", c.file, err, c.want)
		}
	}
}

// LightGBM's multiclass model of KDD Cup 99 (interop/lightgbm/testdata,
// 13 classes) imports with a table of its 504 test rows labelled by
// LightGBM's own most probable class: Predict gives the softmax of
// LightGBM's raw scores within 1e-6 and its class on every row.
func TestImportLightGBMMulti(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join("interop", "lightgbm", "testdata")
	rows := readTSV(t, filepath.Join(dir, "kddcup99_test.tsv"))
	raw := readTSV(t, filepath.Join(dir, "lg_kddcup99_true_predictions.txt"))
	var csv strings.Builder
	for j := range rows[0] {
		csv.WriteString("Column_" + itoa(j) + ",")
	}
	csv.WriteString("label\n")
	want := make([]int, len(rows))
	proba := make([][]float64, len(rows))
	for i, r := range rows {
		for _, v := range r {
			csv.WriteString(ftoa(v) + ",")
		}
		hi, sum := math.Inf(-1), 0.0
		for c, v := range raw[i] {
			if v > hi {
				hi, want[i] = v, c
			}
		}
		proba[i] = make([]float64, len(raw[i]))
		for c, v := range raw[i] {
			proba[i][c] = math.Exp(v - hi)
			sum += proba[i][c]
		}
		for c := range proba[i] {
			proba[i][c] /= sum
		}
		csv.WriteString(itoa(want[i]) + "\n")
	}
	labels := make([]string, 13)
	for c := range labels {
		labels[c] = itoa(c)
	}
	path := filepath.Join(t.TempDir(), "kdd.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.Load(path, dataset.Options{Classes: labels})
	if err != nil {
		t.Fatal(err)
	}
	table := aer.TableOf(d)
	m, err := aer.ImportFile(ctx, filepath.Join(dir, "lg_kddcup99.model"), aer.FromLightGBM, table)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := m.Predict(ctx, table, nil)
	if err != nil {
		t.Fatal(err)
	}
	worst, wrong := 0.0, 0
	for i := range rows {
		for c := range 13 {
			worst = max(worst, math.Abs(preds.Proba[i*13+c]-proba[i][c]))
		}
		if preds.Pred[i] != want[i] {
			wrong++
		}
	}
	t.Logf("lg_kddcup99: max |p - softmax(LightGBM's raw scores)| = %.3g, %d of %d labels differ", worst, wrong, len(rows))
	if !(worst <= 1e-6) || wrong > 0 {
		t.Errorf("max |p - softmax(raw)| = %.3g (want <= 1e-6), %d labels differ (want 0)", worst, wrong)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// readTSV reads a file of tab-separated numbers.
func readTSV(t *testing.T, path string) [][]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var row []float64
		for _, f := range strings.Split(line, "\t") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			row = append(row, v)
		}
		out = append(out, row)
	}
	return out
}
