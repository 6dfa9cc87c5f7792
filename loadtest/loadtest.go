package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Settings describe a run. The zero value of each field but URL, Bodies
// and Duration is its documented default.
type Settings struct {
	// URL receives every request, as a POST.
	URL string
	// Bodies are the request bodies, sent in turn (request i sends
	// Bodies[i % len(Bodies)]).
	Bodies [][]byte
	// ContentType of the bodies; "" means application/json.
	ContentType string
	// Rate is the requests per second of an open-loop run; 0 runs closed
	// loop with Workers requests in flight (saturation).
	Rate float64
	// Duration of the run.
	Duration time.Duration
	// MaxInFlight caps the requests in flight of an open-loop run (a send
	// waits for a free slot, and is then late); 0 means 256.
	MaxInFlight int
	// Workers is the number of requests in flight of a closed-loop run; 0
	// means 4 per core.
	Workers int
	// Check judges a 200 answer's body; nil accepts any. Any other status
	// is an error.
	Check func(body []byte) error
	// MetricsURL, when set, is read once a second for the server's
	// process_resident_memory_bytes (Prometheus text format, as aer
	// serve's /metrics gives it).
	MetricsURL string
	// Client sends the requests; nil means a client that keeps up to
	// MaxInFlight (or Workers) connections alive, with a 10 s timeout.
	Client *http.Client
}

// Sample is one reading of the server's resident memory.
type Sample struct {
	At  float64 `json:"at_seconds"` // since the start of the run
	RSS int64   `json:"rss_bytes"`
}

// Result is what a run measured. Latencies are in seconds.
type Result struct {
	Requests   int     `json:"requests"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	Seconds    float64 `json:"seconds"`
	Throughput float64 `json:"requests_per_second"` // answered requests per second
	Rate       float64 `json:"target_rate"`         // 0 for a closed-loop run
	InFlight   int     `json:"in_flight,omitempty"` // closed loop: requests in flight
	P50        float64 `json:"p50"`
	P90        float64 `json:"p90"`
	P99        float64 `json:"p99"`
	P999       float64 `json:"p99_9"`
	Max        float64 `json:"max"`
	Mean       float64 `json:"mean"`
	// Late is how far the latest send fell behind its schedule (open
	// loop): more than a few milliseconds means the generator, not the
	// server, set the pace.
	Late float64  `json:"late_seconds"`
	RSS  []Sample `json:"rss,omitempty"`
}

// Run sends the requests and returns the measurements. It stops early,
// with what it measured so far and ctx's error, when ctx is done.
func Run(ctx context.Context, s *Settings) (*Result, error) {
	switch {
	case s.URL == "":
		return nil, errors.New("loadtest: no URL")
	case len(s.Bodies) == 0:
		return nil, errors.New("loadtest: no request bodies")
	case !(s.Duration > 0):
		return nil, errors.New("loadtest: the duration must be positive")
	case s.Rate < 0 || math.IsNaN(s.Rate) || math.IsInf(s.Rate, 0):
		return nil, fmt.Errorf("loadtest: rate %v: want a finite number >= 0", s.Rate)
	case s.MaxInFlight < 0 || s.Workers < 0:
		return nil, errors.New("loadtest: negative in-flight limit")
	}
	r := &runner{s: s, ct: s.ContentType}
	if r.ct == "" {
		r.ct = "application/json"
	}
	conns := s.MaxInFlight
	if conns == 0 {
		conns = 256
	}
	if s.Rate == 0 {
		conns = s.Workers
		if conns == 0 {
			conns = 4 * runtime.GOMAXPROCS(0)
		}
	}
	r.client = s.Client
	if r.client == nil {
		r.client = &http.Client{
			Transport: &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns},
			Timeout:   10 * time.Second,
		}
	}

	rssCtx, stopRSS := context.WithCancel(ctx)
	var rssDone sync.WaitGroup
	var rss []Sample
	start := time.Now()
	if s.MetricsURL != "" {
		rssDone.Go(func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				if v, err := r.residentBytes(rssCtx); err == nil {
					rss = append(rss, Sample{At: time.Since(start).Seconds(), RSS: v})
				}
				select {
				case <-rssCtx.Done():
					return
				case <-tick.C:
				}
			}
		})
	}
	var res *Result
	if s.Rate > 0 {
		res = r.open(ctx, start, conns)
	} else {
		res = r.closed(ctx, start, conns)
	}
	stopRSS()
	rssDone.Wait()
	res.RSS = rss
	return res, ctx.Err()
}

type runner struct {
	s      *Settings
	ct     string
	client *http.Client

	failed   atomic.Int64
	firstErr atomic.Value
}

// open sends request i at start + i/rate.
func (r *runner) open(ctx context.Context, start time.Time, inFlight int) *Result {
	n := max(1, int(r.s.Duration.Seconds()*r.s.Rate))
	lat := make([]time.Duration, n)
	var late time.Duration
	sem := make(chan struct{}, inFlight)
	var wg sync.WaitGroup
	sent := 0
	for i := range n {
		at := start.Add(time.Duration(float64(i) / r.s.Rate * float64(time.Second)))
		if d := time.Until(at); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
			}
		}
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		late = max(late, time.Since(at))
		sent++
		wg.Go(func() {
			defer func() { <-sem }()
			t0 := time.Now()
			r.do(ctx, r.s.Bodies[i%len(r.s.Bodies)])
			lat[i] = time.Since(t0)
		})
	}
	wg.Wait()
	res := r.summarise(lat[:sent], time.Since(start))
	res.Rate, res.Late = r.s.Rate, late.Seconds()
	return res
}

// closed keeps workers requests in flight until the duration is over.
func (r *runner) closed(ctx context.Context, start time.Time, workers int) *Result {
	deadline := start.Add(r.s.Duration)
	lats := make([][]time.Duration, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; ctx.Err() == nil && time.Now().Before(deadline); k += workers {
				t0 := time.Now()
				r.do(ctx, r.s.Bodies[k%len(r.s.Bodies)])
				lats[w] = append(lats[w], time.Since(t0))
			}
		})
	}
	wg.Wait()
	res := r.summarise(slices.Concat(lats...), time.Since(start))
	res.InFlight = workers
	return res
}

// do sends one request and records a failure.
func (r *runner) do(ctx context.Context, body []byte) {
	if err := r.post(ctx, body); err != nil && ctx.Err() == nil {
		r.failed.Add(1)
		r.firstErr.CompareAndSwap(nil, err.Error())
	}
}

func (r *runner) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.s.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", r.ct)
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %s", resp.StatusCode, clip(b))
	}
	if r.s.Check != nil {
		return r.s.Check(b)
	}
	return nil
}

func clip(b []byte) string {
	const most = 200
	s := strings.TrimSpace(string(b))
	if len(s) > most {
		s = s[:most] + "..."
	}
	return s
}

// summarise computes the quantiles of the latencies.
func (r *runner) summarise(lat []time.Duration, elapsed time.Duration) *Result {
	res := &Result{Requests: len(lat), Errors: int(r.failed.Load()), Seconds: elapsed.Seconds()}
	if v, ok := r.firstErr.Load().(string); ok {
		res.FirstError = v
	}
	if len(lat) == 0 {
		return res
	}
	res.Throughput = float64(len(lat)-res.Errors) / elapsed.Seconds()
	slices.Sort(lat)
	res.P50, res.P90, res.P99, res.P999 = quantile(lat, 0.5), quantile(lat, 0.9), quantile(lat, 0.99), quantile(lat, 0.999)
	res.Max = lat[len(lat)-1].Seconds()
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	res.Mean = (sum / time.Duration(len(lat))).Seconds()
	return res
}

// quantile is the nearest-rank quantile of sorted latencies: the
// smallest value with at least a share p of the values at or below it.
func quantile(sorted []time.Duration, p float64) float64 {
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)].Seconds()
}

// residentBytes reads process_resident_memory_bytes from the metrics page.
func (r *runner) residentBytes(ctx context.Context) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.s.MetricsURL, nil)
	if err != nil {
		return 0, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return ParseResident(resp.Body)
}

// ParseResident finds process_resident_memory_bytes in a Prometheus text
// exposition.
func ParseResident(rd io.Reader) (int64, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "process_resident_memory_bytes ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("loadtest: process_resident_memory_bytes %q is not a size", rest)
		}
		return int64(v), nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errors.New("loadtest: no process_resident_memory_bytes in the metrics")
}
