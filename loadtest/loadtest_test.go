package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// server answers POSTs after delay, failing every failEvery-th request
// (0: never), and serves a metrics page.
func server(t *testing.T, delay time.Duration, failEvery int64) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/predict", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		k := n.Add(1)
		if r.Header.Get("Content-Type") != "text/csv" || !strings.HasPrefix(string(b), "a,b\n") {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		time.Sleep(delay)
		if failEvery > 0 && k%failEvery == 0 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, `{"ok":true}`)
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "# HELP process_resident_memory_bytes Resident memory size in bytes.\n# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 1.2345678e+07\n")
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts, &n
}

func TestOpenLoop(t *testing.T) {
	ts, n := server(t, 2*time.Millisecond, 0)
	res, err := Run(context.Background(), &Settings{
		URL: ts.URL + "/v1/predict", Bodies: [][]byte{[]byte("a,b\n1,2\n")}, ContentType: "text/csv",
		Rate: 200, Duration: 1500 * time.Millisecond, MetricsURL: ts.URL + "/metrics",
	})
	if err != nil {
		t.Fatal(err)
	}
	// Open loop: the count is rate x duration whatever the latency.
	if res.Requests != 300 || n.Load() != 300 || res.Errors != 0 {
		t.Fatalf("requests %d (server saw %d), errors %d; want 300, 0", res.Requests, n.Load(), res.Errors)
	}
	// Every answer took at least the server's 2 ms.
	if res.P50 < 0.002 || !(res.P50 <= res.P90 && res.P90 <= res.P99 && res.P99 <= res.P999 && res.P999 <= res.Max) {
		t.Errorf("quantiles out of order or below the server's delay: %+v", res)
	}
	if res.Seconds < 1.49 {
		t.Errorf("a 300-request schedule at 200/s ended after %.2f s", res.Seconds)
	}
	if len(res.RSS) == 0 || res.RSS[0].RSS != 12345678 {
		t.Errorf("RSS samples %+v, want 12345678 bytes", res.RSS)
	}
}

func TestClosedLoopAndErrors(t *testing.T) {
	ts, n := server(t, 0, 4)
	res, err := Run(context.Background(), &Settings{
		URL: ts.URL + "/v1/predict", Bodies: [][]byte{[]byte("a,b\n1,2\n")}, ContentType: "text/csv",
		Duration: 300 * time.Millisecond, Workers: 3, Check: func(b []byte) error {
			if string(b) != `{"ok":true}` {
				return fmt.Errorf("body %q", b)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.InFlight != 3 || res.Requests == 0 || int64(res.Requests) != n.Load() {
		t.Fatalf("in flight %d, requests %d, server saw %d", res.InFlight, res.Requests, n.Load())
	}
	// Every fourth request fails with a 500.
	if want := res.Requests / 4; res.Errors < want-1 || res.Errors > want+1 || !strings.Contains(res.FirstError, "status 500: boom") {
		t.Errorf("errors %d of %d (first %q), want about a quarter, status 500", res.Errors, res.Requests, res.FirstError)
	}
	if res.Throughput != float64(res.Requests-res.Errors)/res.Seconds {
		t.Errorf("throughput %v counts more than the answered requests", res.Throughput)
	}
}

func TestCancel(t *testing.T) {
	ts, _ := server(t, 0, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, &Settings{URL: ts.URL + "/v1/predict", Bodies: [][]byte{[]byte("a,b\n1,2\n")}, ContentType: "text/csv", Rate: 100, Duration: time.Minute})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v", err)
	}
	if res.Requests < 10 || res.Requests > 30 || res.Errors != 0 {
		t.Errorf("%d requests, %d errors in 0.2 s at 100/s", res.Requests, res.Errors)
	}
}

func TestQuantile(t *testing.T) {
	lat := make([]time.Duration, 1000)
	for i := range lat {
		lat[i] = time.Duration(i+1) * time.Millisecond
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{0.5, 500 * time.Millisecond}, {0.99, 990 * time.Millisecond}, {0.999, 999 * time.Millisecond}, {1, time.Second}, {0, time.Millisecond}} {
		if got := quantile(lat, c.p); got != c.want.Seconds() {
			t.Errorf("quantile %v = %v, want %v", c.p, got, c.want.Seconds())
		}
	}
}

func TestBadSettings(t *testing.T) {
	for _, s := range []Settings{
		{Bodies: [][]byte{nil}, Duration: time.Second},
		{URL: "http://x", Duration: time.Second},
		{URL: "http://x", Bodies: [][]byte{nil}},
		{URL: "http://x", Bodies: [][]byte{nil}, Duration: time.Second, Rate: -1},
	} {
		if _, err := Run(context.Background(), &s); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}

func TestParseResident(t *testing.T) {
	v, err := ParseResident(strings.NewReader("go_goroutines 7\nprocess_resident_memory_bytes 2.5e+07\n"))
	if err != nil || v != 25000000 {
		t.Errorf("%v, %v", v, err)
	}
	for _, page := range []string{"go_goroutines 7\n", "process_resident_memory_bytes NaN\n", "process_resident_memory_bytes -1\n"} {
		if _, err := ParseResident(strings.NewReader(page)); err == nil {
			t.Errorf("%q: no error", page)
		}
	}
}
