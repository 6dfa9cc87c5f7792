package serve

import (
	"fmt"
	"strings"
	"testing"
)

// TestOOD: an AER model's answer gives each row an "ood" score and flag,
// with the threshold, a row far from the training data flagged and a row
// at its centre not; flagged rows are counted in aer_ood_rows_total; a
// model without the score (logreg) answers without them.
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
		t.Fatalf("logreg: status %d: %s", code, raw)
	}
}
