package logreg

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"

	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/prep"
)

// MethodName is the name logistic regression is registered under.
const MethodName = "logreg"

// Method is L2-regularised logistic regression on the learn contract.
type Method struct {
	s Settings
}

// NewMethod returns logistic regression with the default settings, on the
// features as given (no missing values allowed).
func NewMethod() learn.Method { return &Method{} }

// NewStandardized returns logistic regression behind mean imputation and
// standardisation fitted on the training rows: the method registered as
// logreg, as the Python anchors ran it (StandardScaler, then
// LogisticRegression).
func NewStandardized() learn.Method { return prep.Standardize(NewMethod()) }

// New returns the method registered as logreg (behind mean imputation
// and standardisation) with the typed settings s, for Go programs: the
// same method as NewStandardized with the parameters set from text.
func New(s Settings) learn.Method { return prep.Standardize(&Method{s: s}) }

// Name returns the registered name.
func (m *Method) Name() string { return MethodName }

// Describe returns a one-line description.
func (m *Method) Describe() string {
	return "L2-regularised logistic regression with class weights, solved exactly (Newton's method with a Cholesky factorisation, L-BFGS for many features)"
}

// Settings returns a copy of the configured settings.
func (m *Method) Settings() Settings { return m.s }

// Set sets one parameter from its text form.
func (m *Method) Set(key, value string) error { return params.Set(&m.s, key, value) }

// Params lists every parameter with its value and default.
func (m *Method) Params() []learn.Param {
	cur, def := m.s.resolved(), Settings{}.resolved()
	return params.List(&cur, &def)
}

// Fit minimises 0.5||w||^2 + C sum_i s_i log(1 + exp(-t_i (w.x_i + b)))
// over the training rows, t_i = +1 for label 1 and -1 for label 0, s_i the
// class weight times the row weight, the intercept b unpenalised. The
// problem is strictly convex, so the optimum is unique; both solvers start
// from zero. valid is not used.
func (m *Method) Fit(ctx context.Context, train, _ *learn.Data, env learn.Env) (learn.Scorer, error) {
	return fit(ctx, train, nil, &m.s, env)
}

// FitMapped fits on the rows of train with every feature mapped by cm
// (learn.MappedFitter): the map is applied as the rows are copied into
// the solver's feature-major layout, so the model is Fit's on the mapped
// rows, bit for bit, without a mapped copy of the table.
func (m *Method) FitMapped(ctx context.Context, train, _ *learn.Data, cm *learn.ColumnMap, env learn.Env) (learn.Scorer, error) {
	if cm == nil {
		return nil, fmt.Errorf("%w: logreg: FitMapped needs a column map", learn.ErrParam)
	}
	if p := train.Cols(); len(cm.Shift) != p || len(cm.Scale) != p {
		return nil, fmt.Errorf("%w: logreg: a column map of %d shifts and %d scales for %d features", learn.ErrParam, len(cm.Shift), len(cm.Scale), p)
	}
	return fit(ctx, train, cm, &m.s, env)
}

// Fit fits logistic regression on train with settings s (nil: defaults);
// see Method.Fit.
func Fit(ctx context.Context, train *learn.Data, s *Settings, env learn.Env) (*Model, error) {
	return fit(ctx, train, nil, s, env)
}

// fit is Fit on the rows of train mapped by cm (nil: as they are).
func fit(ctx context.Context, train *learn.Data, cm *learn.ColumnMap, s *Settings, env learn.Env) (*Model, error) {
	var st Settings
	if s != nil {
		st = *s
	}
	st = st.resolved()
	if err := st.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if err := train.Check("training data"); err != nil {
		return nil, err
	}
	if err := checkComplete(train); err != nil {
		return nil, err
	}
	sw, w0, w1, err := sampleWeights(train, st.ClassWeight)
	if err != nil {
		return nil, err
	}
	obj, err := newObjective(ctx, train.X, cm, train.Y, sw, st.C, !st.NoIntercept, env.Threads())
	if err != nil {
		return nil, err
	}
	sol, err := solve(obj, &st, env)
	if err != nil {
		return nil, err
	}
	n, p := train.X.Dims()
	md := newModel(obj, sol.theta, n, p, !st.NoIntercept)
	md.info = &fitInfo{Features: slices.Clone(train.Features), Solution: Solution{C: st.C, ClassWeights: [2]float64{w0, w1},
		Solver: sol.solver, Iterations: sol.steps, Converged: sol.converged, Gradient: sol.gnorm}}
	return md, nil
}

// checkComplete refuses a missing value in the features of train.
func checkComplete(train *learn.Data) error {
	n, p := train.X.Dims()
	raw := train.X.RawMatrix()
	for i := range n {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			if math.IsNaN(v) {
				return fmt.Errorf("%w: training data row %d, feature %s: missing value (logistic regression needs complete features; the registered logreg imputes them)",
					learn.ErrData, i+1, featureName(train.Features, j))
			}
		}
	}
	return nil
}

// sampleWeights is each row's weight in the loss, its class's weight by
// cw times its own, and the two class weights.
func sampleWeights(train *learn.Data, cw ClassWeight) (sw []float64, w0, w1 float64, err error) {
	if err := train.CheckClassWeights("training data"); err != nil {
		return nil, 0, 0, err
	}
	neg, pos := train.ClassWeights()
	w0, w1 = cw.Weights(neg, pos)
	n, _ := train.X.Dims()
	sw = make([]float64, n)
	for i, y := range train.Y {
		sw[i] = w0
		if y == 1 {
			sw[i] = w1
		}
		sw[i] *= train.Weight(i)
	}
	return sw, w0, w1, nil
}

// solution is the solver's point and how it got there.
type solution struct {
	theta     []float64
	steps     int
	solver    string
	gnorm     float64 // the gradient's largest magnitude at theta
	converged bool
}

// solve minimises obj with the solver of st (auto: Newton up to
// NewtonMaxDim coefficients, else L-BFGS). Stopping short of st.Tol is a
// warning in the log, not an error.
func solve(obj *objective, st *Settings, env learn.Env) (*solution, error) {
	solver := st.Solver
	if solver == SolverAuto {
		solver = SolverNewton
		if obj.dim > NewtonMaxDim {
			solver = SolverLBFGS
		}
	}
	var (
		theta []float64
		steps int
		err   error
	)
	if solver == SolverNewton {
		res := obj.newton(st.Tol, st.MaxIter, env.Log())
		theta, steps = res.theta, res.steps
		if res.lineSearch {
			err = errors.New("no step from a fresh Hessian decreases the objective")
		}
		if cerr := obj.Err(); cerr != nil {
			return nil, cerr
		}
	} else {
		theta, steps, err = obj.lbfgs(st.Tol, st.MaxIter, env.Log())
		if theta == nil {
			return nil, fmt.Errorf("logreg: %s solver: %w", solver, err)
		}
	}
	if !finite(theta) {
		return nil, fmt.Errorf("logreg: %s solver: a coefficient is not finite (%v)", solver, err)
	}
	grad := make([]float64, obj.dim)
	obj.Grad(grad, theta)
	if cerr := obj.Err(); cerr != nil {
		return nil, cerr
	}
	gnorm := floats.Norm(grad, math.Inf(1))
	converged := gnorm <= st.Tol
	if !converged {
		// As scikit-learn, keep the last (and best) point and warn, in
		// the log and in the summary's converged.
		env.Log().Warn("logreg: the solver stopped before the gradient reached tol",
			"solver", solver, "error", err, "iterations", steps, "gradient", gnorm, "tol", st.Tol)
	}
	return &solution{theta: theta, steps: steps, solver: solver, gnorm: gnorm, converged: converged}, nil
}

// newModel is the model of coefficients theta (the intercept last, when
// fitted) over p features, with the features' means over n rows.
func newModel(obj *objective, theta []float64, n, p int, intercept bool) *Model {
	md := &Model{Coef: append([]float64(nil), theta[:p]...), FitIntercept: intercept, Means: make([]float64, p)}
	// The features' means, summed row by row (as over the rows of the
	// table) from the solver's copy, which holds them mapped.
	for j := range p {
		sum := 0.0
		for _, v := range obj.col(j) {
			sum += v
		}
		md.Means[j] = sum
	}
	floats.Scale(1/float64(n), md.Means)
	if intercept {
		md.Intercept = theta[p]
	}
	return md
}

// lbfgs minimises the objective from zero by gonum's L-BFGS. It returns
// a nil theta if the run ended with no point (ctx done, or gonum's error).
func (o *objective) lbfgs(tol float64, maxIter int, log *slog.Logger) ([]float64, int, error) {
	problem := optimize.Problem{Func: o.Func, Grad: o.Grad}
	method := &optimize.LBFGS{GradStopThreshold: tol, Linesearcher: &wolfe{}}
	// gonum counts the starting point as a major iteration: max_iter
	// steps are max_iter+1 of them. Its default converger would stop
	// L-BFGS once the objective gained less than 1e-10 in 100 steps, far
	// from a gradient of 1e-10; the gradient, max_iter or a failed line
	// search end the run instead.
	res, err := optimize.Minimize(problem, make([]float64, o.dim), &optimize.Settings{
		GradientThreshold: tol,
		MajorIterations:   maxIter + 1,
		Converger:         optimize.NeverTerminate{},
		Recorder:          &recorder{obj: o, log: log},
	}, method)
	if cerr := o.Err(); cerr != nil {
		return nil, 0, cerr
	}
	if res == nil {
		return nil, 0, err
	}
	if err == nil && res.Status != optimize.GradientThreshold {
		err = errors.New(res.Status.String())
	}
	return res.X, max(0, res.MajorIterations-1), err
}

// recorder stops the optimiser when the context is done and logs each
// iteration at debug level.
type recorder struct {
	obj *objective
	log *slog.Logger
}

func (r *recorder) Init() error { return nil }

func (r *recorder) Record(loc *optimize.Location, op optimize.Operation, st *optimize.Stats) error {
	if r.obj.stopped() {
		return r.obj.Err()
	}
	if op == optimize.MajorIteration && loc.Gradient != nil {
		r.log.Debug("logreg iteration", "iteration", st.MajorIterations-1, "objective", loc.F, "gradient", floats.Norm(loc.Gradient, math.Inf(1)))
	}
	return nil
}

// Load decodes a model written by Model.MarshalBinary.
func (m *Method) Load(payload []byte) (learn.Scorer, error) {
	md := new(Model)
	if err := md.UnmarshalBinary(payload); err != nil {
		return nil, err
	}
	return md, nil
}

func featureName(names []string, j int) string {
	if j < len(names) {
		return fmt.Sprintf("%d (%q)", j+1, names[j])
	}
	return fmt.Sprint(j + 1)
}
