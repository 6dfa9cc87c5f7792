package logreg

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// Model is a fitted logistic regression: P(y = 1 | x) = sigma(w.x + b).
// It is safe for concurrent use.
type Model struct {
	// Coef holds w, one coefficient per feature.
	Coef []float64
	// Intercept is b, 0 when FitIntercept is false.
	Intercept float64
	// FitIntercept tells whether b was fitted.
	FitIntercept bool
	// Means are the training rows' feature means, the reference of the
	// attributions; nil in model files written before attributions.
	Means []float64

	info *fitInfo
}

// fitInfo is what the fit found, saved with the model for its summary.
type fitInfo struct {
	Features []string `json:"features,omitempty"`
	Solution
}

// Solution is what the solver found, saved with the model and reported
// in its Summary.
type Solution struct {
	C float64 `json:"C"`
	// ClassWeights are the weights of the rows of label 0 and label 1.
	ClassWeights [2]float64 `json:"class_weights"`
	Solver       string     `json:"solver"`
	Iterations   int        `json:"iterations"`
	Converged    bool       `json:"converged"`
	// Gradient is the largest gradient entry at the solution, on the
	// scale of tol.
	Gradient float64 `json:"gradient"`
}

// encoded is the saved form of a Model.
type encoded struct {
	Coef         []float64 `json:"coef"`
	Intercept    float64   `json:"intercept"`
	FitIntercept bool      `json:"fit_intercept"`
	Means        []float64 `json:"means,omitempty"`
	Fit          *fitInfo  `json:"fit,omitempty"`
}

// sigmoid is 1/(1+exp(-z)), without overflow.
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// PositiveProba writes sigma(w.x + b) for every row of x into dst.
func (m *Model) PositiveProba(x *mat.Dense, dst []float64) ([]float64, error) {
	r, c := x.Dims()
	if c != len(m.Coef) {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, len(m.Coef))
	}
	if cap(dst) < r {
		dst = make([]float64, r)
	}
	dst = dst[:r]
	raw := x.RawMatrix()
	for i := range r {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		z := m.Intercept + floats.Dot(row, m.Coef)
		if math.IsNaN(z) {
			return nil, fmt.Errorf("%w: row %d has a missing or infinite value the model cannot score", learn.ErrData, i+1)
		}
		dst[i] = sigmoid(z)
	}
	return dst, nil
}

// NumFeatures returns the number of features.
func (m *Model) NumFeatures() int { return len(m.Coef) }

// NumParams is the number of coefficients, with the intercept.
func (m *Model) NumParams() int {
	if m.FitIntercept {
		return len(m.Coef) + 1
	}
	return len(m.Coef)
}

// MarshalBinary encodes the model (JSON: coefficients, intercept and what
// the fit found).
func (m *Model) MarshalBinary() ([]byte, error) {
	return json.Marshal(encoded{Coef: m.Coef, Intercept: m.Intercept, FitIntercept: m.FitIntercept, Means: m.Means, Fit: m.info})
}

// UnmarshalBinary decodes a model written by MarshalBinary.
func (m *Model) UnmarshalBinary(b []byte) error {
	var e encoded
	if err := json.Unmarshal(b, &e); err != nil {
		return fmt.Errorf("logreg: decoding model: %w", err)
	}
	if len(e.Coef) == 0 {
		return fmt.Errorf("logreg: the model has no coefficients")
	}
	if !finite(e.Coef) || !finite([]float64{e.Intercept}) {
		return fmt.Errorf("logreg: the model has a coefficient that is not finite")
	}
	if !e.FitIntercept && e.Intercept != 0 {
		return fmt.Errorf("logreg: the model has intercept %v but was fitted without one", e.Intercept)
	}
	if e.Fit != nil && e.Fit.Features != nil && len(e.Fit.Features) != len(e.Coef) {
		return fmt.Errorf("logreg: the model has %d coefficients but %d feature names", len(e.Coef), len(e.Fit.Features))
	}
	if e.Means != nil && (len(e.Means) != len(e.Coef) || !finite(e.Means)) {
		return fmt.Errorf("logreg: the model has %d coefficients but %d feature means, or a mean that is not finite", len(e.Coef), len(e.Means))
	}
	*m = Model{Coef: e.Coef, Intercept: e.Intercept, FitIntercept: e.FitIntercept, Means: e.Means, info: e.Fit}
	return nil
}

// Attribute returns the exact SHAP values of the rows of x in logit space
// (w.x + b) for a linear model with independent features, with the
// training means as the reference: phi_j = w_j (x_j - mean_j) and base
// b + w.mean, so base + sum is the row's log-odds. For the registered
// logreg, x is the standardised row and the means are about 0. The
// learn.Attributor contract; a model file written before attributions
// has no means and gives an error asking for a refit.
func (m *Model) Attribute(x *mat.Dense) (*learn.Attribution, error) {
	if _, c := x.Dims(); c != len(m.Coef) {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, len(m.Coef))
	}
	if m.Means == nil {
		return nil, fmt.Errorf("%w: this logreg model file predates attributions (it lacks the training means); fit it again", learn.ErrNoAttribution)
	}
	return linearSHAP(x, m.Coef, m.Intercept, m.Means, false, "exact SHAP of a linear model: w_j (x_j - training mean of x_j) on the log-odds")
}

// linearSHAP returns the exact SHAP values, in logit space, of the score
// coef·x + intercept of the rows of x about the reference ref: phi_j =
// coef_j (x_j - ref_j), base intercept + coef·ref. A NaN value (an
// infinite one too, when inf) is an error wrapping learn.ErrData.
func linearSHAP(x *mat.Dense, coef []float64, intercept float64, ref []float64, inf bool, method string) (*learn.Attribution, error) {
	r, c := x.Dims()
	base := intercept + floats.Dot(coef, ref)
	a := &learn.Attribution{Space: learn.Logit, Method: method, Base: make([]float64, r), Phi: mat.NewDense(r, c, nil)}
	for i := range r {
		a.Base[i] = base
		row, phi := x.RawRowView(i), a.Phi.RawRowView(i)
		for j, w := range coef {
			phi[j] = w * (row[j] - ref[j])
			if math.IsNaN(phi[j]) || inf && math.IsInf(phi[j], 0) {
				return nil, fmt.Errorf("%w: row %d, feature %d: missing or infinite value the model cannot attribute", learn.ErrData, i+1, j+1)
			}
		}
	}
	return a, nil
}

// Summary is the report of a fit.
type Summary struct {
	// Coefficients are w by feature name (f1, f2, ... without names),
	// on the features the model sees: standardised ones for the
	// registered logreg.
	Coefficients []Coefficient `json:"coefficients"`
	Intercept    float64       `json:"intercept"`
	FitIntercept bool          `json:"fit_intercept"`
	Solution
}

// Coefficient is one feature's weight.
type Coefficient struct {
	Feature string  `json:"feature"`
	Value   float64 `json:"value"`
}

// Summary returns what the fit found; nil for a model built in code.
func (m *Model) Summary() any {
	if m.info == nil {
		return nil
	}
	s := &Summary{Intercept: m.Intercept, FitIntercept: m.FitIntercept, Solution: m.info.Solution,
		Coefficients: make([]Coefficient, len(m.Coef))}
	for j, w := range m.Coef {
		name := fmt.Sprintf("f%d", j+1)
		if j < len(m.info.Features) {
			name = m.info.Features[j]
		}
		s.Coefficients[j] = Coefficient{Feature: name, Value: w}
	}
	return s
}

// String is the summary in one line, for aer fit's text output: the fit
// and the largest coefficients.
func (s *Summary) String() string {
	state := "converged"
	if !s.Converged {
		state = "stopped short of tol"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d coefficients, intercept %.4g; %s %s in %d iterations (gradient %.1e)", len(s.Coefficients), s.Intercept, s.Solver, state, s.Iterations, s.Gradient)
	top := slices.Clone(s.Coefficients)
	slices.SortStableFunc(top, func(a, b Coefficient) int { return cmp.Compare(math.Abs(b.Value), math.Abs(a.Value)) })
	for k, c := range top[:min(3, len(top))] {
		sep := ", "
		if k == 0 {
			sep = "; largest: "
		}
		fmt.Fprintf(&b, "%s%s %+.4g", sep, c.Feature, c.Value)
	}
	return b.String()
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// NumClasses is 2: Model scores the positive class (PositiveProba).
func (m *Model) NumClasses() int { return 2 }

// PredictProba writes both classes' probabilities of every row of x.
func (m *Model) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	return learn.ScorerProba(m, x, dst)
}
