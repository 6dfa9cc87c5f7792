package svm

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
)

// Kernel names.
const (
	Linear     = "linear"
	RBF        = "rbf"
	Polynomial = "poly"
)

// Settings configure a support vector machine. The zero value is
// scikit-learn's SVC(class_weight='balanced'): RBF kernel, C 1,
// gamma "scale", tolerance 1e-3, shrinking, a 200 MB kernel cache, no
// iteration limit, and Platt scaling on the validation rows when there are
// some.
type Settings struct {
	// C is the penalty of margin violations; 0 means 1. Row i's bound is
	// C times its class weight times its row weight.
	C float64
	// Kernel is Linear, RBF or Polynomial; "" means RBF.
	Kernel string
	// Gamma is the coefficient of the RBF and polynomial kernels:
	// "scale" (or "") for 1/(d * variance of all training values),
	// "auto" for 1/d, or a positive number.
	Gamma string
	// Degree is the polynomial kernel's degree; 0 means 3.
	Degree int
	// Coef0 is the polynomial kernel's constant term.
	Coef0 float64
	// ClassWeight multiplies C by class: "balanced" (or "") for
	// n/(2 n_c) from the row weights, "none" for 1 each, or explicit
	// weights "0:1,1:5".
	ClassWeight string
	// Tol is the stopping tolerance on the maximal KKT violation; 0 means
	// 1e-3.
	Tol float64
	// MaxIter bounds the solver's iterations; 0 or less means no bound.
	MaxIter int
	// NoShrinking turns off libsvm's shrinking heuristic.
	NoShrinking bool
	// CacheSize bounds the kernel cache in megabytes; 0 means 200.
	CacheSize float64
	// Platt says which rows the probability sigmoid is fitted on: "auto"
	// (or "") for the validation rows when Fit gets some, else the
	// training rows; "train" for the training rows always.
	Platt string
}

// Platt scaling choices.
const (
	PlattAuto  = "auto"
	PlattTrain = "train"
)

// resolved returns s with every default filled in, or an error naming the
// setting out of range.
func (s Settings) resolved() (Settings, error) {
	if s.C == 0 {
		s.C = 1
	}
	if s.Kernel == "" {
		s.Kernel = RBF
	}
	if s.Gamma == "" {
		s.Gamma = "scale"
	}
	if s.Degree == 0 {
		s.Degree = 3
	}
	if s.ClassWeight == "" {
		s.ClassWeight = "balanced"
	}
	if s.Tol == 0 {
		s.Tol = 1e-3
	}
	if s.MaxIter < 0 {
		s.MaxIter = 0
	}
	if s.CacheSize == 0 {
		s.CacheSize = 200
	}
	if s.Platt == "" {
		s.Platt = PlattAuto
	}
	switch {
	case !(s.C > 0) || math.IsInf(s.C, 0):
		return s, fmt.Errorf("C %v is not a finite positive number", s.C)
	case s.Kernel != Linear && s.Kernel != RBF && s.Kernel != Polynomial:
		return s, fmt.Errorf("kernel %q is not one of linear, rbf, poly", s.Kernel)
	case s.Degree < 1:
		return s, fmt.Errorf("degree %d is below 1", s.Degree)
	case math.IsNaN(s.Coef0) || math.IsInf(s.Coef0, 0):
		return s, fmt.Errorf("coef0 %v is not finite", s.Coef0)
	case !(s.Tol > 0) || math.IsInf(s.Tol, 0):
		return s, fmt.Errorf("tol %v is not a finite positive number", s.Tol)
	case !(s.CacheSize > 0) || math.IsInf(s.CacheSize, 0):
		return s, fmt.Errorf("cache_size %v is not a finite positive number of megabytes", s.CacheSize)
	case s.Platt != PlattAuto && s.Platt != PlattTrain:
		return s, fmt.Errorf("platt %q is not auto or train", s.Platt)
	}
	if _, _, err := parseGamma(s.Gamma); err != nil {
		return s, err
	}
	if _, err := parseClassWeight(s.ClassWeight); err != nil {
		return s, err
	}
	return s, nil
}

// parseGamma reads "scale", "auto" or a positive number; rule is the name
// for the first two, value the number for the last.
func parseGamma(v string) (rule string, value float64, err error) {
	v = strings.TrimSpace(v)
	if v == "scale" || v == "auto" {
		return v, 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return "", 0, fmt.Errorf("gamma %q is not scale, auto or a finite positive number", v)
	}
	return "", f, nil
}

// classWeight is a parsed class_weight: balanced, or a weight per class.
type classWeight struct {
	balanced bool
	w        [2]float64
}

// parseClassWeight reads "balanced", "none" or "0:w0,1:w1" (a missing
// class weighs 1).
func parseClassWeight(v string) (classWeight, error) {
	v = strings.TrimSpace(v)
	switch v {
	case "balanced":
		return classWeight{balanced: true}, nil
	case "none":
		return classWeight{w: [2]float64{1, 1}}, nil
	}
	cw := classWeight{w: [2]float64{1, 1}}
	var seen [2]bool
	for _, part := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(part, ":")
		k = strings.TrimSpace(k)
		if !ok || (k != "0" && k != "1") {
			return cw, fmt.Errorf("class_weight %q: want balanced, none or weights like 0:1,1:5", v)
		}
		c := int(k[0] - '0')
		if seen[c] {
			return cw, fmt.Errorf("class_weight %q: class %d is given twice", v, c)
		}
		seen[c] = true
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return cw, fmt.Errorf("class_weight %q: the weight of class %d is not a finite positive number", v, c)
		}
		cw.w[c] = f
	}
	return cw, nil
}

// String writes the class weight in the form parseClassWeight reads.
func (cw classWeight) String() string {
	if cw.balanced {
		return "balanced"
	}
	if cw.w == [2]float64{1, 1} {
		return "none"
	}
	return "0:" + learn.FormatFloat(cw.w[0]) + ",1:" + learn.FormatFloat(cw.w[1])
}

// weights returns the weight of each class for labels y and row weights w
// (nil: 1 each): balanced gives total/(2 * class total).
func (cw classWeight) weights(y []int, w []float64) [2]float64 {
	if !cw.balanced {
		return cw.w
	}
	var tot [2]float64
	for i, c := range y {
		if w == nil {
			tot[c]++
		} else {
			tot[c] += w[i]
		}
	}
	n := tot[0] + tot[1]
	var out [2]float64
	for c := range out {
		if tot[c] > 0 {
			out[c] = n / (2 * tot[c])
		}
	}
	return out
}

// params are the parameters of Settings, scikit-learn's names.
// Bounds of svm's integer parameters: the poly kernel's degree and the
// solver's iterations.
const (
	maxDegree = 100
	maxIter   = learn.MaxIter
)

var params = learn.ParamTable[Settings]{
	learn.OpenFloat("C", "penalty of margin violations (row i's bound is C x class weight x row weight)", 0, math.Inf(1),
		func(s *Settings) *float64 { return &s.C }),
	learn.Enum("kernel", "kernel function", []string{Linear, RBF, Polynomial}, func(s *Settings) *string { return &s.Kernel }),
	{Key: "gamma", Help: "kernel coefficient of rbf and poly: scale = 1/(features x variance of all training values), auto = 1/features, or a positive number",
		Get: func(s *Settings) string { return s.Gamma },
		Set: func(s *Settings, v string) error {
			rule, f, err := parseGamma(v)
			if err != nil {
				return err
			}
			if rule == "" {
				rule = learn.FormatFloat(f)
			}
			s.Gamma = rule
			return nil
		}},
	learn.Int("degree", "degree of the poly kernel", 1, maxDegree, func(s *Settings) *int { return &s.Degree }),
	learn.Float("coef0", "constant term of the poly kernel", math.Inf(-1), math.Inf(1), func(s *Settings) *float64 { return &s.Coef0 }),
	{Key: "class_weight", Help: "class weights multiplying C: balanced = n/(2 n_c) from the row weights, none, or explicit like 0:1,1:5",
		Get: func(s *Settings) string { return s.ClassWeight },
		Set: func(s *Settings, v string) error {
			cw, err := parseClassWeight(v)
			if err != nil {
				return err
			}
			s.ClassWeight = cw.String()
			return nil
		}},
	learn.OpenFloat("tol", "stopping tolerance on the largest KKT violation", 0, math.Inf(1), func(s *Settings) *float64 { return &s.Tol }),
	{Key: "max_iter", Help: "bound on solver iterations, -1 for none",
		Get: func(s *Settings) string {
			if s.MaxIter <= 0 {
				return "-1"
			}
			return strconv.Itoa(s.MaxIter)
		},
		Set: func(s *Settings, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n == 0 || n < -1 || n > maxIter {
				return fmt.Errorf("want -1 or a positive integer of at most %d", maxIter)
			}
			s.MaxIter = max(n, 0)
			return nil
		}},
	learn.Bool("shrinking", "shrink the working set (libsvm's heuristic)", true, func(s *Settings) *bool { return &s.NoShrinking }),
	learn.OpenFloat("cache_size", "kernel cache in megabytes", 0, math.Inf(1), func(s *Settings) *float64 { return &s.CacheSize }),
	learn.Enum("platt", "rows the probability sigmoid is fitted on: auto = validation rows when given, else training rows; train = training rows", []string{PlattAuto, PlattTrain},
		func(s *Settings) *string { return &s.Platt }),
}
