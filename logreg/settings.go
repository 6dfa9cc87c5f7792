package logreg

import (
	"fmt"
	"math"
	"strings"

	"github.com/aer-go/aer/learn"
)

// Settings configure a fit. The zero value is the default: scikit-learn's
// LogisticRegression(class_weight='balanced', max_iter=2000), the Python
// anchors' LR_balanced, solved to the exact optimum.
type Settings struct {
	// C is the inverse of the regularisation strength; 0 means 1.
	C float64
	// ClassWeight weighs the rows of each class; the zero value is
	// balanced.
	ClassWeight ClassWeight
	// MaxIter bounds the solver's iterations; 0 means 2000.
	MaxIter int
	// Tol stops the solver when no entry of the gradient of the
	// objective divided by C times the total row weight (the scale of a
	// mean loss, so the same tolerance suits any number of rows) exceeds
	// it; 0 means 1e-10, the optimum to near machine precision.
	Tol float64
	// NoIntercept fits no intercept (the model passes through the
	// origin); the default fits one, unpenalised.
	NoIntercept bool
	// Solver is "newton" (Newton's method with a Cholesky factorisation
	// of the Hessian), "lbfgs" (L-BFGS), or ""/"auto": Newton up to
	// NewtonMaxDim coefficients, L-BFGS beyond.
	Solver string
}

// NewtonMaxDim is the most coefficients (with the intercept) for which
// the auto solver is Newton's method. A Newton iteration costs n d^2/2
// multiply-adds for the Hessian and d^3/6 for its factorisation against
// about 2 n d for an L-BFGS iteration; Newton needs 5-10 iterations to the
// exact optimum where L-BFGS needs hundreds, so Newton is both faster and
// exact up to several hundred features.
const NewtonMaxDim = 600

// Solver names.
const (
	SolverAuto   = "auto"
	SolverNewton = "newton"
	SolverLBFGS  = "lbfgs"
)

// resolved returns s with its defaults filled in.
func (s Settings) resolved() Settings {
	if s.C == 0 {
		s.C = 1
	}
	if s.MaxIter == 0 {
		s.MaxIter = 2000
	}
	if s.Tol == 0 {
		s.Tol = 1e-10
	}
	if s.Solver == "" {
		s.Solver = SolverAuto
	}
	return s
}

// check reports a setting out of range (Set refuses them; a Settings
// built in code may hold them).
func (s Settings) check() error {
	switch {
	case !(s.C > 0) || math.IsInf(s.C, 0):
		return fmt.Errorf("C %v is not a positive number", s.C)
	case s.MaxIter < 1:
		return fmt.Errorf("max_iter %d is below 1", s.MaxIter)
	case !(s.Tol > 0) || math.IsInf(s.Tol, 0):
		return fmt.Errorf("tol %v is not a positive number", s.Tol)
	case s.Solver != SolverAuto && s.Solver != SolverNewton && s.Solver != SolverLBFGS:
		return fmt.Errorf("solver %q is not auto, newton or lbfgs", s.Solver)
	}
	return s.ClassWeight.check()
}

var params = learn.ParamTable[Settings]{
	learn.OpenFloat("C", "inverse regularisation strength: minimise 0.5 ||w||^2 + C sum_i s_i log(1 + exp(-t_i (w.x_i + b)))", 0, math.Inf(1),
		func(s *Settings) *float64 { return &s.C }),
	{Key: "class_weight", Help: "weight of each class's rows, times the row weights: balanced (n / (2 n_c), from row weights when given), none, or 0:W0,1:W1 (an omitted class weighs 1)",
		Get: func(s *Settings) string { return s.ClassWeight.String() },
		Set: func(s *Settings, v string) error {
			cw, err := ParseClassWeight(v)
			if err == nil {
				s.ClassWeight = cw
			}
			return err
		}},
	learn.Int("max_iter", "most solver iterations", 1, learn.MaxIter, func(s *Settings) *int { return &s.MaxIter }),
	learn.OpenFloat("tol", "stop when no gradient entry of the objective divided by C times the total row weight exceeds this", 0, math.Inf(1),
		func(s *Settings) *float64 { return &s.Tol }),
	learn.Bool("fit_intercept", "fit an unpenalised intercept", true, func(s *Settings) *bool { return &s.NoIntercept }),
	learn.Enum("solver", fmt.Sprintf("auto is newton up to %d coefficients, lbfgs beyond", NewtonMaxDim),
		[]string{SolverAuto, SolverNewton, SolverLBFGS}, func(s *Settings) *string { return &s.Solver }),
}

// ClassWeight weighs the rows of each class. The zero value is balanced.
type ClassWeight struct {
	// Explicit, when set, uses Neg and Pos; otherwise the weights are
	// balanced, w_c = W / (2 W_c) with W the total row weight and W_c
	// that of class c (scikit-learn's "balanced" on unit row weights).
	Explicit bool
	// Neg and Pos weigh the rows of label 0 and label 1.
	Neg, Pos float64
}

// Balanced are weights w_c = n / (2 n_c).
var Balanced = ClassWeight{}

// Unweighted are weights of 1 for both classes.
var Unweighted = ClassWeight{Explicit: true, Neg: 1, Pos: 1}

// ParseClassWeight reads "balanced", "none", or "0:W0,1:W1" (either part
// may be left out, that class weighing 1) with positive finite weights.
func ParseClassWeight(v string) (ClassWeight, error) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "balanced":
		return Balanced, nil
	case "none":
		return Unweighted, nil
	}
	cw := ClassWeight{Explicit: true, Neg: 1, Pos: 1}
	seen := [2]bool{}
	for part := range strings.SplitSeq(v, ",") {
		k, w, ok := strings.Cut(part, ":")
		k = strings.TrimSpace(k)
		if !ok || (k != "0" && k != "1") {
			return cw, fmt.Errorf("want balanced, none or 0:W0,1:W1, not %q", v)
		}
		f, err := learn.ParseFloat(w)
		if err != nil || !(f > 0) {
			return cw, fmt.Errorf("class %s: want a positive number, not %q", k, strings.TrimSpace(w))
		}
		c := int(k[0] - '0')
		if seen[c] {
			return cw, fmt.Errorf("class %s is given twice", k)
		}
		seen[c] = true
		if c == 0 {
			cw.Neg = f
		} else {
			cw.Pos = f
		}
	}
	return cw, nil
}

// String is the form ParseClassWeight reads: balanced, none (explicit
// weights of 1) or 0:W0,1:W1.
func (cw ClassWeight) String() string {
	switch {
	case !cw.Explicit:
		return "balanced"
	case cw.Neg == 1 && cw.Pos == 1:
		return "none"
	}
	return "0:" + learn.FormatFloat(cw.Neg) + ",1:" + learn.FormatFloat(cw.Pos)
}

func (cw ClassWeight) check() error {
	if cw.Explicit && (!(cw.Neg > 0) || !(cw.Pos > 0) || math.IsInf(cw.Neg, 0) || math.IsInf(cw.Pos, 0)) {
		return fmt.Errorf("class weights %v, %v are not positive finite numbers", cw.Neg, cw.Pos)
	}
	return nil
}

// Weights returns the weight of the rows of label 0 and of label 1, given
// the total row weight of each class.
func (cw ClassWeight) Weights(neg, pos float64) (w0, w1 float64) {
	if cw.Explicit {
		return cw.Neg, cw.Pos
	}
	return (neg + pos) / (2 * neg), (neg + pos) / (2 * pos)
}
