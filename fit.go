package aer

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/adaptive"
	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/decision"
	"github.com/aer-go/aer/density"
	"github.com/aer-go/aer/learn"
	_ "github.com/aer-go/aer/methods" // every method registered, as aer fit has them
	"github.com/aer-go/aer/modelfile"
	"github.com/aer-go/aer/pipeline"
	"github.com/aer-go/aer/search"
)

// Version is the version of aer written into model files (their
// producer) and printed by aer version.
const Version = "0.1.0-dev"

// Settings say how Fit fits: what is fitted (Spec: the method's
// parameters as text, a grid search, the decision, the decomposition of
// three or more classes; the model file's configuration records it) and
// how this run goes (Env: the seed, workers, progress, logger and memory
// hooks, never saved in the model). The zero value (and a nil
// *Settings) fits the method as configured with seed 0 on every core
// and, given validation rows, fits a decision (a calibrated threshold
// for balanced accuracy of two classes, the Bayes class weights of more)
// for any model without one of its own.
type Settings struct {
	Spec
	Env
	// NoOODDensity fits no out-of-distribution density (aer fit
	// --ood-density=false). By default a model without a score of its
	// own (every method but binary AER) gets one (package density): a
	// Gaussian mixture of at most density.DefaultRows training rows of
	// every class, drawn with the seed, its threshold set on the
	// validation rows, or without them on training rows held out of the
	// mixture's sample; Model.OOD, aer predict --ood and aer serve use it.
	NoOODDensity bool
}

// Spec is what a fit fits (Settings.Spec): Params set the method's
// parameters as key=value, as aer fit --param does (on a copy: Fit never
// changes the method it is given); Grid are grid axes, key=v1,v2 or
// "paper" (aer fit --grid); Decision is how the decision is fitted on
// the validation rows (its Objective.Matrix the cost matrix of three or
// more classes, aer fit --cost-matrix); Decomposition is Native,
// OneVsRest or OneVsOne ("" the method's default) for three or more
// classes.
type Spec = pipeline.Spec

// Env is how a fit runs (Settings.Env): Seed drives every random choice
// (the same seed and data give a byte-identical model file on any number
// of Workers, 0 meaning every core); Progress and Logger, when not nil,
// are told as the fit advances; ConsumeTrain lets the method overwrite
// the training table's features in place (the table must not be used
// after); MemoryPlan is told the memory the rest of the fit needs.
type Env = learn.Env

// Method returns a fresh registered method by name ("aer", "gbdt",
// "logreg", ...; aer help fit lists them), its parameters at their
// defaults. Fit takes it, or any learn.Method value.
func Method(name string) (learn.Method, error) { return learn.New(name) }

// DefaultMethod is the method Fit fits when given none: AER with its
// default preset.
func DefaultMethod() learn.Method { return adaptive.NewMethod() }

// DefaultMethodName is DefaultMethod's registered name, aer fit's
// default --method.
const DefaultMethodName = "aer"

// Fit fits method on the training table and returns the model, ready to
// score tables and to be saved as the file aer fit writes. It runs the
// one fit protocol of aer fit, aer cv and aer bench (package pipeline):
// the method with s.Params, a grid search when s.Grid is set, and the
// decision layer: fitted on the validation rows, or without them on the
// rows the method holds out for its own tuning (AER) or on the
// out-of-fold scores of the training rows (every other method, at the
// cost of 5 more fits; decision.Layered.FitLayer). Settings.Decision's
// CrossFit -1 keeps a model without validation rows as the method left
// it. A nil method means DefaultMethod,
// a nil s the zero Settings. valid, when not nil, is scored by column
// name against train's columns (any order, extra columns ignored, its
// categories mapped by value) and may be used by the method for tuning
// (AER's lambda and delta, early stopping). Fit stops with ctx's error
// when ctx is cancelled.
func Fit(ctx context.Context, train, valid *Table, s *Settings, method learn.Method) (*Model, error) {
	if s == nil {
		s = &Settings{}
	}
	if train == nil || !train.Labelled() {
		return nil, fmt.Errorf("%w: the training table has no label", learn.ErrData)
	}
	schema := train.Schema()
	k := schema.NumClasses()
	p := s.Spec.Plan(orDefault(method))
	if err := p.Decision.CheckClasses(k); err != nil {
		return nil, err
	}
	tr := &learn.Data{X: train.d.X, Y: train.d.Y, W: train.d.W, Features: train.d.Features}
	va, err := validData(train, valid)
	if err != nil {
		return nil, err
	}
	if k == 2 && va == nil && s.Grid != nil {
		return nil, fmt.Errorf("%w: a grid search needs validation rows", learn.ErrParam)
	}
	summary := &TrainSummary{Rows: train.Rows(), MissingCells: train.d.Missing()}
	if k == 2 {
		summary.Positives = train.ClassCounts()[1]
	}
	if va != nil {
		summary.ValidRows = va.Rows()
		if k == 2 {
			summary.ValidPositives = valid.ClassCounts()[1]
		}
	}
	start := time.Now()
	var sample *density.Sample
	ds := &density.Settings{Seed: s.Seed, Workers: s.Workers}
	if !s.NoOODDensity {
		// Drawn before the fit, which may overwrite the training rows
		// (Env.ConsumeTrain).
		sample = density.Draw(tr.X, va == nil, ds)
	}
	f, err := p.Fit(ctx, tr, va, k, s.Env)
	if err != nil {
		return nil, err
	}
	dens, warning, err := fitDensity(ctx, f.Model, sample, va, ds)
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted after the fit: no model
	}
	m, err := newFitted(f, schema, s.Seed, summary, elapsed, dens)
	if err == nil && warning != "" {
		m.report.Warnings = append(m.report.Warnings, warning)
	}
	return m, err
}

// fitDensity fits the out-of-distribution density of a model without a
// score of its own on sample (nil: none asked for), its threshold on
// va's rows when given. A density that cannot be fitted (a feature too
// large to standardise) leaves the model without one and a warning.
func fitDensity(ctx context.Context, model learn.Model, sample *density.Sample, va *learn.Data, s *density.Settings) (*density.Model, string, error) {
	if sample == nil {
		return nil, "", nil
	}
	if _, own := learn.OODOf(model); own {
		return nil, "", nil
	}
	var vx *mat.Dense
	if va != nil {
		vx = va.X
	}
	d, err := sample.Fit(ctx, vx, s)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, fmt.Sprintf("no out-of-distribution density: %v", err), nil
	}
	return d, "", nil
}

// validData returns the validation table's rows with train's features,
// in train's order, and labels in train's classes.
func validData(train, valid *Table) (*learn.Data, error) {
	if valid == nil {
		return nil, nil
	}
	return encodeValid(train.Schema(), valid)
}

// encodeValid returns the validation table's rows encoded by schema.
func encodeValid(schema dataset.Schema, valid *Table) (*learn.Data, error) {
	if !valid.Labelled() {
		return nil, fmt.Errorf("%w: the validation table has no label", learn.ErrData)
	}
	e, err := valid.d.Encode(&schema)
	if err != nil {
		return nil, fmt.Errorf("validation data: %w", err)
	}
	if e.Y == nil {
		return nil, fmt.Errorf("%w: validation data: its classes %q and %q are not the training data's %q and %q",
			learn.ErrData, valid.d.Classes[0], valid.d.Classes[1], schema.Classes[0], schema.Classes[1])
	}
	if schema.Weight != "" && valid.d.W == nil {
		return nil, fmt.Errorf("%w: validation data has no weight column %q", learn.ErrData, schema.Weight)
	}
	var w []float64
	if schema.Weight != "" {
		w = valid.d.W
	}
	return &learn.Data{X: e.X, Y: e.Y, W: w, Features: schema.Features}, nil
}

// TrainSummary describes the training (and validation) rows of a fit,
// as a model file records them (no file name: the same data read from
// another file gives the same model file).
type TrainSummary struct {
	Rows           int `json:"rows"`
	Positives      int `json:"positives"`
	MissingCells   int `json:"missing_cells"`
	ValidRows      int `json:"valid_rows,omitempty"`
	ValidPositives int `json:"valid_positives,omitempty"`
}

// FitConfig is the fit configuration a model file's header holds: the
// seed, every parameter of the method as fitted, and the training data's
// summary.
type FitConfig struct {
	Seed   uint64            `json:"seed"`
	Params map[string]string `json:"params"`
	// Train is absent in files written before it was added.
	Train *TrainSummary `json:"train,omitempty"`
}

// FitReport is what a fit found, beside the model: the grid search's
// outcome, the decision layer, the method's own summary and the time.
type FitReport struct {
	// Search is the grid search's outcome (every point, the chosen one);
	// nil without a grid.
	Search *search.Outcome
	// Layer is the decision layer fitted on the validation rows; nil
	// without one.
	Layer *decision.Layer
	// Summary is the method's report of its fit (learn.Summarizer), for
	// JSON; nil when it has none.
	Summary any
	// Warnings are what the method's fit found that the user should know
	// (learn.Warner: AER's mixture at an edge of its pool of L, or with
	// collapsed components), as aer fit prints them; nil when none. They
	// are not saved in the model file.
	Warnings []string
	// Seconds is the fit's wall time, reading excluded.
	Seconds float64
}

// newFitted builds the model of a finished fit.
func newFitted(f *pipeline.Fitted, schema dataset.Schema, seed uint64, ts *TrainSummary, elapsed time.Duration, dens *density.Model) (*Model, error) {
	cfg, err := json.Marshal(FitConfig{Seed: seed, Params: learn.ParamMap(f.Method.Params()), Train: ts})
	if err != nil {
		return nil, err
	}
	var layerJSON []byte
	if f.Layer != nil {
		if layerJSON, err = json.Marshal(f.Layer); err != nil {
			return nil, err
		}
	}
	h := &modelfile.Header{Method: f.Method.Name(), Schema: schema, Config: cfg, Decision: layerJSON, Producer: "aer " + Version, Multiclass: f.Strategy}
	m := &Model{header: h, model: f.Model, layer: f.Layer,
		report: &FitReport{Search: f.Search, Seconds: elapsed.Seconds()}}
	if dens != nil {
		if err := m.attachDensity(dens); err != nil {
			return nil, err
		}
	}
	if f.Model.NumClasses() == 2 {
		m.report.Layer = f.Layer
		m.report.Summary = learn.SummaryOf(f.Model)
		m.report.Warnings = learn.WarningsOf(f.Model)
	}
	return m, nil
}

// orDefault is method, or DefaultMethod when nil.
func orDefault(method learn.Method) learn.Method {
	if method == nil {
		return DefaultMethod()
	}
	return method
}

// attachDensity gives m the out-of-distribution density d: in its
// header, and, of two classes, in its chain between the decision layer
// and the method's model, where a loaded file has it (ReadModel).
func (m *Model) attachDensity(d *density.Model) error {
	b, err := d.Encode()
	if err != nil {
		return err
	}
	m.header.OOD, m.density = b, d
	if s := m.scorer(); s != nil {
		inner := decision.Detach(s)
		m.model = density.Wrap(inner, d)
		if inner != s {
			m.model = decision.Attach(density.Wrap(inner, d), decision.LayerOf(s))
		}
	}
	return nil
}

// FitDensity returns a copy of the model with an out-of-distribution
// density (package density) fitted on the rows of t (their features,
// read by column name as Predict reads them; labels not needed), its
// threshold set on valid's rows when valid is not nil, else on rows of t
// held out of the mixture's sample: for a model whose training rows Fit
// did not see, such as an imported one (Import), or one fitted with
// Settings.NoOODDensity. A model that already has an out-of-distribution
// score (Model.OOD) is refused with learn.ErrParam. m is left as it is.
func (m *Model) FitDensity(ctx context.Context, t, valid *Table, s *density.Settings) (*Model, error) {
	if err := m.usable(); err != nil {
		return nil, err
	}
	if _, ok := m.OOD(); ok {
		return nil, fmt.Errorf("%w: the %s model already has an out-of-distribution score", learn.ErrParam, m.Method())
	}
	e, err := m.encode(t)
	if err != nil {
		return nil, err
	}
	var vx *mat.Dense
	if valid != nil {
		v, err := m.encode(valid)
		if err != nil {
			return nil, fmt.Errorf("validation rows: %w", err)
		}
		vx = v.X
	}
	d, err := density.Fit(ctx, e.X, vx, s)
	if err != nil {
		return nil, err
	}
	h := *m.header
	out := &Model{header: &h, model: m.model, layer: m.layer, report: m.report}
	if err := out.attachDensity(d); err != nil {
		return nil, err
	}
	return out, nil
}
