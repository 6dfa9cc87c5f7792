package svm

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/par"
	"github.com/aer-go/aer/learn"
	"github.com/aer-go/aer/prep"
)

// MethodName is the name the SVM is registered under.
const MethodName = "svm"

// Method is the cost-sensitive support vector machine on the learn
// contract. Its parameters are Settings', with scikit-learn's names.
type Method struct {
	s Settings
}

// NewMethod returns the SVM with scikit-learn's SVC(class_weight=
// 'balanced') settings. It needs complete, preferably standardised,
// features: the registered method is NewStandardized.
func NewMethod() learn.Method { return &Method{} }

// NewStandardized returns the SVM behind mean imputation and
// standardisation fitted on the training rows, as registered.
func NewStandardized() learn.Method { return prep.Standardize(NewMethod()) }

// New returns the method registered as svm (behind mean imputation and
// standardisation) with the typed settings s, for Go programs: the same
// method as NewStandardized with the parameters set from text.
func New(s Settings) learn.Method { return prep.Standardize(&Method{s: s}) }

// Name returns the registered name.
func (m *Method) Name() string { return MethodName }

// PaperGrid is the paper's appendix grid of its cost-sensitive SVM: class
// weights 1:110, 1:130, 1:150 or balanced, times the linear, RBF and
// polynomial (degree 3) kernels.
func (m *Method) PaperGrid() []string {
	return []string{"class_weight=0:1,1:110|0:1,1:130|0:1,1:150|balanced", "kernel=" + Linear + "," + RBF + "," + Polynomial, "degree=3"}
}

// Describe returns a one-line description.
func (m *Method) Describe() string {
	return "cost-sensitive support vector machine (libsvm's SMO: second-order working sets, shrinking, kernel cache; balanced class weights; Platt probabilities)"
}

// Settings returns a copy of the settings.
func (m *Method) Settings() Settings { return m.s }

// Set sets one parameter.
func (m *Method) Set(key, value string) error { return params.Set(&m.s, key, value) }

// Params lists every parameter with its value and default.
func (m *Method) Params() []learn.Param {
	cur, _ := m.s.resolved()
	def, _ := Settings{}.resolved()
	return params.List(&cur, &def)
}

// Fit trains on train; valid, when given, is where the Platt sigmoid is
// fitted (see Settings.Platt).
func (m *Method) Fit(ctx context.Context, train, valid *learn.Data, env learn.Env) (learn.Scorer, error) {
	return Train(ctx, train, valid, &m.s, env)
}

// Load decodes a model written by Model.MarshalBinary.
func (m *Method) Load(payload []byte) (learn.Scorer, error) { return decode(payload) }

// Train fits an SVM on train with settings s (nil: the defaults). The
// Platt sigmoid is fitted on valid when it is given and s.Platt is auto,
// else on the training rows' decision values.
func Train(ctx context.Context, train, valid *learn.Data, s *Settings, env learn.Env) (*Model, error) {
	if s == nil {
		s = &Settings{}
	}
	set, err := s.resolved()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", learn.ErrParam, err)
	}
	if err := checkComplete(train, "training data"); err != nil {
		return nil, err
	}
	if valid != nil {
		if err := checkComplete(valid, "validation data"); err != nil {
			return nil, err
		}
		if valid.Cols() != train.Cols() {
			return nil, fmt.Errorf("%w: validation data has %d features, training data %d", learn.ErrData, valid.Cols(), train.Cols())
		}
	}
	if err := learn.Interrupted(ctx); err != nil {
		return nil, err
	}
	n, d := train.X.Dims()
	k := newKernelFunc(set.Kernel, gammaOf(set.Gamma, train.X), set.Coef0, set.Degree)
	cw, _ := parseClassWeight(set.ClassWeight)
	cws := cw.weights(train.Y, train.W)

	// libsvm's order: the rows of class 0 (y = +1 inside the solver),
	// then those of class 1 (y = -1), each in training order; rows whose
	// bound C_i is 0 cannot move and are left out, as scikit-learn does.
	rows := make([]int, 0, n)
	var count [2]int
	for c := range 2 {
		for i, yi := range train.Y {
			if yi == c && set.C*cws[c]*train.Weight(i) > 0 {
				rows = append(rows, i)
				count[c]++
			}
		}
	}
	if count[0] == 0 || count[1] == 0 {
		return nil, fmt.Errorf("%w: training data needs rows of both classes with positive weight (it has %d of class 0, %d of class 1)", learn.ErrData, count[0], count[1])
	}
	l := len(rows)
	y := make([]float64, l)
	c := make([]float64, l)
	for k, i := range rows {
		y[k] = 1
		if train.Y[i] == 1 {
			y[k] = -1
		}
		c[k] = set.C * cws[train.Y[i]] * train.Weight(i)
	}
	env.Report("svm", 0, 2)
	q := newQMatrix(newLanes(train.X, rows), k, set.CacheSize*(1<<20), env.Threads())
	defer q.close()
	sol, err := newSolver(q, y, c, set.Tol).solve(ctx, set.MaxIter, !set.NoShrinking)
	if err != nil {
		return nil, err
	}
	env.Report("svm", 1, 2)
	if !sol.converged {
		env.Log().Warn(fmt.Sprintf("svm: the solver stopped at max_iter=%d before reaching tol=%g", set.MaxIter, set.Tol))
	}

	// The solver's decision function is sum_j y_j a_j K(x_j, x) - rho with
	// y = +1 for class 0; ours is its negative, positive for class 1. The
	// input order of the solver puts class 0 first, as scikit-learn lists
	// its support vectors.
	var support []int
	var coef []float64
	atBound := 0
	var nsv [2]int
	for k, i := range rows {
		a := sol.alpha[k]
		if a > 0 {
			support = append(support, i)
			cf := a
			if train.Y[i] == 0 {
				cf = -a
			}
			coef = append(coef, cf)
			nsv[train.Y[i]]++
			if a >= c[k] {
				atBound++
			}
		}
	}
	var sv *lanes
	if len(support) > 0 {
		sv = newLanes(train.X, support)
	} else {
		sv = &lanes{d: d}
	}
	model := newModel(k, sv, support, coef, sol.rho)
	model.means = columnMeans(train.X)

	// Platt scaling.
	rowsUsed := "training"
	if valid != nil && valid.Rows() > 0 && set.Platt == PlattAuto {
		f, err := decisionParallel(ctx, model, valid.X, env.Threads())
		if err != nil {
			return nil, err
		}
		model.plattA, model.plattB = plattFit(f, valid.Y, valid.W)
		rowsUsed = "validation"
	} else {
		// Training decision values come free from the gradient:
		// g_k = y_k sum_j y_j a_j K_kj - 1.
		f := make([]float64, l)
		yl := make([]int, l)
		var w []float64
		if train.W != nil {
			w = make([]float64, l)
		}
		for k, i := range rows {
			yk := 1.0
			if train.Y[i] == 1 {
				yk = -1
			}
			f[k] = sol.rho - yk*(sol.g[k]+1)
			yl[k] = train.Y[i]
			if w != nil {
				w[k] = train.W[i]
			}
		}
		model.plattA, model.plattB = plattFit(f, yl, w)
	}
	env.Report("svm", 2, 2)
	model.summary = &Summary{
		Kernel: set.Kernel, C: set.C, ClassWeights: cws, SupportVectors: nsv, AtBound: atBound,
		Intercept: sol.rho, Objective: sol.obj, Iterations: sol.iter, Converged: sol.converged,
		PlattA: model.plattA, PlattB: model.plattB, PlattRows: rowsUsed,
	}
	if k.kind != kLinear {
		model.summary.Gamma = k.gamma
	}
	if k.kind == kPoly {
		model.summary.Degree, model.summary.Coef0 = k.degree, k.coef0
	}
	env.Log().Debug("svm fit", "support_vectors", len(support), "iterations", sol.iter, "objective", sol.obj)
	return model, nil
}

// gammaOf resolves gamma: "scale" is 1/(d * variance of all values of x)
// (1 when that variance is 0), "auto" is 1/d, else the number.
func gammaOf(g string, x *mat.Dense) float64 {
	rule, v, _ := parseGamma(g)
	r, d := x.Dims()
	switch rule {
	case "auto":
		return 1 / float64(d)
	case "scale":
		raw := x.RawMatrix()
		mean := 0.0
		for i := range r {
			for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
				mean += v
			}
		}
		mean /= float64(r * d)
		ss := 0.0
		for i := range r {
			for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
				ss += (v - mean) * (v - mean)
			}
		}
		variance := ss / float64(r*d)
		if variance == 0 {
			return 1
		}
		return 1 / (float64(d) * variance)
	}
	return v
}

// checkComplete checks data as learn.Data.Check does and also refuses
// missing values, naming the first.
func checkComplete(d *learn.Data, what string) error {
	if err := d.Check(what); err != nil {
		return err
	}
	r, c := d.X.Dims()
	raw := d.X.RawMatrix()
	for i := range r {
		for f, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsNaN(v) {
				return fmt.Errorf("%w: %s row %d, feature %d is missing: the svm needs complete features (the registered method imputes them)", learn.ErrData, what, i+1, f+1)
			}
		}
	}
	return nil
}

// decisionBlock is the number of rows one goroutine scores at a time.
const decisionBlock = 256

// decisionParallel returns the decision values of the rows of x, blocks
// of rows spread over workers goroutines.
func decisionParallel(ctx context.Context, m *Model, x *mat.Dense, workers int) ([]float64, error) {
	r, c := x.Dims()
	out := make([]float64, r)
	blocks := (r + decisionBlock - 1) / decisionBlock
	errs := make([]error, blocks)
	par.For(workers, blocks, func(b int) {
		if errs[b] = learn.Interrupted(ctx); errs[b] != nil {
			return
		}
		r0, r1 := b*decisionBlock, min(r, (b+1)*decisionBlock)
		_, errs[b] = m.Decision(x.Slice(r0, r1, 0, c).(*mat.Dense), out[r0:r1])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// columnMeans returns the mean of every column of x.
func columnMeans(x *mat.Dense) []float64 {
	r, c := x.Dims()
	means := make([]float64, c)
	for i := range r {
		for j, v := range x.RawRowView(i) {
			means[j] += v
		}
	}
	for j := range means {
		means[j] /= float64(r)
	}
	return means
}
