package serve

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aer-go/aer/loadtest"
)

var (
	loadFor   = flag.Duration("load", 0, "TestLoad: run the load test this long (0: the short CI version, 2 s at 200 requests/s)")
	loadRate  = flag.Float64("load-rate", 1000, "TestLoad: requests per second of the long version")
	loadModel = flag.String("load-model", "", "TestLoad: model file to serve (default: an AER model fitted on synthetic data)")
)

// TestLoad sends single-row predictions at a fixed rate (open loop: the
// schedule does not wait for answers, so a stalled server cannot slow the
// load down; latency counts from the moment a request is sent, and how late
// sends were against the schedule is reported) to a server on loopback,
// then measures
// throughput at saturation. It requires every answer to be a 200 with one
// prediction; latency and memory are reported, not asserted (-v). Run the
// long version with
//
//	go test ./serve -run TestLoad -v -load 60s -load-rate 1000 [-load-model m.aer]
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	path := *loadModel
	if path == "" {
		path = fitFile(t, t.TempDir(), "aer", "aer", "components=2-3", "n_init=2")
	}
	s := newServer(t, &Options{MaxConcurrent: 256}, Spec{Name: "m", Path: path})
	ts := httptest.NewServer(s)
	defer ts.Close()
	body := rowBody(t, s)

	dur, rate := 2*time.Second, 200.0
	if *loadFor > 0 {
		dur, rate = *loadFor, *loadRate
	}
	check := func(b []byte) error {
		var out PredictResponse
		if err := json.Unmarshal(b, &out); err != nil {
			return err
		}
		if len(out.Rows) != 1 {
			return fmt.Errorf("%d predictions for one row", len(out.Rows))
		}
		return nil
	}
	set := &loadtest.Settings{URL: ts.URL + "/v1/predict", Bodies: [][]byte{body}, Rate: rate, Duration: dur,
		Check: check, MetricsURL: ts.URL + "/metrics"}
	res, err := loadtest.Run(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors > 0 {
		t.Fatalf("%d of %d requests failed; the first: %v", res.Errors, res.Requests, res.FirstError)
	}
	if want := int(dur.Seconds() * rate); res.Requests != want {
		t.Fatalf("%d requests sent, want %d", res.Requests, want)
	}
	ms := func(s float64) string { return fmt.Sprintf("%.3f ms", s*1e3) }
	t.Logf("open loop: %d single-row requests in %.1f s (%.0f/s): latency p50 %s, p99 %s, p99.9 %s, max %s; sends at most %s behind schedule",
		res.Requests, res.Seconds, res.Throughput, ms(res.P50), ms(res.P99), ms(res.P999), ms(res.Max), ms(res.Late))
	if n := len(res.RSS); n > 1 {
		t.Logf("resident memory (test process, server and client): first %.1f MB, last %.1f MB", mb(res.RSS[0].RSS), mb(res.RSS[n-1].RSS))
	}

	// Saturation: closed loop, 4 requests in flight per core.
	sat := *set
	sat.Rate, sat.Duration, sat.MetricsURL = 0, min(dur/2, 5*time.Second), ""
	res, err = loadtest.Run(context.Background(), &sat)
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors > 0 {
		t.Fatalf("%d requests failed at saturation; the first: %v", res.Errors, res.FirstError)
	}
	t.Logf("saturation: %.0f single-row requests/s with %d in flight", res.Throughput, res.InFlight)
}

// rowBody is one row of the model's features, all zero, as JSON.
func rowBody(t *testing.T, s *Server) []byte {
	t.Helper()
	sl, e := s.slotOf("m")
	if e != nil {
		t.Fatal(e)
	}
	row := make([]float64, len(sl.cur.Load().saved.Header().Schema.Features))
	b, err := json.Marshal(map[string]any{"rows": [][]float64{row}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
