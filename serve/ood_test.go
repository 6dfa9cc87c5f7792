package serve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	aer "github.com/aer-go/aer"
)

// TestOOD: an AER model's answer gives each row an "ood" score and flag,
// with the threshold, a row far from the training data flagged and a row
// at its centre not; flagged rows are counted in aer_ood_rows_total; a
// model file without the score (logreg written without aer fit's
// density) answers without them.
func TestOOD(t *testing.T) {
	lr, _ := models(t)
	a := fitFile(t, t.TempDir(), "aer", "aer", "member.n_estimators=10", "components=2")
	s := newServer(t, nil, Spec{Name: "a", Path: a}, Spec{Name: "lr", Path: lr})
	body := `{"rows": [{"x0":0,"x1":0,"x2":0,"x3":0}, {"x0":1000,"x1":-1000,"x2":1000,"x3":1000}, {"x0":1e300,"x1":1e300,"x2":1e300,"x3":1e300}]}`
	code, doc, raw := do(t, s, "POST", "/v1/models/a/predict", jsonType, body)
	if code != 200 {
		t.Fatalf("status %d: %s", code, raw)
	}
	thr, ok := doc["ood_threshold"].(float64)
	if !ok {
		t.Fatalf("no ood_threshold: %s", raw)
	}
	rows := doc["rows"].([]any)
	var flags []bool
	for i, r := range rows {
		o, ok := r.(map[string]any)["ood"].(map[string]any)
		if !ok {
			t.Fatalf("row %d has no ood: %s", i+1, raw)
		}
		score, flagged := o["score"].(float64), o["flagged"].(bool)
		if flagged != (score > thr) {
			t.Fatalf("row %d: ood %v, threshold %v: %s", i+1, o, thr, raw)
		}
		flags = append(flags, flagged)
	}
	if fmt.Sprint(flags) != "[false true true]" {
		t.Fatalf("flags %v, want the centre row alone unflagged: %s", flags, raw)
	}
	_, _, metricsText := do(t, s, "GET", "/metrics", "", "")
	if !strings.Contains(metricsText, `aer_ood_rows_total{model="a"} 2`) {
		t.Errorf("metrics lack aer_ood_rows_total 2:\n%s", grepLines(metricsText, "aer_ood"))
	}
	code, doc, raw = do(t, s, "POST", "/v1/models/lr/predict", jsonType, body)
	if code != 200 || strings.Contains(raw, "ood") {
		t.Fatalf("logreg without a density: status %d: %s", code, raw)
	}
}

// TestOODDensity: a gbdt model and a multi-class gbdt model, fitted by
// aer.Fit with their density and read from their files, answer each row's
// "ood" as AER's does: the centre of the training data unflagged, a far
// row and a 1e300 row flagged, every flagged row counted.
func TestOODDensity(t *testing.T) {
	dir := t.TempDir()
	bin, multi := densityModel(t, dir, 2), densityModel(t, dir, 3)
	s := newServer(t, nil, Spec{Name: "g", Path: bin}, Spec{Name: "m", Path: multi})
	body := `{"rows": [{"x0":0,"x1":0,"x2":0,"x3":0}, {"x0":1000,"x1":-1000,"x2":1000,"x3":1000}, {"x0":1e300,"x1":1e300,"x2":1e300,"x3":1e300}, {"x0":0,"x1":30,"x2":0,"x3":0}]}`
	for _, name := range []string{"g", "m"} {
		code, doc, raw := do(t, s, "POST", "/v1/models/"+name+"/predict", jsonType, body)
		if code != 200 {
			t.Fatalf("%s: status %d: %s", name, code, raw)
		}
		thr, ok := doc["ood_threshold"].(float64)
		if !ok {
			t.Fatalf("%s: no ood_threshold: %s", name, raw)
		}
		var flags []bool
		for i, r := range doc["rows"].([]any) {
			o, ok := r.(map[string]any)["ood"].(map[string]any)
			if !ok {
				t.Fatalf("%s: row %d has no ood: %s", name, i+1, raw)
			}
			if score, flagged := o["score"].(float64), o["flagged"].(bool); flagged != (score > thr) {
				t.Fatalf("%s: row %d: ood %v, threshold %v", name, i+1, o, thr)
			}
			flags = append(flags, o["flagged"].(bool))
		}
		if fmt.Sprint(flags) != "[false true true true]" {
			t.Fatalf("%s: flags %v, want the centre row alone unflagged: %s", name, flags, raw)
		}
	}
	_, _, metricsText := do(t, s, "GET", "/metrics", "", "")
	for _, name := range []string{"g", "m"} {
		if !strings.Contains(metricsText, `aer_ood_rows_total{model="`+name+`"} 3`) {
			t.Errorf("metrics lack aer_ood_rows_total 3 for %s:\n%s", name, grepLines(metricsText, "aer_ood"))
		}
	}
}

// densityModel fits gbdt by aer.Fit (with its density) on rows of four
// features around the origin, classes labels (2: "yes" a quarter of
// them), and writes it in dir.
func densityModel(t *testing.T, dir string, classes int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(classes), 1))
	const n = 600
	cols := make([]aer.Column, 5)
	label := make([]string, n)
	for j := range 4 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		cols[j] = aer.Column{Name: fmt.Sprintf("x%d", j), Values: v}
	}
	for i := range label {
		x := cols[0].Values.([]float64)[i]
		switch {
		case classes == 3 && x < -0.5:
			label[i] = "c"
		case x > 0.7:
			label[i] = "yes"
		default:
			label[i] = "no"
		}
	}
	cols[4] = aer.Column{Name: "y", Values: label}
	tb, err := aer.NewTable(cols, &aer.ReadOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	method, err := aer.Method("gbdt")
	if err != nil {
		t.Fatal(err)
	}
	m, err := aer.Fit(context.Background(), tb, nil, &aer.Settings{Spec: aer.Spec{Params: []string{"n_estimators=5"}}}, method)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("gbdt%d.aer", classes))
	if err := m.Save(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	return path
}
