package aer_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	aer "github.com/aer-go/aer"
)

// TestLegacyModelFiles loads model files written by an earlier aer
// (testdata/legacy/gen.sh, run once at commit a7c6460, before binary and
// multi-class became one model) and checks that they score every row
// exactly as aer predict scored them then: the same bytes of predictions,
// probabilities to the last bit. One file per method and decision (binary,
// multi-class native, one-vs-rest and one-vs-one, cost matrix, tuned
// weights, imported XGBoost and LightGBM models).
func TestLegacyModelFiles(t *testing.T) {
	models, err := filepath.Glob("testdata/legacy/*.aer")
	if err != nil {
		t.Fatal(err)
	}
	if len(models) < 30 {
		t.Fatalf("testdata/legacy has %d model files, want the 31 gen.sh wrote", len(models))
	}
	for _, path := range models {
		name := strings.TrimSuffix(filepath.Base(path), ".aer")
		t.Run(name, func(t *testing.T) {
			data := legacyData(name)
			m, err := aer.Load(path)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			in, err := os.Open(data)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			var got bytes.Buffer
			if _, err := m.PredictStream(context.Background(), in, data, &got, &aer.StreamOptions{PredictOptions: aer.PredictOptions{Workers: 1}}); err != nil {
				t.Fatalf("predict: %v", err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(path, ".aer") + ".pred.csv")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(g), len(w)) {
					if g[i] != w[i] {
						t.Fatalf("line %d of the predictions differs:\n got  %s\n want %s", i+1, g[i], w[i])
					}
				}
				t.Fatalf("predictions have %d lines, want %d", len(g), len(w))
			}
		})
	}
}

// legacyData is the table gen.sh scored with the model of that name.
func legacyData(name string) string {
	switch {
	case strings.HasPrefix(name, "bin-"):
		return "testdata/clinic.test.csv"
	case strings.HasPrefix(name, "multi-"):
		return "testdata/legacy/three.test.csv"
	case name == "imp-xgb":
		return "interop/xgboost/testdata/plain.csv"
	case name == "imp-xgb-multi":
		return "interop/xgboost/testdata/multi.csv"
	case name == "imp-lgb":
		return "interop/lightgbm/testdata/breast_cancer_test.csv"
	}
	return ""
}
