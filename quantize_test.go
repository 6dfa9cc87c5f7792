package aer_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	aer "github.com/aer-go/aer"
	"github.com/aer-go/aer/learn"
)

// quantisable are the legacy model files whose methods have a quantised
// form: boosted trees, their variants behind a tuned threshold, a
// resampling or a decision layer, AER (its boosted members) and the svm
// (its support vectors; no trees).
var quantisable = map[string]bool{
	"bin-aer": true, "bin-aer-paper": true, "bin-dynens": true, "imp-lgb": true, "bin-tree": true, "bin-brf": true, "bin-bagging": true,
	"bin-rusboost": true, "bin-easy": true, "multi-tree": true, "bin-gbdt": true, "bin-gbdt-cost": true, "bin-gbdt-iso": true,
	"bin-smote": true, "bin-novalid": true, "multi-gbdt": true, "imp-xgb": true, "imp-xgb-multi": true,
	"bin-svm": true,
}

// TestQuantizeLegacy quantises every legacy model file that can be: the
// quantised file is smaller, loads back to a model that says it is
// quantised and scores every row bit-identically to the quantised model
// it was written from, every probability lies within the stated bound of
// the full model's, and a model with no quantised form is refused with
// learn.ErrNotQuantizable.
func TestQuantizeLegacy(t *testing.T) {
	models, err := filepath.Glob("testdata/legacy/*.aer")
	if err != nil || len(models) == 0 {
		t.Fatalf("no legacy models: %v", err)
	}
	done := 0
	for _, path := range models {
		name := strings.TrimSuffix(filepath.Base(path), ".aer")
		m, err := aer.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		q, err := m.Quantize(aer.QuantizeOptions{})
		if err != nil {
			if !errors.Is(err, learn.ErrNotQuantizable) {
				t.Fatalf("%s: %v", name, err)
			}
			if quantisable[name] {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		done++
		t.Run(name, func(t *testing.T) { checkQuantized(t, name, m, q) })
	}
	if done < 6 {
		t.Fatalf("%d legacy models quantised", done)
	}
}

func checkQuantized(t *testing.T, name string, m, q *aer.Model) {
	ctx := context.Background()
	info, ok := q.Quantization()
	if !ok || info.Trees == 0 && name != "bin-svm" || info.Bound <= 0 || info.Bound < info.ScoreBound && m.Layer() == nil {
		t.Fatalf("quantization %+v, %v", info, ok)
	}
	if _, ok := m.Quantization(); ok {
		t.Fatal("the full model says it is quantised")
	}
	var full, small bytes.Buffer
	if _, err := m.WriteTo(&full); err != nil {
		t.Fatal(err)
	}
	if _, err := q.WriteTo(&small); err != nil {
		t.Fatal(err)
	}
	if small.Len() >= full.Len() {
		t.Errorf("quantised file %d bytes, full %d", small.Len(), full.Len())
	}
	back, err := aer.ReadModel(bytes.NewReader(small.Bytes()), name)
	if err != nil {
		t.Fatal(err)
	}
	if bi, ok := back.Quantization(); !ok || bi != info {
		t.Fatalf("read back: quantization %+v, want %+v", bi, info)
	}
	table, err := m.ReadTable(legacyData(name))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := m.Predict(ctx, table, nil)
	if err != nil {
		t.Fatal(err)
	}
	pq, _ := q.Predict(ctx, table, nil)
	pb, _ := back.Predict(ctx, table, nil)
	probs := func(p *aer.Predictions) []float64 {
		if p.Proba != nil {
			return p.Proba
		}
		return p.Score
	}
	f, qq, b := probs(pf), probs(pq), probs(pb)
	for i := range f {
		if math.Float64bits(qq[i]) != math.Float64bits(b[i]) {
			t.Fatalf("entry %d: read back %v, quantised %v", i, b[i], qq[i])
		}
		if d := math.Abs(f[i] - qq[i]); d > info.Bound {
			t.Fatalf("entry %d moved %g > bound %g", i, d, info.Bound)
		}
	}
}

// TestQuantizeFile: a quantised model saved and loaded from a file.
func TestQuantizeFile(t *testing.T) {
	m, err := aer.Load("testdata/legacy/bin-aer.aer")
	if err != nil {
		t.Fatal(err)
	}
	q, err := m.Quantize(aer.QuantizeOptions{Precision: aer.PrecisionInt8})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "q.aer")
	if err := q.Save(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	back, err := aer.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := back.Quantization(); !ok || info.Precision != aer.PrecisionInt8 {
		t.Fatalf("quantization %+v %v", info, ok)
	}
	if _, err := m.Quantize(aer.QuantizeOptions{Precision: "int4"}); !errors.Is(err, learn.ErrParam) {
		t.Fatalf("precision int4: %v", err)
	}
	st, _ := os.Stat(path)
	if st.Size() == 0 {
		t.Fatal("empty file")
	}
}
