package tree

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
)

// Settings are the parameters of a tree, scikit-learn's
// DecisionTreeClassifier's by name and meaning. The zero value is
// scikit-learn's default: gini, unlimited depth, min_samples_split 2,
// min_samples_leaf 1, every feature at every split, no class weights.
type Settings struct {
	// Criterion is "gini" (also when empty) or "entropy".
	Criterion string
	// MaxDepth is the largest depth of a leaf; 0 means unlimited.
	MaxDepth int
	// MinSamplesSplit is the fewest rows a node must hold to be split;
	// 0 means 2. A row repeated k times (a bootstrap) counts k times.
	MinSamplesSplit int
	// MinSamplesLeaf is the fewest rows each child of a split must hold;
	// 0 means 1.
	MinSamplesLeaf int
	// MinWeightFractionLeaf is the smallest share of the total weight
	// (row weights times class weights) each child of a split must hold.
	MinWeightFractionLeaf float64
	// MinImpurityDecrease is the smallest weighted impurity decrease
	// (scikit-learn's formula) a split must bring.
	MinImpurityDecrease float64
	// MaxFeatures is how many features each split draws: "none" (also
	// when empty: all), "sqrt", "log2", a count ("5") or a fraction of the
	// features ("0.3").
	MaxFeatures string
	// ClassWeight multiplies row weights by their class's weight.
	ClassWeight ClassWeight
}

// Params is the parameter table of Settings; other methods built on
// trees (forests, bagging) include it.
var Params = learn.ParamTable[Settings]{
	learn.Enum("criterion", "impurity measure of splits", []string{"gini", "entropy"}, func(s *Settings) *string { return &s.Criterion }),
	learn.Int("max_depth", "largest depth of a leaf, 0: unlimited", 0, learn.MaxDepth, func(s *Settings) *int { return &s.MaxDepth }),
	learn.Int("min_samples_split", "fewest rows a node needs to be split", 2, learn.MaxRows, func(s *Settings) *int { return &s.MinSamplesSplit }),
	learn.Int("min_samples_leaf", "fewest rows in each child of a split", 1, learn.MaxRows, func(s *Settings) *int { return &s.MinSamplesLeaf }),
	learn.Float("min_weight_fraction_leaf", "smallest share of the total weight in each child of a split", 0, 0.5, func(s *Settings) *float64 { return &s.MinWeightFractionLeaf }),
	learn.Float("min_impurity_decrease", "smallest weighted impurity decrease of a split", 0, math.Inf(1), func(s *Settings) *float64 { return &s.MinImpurityDecrease }),
	{Key: "max_features", Help: "features drawn at each split (none: all, sqrt, log2, a count, or a fraction like 0.3)",
		Get: func(s *Settings) string { return s.MaxFeatures },
		Set: func(s *Settings, v string) error {
			v = strings.TrimSpace(v)
			if _, err := maxFeatures(v, math.MaxInt32); err != nil {
				return err
			}
			s.MaxFeatures = v
			return nil
		}},
	ClassWeightParam("class_weight", func(s *Settings) *ClassWeight { return &s.ClassWeight }),
}

// ParamsOn returns Params acting on the tree settings held in another
// settings struct T (a forest's, a booster's), which field finds.
func ParamsOn[T any](field func(*T) *Settings) learn.ParamTable[T] {
	out := make(learn.ParamTable[T], len(Params))
	for i, p := range Params {
		out[i] = learn.ParamSpec[T]{Key: p.Key, Help: p.Help,
			Get: func(s *T) string { return p.Get(field(s)) },
			Set: func(s *T, v string) error { return p.Set(field(s), v) },
		}
	}
	return out
}

// Set sets one parameter by its scikit-learn name.
func (s *Settings) Set(key, value string) error { return Params.Set(s, key, value) }

// Resolved returns the settings with every default filled in.
func (s Settings) Resolved() Settings {
	if s.Criterion == "" {
		s.Criterion = "gini"
	}
	if s.MinSamplesSplit == 0 {
		s.MinSamplesSplit = 2
	}
	if s.MinSamplesLeaf == 0 {
		s.MinSamplesLeaf = 1
	}
	if s.MaxFeatures == "" {
		s.MaxFeatures = "none"
	}
	return s
}

// Check validates the settings (their defaults resolved).
func (s Settings) Check() error {
	r := s.Resolved()
	var errs []string
	if r.Criterion != "gini" && r.Criterion != "entropy" {
		errs = append(errs, fmt.Sprintf("criterion %q is not gini or entropy", r.Criterion))
	}
	if r.MaxDepth < 0 {
		errs = append(errs, fmt.Sprintf("max_depth %d is negative", r.MaxDepth))
	}
	if r.MinSamplesSplit < 2 {
		errs = append(errs, fmt.Sprintf("min_samples_split %d is below 2", r.MinSamplesSplit))
	}
	if r.MinSamplesLeaf < 1 {
		errs = append(errs, fmt.Sprintf("min_samples_leaf %d is below 1", r.MinSamplesLeaf))
	}
	if !(r.MinWeightFractionLeaf >= 0 && r.MinWeightFractionLeaf <= 0.5) {
		errs = append(errs, fmt.Sprintf("min_weight_fraction_leaf %v is not in [0, 0.5]", r.MinWeightFractionLeaf))
	}
	if !(r.MinImpurityDecrease >= 0) || math.IsInf(r.MinImpurityDecrease, 0) {
		errs = append(errs, fmt.Sprintf("min_impurity_decrease %v is not a finite non-negative number", r.MinImpurityDecrease))
	}
	if _, err := maxFeatures(r.MaxFeatures, math.MaxInt32); err != nil {
		errs = append(errs, "max_features: "+err.Error())
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", learn.ErrParam, strings.Join(errs, "; "))
	}
	return nil
}

// MaxFeaturesOf returns how many features a split draws among p, as
// scikit-learn counts them: sqrt and log2 round down (at least 1), a
// fraction f gives max(1, floor(f p)). A count above p is an error.
func (s Settings) MaxFeaturesOf(p int) (int, error) {
	return maxFeatures(s.Resolved().MaxFeatures, p)
}

func maxFeatures(v string, p int) (int, error) {
	switch v {
	case "none", "":
		return p, nil
	case "sqrt":
		return max(1, int(math.Sqrt(float64(p)))), nil
	case "log2":
		return max(1, int(math.Log2(float64(p)))), nil
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 1 {
			return 0, fmt.Errorf("want a count of at least 1, got %d", n)
		}
		if n > p {
			return 0, fmt.Errorf("%d features asked of %d", n, p)
		}
		return n, nil
	}
	f, err := learn.ParseFloat(v)
	if err != nil || !(f > 0 && f <= 1) {
		return 0, fmt.Errorf("want none, sqrt, log2, a count or a fraction in (0, 1], got %q", v)
	}
	return max(1, int(f*float64(p))), nil
}
