package main

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aer-go/aer/predfile"
)

// TestQuantizeEndToEnd: aer quantize of an AER model writes a smaller
// file that says it is quantised (--json, aer info); aer predict scores
// every test row within the stated bound of the full model's score, aer
// serve answers with aer predict's scores, aer explain explains a row.
func TestQuantizeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	train, valid, test := aerTask(t, dir)
	full := filepath.Join(dir, "m.aer")
	args := append([]string{"fit", "--method", "aer", "--train", train, "--valid", valid, "--out", full, "--seed", "4"}, smallAER...)
	if _, errOut, code := aer(t, args...); code != 0 {
		t.Fatalf("fit: %s", errOut)
	}
	small := filepath.Join(dir, "q.aer")
	out, errOut, code := aer(t, "quantize", "--model", full, "--out", small, "--json")
	if code != 0 {
		t.Fatalf("quantize: %s", errOut)
	}
	var q struct {
		Method     string  `json:"method"`
		BytesIn    int64   `json:"bytes_in"`
		BytesOut   int64   `json:"bytes_out"`
		Ratio      float64 `json:"ratio"`
		Precision  string  `json:"precision"`
		Trees      int     `json:"trees"`
		Bound      float64 `json:"bound"`
		ScoreBound float64 `json:"score_bound"`
	}
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(small)
	if q.Method != "aer" || q.Precision != "int16" || q.Trees == 0 || !(q.Bound > 0 && q.Bound < 1e-2) || q.ScoreBound <= 0 ||
		q.BytesOut != st.Size() || !(q.Ratio > 2) {
		t.Fatalf("quantize --json: %s", out)
	}
	info, errOut, code := aer(t, "info", "--model", small, "--json")
	if code != 0 || !strings.Contains(info, `"quantization": {`) || !strings.Contains(info, `"precision": "int16"`) {
		t.Fatalf("info: %d %s %s", code, errOut, info)
	}
	if text, _, _ := aer(t, "info", "--model", small); !strings.Contains(text, "quantised       ") {
		t.Errorf("aer info does not say the model is quantised:\n%s", text)
	}
	if text, _, _ := aer(t, "info", "--model", full); strings.Contains(text, "quantised") {
		t.Errorf("aer info says the full model is quantised:\n%s", text)
	}
	pf, pq := filepath.Join(dir, "full.csv"), filepath.Join(dir, "small.csv")
	for _, p := range [][2]string{{full, pf}, {small, pq}} {
		if _, errOut, code := aer(t, "predict", "--model", p[0], "--data", test, "--out", p[1]); code != 0 {
			t.Fatalf("predict: %s", errOut)
		}
		// The predictions of a quantised model state their bound.
		out, errOut, code := aer(t, "predict", "--model", p[0], "--data", test, "--out", p[1], "--json")
		var doc struct {
			Quantized *struct {
				Precision string
				Bound     float64
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
			t.Fatalf("predict --json: %d %v %s", code, err, errOut)
		}
		if q := doc.Quantized; (p[0] == small) != (q != nil) || q != nil && (q.Precision != "int16" || !(q.Bound > 0 && q.Bound < 0.01)) {
			t.Errorf("predict --json of %s: quantized %+v", p[0], q)
		}
		_, errOut, _ = aer(t, "predict", "--model", p[0], "--data", test, "--out", p[1])
		if says := strings.Contains(errOut, "quantised model (int16 leaves): every probability within"); says != (p[0] == small) {
			t.Errorf("predict of %s: %q", p[0], errOut)
		}
	}
	a, err := predfile.LoadPredictions(pf)
	if err != nil {
		t.Fatal(err)
	}
	b, err := predfile.LoadPredictions(pq)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Score {
		if d := math.Abs(a.Score[i] - b.Score[i]); d > q.Bound {
			t.Fatalf("row %d: score moved %g > bound %g", i+1, d, q.Bound)
		}
	}
	if _, errOut, code := aer(t, "explain", "--model", small, "--data", test, "--rows", "1"); code != 0 {
		t.Fatalf("explain: %s", errOut)
	}
	serveScores(t, small, test, b.Score)
}

// serveScores serves model and checks that its answer to data's rows
// has the scores want.
func serveScores(t *testing.T, model, data string, want []float64) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- runContext(ctx, []string{"serve", "--model", "q=" + model, "--addr", "127.0.0.1:0"}, io.Discard, &stderr)
	}()
	addrRe := regexp.MustCompile(`msg=serving addr=(127\.0\.0\.1:\d+)`)
	var url string
	waitFor(t, "the server to listen", func() bool {
		if m := addrRe.FindStringSubmatch(stderr.String()); m != nil {
			url = "http://" + m[1]
			return true
		}
		return false
	})
	body, _ := os.ReadFile(data)
	code, ans := httpDo(t, "POST", url+"/v1/predict", "text/csv", string(body))
	if code != 200 {
		t.Fatalf("serve: %d %s", code, ans)
	}
	var got struct {
		Rows []struct{ Score float64 }
	}
	if err := json.Unmarshal([]byte(ans), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != len(want) {
		t.Fatalf("serve answered %d rows, want %d", len(got.Rows), len(want))
	}
	for i, r := range got.Rows {
		if r.Score != want[i] {
			t.Fatalf("row %d: served %v, aer predict %v", i+1, r.Score, want[i])
		}
	}
	// The model's description says it is quantised, and its bound.
	code, ans = httpDo(t, "GET", url+"/v1/models/q", "", "")
	var info struct {
		Quantized *struct {
			Precision string
			Bound     float64
		}
	}
	if err := json.Unmarshal([]byte(ans), &info); code != 200 || err != nil || info.Quantized == nil || info.Quantized.Precision != "int16" || !(info.Quantized.Bound > 0) {
		t.Errorf("model info: %d %v %s", code, err, ans)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestQuantizeRefused: a method without a quantised form, or a bad
// precision, fails and writes nothing.
func TestQuantizeRefused(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "lr.aer")
	if _, errOut, code := aer(t, "fit", "--method", "logreg", "--train", "testdata/fit/train.csv", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(dir, "q.aer")
	if _, errOut, code := aer(t, "quantize", "--model", model, "--out", out); code != 1 || !strings.Contains(errOut, "cannot be quantised") {
		t.Errorf("logreg: exit %d: %s", code, errOut)
	}
	if _, errOut, code := aer(t, "quantize", "--model", model, "--out", out, "--precision", "int4"); code != 2 {
		t.Errorf("int4: exit %d: %s", code, errOut)
	}
	if _, errOut, code := aer(t, "quantize", "--model", model, "--out", model); code != 2 {
		t.Errorf("--out the input: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed quantize wrote %s", out)
	}
}

// TestFitQuantize: aer fit --quantize writes the quantised model, which
// predicts within its bound of the model aer fit writes without it.
func TestFitQuantize(t *testing.T) {
	dir := t.TempDir()
	full := fitModel(t, dir, "--valid", "testdata/fit/train.csv")
	small := filepath.Join(dir, "q.aer")
	args := []string{"fit", "--method", "gbdt", "--cross-fit", "-1", "--train", "testdata/fit/train.csv", "--param", "n_estimators=10", "--param", "max_depth=3",
		"--valid", "testdata/fit/train.csv", "--out", small, "--quantize", "int8"}
	if _, errOut, code := aer(t, args...); code != 0 {
		t.Fatalf("fit --quantize: %s", errOut)
	}
	info, _, _ := aer(t, "info", "--model", small, "--json")
	var r struct {
		Quantization *struct {
			Precision string  `json:"precision"`
			Bound     float64 `json:"bound"`
		} `json:"quantization"`
	}
	if err := json.Unmarshal([]byte(info), &r); err != nil || r.Quantization == nil || r.Quantization.Precision != "int8" || r.Quantization.Bound <= 0 {
		t.Fatalf("info: %v %s", err, info)
	}
	pf, pq := filepath.Join(dir, "full.csv"), filepath.Join(dir, "small.csv")
	for _, p := range [][2]string{{full, pf}, {small, pq}} {
		if _, errOut, code := aer(t, "predict", "--model", p[0], "--data", "testdata/predict/test.csv", "--out", p[1]); code != 0 {
			t.Fatalf("predict: %s", errOut)
		}
	}
	a, _ := predfile.LoadPredictions(pf)
	b, _ := predfile.LoadPredictions(pq)
	for i := range a.Score {
		if d := math.Abs(a.Score[i] - b.Score[i]); d > r.Quantization.Bound {
			t.Fatalf("row %d moved %g > %g", i+1, d, r.Quantization.Bound)
		}
	}
	if _, _, code := aer(t, "fit", "--method", "gbdt", "--train", "testdata/fit/train.csv", "--out", filepath.Join(dir, "x.aer"), "--quantize", "float16"); code != 2 {
		t.Errorf("--quantize float16: exit %d", code)
	}
}
