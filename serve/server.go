package serve

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aer-go/aer/internal/quote"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer"
	"github.com/aer-go/aer/explain"
	"github.com/aer-go/aer/learn"
)

// Defaults of Options.
const (
	DefaultMaxRows         = 10000
	DefaultMaxBody         = 16 << 20
	DefaultMaxConcurrent   = 64
	DefaultMaxCells        = 4_000_000
	DefaultReadTimeout     = 30 * time.Second
	DefaultWriteTimeout    = 30 * time.Second
	DefaultIdleTimeout     = 120 * time.Second
	DefaultShutdownTimeout = 30 * time.Second
)

// Options configure a Server. The zero value of each field means its
// default; a nil *Options means all defaults.
type Options struct {
	// MaxRows bounds the rows of one request (413 beyond); 0 means
	// DefaultMaxRows.
	MaxRows int
	// MaxBody bounds the request body in bytes (413 beyond); 0 means
	// DefaultMaxBody.
	MaxBody int64
	// MaxConcurrent bounds the /v1 requests answered at once; beyond it
	// the server answers 503 with Retry-After. 0 means
	// DefaultMaxConcurrent.
	MaxConcurrent int
	// MaxCells bounds the numbers one answer holds and computes on the
	// way (answerCells: rows x classes, and with explanations rows x
	// classes x (features+1)); a request over it is refused with 413
	// before anything is scored, since the answer, not the body, is
	// what grows with a model of many classes. 0 means DefaultMaxCells.
	MaxCells int64
	// MaxCellsInFlight bounds the cells of the requests answered at
	// once; beyond it the server answers 503 with Retry-After. 0 means
	// four times MaxCells; it is never below MaxCells.
	MaxCellsInFlight int64
	// ReadTimeout, WriteTimeout and IdleTimeout are the http.Server's
	// (Serve); 0 means DefaultReadTimeout, DefaultWriteTimeout and
	// DefaultIdleTimeout.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits for requests in flight
	// when its context ends; 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// Logger receives one debug record per request, reloads and
	// shutdown; nil discards them.
	Logger *slog.Logger
	// StrictColumns refuses (400) a request with a field or column the
	// model does not use. By default such a field or column is ignored,
	// whatever it holds, and named in the answer's Ignored, as aer
	// predict ignores and reports the columns it does not use.
	StrictColumns bool
}

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&r.MaxRows, DefaultMaxRows)
	def(&r.MaxConcurrent, DefaultMaxConcurrent)
	if r.MaxBody <= 0 {
		r.MaxBody = DefaultMaxBody
	}
	if r.MaxCells <= 0 {
		r.MaxCells = DefaultMaxCells
	}
	if r.MaxCellsInFlight <= 0 {
		r.MaxCellsInFlight = 4 * r.MaxCells
	}
	r.MaxCellsInFlight = max(r.MaxCellsInFlight, r.MaxCells)
	defDur(&r.ReadTimeout, DefaultReadTimeout)
	defDur(&r.WriteTimeout, DefaultWriteTimeout)
	defDur(&r.IdleTimeout, DefaultIdleTimeout)
	defDur(&r.ShutdownTimeout, DefaultShutdownTimeout)
	if r.Logger == nil {
		r.Logger = slog.New(slog.DiscardHandler)
	}
	return r
}

// Server answers HTTP requests to score rows with saved models, describe
// them, reload them, and report health and metrics. It is an
// http.Handler; Serve runs it on a listener.
type Server struct {
	opt     Options
	models  map[string]*slot
	names   []string // sorted
	mux     *http.ServeMux
	metrics *metrics
	sem     chan struct{}
	cells   atomic.Int64 // cells of the answers being computed
	closing atomic.Bool
	log     *slog.Logger
}

// New loads the model files of specs and returns a server for them. A
// file that cannot be loaded is an error naming it; so are two models of
// one name.
func New(specs []Spec, opt *Options) (*Server, error) {
	if len(specs) == 0 {
		return nil, errors.New("serve: no model to serve")
	}
	o := opt.withDefaults()
	s := &Server{opt: o, models: make(map[string]*slot, len(specs)), metrics: newMetrics(),
		sem: make(chan struct{}, o.MaxConcurrent), log: o.Logger}
	for _, sp := range specs {
		if _, dup := s.models[sp.Name]; dup {
			return nil, fmt.Errorf("serve: two models are named %s (name them with name=path)", quote.Name(sp.Name))
		}
		m, err := load(sp)
		if err != nil {
			return nil, fmt.Errorf("serve: model %s: %w", quote.Name(sp.Name), err)
		}
		sl := &slot{spec: sp}
		sl.cur.Store(m)
		s.models[sp.Name] = sl
		s.names = append(s.names, sp.Name)
		s.log.Info("model loaded", "model", sp.Name, "file", sp.Path, "method", m.saved.Header().Method, "threshold", m.threshold, "checksum", m.saved.Checksum())
	}
	sort.Strings(s.names)
	s.routes()
	return s, nil
}

// handler answers one route; it returns the rows it scored (for logs)
// and an error to send, or writes the answer itself and returns nil.
type handler func(w http.ResponseWriter, r *http.Request, rec *record) *Error

// record is what a request's log line and metrics need to know.
type record struct {
	status int
	model  string
	rows   int
}

type route struct {
	pattern string
	limited bool // counts against MaxConcurrent
	methods map[string]handler
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	for _, rt := range []route{
		{"/v1/predict", true, map[string]handler{http.MethodPost: s.predictDefault}},
		{"/v1/models", true, map[string]handler{http.MethodGet: s.listModels}},
		{"/v1/models/{name}", true, map[string]handler{http.MethodGet: s.modelInfo}},
		{"/v1/models/{name}/predict", true, map[string]handler{http.MethodPost: s.predictNamed}},
		{"/v1/models/{name}/reload", true, map[string]handler{http.MethodPost: s.reload}},
		{"/healthz", false, map[string]handler{http.MethodGet: s.healthz}},
		{"/readyz", false, map[string]handler{http.MethodGet: s.readyz}},
		{"/metrics", false, map[string]handler{http.MethodGet: s.serveMetrics}},
		{"/", false, nil},
	} {
		s.mux.Handle(rt.pattern, s.wrap(rt))
	}
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// statusWriter records the status written.
type statusWriter struct {
	http.ResponseWriter
	rec *record
}

func (w *statusWriter) WriteHeader(code int) {
	if w.rec.status == 0 {
		w.rec.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.rec.status == 0 {
		w.rec.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// wrap dispatches on the method and adds what every route shares: the
// concurrency limit, metrics, the log line and JSON errors.
func (s *Server) wrap(rt route) http.Handler {
	label := rt.pattern
	if rt.methods == nil {
		label = "other"
	}
	var allowed []string
	for m := range rt.methods {
		allowed = append(allowed, m)
	}
	sort.Strings(allowed)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &record{}
		sw := &statusWriter{ResponseWriter: w, rec: rec}
		s.metrics.inFlight.Inc()
		err := s.dispatch(sw, r, rt, allowed, rec)
		if err != nil {
			s.writeError(sw, err)
		}
		s.metrics.inFlight.Dec()
		d := time.Since(start)
		s.metrics.requests.WithLabelValues(label, strconv.Itoa(rec.status)).Inc()
		s.metrics.latency.WithLabelValues(label).Observe(d.Seconds())
		if s.log.Enabled(r.Context(), slog.LevelDebug) {
			attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.String("route", label), slog.Int("status", rec.status), slog.Duration("duration", d)}
			if rec.model != "" {
				attrs = append(attrs, slog.String("model", rec.model), slog.Int("rows", rec.rows))
			}
			if err != nil {
				attrs = append(attrs, slog.String("error", err.Msg))
			}
			s.log.LogAttrs(r.Context(), slog.LevelDebug, "request", attrs...)
		}
	})
}

func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, rt route, allowed []string, rec *record) *Error {
	if rt.methods == nil {
		return errorf(http.StatusNotFound, kindNotFound, 0, "", "no such route: %s %s (see GET /v1/models)", r.Method, quote.Name(r.URL.Path))
	}
	h, ok := rt.methods[r.Method]
	if !ok && r.Method == http.MethodHead {
		h, ok = rt.methods[http.MethodGet]
	}
	if !ok {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		return errorf(http.StatusMethodNotAllowed, kindMethod, 0, "", "method %s is not allowed on %s (allowed: %s)", r.Method, rt.pattern, strings.Join(allowed, ", "))
	}
	if rt.limited {
		// The body is read before a slot is taken: a client sending it
		// slowly (1 byte a second) held a slot for the whole read, so a
		// few of them kept everyone else at 503. The read is bounded by
		// MaxBody here and by the connection's ReadTimeout.
		if r.Body != nil && r.Body != http.NoBody {
			b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opt.MaxBody))
			r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errBody{err}))
		}
		select {
		case s.sem <- struct{}{}:
			defer func() { <-s.sem }()
		default:
			w.Header().Set("Retry-After", "1")
			return errorf(http.StatusServiceUnavailable, kindOverloaded, 0, "", "the server is answering %d requests, its limit; retry shortly", cap(s.sem))
		}
	}
	return h(w, r, rec)
}

// errBody ends a body read in advance with the error its read met (nil:
// the end of the body).
type errBody struct{ err error }

func (e errBody) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

func (s *Server) writeError(w http.ResponseWriter, e *Error) {
	s.metrics.errors.WithLabelValues(e.Kind).Inc()
	if e.Status >= 500 && e.Status != http.StatusServiceUnavailable {
		s.log.Error("request failed", "error", e.Msg)
	}
	writeJSON(w, e.Status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// slotOf finds the model of a request.
func (s *Server) slotOf(name string) (*slot, *Error) {
	sl, ok := s.models[name]
	if !ok {
		return nil, errorf(http.StatusNotFound, kindUnknownModel, 0, "", "unknown model %s (serving %s)", quote.Name(name), quoteList(s.names))
	}
	return sl, nil
}

func (s *Server) predictDefault(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	if len(s.names) > 1 {
		return errorf(http.StatusBadRequest, kindModelRequired, 0, "", "%d models are served (%s): POST /v1/models/{name}/predict", len(s.names), quoteList(s.names))
	}
	return s.predict(w, r, s.models[s.names[0]], rec)
}

func (s *Server) predictNamed(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	sl, err := s.slotOf(r.PathValue("name"))
	if err != nil {
		return err
	}
	return s.predict(w, r, sl, rec)
}

// Prediction is the answer for one row.
type Prediction struct {
	// Score is the model's probability of the positive class: calibrated
	// when the model has a calibration (PredictResponse.Scores says).
	Score float64 `json:"score"`
	// Label is the predicted class, in the label values of the training
	// data: the positive one when Score >= the threshold.
	Label string `json:"label"`
	// Positive says whether Label is the positive class.
	Positive bool `json:"positive"`
	// ID is the row's value of the model's id column (aer fit --id), as
	// the request sent it (a string, or a number in JSON), when it did.
	ID any `json:"id,omitempty"`
	// Unseen lists the categorical columns whose value in the row the
	// model did not see in training (encoded as all zeros, as aer predict
	// does); omitted when none.
	Unseen []string `json:"unseen,omitempty"`
	// Features are the row's feature attributions, when asked for
	// ("explain": true) and the model gives them.
	Features *Attributions `json:"features,omitempty"`
	// Explanation is the method's breakdown of the score, when asked for.
	Explanation learn.Explanation `json:"explanation,omitempty"`
	// Probabilities are a multi-class model's probabilities of its
	// classes (PredictResponse.Classes), in order; Score is then the
	// predicted class's and Positive is false.
	Probabilities []float64 `json:"probabilities,omitempty"`
	// ClassFeatures are a multi-class model's feature attributions of
	// each class's output, in the order of PredictResponse.Classes, when
	// asked for ("explain": true): Output = Base + the sum of the
	// features', in Space (a class's margin for gbdt, its linear score
	// for logreg, its one-vs-rest member's calibrated log-odds; the
	// probabilities are their softmax, or their sigmoids normalised),
	// as aer explain shows them.
	ClassFeatures []*aer.ClassAttributions `json:"class_features,omitempty"`
	// OOD says how far the row lies from the model's training data,
	// for a model that can tell (fitted by this version, AER by its
	// mixture, other methods by a density fitted beside them); omitted
	// otherwise.
	OOD *RowOOD `json:"ood,omitempty"`
}

// RowOOD is a row's out-of-distribution score (higher = farther from the
// training data: for AER minus the row's log-density under the majority
// class's mixture, for other methods under a mixture of the training
// rows of every class (package density); the largest float64 for a row
// of density 0) and
// whether it lies above the model's threshold
// (PredictResponse.OODThreshold), set at fit time so that about 1% of
// rows like the training data do. Flagged rows are counted in the metric
// aer_ood_rows_total.
type RowOOD struct {
	Score   float64 `json:"score"`
	Flagged bool    `json:"flagged"`
}

// Attributions are one row's feature attributions: Output = Base + the
// sum of every feature's attribution, in Space (the log-odds for boosted
// trees, logistic regression and AER's default preset, the probability
// for trees and forests), of the score (see decision.Attach for a
// calibrated model). For a model with
// categorical columns a column's attribution is the sum of its one-hot
// features' (exact, as attributions add up). aer explain shows the same
// (explain.Row).
type Attributions = explain.RowAttributions

// FeatureAttribution is one feature's (or categorical column's) value in
// the row and its attribution: a number, a categorical column's value (a
// string), or null when missing (or, for a categorical column, a value
// the model did not see).
type FeatureAttribution = explain.FeatureAttribution

// PredictResponse is the answer to a predict request.
type PredictResponse struct {
	Model         string  `json:"model"`
	Method        string  `json:"method"`
	Threshold     float64 `json:"threshold"`
	ThresholdFrom string  `json:"threshold_from"`
	// Scores says what each row's score is: "probability" (calibrated
	// on validation rows, as aer fit does by default) or "score" (the
	// method's own, uncalibrated).
	Scores string       `json:"scores"`
	Rows   []Prediction `json:"rows"`
	// Classes are a multi-class model's classes, in the order of each
	// row's probabilities; omitted for a binary model.
	Classes []string `json:"classes,omitempty"`
	// Ignored names the request's fields (JSON) or columns (CSV) that
	// the model does not use, ignored whatever they held, in the order
	// first met (aer.Predictions.Ignored for a table); omitted when none.
	// Options.StrictColumns refuses them instead.
	Ignored []string `json:"ignored,omitempty"`
	// OODThreshold is the out-of-distribution score above which a row
	// is flagged (Prediction.OOD); omitted for a model without one.
	OODThreshold *float64 `json:"ood_threshold,omitempty"`
}

func (s *Server) predict(w http.ResponseWriter, r *http.Request, sl *slot, rec *record) *Error {
	m := sl.cur.Load() // one model for the whole request, whatever reloads do
	rec.model = sl.spec.Name
	body := http.MaxBytesReader(w, r.Body, s.opt.MaxBody)
	req, err := decodeRows(body, r.Header.Get("Content-Type"), m.lay, s.opt.MaxRows, s.opt.MaxBody, s.opt.StrictColumns)
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			e = &Error{Status: http.StatusBadRequest, Kind: kindBodyRead, Msg: err.Error(), Err: err}
		}
		return e
	}
	if e := explainQuery(r, req); e != nil {
		return e
	}
	release, e := s.takeCells(w, m, req)
	if e != nil {
		return e
	}
	defer release()
	if m.saved.NumClasses() > 2 {
		return s.predictMulti(w, r, sl, rec, m, req)
	}
	var ex learn.Explainer
	if req.explain {
		ex, _ = learn.ExplainerOf(m.model)
		if ex == nil && !m.attributes {
			return errorf(http.StatusBadRequest, kindNoExplanation, 0, "", "model %s (%s) offers no per-row explanation and no feature attributions; send \"explain\": false", quote.Name(sl.spec.Name), m.saved.Header().Method)
		}
	}
	n, _ := req.x.Dims()
	rec.rows = n
	score, perr := learn.Predict(r.Context(), m.model, req.x, 1)
	if perr != nil {
		return s.scoreError(r.Context(), m, req.x, perr)
	}
	var attr *learn.Attribution
	if req.explain && m.attributes {
		if attr, perr = learn.Attribute(r.Context(), m.model, req.x, 1); perr != nil {
			if errors.Is(perr, learn.ErrData) {
				return errorf(http.StatusBadRequest, kindNotScorable, 0, "", "no feature attributions: %v", perr)
			}
			return &Error{Status: http.StatusInternalServerError, Kind: kindInternal, Err: perr, Msg: fmt.Sprintf("feature attributions failed: %v", perr)}
		}
	}
	top := req.top
	if top == 0 {
		top = defaultTop
	}
	out := PredictResponse{Model: sl.spec.Name, Method: m.saved.Header().Method, Threshold: m.threshold, ThresholdFrom: m.from, Scores: m.saved.Scores(), Rows: make([]Prediction, n), Ignored: req.unused}
	oods, oodFlagged, perr := rowsOOD(m, req.x, &out)
	if perr != nil {
		return s.scoreError(r.Context(), m, req.x, perr)
	}
	for i, p := range score {
		if oods != nil {
			out.Rows[i].OOD = &oods[i]
		}
		pos := p >= m.threshold
		c := 0
		if pos {
			c = 1
		}
		out.Rows[i] = Prediction{Score: p, Label: m.saved.Header().Schema.Classes[c], Positive: pos, OOD: out.Rows[i].OOD}
		if i < len(req.ids) {
			out.Rows[i].ID = req.ids[i]
		}
		if i < len(req.unseen) {
			out.Rows[i].Unseen = req.unseen[i]
		}
		if attr != nil {
			out.Rows[i].Features = rowAttributions(attr, i, req.x.RawRowView(i), m.lay, top)
		}
		if ex != nil {
			e, err := ex.Explain(req.x.RawRowView(i))
			if err != nil {
				return rowErrorf(kindNotScorable, i+1, "", "no explanation: %v", err)
			}
			out.Rows[i].Explanation = e
		}
	}
	s.metrics.scored(sl.spec.Name, n, len(req.unused))
	s.metrics.oodFlagged(sl.spec.Name, oodFlagged)
	writeJSON(w, http.StatusOK, out)
	return nil
}

// answerCells is the numbers an answer to rows rows of a model of
// classes classes (2 for a binary model) and features features holds,
// or computes on the way: a probability per class and row (one for a
// binary model), and when explanations are asked an attribution per
// feature and a base, per class and row. The product is taken in
// float64 so that no count overflows it.
func answerCells(rows, classes, features int, explain bool) float64 {
	out := float64(classes)
	if classes <= 2 {
		out = 1
	}
	perRow := out
	if explain {
		perRow += out * float64(features+1)
	}
	return float64(rows) * perRow
}

// takeCells admits a request by the size of its answer, before anything
// is scored: over Options.MaxCells it is refused (413, with the rows
// that would fit), and while the requests being answered hold
// Options.MaxCellsInFlight it waits its turn (503, Retry-After). release
// gives the cells back.
func (s *Server) takeCells(w http.ResponseWriter, m *loaded, req *request) (release func(), e *Error) {
	rows, features := req.x.Dims()
	classes := max(m.saved.NumClasses(), 2)
	cells := answerCells(rows, classes, features, req.explain)
	if cells > float64(s.opt.MaxCells) {
		fit := int(float64(s.opt.MaxCells) / answerCells(1, classes, features, req.explain))
		what := fmt.Sprintf("%d classes", classes)
		if classes == 2 {
			what = "a binary model"
		}
		if req.explain {
			what += fmt.Sprintf(" with explanations of %d features", features)
		}
		return nil, errorf(http.StatusRequestEntityTooLarge, kindAnswerTooLarge, 0, "",
			"the answer to %d rows (%s) would hold %.0f numbers, over this server's limit of %d (--max-cells); send at most %d rows per request", rows, what, cells, s.opt.MaxCells, fit)
	}
	n := int64(cells)
	for {
		cur := s.cells.Load()
		if cur+n > s.opt.MaxCellsInFlight {
			w.Header().Set("Retry-After", "1")
			return nil, errorf(http.StatusServiceUnavailable, kindOverloaded, 0, "",
				"the server is computing answers of %d numbers, and this one's %d would pass its limit of %d; retry shortly", cur, n, s.opt.MaxCellsInFlight)
		}
		if s.cells.CompareAndSwap(cur, cur+n) {
			return func() { s.cells.Add(-n) }, nil
		}
	}
}

// explainQuery reads "explain" and "top" from the URL's query, which is
// how a CSV body asks for explanations (?explain=true&top=5).
func explainQuery(r *http.Request, req *request) *Error {
	q := r.URL.Query()
	if v := q.Get("explain"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errorf(http.StatusBadRequest, kindBadQuery, 0, "explain", "query parameter explain=%s: want true or false", quote.Name(v))
		}
		req.explain = req.explain || b
	}
	if v := q.Get("top"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			return errorf(http.StatusBadRequest, kindBadQuery, 0, "top", "query parameter top=%s: want a whole number of at least 1", quote.Name(v))
		}
		if req.top == 0 {
			req.top = k
		}
	}
	return nil
}

// rowAttributions is row i of a (whose feature values are x), per column
// of l (a categorical column's one-hot attributions summed), the top
// largest by absolute value.
func rowAttributions(a *learn.Attribution, i int, x []float64, l *layout, top int) *Attributions {
	return explain.Row(a, i, x, l.attrCols, top)
}

// scoreError explains why scoring failed: a row the model cannot score
// (a missing value a method without imputation meets, a NaN score) is
// the request's fault and named; anything else is the server's.
func (s *Server) scoreError(ctx context.Context, m *loaded, x *mat.Dense, err error) *Error {
	if ctx.Err() != nil {
		return &Error{Status: http.StatusServiceUnavailable, Kind: kindShuttingDown, Err: err, Msg: "the request was cancelled"}
	}
	// Score row by row to find the first bad one: only on this error
	// path, and the batch is bounded.
	n, c := x.Dims()
	dst := make([]float64, 1)
	for i := range n {
		p, rerr := m.model.PositiveProba(x.Slice(i, i+1, 0, c).(*mat.Dense), dst)
		switch {
		case rerr != nil && errors.Is(rerr, learn.ErrData):
			return rowErrorf(kindNotScorable, i+1, "", "the %s model cannot score this row (a missing value it cannot handle?): %v", m.saved.Header().Method, rerr)
		case rerr != nil:
			break
		case len(p) == 1 && math.IsNaN(p[0]):
			return rowErrorf(kindNotScorable, i+1, "", "the %s model gives a NaN score for this row (a missing value it cannot handle?)", m.saved.Header().Method)
		}
	}
	return &Error{Status: http.StatusInternalServerError, Kind: kindInternal, Err: err, Msg: fmt.Sprintf("scoring failed: %v", err)}
}

func (s *Server) listModels(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	infos := make([]ModelInfo, len(s.names))
	for i, n := range s.names {
		infos[i] = s.models[n].info()
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": infos})
	return nil
}

func (s *Server) modelInfo(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	sl, err := s.slotOf(r.PathValue("name"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sl.info())
	return nil
}

func (s *Server) reload(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	sl, e := s.slotOf(r.PathValue("name"))
	if e != nil {
		return e
	}
	if r.Body != nil {
		io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, 1<<10))
	}
	if err := s.reloadSlot(sl); err != nil {
		return &Error{Status: http.StatusInternalServerError, Kind: kindReload, Err: err,
			Msg: fmt.Sprintf("reloading model %s failed; the old model keeps serving: %v", quote.Name(sl.spec.Name), err)}
	}
	writeJSON(w, http.StatusOK, sl.info())
	return nil
}

// Reload reloads model name from its file. When the file cannot be
// loaded the model in service stays, and the error says why.
func (s *Server) Reload(name string) error {
	sl, ok := s.models[name]
	if !ok {
		return fmt.Errorf("serve: unknown model %s", quote.Name(name))
	}
	return s.reloadSlot(sl)
}

// ReloadAll reloads every model (on SIGHUP); a model whose file cannot
// be loaded keeps serving its old version. The error joins the failures.
func (s *Server) ReloadAll() error {
	var errs []error
	for _, n := range s.names {
		errs = append(errs, s.reloadSlot(s.models[n]))
	}
	return errors.Join(errs...)
}

func (s *Server) reloadSlot(sl *slot) error {
	if sl.spec.Model != nil {
		return fmt.Errorf("serve: model %s: %w", quote.Name(sl.spec.Name), ErrInMemory)
	}
	m, err := load(sl.spec)
	if err != nil {
		s.metrics.reloads.WithLabelValues(sl.spec.Name, "failed").Inc()
		s.log.Error("model reload failed; the old model keeps serving", "model", sl.spec.Name, "file", sl.spec.Path, "error", err)
		return fmt.Errorf("serve: model %s: %w", quote.Name(sl.spec.Name), err)
	}
	old := sl.cur.Swap(m)
	s.metrics.reloads.WithLabelValues(sl.spec.Name, "ok").Inc()
	s.log.Info("model reloaded", "model", sl.spec.Name, "file", sl.spec.Path, "method", m.saved.Header().Method,
		"checksum", m.saved.Checksum(), "changed", old.saved.Checksum() != m.saved.Checksum())
	return nil
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	if s.closing.Load() {
		return errorf(http.StatusServiceUnavailable, kindShuttingDown, 0, "", "shutting down")
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ready", "models": s.names})
	return nil
}

func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request, rec *record) *Error {
	promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}).ServeHTTP(w, r)
	return nil
}

// rowsOOD scores the rows x for being out of distribution when m has a
// score (aer.Model.OOD), setting out's threshold, and returns each
// row's score and flag and the count flagged; nil without a score.
func rowsOOD(m *loaded, x *mat.Dense, out *PredictResponse) ([]RowOOD, int, error) {
	o, ok := m.saved.OOD()
	if !ok {
		return nil, 0, nil
	}
	ood, err := o.OODScore(x, nil)
	if err != nil {
		return nil, 0, err
	}
	t, _ := o.OODThreshold()
	out.OODThreshold = &t
	rows, flagged := make([]RowOOD, len(ood)), 0
	for i, v := range ood {
		rows[i] = RowOOD{Score: min(v, math.MaxFloat64), Flagged: v > t} // JSON has no infinity
		if rows[i].Flagged {
			flagged++
		}
	}
	return rows, flagged, nil
}

// predictMulti answers a multi-class model's request: per row the class
// its decision picks, that class's probability, and every class's.
func (s *Server) predictMulti(w http.ResponseWriter, r *http.Request, sl *slot, rec *record, m *loaded, req *request) *Error {
	n, _ := req.x.Dims()
	rec.rows = n
	if err := r.Context().Err(); err != nil {
		return &Error{Status: http.StatusServiceUnavailable, Kind: kindShuttingDown, Err: err, Msg: "the request was cancelled"}
	}
	proba, err := m.saved.Learned().PredictProba(req.x, nil)
	if err != nil {
		if errors.Is(err, learn.ErrData) {
			return errorf(http.StatusBadRequest, kindNotScorable, 0, "", "the %s model cannot score these rows: %v", m.saved.Header().Method, err)
		}
		return &Error{Status: http.StatusInternalServerError, Kind: kindInternal, Err: err, Msg: fmt.Sprintf("scoring failed: %v", err)}
	}
	var attr []*learn.Attribution
	if req.explain {
		if attr, err = learn.AttributeClasses(r.Context(), m.saved.Learned(), req.x, 1); err != nil {
			return multiAttributionError(sl, m, err)
		}
	}
	classes := m.saved.Classes()
	k := len(classes)
	pred := make([]int, n)
	m.saved.Layer().Predict(proba, pred)
	out := PredictResponse{Model: sl.spec.Name, Method: m.saved.Header().Method, ThresholdFrom: m.saved.Layer().Rule,
		Scores: "probability", Rows: make([]Prediction, n), Classes: classes, Ignored: req.unused}
	oods, oodFlagged, err := rowsOOD(m, req.x, &out)
	if err != nil {
		if errors.Is(err, learn.ErrData) {
			return errorf(http.StatusBadRequest, kindNotScorable, 0, "", "the %s model cannot score these rows: %v", m.saved.Header().Method, err)
		}
		return &Error{Status: http.StatusInternalServerError, Kind: kindInternal, Err: err, Msg: fmt.Sprintf("out-of-distribution scores failed: %v", err)}
	}
	for i := range n {
		row := proba[i*k : (i+1)*k]
		out.Rows[i] = Prediction{Score: row[pred[i]], Label: classes[pred[i]], Probabilities: row}
		if oods != nil {
			out.Rows[i].OOD = &oods[i]
		}
		for c, a := range attr {
			out.Rows[i].ClassFeatures = append(out.Rows[i].ClassFeatures,
				&aer.ClassAttributions{Class: classes[c], RowAttributions: rowAttributions(a, i, req.x.RawRowView(i), m.lay, cmp.Or(req.top, defaultTop))})
		}
		if i < len(req.ids) {
			out.Rows[i].ID = req.ids[i]
		}
		if i < len(req.unseen) {
			out.Rows[i].Unseen = req.unseen[i]
		}
	}
	s.metrics.scored(sl.spec.Name, n, len(req.unused))
	s.metrics.oodFlagged(sl.spec.Name, oodFlagged)
	writeJSON(w, http.StatusOK, out)
	return nil
}

// multiAttributionError is the answer to "explain": true for a
// multi-class model whose per-class attributions failed: the model
// offers none (a one-vs-one model, members without them), the rows
// cannot be attributed, or an internal error.
func multiAttributionError(sl *slot, m *loaded, err error) *Error {
	switch {
	case errors.Is(err, learn.ErrNoAttribution):
		return errorf(http.StatusBadRequest, kindNoExplanation, 0, "", "model %s (%s, multi-class %s) offers no feature attributions: %v; send \"explain\": false", quote.Name(sl.spec.Name), m.saved.Header().Method, m.saved.Header().Multiclass, err)
	case errors.Is(err, learn.ErrData):
		return errorf(http.StatusBadRequest, kindNotScorable, 0, "", "no feature attributions: %v", err)
	}
	return &Error{Status: http.StatusInternalServerError, Kind: kindInternal, Err: err, Msg: fmt.Sprintf("feature attributions failed: %v", err)}
}
