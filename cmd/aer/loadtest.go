package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/aer-go/aer/loadtest"
)

func init() {
	register(&command{
		name:    "loadtest",
		summary: "send predictions to a running aer serve at a fixed rate: latency quantiles, throughput, server memory",
		usage: `Usage: aer loadtest --url http://127.0.0.1:8080/v1/predict --data rows.csv [--rows 1]
       [--rps 1000] [--duration 60s] [--saturate 10s] [--json]

Sends POST requests of --rows CSV rows each (Content-Type text/csv: the
file's header and the next rows of --data, in turn) to --url at --rps
requests per second for --duration, open loop: request i leaves at
start + i/rps whatever happened to the earlier ones, so a server that
stalls cannot slow the schedule down and hide it. Latency counts from the
moment a request is sent; the report gives p50, p90, p99, p99.9 and the
maximum, the throughput, the errors (any status but 200 is one), how far
sends fell behind the schedule (more than a few milliseconds means the
generator, not the server, set the pace), and the server's resident
memory once a second read from its /metrics (--metrics; the default is
/metrics on the host of --url). --saturate D then runs closed loop for D
with --in-flight requests outstanding: the throughput at saturation.
Run it from another process than the server (and ideally other cores):
a generator sharing the server's cores adds its own pauses to the tail.
Exit status 1 when any request failed.`,
		run: runLoadtest,
	})
}

// loadtestOptions are aer loadtest's flags.
type loadtestOptions struct {
	target, data, metrics string
	rows, inFlight        int
	rps                   float64
	dur, saturate         time.Duration
	asJSON                bool
}

// parseLoadtestFlags reads and checks aer loadtest's flags; the metrics
// URL is resolved (empty: none).
func parseLoadtestFlags(args []string, stderr io.Writer) (*loadtestOptions, error) {
	fs := newFlagSet(commands["loadtest"], stderr)
	var o loadtestOptions
	fs.StringVar(&o.target, "url", "", "predict `URL` of a running aer serve (required)")
	fs.StringVar(&o.data, "data", "", "CSV `file` whose rows are sent (required)")
	fs.IntVar(&o.rows, "rows", 1, "rows per request")
	fs.Float64Var(&o.rps, "rps", 1000, "requests per second of the open-loop run")
	fs.DurationVar(&o.dur, "duration", 10*time.Second, "length of the open-loop run")
	fs.DurationVar(&o.saturate, "saturate", 0, "then run closed loop this long to measure the throughput at saturation (0: no)")
	fs.IntVar(&o.inFlight, "in-flight", 0, "requests outstanding during --saturate (0: 4 per core)")
	fs.StringVar(&o.metrics, "metrics", "", "`URL` of the server's Prometheus metrics, read once a second for its memory (default: /metrics on --url's host; - for none)")
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON document")
	if err := parseNoArgs(fs, args); err != nil {
		return nil, err
	}
	switch {
	case o.target == "" || o.data == "":
		return nil, usageErrorf("loadtest: --url and --data are required")
	case o.rows < 1 || o.rows > 1_000_000:
		return nil, usageErrorf("loadtest: --rows must be from 1 to 1000000, not %d", o.rows)
	case !(o.rps > 0) || o.rps > 1e6:
		return nil, usageErrorf("loadtest: --rps must be above 0 and at most 1000000, not %v", o.rps)
	case o.dur <= 0 || o.saturate < 0:
		return nil, usageErrorf("loadtest: --duration must be positive and --saturate at least 0")
	case o.inFlight < 0 || o.inFlight > 100_000:
		return nil, usageErrorf("loadtest: --in-flight must be from 0 to 100000, not %d", o.inFlight)
	case float64(o.dur)/float64(time.Second)*o.rps > 1e8:
		return nil, usageErrorf("loadtest: --duration x --rps is more than 100000000 requests")
	}
	u, err := url.Parse(o.target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usageErrorf("loadtest: --url %q: want http://host:port/path", o.target)
	}
	switch o.metrics {
	case "":
		o.metrics = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/metrics"}).String()
	case "-":
		o.metrics = ""
	}
	return &o, nil
}

// loadReport is what aer loadtest measured.
type loadReport struct {
	Rows     int              `json:"rows_per_request"`
	Open     *loadtest.Result `json:"open_loop"`
	Saturate *loadtest.Result `json:"saturation,omitempty"`
}

func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseLoadtestFlags(args, stderr)
	if err != nil {
		return err
	}
	setServingGC() // the generator's own collections would show as latency
	bodies, err := loadBodies(o.data, o.rows)
	if err != nil {
		return fmt.Errorf("loadtest: %w", err)
	}
	s := &loadtest.Settings{URL: o.target, Bodies: bodies, ContentType: "text/csv", Rate: o.rps, Duration: o.dur, MetricsURL: o.metrics}
	report := loadReport{Rows: o.rows}
	if report.Open, err = loadtest.Run(ctx, s); err != nil {
		return fmt.Errorf("loadtest: %w", err)
	}
	failed, first := report.Open.Errors, report.Open.FirstError
	if o.saturate > 0 {
		sat := *s
		sat.Rate, sat.Duration, sat.Workers, sat.MetricsURL = 0, o.saturate, o.inFlight, ""
		if report.Saturate, err = loadtest.Run(ctx, &sat); err != nil {
			return fmt.Errorf("loadtest: %w", err)
		}
		failed += report.Saturate.Errors
		if first == "" {
			first = report.Saturate.FirstError
		}
	}
	if o.asJSON {
		if err := writeJSON(stdout, report); err != nil {
			return err
		}
	} else {
		writeLoadResult(stdout, "open loop", report.Open, o.rows)
		if report.Saturate != nil {
			writeLoadResult(stdout, "saturation", report.Saturate, o.rows)
		}
	}
	if failed > 0 {
		return fmt.Errorf("loadtest: %d requests failed; the first: %s", failed, first)
	}
	return nil
}

// loadBodies reads the request bodies of rows rows each from the CSV
// file at path (loadtest.CSVBodies).
func loadBodies(path string, rows int) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return loadtest.CSVBodies(f, path, rows)
}

func writeLoadResult(w io.Writer, name string, r *loadtest.Result, rows int) {
	ms := func(s float64) string { return fmt.Sprintf("%.3f ms", s*1e3) }
	fmt.Fprintf(w, "%s: %d requests of %d rows in %.1f s, %.0f/s answered", name, r.Requests, rows, r.Seconds, r.Throughput)
	if r.Rate > 0 {
		fmt.Fprintf(w, " (target %.0f/s; sends at most %s behind schedule)", r.Rate, ms(r.Late))
	} else {
		fmt.Fprintf(w, " (%d in flight)", r.InFlight)
	}
	fmt.Fprintf(w, ", %d errors\n", r.Errors)
	fmt.Fprintf(w, "  latency p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %s\n",
		ms(r.P50), ms(r.P90), ms(r.P99), ms(r.P999), ms(r.Max), ms(r.Mean))
	if n := len(r.RSS); n > 0 {
		fmt.Fprintf(w, "  server memory (RSS): %.1f MB at %.0f s", float64(r.RSS[0].RSS)/(1<<20), r.RSS[0].At)
		for _, k := range []int{n / 6, n - 1} {
			if k > 0 {
				fmt.Fprintf(w, ", %.1f MB at %.0f s", float64(r.RSS[k].RSS)/(1<<20), r.RSS[k].At)
			}
		}
		fmt.Fprintln(w)
	}
}
