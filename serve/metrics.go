package serve

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the server's Prometheus metrics, in a registry of its own.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec   // route, code
	errors   *prometheus.CounterVec   // kind
	latency  *prometheus.HistogramVec // route
	rows     *prometheus.CounterVec   // model
	ignored  *prometheus.CounterVec   // model
	ood      *prometheus.CounterVec   // model
	reloads  *prometheus.CounterVec   // model, result
	inFlight prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aer_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aer_http_errors_total", Help: "Refused or failed requests by kind of error.",
		}, []string{"kind"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "aer_http_request_duration_seconds", Help: "Time to answer a request, by route.",
			// Scoring one row takes microseconds: start well below 1 ms.
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		rows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aer_rows_scored_total", Help: "Rows scored, by model.",
		}, []string{"model"}),
		ignored: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aer_ignored_columns_total", Help: "Fields or columns of scored requests that the model does not use, ignored (one per name per request), by model.",
		}, []string{"model"}),
		ood: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aer_ood_rows_total", Help: "Rows scored above their model's out-of-distribution threshold (unlike its training data), by model.",
		}, []string{"model"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aer_model_reloads_total", Help: "Model reloads by model and result (ok, failed).",
		}, []string{"model", "result"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "aer_http_in_flight_requests", Help: "Requests being answered.",
		}),
	}
	m.reg.MustRegister(m.requests, m.errors, m.latency, m.rows, m.ignored, m.ood, m.reloads, m.inFlight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// scored counts a request that scored rows rows with model, ignoring
// ignored fields or columns the model does not use.
func (m *metrics) scored(model string, rows, ignored int) {
	m.rows.WithLabelValues(model).Add(float64(rows))
	if ignored > 0 {
		m.ignored.WithLabelValues(model).Add(float64(ignored))
	}
}

// oodFlagged counts rows of model flagged out of distribution.
func (m *metrics) oodFlagged(model string, rows int) {
	if rows > 0 {
		m.ood.WithLabelValues(model).Add(float64(rows))
	}
}
