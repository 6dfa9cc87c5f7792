package ensemble

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Combiner holds what a prediction needs once the members are trained: the
// static weights, the dynamic rule, lambda (Eq. 19) and delta (Eq. 20). It
// encodes to JSON as is.
type Combiner struct {
	// Static are the learned weights w, one per member (member order as in
	// the package documentation).
	Static []float64 `json:"static"`
	// Owner, when non-nil, gives each member's component (or -1 for a
	// member that takes part only through its static weight, such as a
	// classifier trained on all rows); a component's likelihood weight is
	// split evenly over its members. nil means the default layout of 2L
	// members, member j belonging to component j/2.
	Owner []int `json:"owner,omitempty"`
	// Dynamic is the rule of the likelihood weights l*.
	Dynamic DynamicSettings `json:"dynamic"`
	// Lambda in [0, 1] mixes w* = Lambda l* + (1 - Lambda) w.
	Lambda float64 `json:"lambda"`
	// Delta is the threshold: predict 1 when the score >= Delta.
	Delta float64 `json:"delta"`
	// Space is where the members are combined: the score is w*.f(x)
	// (ProbabilitySpace, default) or sigmoid(w*.logit f(x)) (LogitSpace).
	Space Space `json:"space"`
	// Eps clips the outputs before their logit in LogitSpace; 0 means
	// DefaultEps.
	Eps float64 `json:"eps,omitempty"`
}

func (c *Combiner) eps() float64 {
	if c.Eps == 0 {
		return DefaultEps
	}
	return c.Eps
}

func (c *Combiner) check(f, logDens *mat.Dense) (DynamicSettings, layout, error) {
	rows, m := f.Dims()
	lr, L := logDens.Dims()
	if lr != rows {
		return c.Dynamic, layout{}, fmt.Errorf("ensemble: %d rows of base outputs but %d rows of log-densities", rows, lr)
	}
	ly, err := newLayout(c.Owner, m, L)
	if err != nil {
		return c.Dynamic, ly, err
	}
	s, err := c.checkRest(m, L)
	return s, ly, err
}

// CheckLayout reports what is wrong, if anything, with c for members
// members over L mixture components: the layout (Owner), the static
// weights, lambda, delta, the space and the dynamic rule.
func (c *Combiner) CheckLayout(members, L int) error {
	if _, err := newLayout(c.Owner, members, L); err != nil {
		return err
	}
	_, err := c.checkRest(members, L)
	return err
}

func (c *Combiner) checkRest(m, L int) (DynamicSettings, error) {
	if err := checkSimplex(c.Static, m); err != nil {
		return c.Dynamic, err
	}
	if !(c.Lambda >= 0 && c.Lambda <= 1) {
		return c.Dynamic, fmt.Errorf("ensemble: lambda %v is not in [0, 1]", c.Lambda)
	}
	if math.IsNaN(c.Delta) {
		return c.Dynamic, errors.New("ensemble: delta is NaN")
	}
	if !c.Space.valid() {
		return c.Dynamic, fmt.Errorf("ensemble: unknown space %d", c.Space)
	}
	if e := c.eps(); !(e > 0 && e < 0.5) {
		return c.Dynamic, fmt.Errorf("ensemble: eps %v is not in (0, 0.5)", e)
	}
	return c.Dynamic.check(L)
}

// Score writes to dst (len rows; nil allocates) the ensemble score
// w*.f(x) in [0, 1] of every row, where f holds the base outputs
// (rows x 2L) and logDens the component log-densities (rows x L).
func (c *Combiner) Score(dst []float64, f, logDens *mat.Dense) ([]float64, DynamicDiag, error) {
	return c.ScoreShared(dst, f, logDens, nil)
}

// ScoreShared is Score with lg, the outputs' logit copy (NewLogits of f
// at the combiner's eps), when the caller has one: in LogitSpace it is
// used instead of building another. Any other lg is ignored.
func (c *Combiner) ScoreShared(dst []float64, f, logDens *mat.Dense, lg *Logits) ([]float64, DynamicDiag, error) {
	_, ly, err := c.check(f, logDens)
	if err != nil {
		return nil, DynamicDiag{}, err
	}
	if err := checkOutputs(f, Probabilities); err != nil {
		return nil, DynamicDiag{}, err
	}
	rows, _ := f.Dims()
	if dst == nil {
		dst = make([]float64, rows)
	} else if len(dst) != rows {
		return nil, DynamicDiag{}, fmt.Errorf("ensemble: score buffer has %d entries for %d rows", len(dst), rows)
	}
	if rows == 0 {
		return dst, DynamicDiag{}, nil
	}
	p := newProblem(f, nil, c.eps(), c.Space, 1, lg)
	dyn, diag, err := dynamicScores(&p, logDens, c.Dynamic, ly)
	if err != nil {
		return nil, diag, err
	}
	for i := range rows {
		dst[i] = mixScore(c.Space, c.Lambda, dyn[i], dot(c.Static, p.row(i)))
	}
	return dst, diag, nil
}

// Mixed writes to dst (rows x members; nil allocates) the mixed weights
// w* = Lambda l*(x) + (1 - Lambda) w of every row, from the component
// log-densities logDens (rows x L): the weights Score dots with the
// members' outputs (or their logits in LogitSpace).
func (c *Combiner) Mixed(dst, logDens *mat.Dense) (*mat.Dense, error) {
	rows, L := logDens.Dims()
	m := len(c.Static)
	ly, err := newLayout(c.Owner, m, L)
	if err != nil {
		return nil, err
	}
	if _, err := c.checkRest(m, L); err != nil {
		return nil, err
	}
	comp, _, err := ComponentWeights(nil, logDens, c.Dynamic)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = mat.NewDense(rows, m, nil)
	} else if r, k := dst.Dims(); r != rows || k != m {
		return nil, fmt.Errorf("ensemble: destination is %dx%d, want %dx%d", r, k, rows, m)
	}
	cw := make([]float64, L)
	for i := range rows {
		mat.Row(cw, i, comp)
		w := dst.RawRowView(i)
		ly.memberWeights(w, cw)
		for j := range w {
			w[j] = c.Lambda*w[j] + (1-c.Lambda)*c.Static[j]
		}
	}
	return dst, nil
}

// OutputEps returns the clip Eps of LogitSpace (DefaultEps when unset).
func (c *Combiner) OutputEps() float64 { return c.eps() }

// mixScore is w*.f = lambda l*.f + (1-lambda) w.f (Eq. 19 is linear in the
// weights, so the two dot products serve every lambda), mapped to [0, 1].
func mixScore(space Space, lambda, dyn, stat float64) float64 {
	return finish(space, lambda*dyn+(1-lambda)*stat)
}

// Predict writes to dst (nil allocates) 1 for each score >= c.Delta and 0
// otherwise (Eq. 20).
func (c *Combiner) Predict(dst []int, scores []float64) []int {
	if dst == nil {
		dst = make([]int, len(scores))
	}
	for i, s := range scores {
		dst[i] = 0
		if s >= c.Delta {
			dst[i] = 1
		}
	}
	return dst
}

// Explanation is the breakdown of one row's score; it encodes to JSON as is.
type Explanation struct {
	// LogDensity are the component log-densities (before log pi), with
	// -Inf (an underflowed density) written as -math.MaxFloat64 so that
	// the explanation encodes to JSON.
	LogDensity []float64 `json:"log_density"`
	// Component are the likelihood weights l* per component, and
	// LogFallback reports that the Log rule fell back to Exp for this row.
	Component   []float64 `json:"component"`
	LogFallback bool      `json:"log_fallback,omitempty"`
	// Likelihood, Static and Mixed are the per-member weights l*
	// (Component spread over its members), w and
	// w* = Lambda Likelihood + (1-Lambda) Static.
	Likelihood []float64 `json:"likelihood"`
	Static     []float64 `json:"static"`
	Mixed      []float64 `json:"mixed"`
	// Member are the members' outputs f(x). In ProbabilitySpace
	// Contribution = Mixed*Member sums to Score; in LogitSpace Logit holds
	// logit(Member) (clipped to [eps, 1-eps] first) and
	// Contribution = Mixed*Logit sums to logit(Score).
	Member       []float64 `json:"member"`
	Logit        []float64 `json:"logit,omitempty"`
	Contribution []float64 `json:"contribution"`
	Space        Space     `json:"space"`
	Lambda       float64   `json:"lambda"`
	Score        float64   `json:"score"`
	Delta        float64   `json:"delta"`
	Prediction   int       `json:"prediction"`
}

// Explain breaks down the score of one row with member outputs f (len 2L)
// and component log-densities logDens (len L).
func (c *Combiner) Explain(f, logDens []float64) (*Explanation, error) {
	if len(logDens) == 0 {
		return nil, errors.New("ensemble: no mixture components")
	}
	fm := mat.NewDense(1, len(f), append([]float64(nil), f...))
	lm := mat.NewDense(1, len(logDens), append([]float64(nil), logDens...))
	s, ly, err := c.check(fm, lm)
	if err != nil {
		return nil, err
	}
	if err := checkOutputs(fm, Probabilities); err != nil {
		return nil, err
	}
	if err := checkLogDens(lm); err != nil {
		return nil, err
	}
	L, m := len(logDens), len(f)
	e := &Explanation{
		LogDensity:   finiteLogs(logDens),
		Component:    make([]float64, L),
		Likelihood:   make([]float64, m),
		Static:       append([]float64(nil), c.Static...),
		Mixed:        make([]float64, m),
		Member:       append([]float64(nil), f...),
		Contribution: make([]float64, m),
		Lambda:       c.Lambda,
		Delta:        c.Delta,
		Space:        c.Space,
	}
	z := f
	if c.Space == LogitSpace {
		z = make([]float64, len(f))
		for j, v := range f {
			z[j] = logit(v, c.eps())
		}
		e.Logit = z
	}
	a := append([]float64(nil), logDens...)
	addLogPi(a, s.LogPi)
	var d DynamicDiag
	componentRow(e.Component, a, s, &d)
	e.LogFallback = d.LogFallbackRows > 0
	// The score is computed exactly as Score computes it, so that Explain
	// and Predict never disagree at the threshold.
	ly.memberWeights(e.Likelihood, e.Component)
	dyn := dot(e.Likelihood, z)
	for j := range e.Mixed {
		e.Mixed[j] = c.Lambda*e.Likelihood[j] + (1-c.Lambda)*c.Static[j]
		e.Contribution[j] = e.Mixed[j] * z[j]
	}
	e.Score = mixScore(c.Space, c.Lambda, dyn, dot(c.Static, z))
	if e.Score >= c.Delta {
		e.Prediction = 1
	}
	return e, nil
}

func finiteLogs(a []float64) []float64 {
	out := make([]float64, len(a))
	for i, v := range a {
		out[i] = max(v, -math.MaxFloat64)
	}
	return out
}
