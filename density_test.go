package aer_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	aer "github.com/aer-go/aer"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/density"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/modelfile"
)

// blobTable returns n rows of four features drawn around three centres
// (0, 5 and -5 on every feature, unit variance), a twentieth of the
// first feature's cells missing; the label is the centre ("a", "b", "c")
// with classes 3 (multi-class), or "yes" for the last centre's rows and
// a fifth of the first's, "no" otherwise.
func blobTable(t *testing.T, n int, seed uint64, classes int) *aer.Table {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 11))
	cols := make([][]float64, 4)
	label := make([]string, n)
	for i := range n {
		c := r.IntN(3)
		for j := range cols {
			v := []float64{0, 5, -5}[c] + r.NormFloat64()
			if j == 0 && r.IntN(20) == 0 {
				v = math.NaN()
			}
			cols[j] = append(cols[j], v)
		}
		switch {
		case classes == 3:
			label[i] = string(rune('a' + c))
		case c == 2 || (c == 0 && r.IntN(5) == 0):
			label[i] = "yes"
		default:
			label[i] = "no"
		}
	}
	tc := []aer.Column{{Name: "x1", Values: cols[0]}, {Name: "x2", Values: cols[1]}, {Name: "x3", Values: cols[2]}, {Name: "x4", Values: cols[3]}, {Name: "y", Values: label}}
	tb, err := aer.NewTable(tc, &aer.ReadOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// farTable holds rows far from the blobs' training data: between them,
// far out on one feature, and a row of NaN (every cell imputed, near the
// mean: ordinary).
func farTable(t *testing.T, classes int) *aer.Table {
	t.Helper()
	lab := []string{"no", "yes", "no", "yes"}
	if classes == 3 {
		lab = []string{"a", "b", "c", "a"}
	}
	nan := math.NaN()
	tb, err := aer.NewTable([]aer.Column{
		{Name: "x1", Values: []float64{2.5, 40, 0, nan}}, {Name: "x2", Values: []float64{2.5, 0, -30, nan}},
		{Name: "x3", Values: []float64{-2.5, 0, 0, nan}}, {Name: "x4", Values: []float64{2.5, 0, 0, 0}},
		{Name: "y", Values: lab}}, &aer.ReadOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestDensityOOD fits gbdt, logreg and a multi-class gbdt with their
// density: rows far from the training data are flagged, about 1% of
// fresh ordinary rows are (the threshold's rate), the model file holds
// the density and scores the same bits once reloaded, and the same seed
// gives the same file.
func TestDensityOOD(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		method  string
		classes int
		params  []string
		valid   bool
	}{
		{"gbdt", 2, []string{"n_estimators=10"}, true},
		{"logreg", 2, nil, false},
		{"gbdt", 3, []string{"n_estimators=10"}, true},
	} {
		name := tc.method + map[int]string{2: "", 3: "-multi"}[tc.classes]
		train, test := blobTable(t, 3000, 1, tc.classes), blobTable(t, 20000, 3, tc.classes)
		var valid *aer.Table
		on := density.OnTraining
		if tc.valid {
			valid, on = blobTable(t, 2000, 2, tc.classes), density.OnValidation
		}
		method, err := aer.Method(tc.method)
		if err != nil {
			t.Fatal(err)
		}
		set := &aer.Settings{Spec: aer.Spec{Params: tc.params}, Env: aer.Env{Seed: 4}}
		m, err := aer.Fit(ctx, train, valid, set, method)
		if err != nil {
			t.Fatal(err)
		}
		o, ok := m.OOD()
		if !ok {
			t.Fatalf("%s: no out-of-distribution score", name)
		}
		d, ok := o.(*density.Model)
		if tc.classes == 2 {
			if d, ok = density.Of(m.Learned()); !ok {
				t.Fatalf("%s: the density is not in the model's chain", name)
			}
			if lo, ok := learn.OODOf(m.Learned()); !ok || lo == nil {
				t.Fatalf("%s: learn.OODOf does not find the density", name)
			}
		}
		if !ok || d.ThresholdOn != on {
			t.Fatalf("%s: density %v, threshold on %v, want %s", name, ok, d, on)
		}
		p, err := m.Predict(ctx, test, &aer.PredictOptions{OOD: true})
		if err != nil {
			t.Fatal(err)
		}
		if rate := float64(p.OODFlagged()) / float64(len(p.OOD)); rate < 0.004 || rate > 0.02 {
			t.Errorf("%s: %.4f of ordinary rows flagged, set for %v", name, rate, density.Alpha)
		}
		far, err := m.Predict(ctx, farTable(t, tc.classes), &aer.PredictOptions{OOD: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := []bool{true, true, true, false}; !equalBools(far.OODFlag, want) {
			t.Errorf("%s: far rows flagged %v (scores %v, threshold %v), want %v", name, far.OODFlag, far.OOD, far.OODThreshold, want)
		}
		var file bytes.Buffer
		if _, err := m.WriteTo(&file); err != nil {
			t.Fatal(err)
		}
		back, err := aer.ReadModel(bytes.NewReader(file.Bytes()), name)
		if err != nil {
			t.Fatal(err)
		}
		q, err := back.Predict(ctx, test, &aer.PredictOptions{OOD: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.OOD {
			if math.Float64bits(p.OOD[i]) != math.Float64bits(q.OOD[i]) || p.Score[i] != q.Score[i] {
				t.Fatalf("%s: row %d: score %v, OOD %v; reloaded %v, %v", name, i, p.Score[i], p.OOD[i], q.Score[i], q.OOD[i])
			}
		}
		again, err := aer.Fit(ctx, train, valid, set, method)
		if err != nil {
			t.Fatal(err)
		}
		var file2 bytes.Buffer
		if _, err := again.WriteTo(&file2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(file.Bytes(), file2.Bytes()) {
			t.Errorf("%s: the same seed wrote another model file", name)
		}
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDensityKeptByDecideAndQuantize: a decision fitted afresh and a
// quantised copy keep the density, scoring the same.
func TestDensityKeptByDecideAndQuantize(t *testing.T) {
	ctx := context.Background()
	train, valid := blobTable(t, 1500, 1, 2), blobTable(t, 600, 2, 2)
	m, err := aer.Fit(ctx, train, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=10"}}}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Predict(ctx, valid, &aer.PredictOptions{OOD: true})
	if err != nil {
		t.Fatal(err)
	}
	dm, err := m.Decide(ctx, valid, decision.Options{}, aer.Env{})
	if err != nil {
		t.Fatal(err)
	}
	qm, err := m.Quantize(aer.QuantizeOptions{Precision: aer.PrecisionInt16})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*aer.Model{"decided": dm, "quantised": qm} {
		var file bytes.Buffer
		if _, err := c.WriteTo(&file); err != nil {
			t.Fatal(err)
		}
		back, err := aer.ReadModel(&file, name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.Predict(ctx, valid, &aer.PredictOptions{OOD: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.OODThreshold != want.OODThreshold || got.OOD[7] != want.OOD[7] {
			t.Errorf("%s: threshold %v, row 7 %v; want %v, %v", name, got.OODThreshold, got.OOD[7], want.OODThreshold, want.OOD[7])
		}
	}
}

// TestCorruptDensity: a model file whose density is corrupt (a checksum
// made for it) is refused with density.ErrCorrupt, naming the file.
func TestCorruptDensity(t *testing.T) {
	ctx := context.Background()
	m, err := aer.Fit(ctx, blobTable(t, 800, 1, 2), nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=5"}}}, gbdt(t))
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if _, err := m.WriteTo(&file); err != nil {
		t.Fatal(err)
	}
	h, payload, err := modelfile.Decode(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	good := string(h.OOD)
	for _, bad := range []string{
		strings.Replace(good, `"version":1`, `"version":7`, 1),
		strings.Replace(good, `"threshold_on":"training"`, `"threshold_on":"x"`, 1),
		strings.Replace(good, `"scale":[`, `"scale":[0,`, 1),
		`{"version":1}`,
		`[]`,
	} {
		h.OOD = []byte(bad)
		var b bytes.Buffer
		if err := modelfile.Encode(&b, h, payload); err != nil {
			t.Fatal(err)
		}
		if _, err := aer.ReadModel(&b, "bad.aer"); !errors.Is(err, density.ErrCorrupt) || !strings.Contains(err.Error(), "bad.aer") {
			t.Errorf("density %.60s: %v, want density.ErrCorrupt naming the file", bad, err)
		}
	}
}

// TestFitDensityImported gives an imported XGBoost model (which Fit did
// not fit) a density on its table's rows: it is kept through its file,
// flags a far row, and a second density is refused.
func TestFitDensityImported(t *testing.T) {
	ctx := context.Background()
	m, err := aer.Load("testdata/legacy/imp-xgb.aer")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.OOD(); ok {
		t.Fatal("an imported model with an out-of-distribution score")
	}
	table, err := aer.ReadTable("interop/xgboost/testdata/plain.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := m.FitDensity(ctx, table, nil, &density.Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.OOD(); ok {
		t.Fatal("FitDensity changed the model it was given")
	}
	var file bytes.Buffer
	if _, err := d.WriteTo(&file); err != nil {
		t.Fatal(err)
	}
	back, err := aer.ReadModel(&file, "imported.aer")
	if err != nil {
		t.Fatal(err)
	}
	far, err := aer.NewTable([]aer.Column{{Name: "age", Values: []float64{0, 50}}, {Name: "dose", Values: []float64{0, 0}},
		{Name: "score", Values: []float64{0, 0}}, {Name: "ratio", Values: []float64{0, -50}}}, &aer.ReadOptions{Unlabeled: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := back.Predict(ctx, far, &aer.PredictOptions{OOD: true})
	if err != nil {
		t.Fatal(err)
	}
	if !equalBools(p.OODFlag, []bool{false, true}) {
		t.Fatalf("flags %v (scores %v, threshold %v), want the far row alone", p.OODFlag, p.OOD, p.OODThreshold)
	}
	want, _ := m.Predict(ctx, far, nil)
	if p.Score[0] != want.Score[0] || p.Score[1] != want.Score[1] {
		t.Fatalf("scores %v with the density, %v without", p.Score, want.Score)
	}
	if _, err := back.FitDensity(ctx, table, nil, nil); !errors.Is(err, learn.ErrParam) {
		t.Fatalf("a second density: %v, want learn.ErrParam", err)
	}
}
