package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/aer-go/aer/serve"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "serve saved models over HTTP (JSON or CSV rows in, scores and labels out)",
		usage: `Usage: aer serve --model model.aer [--model name=other.aer ...] [--addr 127.0.0.1:8080]
       [--max-rows N] [--max-body BYTES] [--max-cells N] [--max-concurrent N]
       [--timeout D] [--strict-columns]

Loads the model files written by aer fit and answers HTTP requests:

  POST /v1/predict                 score rows with the model (one model served)
  POST /v1/models/NAME/predict     score rows with model NAME
  GET  /v1/models                  every model: features (and categorical
                                   columns), method, parameters, threshold,
                                   checksum
  GET  /v1/models/NAME             one model
  POST /v1/models/NAME/reload      reload NAME from its file
  GET  /healthz, GET /readyz       liveness, readiness
  GET  /metrics                    Prometheus metrics

A model is named after its file (ecoli.aer is "ecoli") unless given as
name=path. A predict body is JSON, {"rows": [[...], ...]} (values in the
model's column order, as GET /v1/models/NAME lists it) or {"rows":
[{"column": value, ...}]}; or CSV (Content-Type: text/csv) with a header
row of column names. null (JSON), or an empty cell, ?, NA or NaN (CSV),
is a missing value. Each row gets its score and its predicted label, in
the training data's label values, at the model's threshold (chosen by aer
fit on validation rows, else the method's own, else 0.5), as aer predict
does.

A field or column the model does not use is ignored, whatever it holds,
as aer predict ignores such a column: the answer names it in "ignored",
and the metric aer_ignored_columns_total counts it. --strict-columns
refuses such a request instead (status 400).

Categorical columns (aer fit's one-hot columns col=value) are sent by
their raw name and value: a string, or a number in canonical form (1, 1.0
and "+1" are one category), and array rows hold them in the model's
column order ("columns"); CSV bodies are read as aer predict reads a file,
bit for bit. A value the model did not see, like a missing one, encodes
to all zeros, and the row's answer lists its column in "unseen". A row may
carry the model's id column (aer fit --id), echoed as "id".

"explain": true (CSV: ?explain=true) adds each row's feature attributions,
"features": the "top" (default 10; CSV: &top=K) largest by absolute value,
with the base value they add to and the output space (logit or
probability; a categorical column's attribution is the sum of its one-hot
features'), and the method's own breakdown, "explanation". Errors are
JSON, {"error": "...", "row": N, "field": "..."}, with status 400, 404,
405, 413, 415 or 503 (beyond --max-concurrent, with Retry-After).

--max-cells bounds the numbers one answer holds: rows x classes (one per
row for a binary model), plus rows x classes x (features + 1) with
explanations. A request over it is refused with 413 before it is scored,
saying how many rows fit; while the answers being computed hold four
times --max-cells, a request that would pass that waits its turn (503,
Retry-After).

SIGHUP reloads every model; a file that cannot be loaded leaves the old
model serving and logs why. SIGTERM or Ctrl-C stops accepting requests and
lets those in flight finish. Logs go to stderr; --log-level debug logs one
line per request.`,
		run: runServe,
	})
}

// modelFlags collects repeated --model values.
type modelFlags []serve.Spec

func (m *modelFlags) String() string { return "" }

func (m *modelFlags) Set(v string) error {
	s, err := serve.ParseSpec(v)
	if err != nil {
		return err
	}
	*m = append(*m, s)
	return nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["serve"]
	fs := newFlagSet(c, stderr)
	var models modelFlags
	fs.Var(&models, "model", "model `file` written by aer fit, or name=file (repeatable; required)")
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (port 0: any free port, logged)")
	maxRows := fs.Int("max-rows", serve.DefaultMaxRows, "most rows in one request (413 beyond)")
	maxBody := fs.Int64("max-body", serve.DefaultMaxBody, "largest request body in `bytes` (413 beyond)")
	maxCells := fs.Int64("max-cells", serve.DefaultMaxCells, "most numbers in one answer: rows x classes, x (features+1) more with explanations (413 beyond)")
	maxConc := fs.Int("max-concurrent", serve.DefaultMaxConcurrent, "most /v1 requests answered at once (503 with Retry-After beyond)")
	timeout := fs.Duration("timeout", serve.DefaultReadTimeout, "read and write timeout of a request, e.g. 10s")
	idle := fs.Duration("idle-timeout", serve.DefaultIdleTimeout, "close keep-alive connections idle this long")
	grace := fs.Duration("shutdown-timeout", serve.DefaultShutdownTimeout, "on SIGTERM or Ctrl-C, wait this long for requests in flight")
	level := fs.String("log-level", "info", "log `level`: debug (one line per request), info, warn or error")
	logJSON := fs.Bool("log-json", false, "log JSON lines instead of key=value text")
	strict := fs.Bool("strict-columns", false, "refuse (400) a request with a field or column the model does not use, instead of ignoring it")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	var lvl slog.Level
	switch {
	case len(models) == 0:
		return usageErrorf("serve: --model is required")
	case *maxRows < 1:
		return usageErrorf("serve: --max-rows must be at least 1, not %d", *maxRows)
	case *maxBody < 1:
		return usageErrorf("serve: --max-body must be at least 1, not %d", *maxBody)
	case *maxCells < 1:
		return usageErrorf("serve: --max-cells must be at least 1, not %d", *maxCells)
	case *maxConc < 1:
		return usageErrorf("serve: --max-concurrent must be at least 1, not %d", *maxConc)
	case *timeout <= 0 || *idle <= 0 || *grace <= 0:
		return usageErrorf("serve: --timeout, --idle-timeout and --shutdown-timeout must be positive durations")
	case lvl.UnmarshalText([]byte(*level)) != nil:
		return usageErrorf("serve: --log-level %q: want debug, info, warn or error", *level)
	}
	if err := checkAddr(*addr); err != nil {
		return usageErrorf("serve: --addr %q: %v", *addr, err)
	}
	hopts := &slog.HandlerOptions{Level: lvl}
	var h slog.Handler = slog.NewTextHandler(stderr, hopts)
	if *logJSON {
		h = slog.NewJSONHandler(stderr, hopts)
	}
	logger := slog.New(h)
	setServingGC()
	s, err := serve.New(models, &serve.Options{
		MaxRows: *maxRows, MaxBody: *maxBody, MaxCells: *maxCells, MaxConcurrent: *maxConc,
		ReadTimeout: *timeout, WriteTimeout: *timeout, IdleTimeout: *idle, ShutdownTimeout: *grace,
		Logger: logger, StrictColumns: *strict,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-hup:
				s.ReloadAll() // logs each failure; the old models keep serving
			case <-done:
				return
			}
		}
	}()
	if err := s.Serve(ctx, ln); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// checkAddr checks the form host:port of a listen address: a host
// without colons unless bracketed, and a port number from 0 to 65535 or
// a service name.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			return errors.New(ae.Err + "; want host:port, e.g. 127.0.0.1:8080 or [::1]:8080")
		}
		return err
	}
	if _, err := net.LookupPort("tcp", port); err != nil || port == "" {
		return fmt.Errorf("port %q is neither a number from 0 to 65535 nor a service name", port)
	}
	return nil
}

// servingGCPercent is the garbage collector's GOGC for aer serve and aer
// loadtest: a request allocates a few kilobytes and the live heap is
// small, so Go's default of 100 collects several times a second; 400
// collects a quarter as often for a few more megabytes of memory, which
// took a quarter off the p99 latency at 1,000 requests/s (docs/serving.md).
const servingGCPercent = 400

// setServingGC applies servingGCPercent unless the environment sets GOGC.
func setServingGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(servingGCPercent)
	}
}
