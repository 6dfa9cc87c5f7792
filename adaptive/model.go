package adaptive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/ensemble"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

// Model is a fitted AER model of two classes. It is safe for concurrent
// use by several goroutines once fitted or loaded. Its parts, in the
// order the score uses them, are read through its methods.
type Model struct {
	core
	// members are the members in the order of the combiner's weights
	// (see Members).
	members []Member
	// combiner holds the static weights, the dynamic rule, lambda and
	// delta.
	combiner ensemble.Combiner

	report *Report // the fit's report; nil for a loaded model
	// held are the held-out rows' scores of a fit without validation
	// data; nil otherwise and for a loaded model.
	held *heldOut
	// ood is the out-of-distribution threshold; nil for a model file
	// written before it existed.
	ood *oodInfo
	// quant says how the members were quantised (quantize.go); nil: they
	// were not.
	quant *learn.Quantization
}

// OODAlpha is the share of the validation rows (given, or held out of
// the training data) whose out-of-distribution score lies above the
// threshold a fit sets (OODThreshold): the rate at which ordinary rows
// are flagged.
const OODAlpha = 0.01

// oodInfo is the out-of-distribution threshold a fit set: the (1 -
// Alpha) quantile of the OOD scores of Rows validation rows.
type oodInfo struct {
	Alpha     float64 `json:"alpha"`
	Threshold float64 `json:"threshold"`
	Rows      int     `json:"rows"`
}

// OODScore writes each row's out-of-distribution score into dst (when
// long enough) and returns it: minus the row's log-density under the
// majority-class mixture (Mixture) on the imputed, standardised features.
// Higher is farther from the training data. The density is the majority
// class's alone: minority rows unlike any majority row score high too,
// and the threshold, set on validation rows of both classes, allows for
// them (OODThreshold). It is learn.OODScorer.
func (m *Model) OODScore(x *mat.Dense, dst []float64) ([]float64, error) {
	if err := m.checkInput(x); err != nil {
		return nil, err
	}
	ll, err := m.mixture.ScoreSamples(m.prepare(x), dst)
	if err != nil {
		return nil, fmt.Errorf("aer: out-of-distribution score: %w", err)
	}
	for i, v := range ll {
		ll[i] = -v
	}
	return ll, nil
}

// OODThreshold returns the out-of-distribution score above which a row
// is flagged: the (1 - OODAlpha) quantile of the validation rows' scores
// at fit time, so that about OODAlpha of rows like the training data are
// flagged. It is false for a model file written before models had one.
func (m *Model) OODThreshold() (float64, bool) {
	if m.ood == nil {
		return 0, false
	}
	return m.ood.Threshold, true
}

// oodThreshold returns the threshold above which a share alpha of scores
// lies: the smallest score with at most alpha of them above it.
func oodThreshold(scores []float64, alpha float64) float64 {
	s := slices.Clone(scores)
	slices.Sort(s)
	k := int(math.Ceil((1-alpha)*float64(len(s)))) - 1
	return s[min(max(k, 0), len(s)-1)]
}

// heldOut are labels, scores and weights of held-out rows.
type heldOut struct {
	y        []int
	score, w []float64
	folds    int
}

// HeldOutFolds is the number of folds the held-out scores were scored
// out of (Config.CrossTune: every training row's), 0 for one held-out
// share of the rows (learn.FoldHeldOuter).
func (m *Model) HeldOutFolds() int {
	if m.held == nil {
		return 0
	}
	return m.held.folds
}

// HeldOut returns the labels, scores and weights of the training rows
// the model tuned on, scored by members that had not seen them
// (learn.HeldOuter): the held-out share of a fit without validation
// data, or every training row's out-of-fold score of a cross-tuned fit
// (Config.CrossTune, with or without validation data); nil for a model
// fitted on validation data alone or read from a file.
func (m *Model) HeldOut() (y []int, score, w []float64) {
	if m.held == nil {
		return nil, nil, nil
	}
	return m.held.y, m.held.score, m.held.w
}

// core is what both AER models hold beside their members and their
// combination: the input preparation, the mixture and the configuration.
type core struct {
	// means imputes missing values (training means, raw scale).
	means []float64
	// scaler standardises features; nil when Config.NoStandardize.
	scaler *dataset.Scaler
	// mixture is the Gaussian mixture (of the majority class, or of
	// every class's rows for k classes).
	mixture *mixture.Model
	// config is the configuration the model was fitted with, resolved.
	config Config
}

// Config returns the configuration the model was fitted with, every
// default filled in.
func (m *core) Config() Config { return m.config }

// Mixture returns the Gaussian mixture, on the imputed, standardised
// features. The caller must not modify it.
func (m *core) Mixture() *mixture.Model { return m.mixture }

// Means returns a copy of the training means that impute missing values
// (raw scale), one per feature.
func (m *core) Means() []float64 { return slices.Clone(m.means) }

// Scaler returns a copy of the standardisation applied after imputation,
// nil when Config.NoStandardize.
func (m *core) Scaler() *dataset.Scaler {
	if m.scaler == nil {
		return nil
	}
	return &dataset.Scaler{Mean: slices.Clone(m.scaler.Mean), Scale: slices.Clone(m.scaler.Scale)}
}

// NumFeatures returns the number of input features.
func (m *core) NumFeatures() int { return len(m.means) }

// prepare returns an imputed, standardised copy of x.
func (m *core) prepare(x *mat.Dense) *mat.Dense {
	xt := mat.DenseCopyOf(x)
	dataset.Impute(xt, m.means)
	if m.scaler != nil {
		m.scaler.Transform(xt)
	}
	return xt
}

func (m *core) checkInput(x *mat.Dense) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("aer: %w: no rows to predict", learn.ErrData)
	}
	_, c := x.Dims()
	if c != m.NumFeatures() {
		return fmt.Errorf("aer: %w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	return nil
}

// fitInputs sets the means and (with standardize) the scaler from the
// training features x (names: features) and returns them imputed and
// standardised: in x itself when inPlace, else in a copy.
func (m *core) fitInputs(x *mat.Dense, features []string, inPlace, standardize bool) (*mat.Dense, error) {
	m.means = dataset.ColumnMeans(x)
	xt := x
	if !inPlace {
		xt = mat.DenseCopyOf(x)
	}
	dataset.Impute(xt, m.means)
	if standardize {
		m.scaler = dataset.FitScaler(xt)
		if err := m.scaler.Check(features); err != nil {
			return nil, fmt.Errorf("aer: %w: training data: %v", learn.ErrData, err)
		}
		m.scaler.Transform(xt)
	}
	return xt, nil
}

// check checks that loaded parts fit together and that members have
// one static weight each.
func (m *core) check(members, static int) error {
	if m.mixture.Dim() != len(m.means) {
		return fmt.Errorf("aer: mixture has %d features, the model %d", m.mixture.Dim(), len(m.means))
	}
	if m.scaler != nil && (len(m.scaler.Mean) != len(m.means) || len(m.scaler.Scale) != len(m.means)) {
		return errors.New("aer: scaler does not match the number of features")
	}
	if static != members {
		return fmt.Errorf("aer: %d members and %d static weights", members, static)
	}
	return nil
}

// summary is a fit's report as a Summary, nil (untyped) for none.
func summary[R any](r *R) any {
	if r == nil {
		return nil
	}
	return r
}

// encodeJSON encodes a model's serialised form e.
func encodeJSON(e any) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(e); err != nil {
		return nil, fmt.Errorf("aer: encoding model: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeJSON decodes b, a model's serialised form, into e, and checks
// that its format (the field format points to) is want; what names the
// model in errors.
func decodeJSON(b []byte, e any, format *string, want, what string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(e); err != nil {
		return fmt.Errorf("aer: decoding %s: %w", what, err)
	}
	if *format != want {
		return fmt.Errorf("aer: %s format %q, this build reads %q", what, *format, want)
	}
	return nil
}

// payloads encodes the models of n members (model gives member j's).
func payloads(n int, model func(j int) learn.Model) ([][]byte, error) {
	out := make([][]byte, n)
	for j := range out {
		b, err := model(j).MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("aer: member %d: %w", j, err)
		}
		out[j] = b
	}
	return out, nil
}

// Members returns the members in the order of the combiner's weights:
// per member setting kept (every setting when pooled), its 2L subset
// members (member 2l trained on the global subset of component l, member
// 2l+1 on its local subset) and its member on all rows (Config.Global);
// then the peers. The members' models must not be modified.
func (m *Model) Members() []Member { return slices.Clone(m.members) }

// Combiner returns the combination of the members' outputs: static
// weights, dynamic rule, lambda and delta. Its slices must not be
// modified.
func (m *Model) Combiner() ensemble.Combiner { return m.combiner }

// Member is one fitted member and the registered method that fitted it
// (and loads it back).
type Member struct {
	// Method is the name the member's method is registered under.
	Method string
	// Model is the fitted member.
	Model learn.Scorer
	// Name says what the member was trained on ("global 2", "local 2",
	// "all rows", with the member setting when several are pooled).
	Name string
}

// Diagnostics counts rows whose dynamic weights needed special handling
// (the literal log rule's fallback to exp, underflowed densities).
type Diagnostics = ensemble.DynamicDiag

// Score returns the ensemble score w*.f(x) in [0, 1] of every row of x
// (raw features, NaN = missing), with diagnostics of the dynamic weights.
// Members predict in parallel, workers at a time (0: GOMAXPROCS).
func (m *Model) Score(x *mat.Dense, workers int) ([]float64, Diagnostics, error) {
	if err := m.checkInput(x); err != nil {
		return nil, Diagnostics{}, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return m.scorePrepared(m.prepare(x), workers)
}

// PositiveProba writes the score of every row of x into dst (allocated when
// too short), on one goroutine: the learn.Model contract.
func (m *Model) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	s, _, err := m.Score(x, 1)
	if err != nil {
		return nil, err
	}
	if len(dst) < len(s) {
		return s, nil
	}
	return dst[:copy(dst, s)], nil
}

// Predict returns the class of every row: 1 when its score >= delta.
func (m *Model) Predict(x *mat.Dense) ([]int, error) {
	s, _, err := m.Score(x, 0)
	if err != nil {
		return nil, err
	}
	return m.combiner.Predict(nil, s), nil
}

// Threshold returns the tuned decision threshold delta.
func (m *Model) Threshold() float64 { return m.combiner.Delta }

// DefersThreshold reports whether delta gives way to a decision layer
// (learn.Deferrer): under DeltaBayes, the preset plus's rule, it is the
// threshold a default decision layer finds on the same validation scores,
// and the layer keeps the calibration too, so that the scores are
// probabilities. The paper's tuned delta stays.
func (m *Model) DefersThreshold() bool { return m.config.DeltaRule == DeltaBayes }

// MemberTable lists the members: component (the combiner's Owner, else
// member j of component j/2), method, name, static weight and settings:
// the member parameters of the configuration, or a peer's own
// (learn.Inspector).
func (m *Model) MemberTable() []learn.MemberInfo {
	out := make([]learn.MemberInfo, len(m.members))
	for j, mb := range m.members {
		c := j / 2
		if m.combiner.Owner != nil && j < len(m.combiner.Owner) {
			c = m.combiner.Owner[j]
		}
		w := 0.0
		if j < len(m.combiner.Static) {
			w = m.combiner.Static[j]
		}
		settings := slices.Clone(m.config.MemberParams)
		if p := j - (len(m.members) - len(m.config.Peers)); p >= 0 && m.config.Peers[p].Name() == mb.Method {
			settings = settingsOf(m.config.Peers[p]) // a peer
		}
		out[j] = learn.MemberInfo{Component: c, Method: mb.Method, Name: mb.Name, StaticWeight: w, Settings: settings}
	}
	return out
}

// Summary returns the fit's Report, or nil for a loaded model.
func (m *Model) Summary() any { return summary(m.report) }

// Warnings returns the fit's warnings (Report.Warnings; learn.Warner),
// nil for a loaded model: they are not saved.
func (m *Model) Warnings() []string {
	if m.report == nil {
		return nil
	}
	return m.report.Warnings
}

func (m *Model) scorePrepared(xt *mat.Dense, workers int) ([]float64, Diagnostics, error) {
	f, logDens, err := m.outputs(xt, workers)
	if err != nil {
		return nil, Diagnostics{}, err
	}
	return m.scoreOutputs(f, logDens, nil)
}

// outputs returns the members' outputs on the prepared rows xt (one
// column per member, members scored workers at a time) and the rows'
// component log-densities.
func (m *Model) outputs(xt *mat.Dense, workers int) (f, logDens *mat.Dense, err error) {
	if f, err = memberOutputs(m.members, xt, workers); err != nil {
		return nil, nil, err
	}
	if logDens, err = m.mixture.ComponentLogDensity(xt, nil); err != nil {
		return nil, nil, fmt.Errorf("aer: component log-densities: %w", err)
	}
	return f, logDens, nil
}

// scoreOutputs combines the members' outputs f on some rows (one column
// per member) with the rows' component log-densities into scores.
// lg, when not nil, is the logit copy of f that the fit already built.
func (m *Model) scoreOutputs(f, logDens *mat.Dense, lg *ensemble.Logits) ([]float64, Diagnostics, error) {
	s, diag, err := m.combiner.ScoreShared(nil, f, logDens, lg)
	if err != nil {
		return nil, diag, fmt.Errorf("aer: %w", err)
	}
	for i, v := range s {
		if math.IsNaN(v) {
			return nil, diag, fmt.Errorf("aer: score of row %d is NaN", i+1)
		}
	}
	return s, diag, nil
}

// Explanation breaks down the prediction of one row.
type Explanation struct {
	// Members names each member ("global 0", "local 0", ...).
	Members []string `json:"members"`
	*ensemble.Explanation
}

// Explain is Breakdown for the learn.Explainer contract.
func (m *Model) Explain(row []float64) (learn.Explanation, error) {
	e, err := m.Breakdown(row)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Breakdown breaks down the score of one row (raw features): per-component
// log-densities and likelihood weights, static weights, mixed weights, each
// member's output and contribution, the score and the prediction.
func (m *Model) Breakdown(row []float64) (*Explanation, error) {
	if len(row) != m.NumFeatures() {
		return nil, fmt.Errorf("aer: %w: row has %d features, the model %d", learn.ErrData, len(row), m.NumFeatures())
	}
	xt := m.prepare(mat.NewDense(1, len(row), append([]float64(nil), row...)))
	f, logDens, err := m.outputs(xt, 1)
	if err != nil {
		return nil, err
	}
	e, err := m.combiner.Explain(f.RawRowView(0), logDens.RawRowView(0))
	if err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	names := make([]string, len(m.members))
	for k, mb := range m.members {
		names[k] = mb.Name
		if names[k] == "" { // the default layout of 2L members
			kind := "global"
			if k%2 == 1 {
				kind = "local"
			}
			names[k] = fmt.Sprintf("%s %d", kind, k/2)
		}
	}
	return &Explanation{Members: names, Explanation: e}, nil
}

// WriteText writes the breakdown as two tables: components, then members.
func (e *Explanation) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "score %.4f, prediction %d (delta %.2f, lambda %.2f)\n", e.Score, e.Prediction, e.Delta, e.Lambda)
	fmt.Fprintf(&buf, "  %-10s %14s %10s\n", "component", "log-density", "l*")
	for l, v := range e.Component {
		fallback := ""
		if e.LogFallback {
			fallback = " (log rule fell back to exp)"
		}
		fmt.Fprintf(&buf, "  %-10d %14.3f %10.4f%s\n", l, e.LogDensity[l], v, fallback)
	}
	// The last column is each member's share of the score: w*.f(x) in
	// probability space, w*.logit f(x) in logit space, where the shares
	// sum to the score's logit.
	share := "w*.f(x)"
	if e.Space == ensemble.LogitSpace {
		share = "w*.logit f(x)"
	}
	width := len("member")
	for _, name := range e.Members {
		width = max(width, len(name))
	}
	fmt.Fprintf(&buf, "  %-*s %10s %10s %10s %10s %14s\n", width, "member", "l*", "w", "w*", "f(x)", share)
	for j, name := range e.Members {
		fmt.Fprintf(&buf, "  %-*s %10.4f %10.4f %10.4f %10.4f %14.4f\n", width, name, e.Likelihood[j], e.Static[j], e.Mixed[j], e.Member[j], e.Contribution[j])
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// encoded is the serialised form of a Model. encoding/json writes float64
// in the shortest form that parses back to the same bits, so the round trip
// is exact. Members are (method, payload) pairs loaded through the method
// registry; the model file's checksum covers them all.
type encoded struct {
	Format   string            `json:"format"`
	Means    []float64         `json:"means"`
	Scaler   *dataset.Scaler   `json:"scaler,omitempty"`
	Mixture  *mixture.Model    `json:"mixture"`
	Members  []encodedMember   `json:"members"`
	Combiner ensemble.Combiner `json:"combiner"`
	Config   Config            `json:"config"`
	OOD      *oodInfo          `json:"ood,omitempty"`
}

type encodedMember struct {
	Method  string `json:"method"`
	Name    string `json:"name,omitempty"`
	Payload []byte `json:"payload"`
}

const formatV2 = "aer-model-2"

// MarshalBinary encodes the model.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.quant != nil {
		return m.marshalQuant()
	}
	e := encoded{Format: formatV2, Means: m.means, Scaler: m.scaler, Mixture: m.mixture, Combiner: m.combiner, Config: m.config, OOD: m.ood}
	pl, err := payloads(len(m.members), func(j int) learn.Model { return m.members[j].Model })
	if err != nil {
		return nil, err
	}
	for k, mb := range m.members {
		e.Members = append(e.Members, encodedMember{Method: mb.Method, Name: mb.Name, Payload: pl[k]})
	}
	return encodeJSON(&e)
}

// Load decodes a model written by MarshalBinary and checks that its parts
// fit together. Members are loaded by the methods registered under their
// names (boosted trees are always available).
func Load(b []byte) (*Model, error) {
	if bytes.HasPrefix(b, []byte(quantMagic)) {
		return loadQuant(b)
	}
	var e encoded
	if err := decodeJSON(b, &e, &e.Format, formatV2, "model"); err != nil {
		return nil, err
	}
	return fromEncoded(&e)
}

// fromEncoded builds the model e describes, its members' payloads
// loaded.
func fromEncoded(e *encoded) (*Model, error) {
	if e.Mixture == nil || len(e.Members) == 0 {
		return nil, errors.New("aer: model lacks its mixture or members")
	}
	nm := &Model{core: core{means: e.Means, scaler: e.Scaler, mixture: e.Mixture, config: e.Config}, combiner: e.Combiner, ood: e.OOD}
	for k, em := range e.Members {
		method, err := methodByName(em.Method)
		if err != nil {
			return nil, fmt.Errorf("aer: member %d: %w", k, err)
		}
		mb, err := method.Load(em.Payload)
		if err != nil {
			return nil, fmt.Errorf("aer: member %d (%s): %w", k, em.Method, err)
		}
		if mb.NumFeatures() != len(e.Means) {
			return nil, fmt.Errorf("aer: member %d has %d features, the model %d", k, mb.NumFeatures(), len(e.Means))
		}
		nm.members = append(nm.members, Member{Method: em.Method, Model: mb, Name: em.Name})
	}
	if err := nm.check(len(nm.members), len(nm.combiner.Static)); err != nil {
		return nil, err
	}
	if err := nm.combiner.CheckLayout(len(nm.members), nm.mixture.K()); err != nil {
		return nil, fmt.Errorf("aer: %w", err)
	}
	if nm.config.Preset == "" {
		// Written before presets existed: the paper's method.
		nm.config.Preset = PresetPaper
	}
	return nm, nil
}

// NumClasses is 2: Model scores the positive class (PositiveProba).
func (m *Model) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}

// MultiModel is AER's own multi-class model (FitClasses): multi-class
// members on class-balanced subsets of the components of a Gaussian
// mixture of every class's rows, mixed per row by static and likelihood
// weights. It is safe for concurrent use once fitted or loaded.
type MultiModel struct {
	core
	k       int
	members []MultiMember
	comb    multiCombiner

	report *MultiReport // nil for a loaded model
}

// MultiMember is one multi-class member: its registered method, model,
// what it was trained on and its mixture component (-1: none, a member
// on every row or a peer).
type MultiMember struct {
	Method    string
	Model     learn.Model
	Name      string
	Component int
}

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return m.k }

// Members returns the members in the order of the static weights.
func (m *MultiModel) Members() []MultiMember { return slices.Clone(m.members) }

// Static returns a copy of the static weights.
func (m *MultiModel) Static() []float64 { return slices.Clone(m.comb.static) }

// Lambda returns the weight of the likelihood weights.
func (m *MultiModel) Lambda() float64 { return m.comb.lambda }

// Dynamic returns the rule of the likelihood weights.
func (m *MultiModel) Dynamic() ensemble.DynamicSettings { return m.comb.dynamic }

// Summary returns the fit's MultiReport, nil for a loaded model.
func (m *MultiModel) Summary() any { return summary(m.report) }

// Warnings returns the fit's warnings, nil for a loaded model.
func (m *MultiModel) Warnings() []string {
	if m.report == nil {
		return nil
	}
	return m.report.Warnings
}

// PredictProba writes the class probabilities of every row of x
// (raw features, NaN = missing) into dst, row-major, Classes() per row
// (allocated when too short), and returns it; each row sums to 1. It
// uses one goroutine (learn.MultiModel).
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	if err := m.checkInput(x); err != nil {
		return nil, err
	}
	xt := m.prepare(x)
	outs, err := multiOutputs(m.members, xt, m.k, 1)
	if err != nil {
		return nil, err
	}
	logDens, err := m.mixture.ComponentLogDensity(xt, nil)
	if err != nil {
		return nil, fmt.Errorf("aer: component log-densities: %w", err)
	}
	var dyn *mat.Dense
	if m.comb.lambda > 0 {
		if dyn, err = memberDynamic(logDens, m.comb.dynamic, m.comb.owner); err != nil {
			return nil, err
		}
	}
	return m.comb.proba(dst, outs, dyn), nil
}

// multiEncoded is the serialised form of a MultiModel (floats exact, as
// encoded's).
type multiEncoded struct {
	Format  string                   `json:"format"`
	Classes int                      `json:"classes"`
	Means   []float64                `json:"means"`
	Scaler  *dataset.Scaler          `json:"scaler,omitempty"`
	Mixture *mixture.Model           `json:"mixture"`
	Members []multiEncodedMember     `json:"members"`
	Static  []float64                `json:"static"`
	Lambda  float64                  `json:"lambda"`
	Dynamic ensemble.DynamicSettings `json:"dynamic"`
	Logit   bool                     `json:"logit"`
	Config  Config                   `json:"config"`
}

type multiEncodedMember struct {
	Method    string `json:"method"`
	Name      string `json:"name,omitempty"`
	Component int    `json:"component"`
	Payload   []byte `json:"payload"`
}

const formatMulti1 = "aer-multi-1"

// MarshalBinary encodes the model for LoadClasses.
func (m *MultiModel) MarshalBinary() ([]byte, error) {
	e := multiEncoded{Format: formatMulti1, Classes: m.k, Means: m.means, Scaler: m.scaler, Mixture: m.mixture,
		Static: m.comb.static, Lambda: m.comb.lambda, Dynamic: m.comb.dynamic, Logit: m.comb.logit, Config: m.config}
	pl, err := payloads(len(m.members), func(j int) learn.Model { return m.members[j].Model })
	if err != nil {
		return nil, err
	}
	for j, mb := range m.members {
		e.Members = append(e.Members, multiEncodedMember{Method: mb.Method, Name: mb.Name, Component: mb.Component, Payload: pl[j]})
	}
	return encodeJSON(&e)
}

// LoadClasses decodes a model written by MultiModel.MarshalBinary and
// checks that its parts fit together. Members are loaded by the methods
// registered under their names (boosted trees and logistic regression
// always are).
func LoadClasses(b []byte) (*MultiModel, error) {
	var e multiEncoded
	if err := decodeJSON(b, &e, &e.Format, formatMulti1, "multi-class model"); err != nil {
		return nil, err
	}
	if e.Classes < 2 || e.Mixture == nil || len(e.Members) == 0 {
		return nil, errors.New("aer: multi-class model lacks its classes, mixture or members")
	}
	ps := core{means: e.Means, scaler: e.Scaler, mixture: e.Mixture, config: e.Config}
	if err := ps.check(len(e.Members), len(e.Static)); err != nil {
		return nil, err
	}
	if !(e.Lambda >= 0 && e.Lambda <= 1) {
		return nil, fmt.Errorf("aer: lambda %v is not in [0, 1]", e.Lambda)
	}
	m := &MultiModel{core: ps, k: e.Classes,
		comb: multiCombiner{k: e.Classes, logit: e.Logit, static: e.Static, lambda: e.Lambda, dynamic: e.Dynamic}}
	for j, em := range e.Members {
		if em.Component < -1 || em.Component >= e.Mixture.K() {
			return nil, fmt.Errorf("aer: member %d: component %d of a mixture of %d", j, em.Component, e.Mixture.K())
		}
		method, err := methodByName(em.Method)
		if err != nil {
			return nil, fmt.Errorf("aer: member %d: %w", j, err)
		}
		mf, ok := method.(learn.ClassFitter)
		if !ok {
			return nil, fmt.Errorf("aer: member %d: method %s has no multi-class model", j, em.Method)
		}
		mb, err := mf.LoadClasses(em.Payload)
		if err != nil {
			return nil, fmt.Errorf("aer: member %d (%s): %w", j, em.Method, err)
		}
		if mb.NumFeatures() != len(e.Means) || mb.NumClasses() != e.Classes {
			return nil, fmt.Errorf("aer: member %d has %d features and %d classes, the model %d and %d", j, mb.NumFeatures(), mb.NumClasses(), len(e.Means), e.Classes)
		}
		m.members = append(m.members, MultiMember{Method: em.Method, Model: mb, Name: em.Name, Component: em.Component})
		m.comb.owner = append(m.comb.owner, em.Component)
	}
	if m.comb.lambda > 0 {
		if _, err := ensemble.MemberWeights(nil, mat.NewDense(1, m.mixture.K(), nil), m.comb.owner); err != nil {
			return nil, fmt.Errorf("aer: %w", err)
		}
	}
	return m, nil
}
