package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aer-go/aer/predfile"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond every 10 ms for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func httpDo(t *testing.T, method, url, ctype, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeEndToEnd runs aer serve in-process on a free port and checks
// that it scores as aer predict does, reloads, and shuts down.
func TestServeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir, "--valid", "testdata/fit/train.csv")
	preds := filepath.Join(dir, "preds.csv")
	if _, stderr, code := aer(t, "predict", "--model", model, "--data", "testdata/predict/test.csv", "--out", preds); code != 0 {
		t.Fatalf("predict: %s", stderr)
	}
	want, err := predfile.LoadPredictions(preds)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- runContext(ctx, []string{"serve", "--model", "m=" + model, "--addr", "127.0.0.1:0", "--log-level", "debug", "--max-rows", "100"}, io.Discard, &stderr)
	}()
	addrRe := regexp.MustCompile(`msg=serving addr=(127\.0\.0\.1:\d+)`)
	var url string
	waitFor(t, "the server to listen", func() bool {
		if m := addrRe.FindStringSubmatch(stderr.String()); m != nil {
			url = "http://" + m[1]
			return true
		}
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		default:
		}
		return false
	})

	// The scores and labels of aer predict, from a CSV body.
	data, _ := os.ReadFile("testdata/predict/test.csv")
	code, body := httpDo(t, "POST", url+"/v1/predict", "text/csv", string(data))
	if code != 200 {
		t.Fatalf("predict: %d %s", code, body)
	}
	var got struct {
		Model         string
		Threshold     float64
		ThresholdFrom string `json:"threshold_from"`
		Rows          []struct {
			Score    float64
			Label    string
			Positive bool
		}
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got.Model != "m" || got.ThresholdFrom != "decision-layer" || len(got.Rows) != len(want.Score) {
		t.Fatalf("answer: %s", body)
	}
	for i, r := range got.Rows {
		label := "healthy"
		if want.Pred[i] == 1 {
			label = "sick"
		}
		if r.Score != want.Score[i] || r.Positive != (want.Pred[i] == 1) || r.Label != label {
			t.Errorf("row %d: %+v, aer predict says score %v pred %d", i+1, r, want.Score[i], want.Pred[i])
		}
	}
	if code, body := httpDo(t, "POST", url+"/v1/models/m/predict", "application/json", `{"rows": [{"a": 1, "b": "x", "c": 2}]}`); code != 400 || !strings.Contains(body, `"row":1,"field":"b"`) {
		t.Errorf("bad value: %d %s", code, body)
	}
	if code, body := httpDo(t, "GET", url+"/v1/models/m", "", ""); code != 200 || !strings.Contains(body, `"features":["a","b","c"]`) {
		t.Errorf("model info: %d %s", code, body)
	}
	if !strings.Contains(stderr.String(), `msg=request method=POST path=/v1/predict route=/v1/predict status=200`) {
		t.Errorf("no debug line for the request:\n%s", stderr.String())
	}

	// aer loadtest against this server: every request answered, the
	// count fixed by the schedule, the server's memory read from /metrics.
	out, errOut, code := aer(t, "loadtest", "--url", url+"/v1/predict", "--data", "testdata/predict/test.csv",
		"--rows", "2", "--rps", "200", "--duration", "500ms", "--saturate", "200ms", "--in-flight", "3", "--json")
	if code != 0 {
		t.Fatalf("loadtest: exit %d: %s", code, errOut)
	}
	var lt struct {
		Rows int `json:"rows_per_request"`
		Open struct {
			Requests, Errors int
			P50              float64 `json:"p50"`
			P99              float64 `json:"p99"`
			RSS              []struct {
				RSS int64 `json:"rss_bytes"`
			} `json:"rss"`
		} `json:"open_loop"`
		Saturation struct {
			Requests, Errors int
			InFlight         int `json:"in_flight"`
		} `json:"saturation"`
	}
	if err := json.Unmarshal([]byte(out), &lt); err != nil {
		t.Fatalf("loadtest --json: %v\n%s", err, out)
	}
	if lt.Rows != 2 || lt.Open.Requests != 100 || lt.Open.Errors != 0 || !(lt.Open.P50 > 0 && lt.Open.P50 <= lt.Open.P99) ||
		len(lt.Open.RSS) == 0 || lt.Open.RSS[0].RSS <= 0 || lt.Saturation.Requests == 0 || lt.Saturation.Errors != 0 || lt.Saturation.InFlight != 3 {
		t.Errorf("loadtest report %+v", lt)
	}
	// A request the server refuses (CSV rows lacking the features) fails
	// the run.
	if _, errOut, code := aer(t, "loadtest", "--url", url+"/v1/predict", "--data", "testdata/compare/a.csv", "--rps", "50", "--duration", "100ms"); code != 1 || !strings.Contains(errOut, "requests failed; the first: status 400") {
		t.Errorf("loadtest of bad rows: exit %d, %q", code, errOut)
	}

	// A corrupt file on SIGHUP: the old model keeps serving, /metrics
	// counts the failed reload.
	b, _ := os.ReadFile(model)
	b[len(b)/2] ^= 1
	if err := os.WriteFile(model, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if sighup(t) {
		waitFor(t, "the failed reload", func() bool {
			_, m := httpDo(t, "GET", url+"/metrics", "", "")
			return strings.Contains(m, `aer_model_reloads_total{model="m",result="failed"} 1`)
		})
		if !strings.Contains(stderr.String(), "model reload failed; the old model keeps serving") {
			t.Errorf("the failed reload is not logged:\n%s", stderr.String())
		}
	}
	if code, body := httpDo(t, "POST", url+"/v1/models/m/reload", "", ""); code != 500 || !strings.Contains(body, "checksum") {
		t.Errorf("reload of a corrupt file: %d %s", code, body)
	}
	if code, _ := httpDo(t, "POST", url+"/v1/predict", "text/csv", string(data)); code != 200 {
		t.Errorf("after failed reloads: %d", code)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServeUsage(t *testing.T) {
	dir := t.TempDir()
	model := fitModel(t, dir)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{}, 2, "--model is required"},
		{[]string{"--model", model, "--max-rows", "0"}, 2, "--max-rows must be at least 1"},
		{[]string{"--model", model, "--max-body", "-5"}, 2, "--max-body must be at least 1"},
		{[]string{"--model", model, "--max-concurrent", "0"}, 2, "--max-concurrent must be at least 1"},
		{[]string{"--model", model, "--timeout", "0s"}, 2, "must be positive durations"},
		{[]string{"--model", model, "--log-level", "loud"}, 2, `--log-level "loud"`},
		{[]string{"--model", model, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--model", "bad name=" + model}, 2, `model name "bad name"`},
		{[]string{"--model", filepath.Join(dir, "absent.aer")}, 1, "absent.aer: no such file"},
		{[]string{"--model", "testdata/fit/train.csv"}, 1, "not an aer model file"},
		{[]string{"--model", model, "--model", model}, 1, `two models are named "m"`},
		{[]string{"--model", model, "--addr", "256.0.0.1:99999"}, 2, "0 to 65535"},
		{[]string{"--model", model, "--addr", "192.0.2.1:0"}, 1, "serve: listen tcp"}, // TEST-NET-1: not an address of this machine
	} {
		_, stderr, code := aer(t, append([]string{"serve"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
	out, _, code := aer(t, "help", "serve")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	for _, flag := range []string{"-model", "-addr", "-max-rows", "-max-body", "-max-concurrent", "-timeout", "-log-level", "-strict-columns"} {
		if !strings.Contains(out, "  "+flag+" ") && !strings.Contains(out, "  "+flag+"\n") {
			t.Errorf("help serve does not document %s", flag)
		}
	}
	golden(t, "serve/help.golden", out)
}
