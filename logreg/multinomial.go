package logreg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/aer-go/aer/learn"
)

// MultiModel is a multinomial logistic regression: class k's score is
// Coef[k]·x + Intercept[k], its probability the softmax of the scores.
// As scikit-learn's, the intercepts are identified up to a common
// constant; fitted from zero they sum to zero.
type MultiModel struct {
	Coef      [][]float64 `json:"coef"`
	Intercept []float64   `json:"intercept"`
	// Iterations and Converged say how the solver ended.
	Iterations int  `json:"iterations"`
	Converged  bool `json:"converged"`
}

// NumClasses returns the number of classes.
func (m *MultiModel) NumClasses() int { return len(m.Coef) }

// NumFeatures returns the number of features.
func (m *MultiModel) NumFeatures() int { return len(m.Coef[0]) }

// PredictProba returns the class probabilities of x's rows,
// row-major (Classes() per row), in dst's storage when it is large
// enough (learn.MultiModel).
func (m *MultiModel) PredictProba(x *mat.Dense, dst []float64) ([]float64, error) {
	_, c := x.Dims()
	if m.NumClasses() < 2 || c != len(m.Coef[0]) {
		return nil, fmt.Errorf("logreg: data has %d features, the model %d", c, len(m.Coef[0]))
	}
	return m.scores(x, dst, softmax), nil
}

// Scores writes the linear score of every class, Coef[k]·x + Intercept[k],
// for the rows of x into dst, row-major, Classes() per row (allocated
// when too short), and returns it: the log-probabilities up to a constant
// per row (the probabilities are their softmax).
func (m *MultiModel) Scores(x *mat.Dense, dst []float64) ([]float64, error) {
	if _, c := x.Dims(); c != m.NumFeatures() {
		return nil, fmt.Errorf("%w: data has %d features, the model %d", learn.ErrData, c, m.NumFeatures())
	}
	return m.scores(x, dst, nil), nil
}

// scores is Scores without its check, then (unless nil) apply on each
// row's scores.
func (m *MultiModel) scores(x *mat.Dense, dst []float64, apply func([]float64)) []float64 {
	r, _ := x.Dims()
	k := m.NumClasses()
	if cap(dst) < r*k {
		dst = make([]float64, r*k)
	}
	dst = dst[:r*k]
	for i := range r {
		row := x.RawRowView(i)
		z := dst[i*k : (i+1)*k]
		for j := range k {
			z[j] = floats.Dot(m.Coef[j], row) + m.Intercept[j]
		}
		if apply != nil {
			apply(z)
		}
	}
	return dst
}

// AttributeClassesAround returns, for each class k, the exact SHAP values
// of class k's linear score (Scores) for the rows of x, for a linear
// model with independent features whose reference is ref (the training
// means of the features the model sees): phi_kj = Coef[k][j] (x_j -
// ref_j) and base Intercept[k] + Coef[k]·ref, so base + sum is the row's
// score of class k, in logit space (the class probabilities are the
// softmax of the scores). The registered logreg's model, behind its
// imputation and standardisation, gets ref from them
// (prep.MultiModel.AttributeClasses: the standardised training means,
// about 0), as the binary model's Attribute takes its training means. A
// missing or infinite value is an error wrapping learn.ErrData.
func (m *MultiModel) AttributeClassesAround(x *mat.Dense, ref []float64) ([]*learn.Attribution, error) {
	if _, c := x.Dims(); c != m.NumFeatures() || len(ref) != c {
		return nil, fmt.Errorf("%w: data has %d features and the reference %d, the model %d", learn.ErrData, c, len(ref), m.NumFeatures())
	}
	out := make([]*learn.Attribution, m.NumClasses())
	for k, coef := range m.Coef {
		var err error
		out[k], err = linearSHAP(x, coef, m.Intercept[k], ref, true, "exact SHAP of each class's linear score: w_kj (x_j - training mean of x_j) (the class probabilities are the softmax of the scores)")
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// softmax turns scores into probabilities in place (log-sum-exp).
func softmax(z []float64) {
	hi := floats.Max(z)
	sum := 0.0
	for j, v := range z {
		z[j] = math.Exp(v - hi)
		sum += z[j]
	}
	floats.Scale(1/sum, z)
}

// MarshalBinary encodes the model as JSON.
func (m *MultiModel) MarshalBinary() ([]byte, error) { return json.Marshal(m) }

// FitMultinomial fits a multinomial logistic regression on x's rows with
// classes y (0..k-1), row weights w (nil: all 1), minimising, as
// scikit-learn's LogisticRegression(multi_class="multinomial") does,
// C times the weighted sum of the rows' log-losses plus half the squared
// norm of the coefficients (the intercepts unpenalised), by L-BFGS from
// zero. s's ClassWeight, C, MaxIter, Tol and NoIntercept apply (the zero
// Settings: balanced class weights, C = 1); the class weights of
// balanced are W/(k W_c), W the total row weight and W_c that of class
// c (scikit-learn's n/(k n_c) on unit row weights).
func FitMultinomial(ctx context.Context, x *mat.Dense, y []int, k int, w []float64, s *Settings) (*MultiModel, error) {
	if s == nil {
		s = &Settings{}
	}
	st := s.resolved()
	n, p := x.Dims()
	if len(y) != n || (w != nil && len(w) != n) {
		return nil, fmt.Errorf("logreg: %d rows, %d labels, %d weights", n, len(y), len(w))
	}
	if k < 2 {
		return nil, fmt.Errorf("logreg: %d classes, want at least 2", k)
	}
	if cw := st.ClassWeight; cw.Explicit && (cw.Neg != 1 || cw.Pos != 1) {
		return nil, fmt.Errorf("logreg: class weights %s name two classes; a multinomial fit takes balanced or none", cw)
	}
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	classW := make([]float64, k)
	all := 0.0
	for i, c := range y {
		if c < 0 || c >= k {
			return nil, fmt.Errorf("logreg: row %d: class %d, want 0..%d", i+1, c, k-1)
		}
		if wi := weight(i); wi < 0 || math.IsNaN(wi) || math.IsInf(wi, 0) {
			return nil, fmt.Errorf("logreg: row %d: weight %v", i+1, wi)
		}
		classW[c] += weight(i)
		all += weight(i)
	}
	sw := make([]float64, n)
	total := 0.0
	for i, c := range y {
		sw[i] = weight(i)
		if !st.ClassWeight.Explicit && classW[c] > 0 {
			// Balanced: every class weighs the same, W / (k W_c).
			sw[i] *= all / (float64(k) * classW[c])
		}
		total += sw[i]
	}
	if !(total > 0) {
		return nil, errors.New("logreg: no row weight")
	}
	o := &multiObjective{x: x, y: y, sw: sw, k: k, p: p, intercept: !st.NoIntercept, scale: 1 / total, penalty: 1 / (st.C * total), ctx: ctx}
	dim := k * p
	if o.intercept {
		dim += k
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	// ctx is checked as each evaluation goes (multiObjective.eval) and
	// after each (ctxRecorder), so a cancelled fit returns within a
	// fraction of one evaluation however many classes there are.
	problem := optimize.Problem{Func: o.Func, Grad: o.Grad}
	res, err := optimize.Minimize(problem, make([]float64, dim), &optimize.Settings{
		GradientThreshold: st.Tol,
		MajorIterations:   st.MaxIter + 1,
		Converger:         optimize.NeverTerminate{},
		Recorder:          ctxRecorder{ctx},
	}, &optimize.LBFGS{GradStopThreshold: st.Tol, Linesearcher: &wolfe{}})
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	if res == nil {
		return nil, fmt.Errorf("logreg: multinomial solver: %w", err)
	}
	theta := res.X
	if !finite(theta) {
		return nil, fmt.Errorf("logreg: multinomial solver: a coefficient is not finite")
	}
	m := &MultiModel{Coef: make([][]float64, k), Intercept: make([]float64, k), Iterations: max(0, res.MajorIterations-1)}
	for j := range k {
		m.Coef[j] = append([]float64(nil), theta[j*p:(j+1)*p]...)
		if o.intercept {
			m.Intercept[j] = theta[k*p+j]
		}
	}
	grad := make([]float64, dim)
	o.Grad(grad, theta)
	m.Converged = floats.Norm(grad, math.Inf(1)) <= st.Tol
	return m, nil
}

// multiObjective is the scaled multinomial objective: the weighted mean
// log-loss plus the coefficients' squared norm over 2 C times the total
// weight.
type multiObjective struct {
	x            *mat.Dense
	y            []int
	sw           []float64
	k, p         int
	intercept    bool
	scale        float64
	penalty      float64
	ctx          context.Context
	lastX, lastG []float64
	lastF        float64
}

// ctxRecorder ends gonum's optimiser with ctx's error once ctx is done:
// it is called after every evaluation and iteration.
type ctxRecorder struct{ ctx context.Context }

func (r ctxRecorder) Init() error { return nil }

func (r ctxRecorder) Record(*optimize.Location, optimize.Operation, *optimize.Stats) error {
	return learn.Interrupted(r.ctx)
}

// multiCheckWork is about the multiply-adds between two looks at ctx in
// an evaluation: every row when a row's k classes cost that much.
const multiCheckWork = 1 << 15

// eval computes the objective and its gradient at theta (cached: gonum
// asks for both at each point). Once ctx is done it stops, leaving NaN
// (not cached), and the recorder ends the run.
func (o *multiObjective) eval(theta []float64) {
	if o.lastX != nil && floats.Equal(o.lastX, theta) {
		return
	}
	k, p := o.k, o.p
	g := make([]float64, len(theta))
	f := 0.0
	z := make([]float64, k)
	n, _ := o.x.Dims()
	every := max(1, multiCheckWork/(k*(p+1)))
	for i := range n {
		if i%every == 0 && learn.Interrupted(o.ctx) != nil {
			o.lastX, o.lastF, o.lastG = nil, math.NaN(), nanSlice(g)
			return
		}
		row := o.x.RawRowView(i)
		for j := range k {
			z[j] = floats.Dot(theta[j*p:(j+1)*p], row)
			if o.intercept {
				z[j] += theta[k*p+j]
			}
		}
		hi := floats.Max(z)
		sum := 0.0
		for _, v := range z {
			sum += math.Exp(v - hi)
		}
		lse := hi + math.Log(sum)
		f += o.sw[i] * (lse - z[o.y[i]])
		for j := range k {
			d := math.Exp(z[j] - lse)
			if j == o.y[i] {
				d--
			}
			d *= o.sw[i]
			floats.AddScaled(g[j*p:(j+1)*p], d, row)
			if o.intercept {
				g[k*p+j] += d
			}
		}
	}
	f *= o.scale
	floats.Scale(o.scale, g)
	for j := range k * p {
		f += 0.5 * o.penalty * theta[j] * theta[j]
		g[j] += o.penalty * theta[j]
	}
	o.lastX, o.lastF, o.lastG = append(o.lastX[:0], theta...), f, g
}

func (o *multiObjective) Func(theta []float64) float64 {
	o.eval(theta)
	return o.lastF
}

// nanSlice sets every value of v to NaN and returns it.
func nanSlice(v []float64) []float64 {
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}

func (o *multiObjective) Grad(grad, theta []float64) {
	o.eval(theta)
	copy(grad, o.lastG)
}

var _ learn.Model = (*MultiModel)(nil)

// FitClasses fits a multinomial logistic regression on train's labels
// 0..k-1 (learn.ClassFitter) with the method's settings; valid is not
// used.
func (m *Method) FitClasses(ctx context.Context, train, _ *learn.Data, k int, env learn.Env) (learn.Model, error) {
	if err := checkComplete(train); err != nil {
		return nil, err
	}
	return FitMultinomial(ctx, train.X, train.Y, k, train.W, &m.s)
}

// LoadClasses decodes a MultiModel written by MarshalBinary.
func (m *Method) LoadClasses(payload []byte) (learn.Model, error) {
	var mm MultiModel
	if err := json.Unmarshal(payload, &mm); err != nil {
		return nil, fmt.Errorf("logreg: decoding model: %w", err)
	}
	k := len(mm.Coef)
	if k < 2 || len(mm.Intercept) != k {
		return nil, fmt.Errorf("logreg: a multinomial model of %d coefficient rows and %d intercepts", k, len(mm.Intercept))
	}
	for _, row := range mm.Coef {
		if len(row) != len(mm.Coef[0]) || len(row) == 0 || !finite(row) {
			return nil, fmt.Errorf("logreg: a multinomial model's coefficients are ragged or not finite")
		}
	}
	if !finite(mm.Intercept) {
		return nil, fmt.Errorf("logreg: a multinomial model's intercepts are not finite")
	}
	return &mm, nil
}
