package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}, Timeout: 10 * time.Second}
	url := ts.URL + "/v1/predict"

	// RSS once a second (Linux), beside the requests.
	ctx, stop := context.WithCancel(context.Background())
	var rss []int64
	var rssDone sync.WaitGroup
	rssDone.Go(func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if v, ok := residentBytes(); ok {
				rss = append(rss, v)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})

	n := int(dur.Seconds() * rate)
	lat := make([]time.Duration, n)
	var late time.Duration // the latest send against its schedule
	var failed atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 256)
	for i := range n {
		at := start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
		time.Sleep(time.Until(at))
		sem <- struct{}{}
		late = max(late, time.Since(at))
		wg.Go(func() {
			defer func() { <-sem }()
			sent := time.Now()
			if err := post(client, url, body); err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			}
			lat[i] = time.Since(sent)
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	stop()
	rssDone.Wait()

	if f := failed.Load(); f > 0 {
		t.Fatalf("%d of %d requests failed; the first: %v", f, n, firstErr.Load())
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(n-1, int(p*float64(n)))] }
	t.Logf("open loop: %d single-row requests in %.1f s (%.0f/s): latency p50 %v, p99 %v, p99.9 %v, max %v; sends at most %v behind schedule",
		n, elapsed.Seconds(), float64(n)/elapsed.Seconds(), q(0.5), q(0.99), q(0.999), lat[n-1], late)
	if len(rss) > 1 {
		t.Logf("resident memory (test process, server and client): first %.1f MB, last %.1f MB, max %.1f MB",
			mb(rss[0]), mb(rss[len(rss)-1]), mb(slices.Max(rss)))
	}

	// Saturation: closed loop, 4 requests in flight per core.
	workers := 4 * runtime.GOMAXPROCS(0)
	satFor := min(dur/2, 5*time.Second)
	var done atomic.Int64
	deadline := time.Now().Add(satFor)
	var sw sync.WaitGroup
	for range workers {
		sw.Go(func() {
			for time.Now().Before(deadline) {
				if err := post(client, url, body); err != nil {
					failed.Add(1)
					return
				}
				done.Add(1)
			}
		})
	}
	sw.Wait()
	if f := failed.Load(); f > 0 {
		t.Fatalf("%d requests failed at saturation", f)
	}
	t.Logf("saturation: %.0f single-row requests/s with %d in flight", float64(done.Load())/satFor.Seconds(), workers)
}

// rowBody is one row of the model's features, all zero, as JSON.
func rowBody(t *testing.T, s *Server) []byte {
	t.Helper()
	sl, e := s.slotOf("m")
	if e != nil {
		t.Fatal(e)
	}
	row := make([]float64, len(sl.cur.Load().saved.Header.Schema.Features))
	b, err := json.Marshal(map[string]any{"rows": [][]float64{row}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// post sends one prediction and checks the answer.
func post(c *http.Client, url string, body []byte) error {
	resp, err := c.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	var out PredictResponse
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	if len(out.Rows) != 1 {
		return fmt.Errorf("%d predictions for one row", len(out.Rows))
	}
	return nil
}

// residentBytes reads this process's resident set size (Linux only).
func residentBytes() (int64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
