package density

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/internal/rng"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/mixture"
)

// Alpha is the share of ordinary rows a density's threshold flags: the
// threshold is the (1 - Alpha) quantile of the scores of rows the
// mixture was not fitted on (the same rate as AER's adaptive.OODAlpha).
const Alpha = 0.01

// Defaults of Settings.
const (
	// DefaultRows bounds the training rows the mixture is fitted on.
	DefaultRows = 4000
	// thresholdRowsFactor times Rows bounds the rows the threshold is
	// set on.
	thresholdRowsFactor = 5
	// regCovar is the ridge added to the variances of the standardised
	// features: a component that collapses onto a binary or constant
	// feature keeps a variance of a thousandth of the feature's.
	regCovar = 1e-3
	// minRowsPerComponent: a pool's L is tried only with at least this
	// many rows per component.
	minRowsPerComponent = 20
	// version is the encoding's version (Model.Version).
	version = 1
)

// DefaultPool is the numbers of components BIC chooses among.
var DefaultPool = []int{1, 2, 3, 4, 6, 8}

// Where a threshold was set (Model.ThresholdOn).
const (
	// OnValidation: the validation rows of the fit.
	OnValidation = "validation"
	// OnTraining: training rows held out of the mixture's sample.
	OnTraining = "training"
)

// sampleStream is the random stream, derived from Settings.Seed, that
// draws the rows.
const sampleStream = 0x0d

// Settings say how a density is fitted. The zero value fits on at most
// DefaultRows rows, chooses among DefaultPool by BIC, with seed 0 on
// every core.
type Settings struct {
	// Rows bounds the training rows the mixture is fitted on (and, five
	// times it, the rows its threshold is set on); 0 means DefaultRows.
	Rows int
	// Pool are the numbers of components BIC chooses among; nil means
	// DefaultPool.
	Pool []int
	// Seed draws the rows and seeds the mixture's fit.
	Seed uint64
	// Workers bounds the goroutines; 0 means every core.
	Workers int
}

func (s *Settings) rows() int {
	if s == nil || s.Rows <= 0 {
		return DefaultRows
	}
	return s.Rows
}

// Model is a fitted density: the imputation, the standardisation, the
// mixture and the threshold. Its fields are what the model file holds
// (JSON); Decode checks them. A Model is learn.OODScorer and safe for
// concurrent use.
type Model struct {
	// Version is the encoding's version, 1.
	Version int `json:"version"`
	// Means replace missing values, feature by feature (training means).
	Means []float64 `json:"means"`
	// Scaler standardises the imputed features.
	Scaler *dataset.Scaler `json:"scaler"`
	// Mixture is the Gaussian mixture of the standardised rows.
	Mixture *mixture.Model `json:"mixture"`
	// FitRows is the number of training rows the mixture was fitted on.
	FitRows int `json:"fit_rows"`
	// Alpha is the share of ordinary rows flagged.
	Alpha float64 `json:"alpha"`
	// Threshold is the score above which a row is flagged: the (1 -
	// Alpha) quantile of ThresholdRows rows' scores.
	Threshold     float64 `json:"threshold"`
	ThresholdRows int     `json:"threshold_rows"`
	// ThresholdOn says which rows set the threshold: OnValidation or
	// OnTraining (training rows held out of the mixture's sample).
	ThresholdOn string `json:"threshold_on"`
}

var _ learn.OODScorer = (*Model)(nil)

// Sample is the training rows a density is fitted on, drawn before the
// model's fit (which may overwrite the training table: learn.Env's
// ConsumeTrain): at most Settings.Rows rows for the mixture and, when
// the fit has no validation rows, others held out for the threshold.
type Sample struct {
	fit, held *mat.Dense
}

// Draw copies the rows of x a density is fitted on, drawn with s.Seed:
// with heldOut (no validation rows), a quarter of the rows, at most five
// times s.Rows, are held out for the threshold, and the mixture's at
// most s.Rows are drawn from the others. Its memory is bounded by the
// row cap, whatever x's size.
func Draw(x *mat.Dense, heldOut bool, s *Settings) *Sample {
	n, _ := x.Dims()
	limit := s.rows()
	perm := rng.Derive(seedOf(s), sampleStream).Perm(n)
	nHeld := 0
	if heldOut && n >= 2 {
		nHeld = min(max(n/4, 1), thresholdRowsFactor*limit)
	}
	nFit := min(limit, n-nHeld)
	return &Sample{fit: rowsOf(x, perm[:nFit]), held: rowsOf(x, perm[n-nHeld:])}
}

func seedOf(s *Settings) uint64 {
	if s == nil {
		return 0
	}
	return s.Seed
}

// rowsOf copies the rows idx of x, in increasing order; nil for none.
func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	if len(idx) == 0 {
		return nil
	}
	idx = slices.Clone(idx)
	slices.Sort(idx)
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for k, i := range idx {
		out.SetRow(k, x.RawRowView(i))
	}
	return out
}

// Fit fits a density to the training rows x (every class, raw features:
// NaN = missing) and sets its threshold on valid (raw rows with x's
// features; nil: on training rows held out of the mixture's sample). It
// is Draw then Sample.Fit.
func Fit(ctx context.Context, x, valid *mat.Dense, s *Settings) (*Model, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("density: %w: no training rows", learn.ErrData)
	}
	return Draw(x, valid == nil, s).Fit(ctx, valid, s)
}

// Fit fits the density to the sample's rows and sets the threshold on
// valid, or, when valid is nil, on the rows Draw held out. s must be the
// settings the sample was drawn with.
func (sm *Sample) Fit(ctx context.Context, valid *mat.Dense, s *Settings) (*Model, error) {
	if sm == nil || sm.fit == nil {
		return nil, fmt.Errorf("density: %w: no training rows", learn.ErrData)
	}
	x := mat.DenseCopyOf(sm.fit)
	n, d := x.Dims()
	m := &Model{Version: version, Alpha: Alpha, FitRows: n}
	m.Means = dataset.ColumnMeans(x)
	dataset.Impute(x, m.Means)
	m.Scaler = dataset.FitScaler(x)
	if err := m.Scaler.Check(nil); err != nil {
		return nil, fmt.Errorf("density: %w: training rows: %v", learn.ErrData, err)
	}
	m.Scaler.Transform(x)
	pool := DefaultPool
	if s != nil && s.Pool != nil {
		pool = s.Pool
	}
	var fits []int
	for _, l := range pool {
		if l == 1 || (l > 1 && n >= minRowsPerComponent*l) {
			fits = append(fits, l)
		}
	}
	if len(fits) == 0 {
		fits = []int{1}
	}
	ms := &mixture.Settings{Covariance: mixture.Auto, RegCovar: regCovar, Seed: seedOf(s)}
	if s != nil {
		ms.Workers = s.Workers
	}
	sel, err := mixture.Select(ctx, x, fits, ms)
	if err != nil {
		return nil, fmt.Errorf("density: mixture of %d rows, %d features: %w", n, d, err)
	}
	m.Mixture = sel.Model
	thr, on := valid, OnValidation
	if valid == nil {
		thr, on = sm.held, OnTraining
		if thr == nil { // a single training row: its own score
			thr = x
		}
	} else if r, _ := valid.Dims(); r > thresholdRowsFactor*s.rows() {
		perm := rng.Derive(seedOf(s), sampleStream+1).Perm(r)
		thr = rowsOf(valid, perm[:thresholdRowsFactor*s.rows()])
	}
	if thr != x {
		if _, c := thr.Dims(); c != d {
			return nil, fmt.Errorf("density: %w: %d threshold rows' features for %d", learn.ErrData, c, d)
		}
	}
	var scores []float64
	if thr == x {
		scores, err = m.scorePrepared(x, nil)
	} else {
		scores, err = m.OODScore(thr, nil)
	}
	if err != nil {
		return nil, err
	}
	m.Threshold = quantile(scores, m.Alpha)
	m.ThresholdRows, m.ThresholdOn = len(scores), on
	return m, nil
}

// quantile returns the smallest score with at most a share alpha of
// scores above it (adaptive's rule), finite for JSON.
func quantile(scores []float64, alpha float64) float64 {
	s := slices.Clone(scores)
	slices.Sort(s)
	k := int(math.Ceil((1-alpha)*float64(len(s)))) - 1
	return min(s[min(max(k, 0), len(s)-1)], math.MaxFloat64)
}

// Dim is the number of features the density reads.
func (m *Model) Dim() int { return len(m.Means) }

// OODScore writes each row's out-of-distribution score into dst (when
// long enough) and returns it: minus the row's log-density under the
// mixture, on the imputed, standardised features; +Inf for a row that
// has no finite density (a value beyond float64's range). It is
// learn.OODScorer.
func (m *Model) OODScore(x *mat.Dense, dst []float64) ([]float64, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("density: %w: no rows to score", learn.ErrData)
	}
	if _, c := x.Dims(); c != m.Dim() {
		return nil, fmt.Errorf("density: %w: data has %d features, the density %d", learn.ErrData, c, m.Dim())
	}
	xt := mat.DenseCopyOf(x)
	dataset.Impute(xt, m.Means)
	m.Scaler.Transform(xt)
	return m.scorePrepared(xt, dst)
}

// scorePrepared scores imputed, standardised rows.
func (m *Model) scorePrepared(xt *mat.Dense, dst []float64) ([]float64, error) {
	r, c := xt.Dims()
	if cap(dst) >= r {
		dst = dst[:r]
	} else {
		dst = make([]float64, r)
	}
	// A value standardised beyond float64's range (1e308 of a feature
	// whose scale is below 1) has no density: the row scores +Inf, and
	// is scored as zeros meanwhile.
	var far []int
	for i := range r {
		row := xt.RawRowView(i)
		for _, v := range row[:c] {
			if math.IsInf(v, 0) || v != v {
				far = append(far, i)
				clear(row)
				break
			}
		}
	}
	ll, err := m.Mixture.ScoreSamples(xt, dst)
	if err != nil {
		return nil, fmt.Errorf("density: out-of-distribution score: %w", err)
	}
	for i, v := range ll {
		if v != v {
			ll[i] = math.Inf(1)
		} else {
			ll[i] = -v
		}
	}
	for _, i := range far {
		ll[i] = math.Inf(1)
	}
	return ll, nil
}

// OODThreshold returns the score above which a row is flagged out of
// distribution (Threshold), always with true. It is learn.OODScorer.
func (m *Model) OODThreshold() (float64, bool) { return m.Threshold, true }

// ErrCorrupt is wrapped by Decode's errors.
var ErrCorrupt = errors.New("invalid out-of-distribution density")

// Decode reads a density as Model's JSON encoding holds it (a model
// file's header) and checks that its parts fit together: the version,
// as many means and scales as the mixture has features, finite values, a
// positive scale, a share Alpha in (0, 1), a threshold that is a number.
// Errors wrap ErrCorrupt.
func Decode(b []byte) (*Model, error) {
	var m Model
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return &m, nil
}

func (m *Model) check() error {
	switch {
	case m.Version != version:
		return fmt.Errorf("version %d (this build reads %d)", m.Version, version)
	case m.Mixture == nil || m.Scaler == nil:
		return errors.New("no mixture or no scaler")
	case len(m.Means) == 0 || m.Mixture.Dim() != len(m.Means):
		return fmt.Errorf("a mixture of %d features, %d means", m.Mixture.Dim(), len(m.Means))
	case len(m.Scaler.Mean) != len(m.Means) || len(m.Scaler.Scale) != len(m.Means):
		return fmt.Errorf("a scaler of %d means and %d scales for %d features", len(m.Scaler.Mean), len(m.Scaler.Scale), len(m.Means))
	case !(m.Alpha > 0 && m.Alpha < 1):
		return fmt.Errorf("alpha %v outside (0, 1)", m.Alpha)
	case math.IsNaN(m.Threshold) || m.FitRows < 1 || m.ThresholdRows < 1:
		return fmt.Errorf("threshold %v on %d rows, fitted on %d", m.Threshold, m.ThresholdRows, m.FitRows)
	case m.ThresholdOn != OnValidation && m.ThresholdOn != OnTraining:
		return fmt.Errorf("threshold set on %q rows", m.ThresholdOn)
	}
	for j, v := range m.Means {
		mu, sd := m.Scaler.Mean[j], m.Scaler.Scale[j]
		if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(mu) || math.IsInf(mu, 0) || !(sd > 0) || math.IsInf(sd, 0) {
			return fmt.Errorf("feature %d: mean %v, standardisation (%v, %v)", j+1, v, mu, sd)
		}
	}
	return nil
}

// Encode returns the density's JSON encoding, which Decode reads.
func (m *Model) Encode() ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("density: encoding: %w", err)
	}
	return json.Marshal(m)
}
