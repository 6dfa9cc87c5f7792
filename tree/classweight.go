package tree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aer-go/aer/learn"
)

// ClassWeight is a class_weight setting, scikit-learn's meaning: row
// weights are multiplied by the weight of the row's class. The zero value
// is "none" (every class weighs 1).
type ClassWeight struct {
	balanced bool
	explicit bool
	w        [2]float64
}

// Balanced is the class_weight "balanced": w_c = n / (2 n_c).
var Balanced = ClassWeight{balanced: true}

// ExplicitClassWeight returns the class weights w0 for class 0 and w1 for
// class 1 ("0:w0,1:w1").
func ExplicitClassWeight(w0, w1 float64) ClassWeight {
	return ClassWeight{explicit: true, w: [2]float64{w0, w1}}
}

// ParseClassWeight reads "none", "balanced" or explicit weights
// "0:w0,1:w1" (a class left out weighs 1; weights are finite and
// non-negative, not both zero).
func ParseClassWeight(s string) (ClassWeight, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "none", "":
		return ClassWeight{}, nil
	case "balanced":
		return Balanced, nil
	}
	w := [2]float64{1, 1}
	var seen [2]bool
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, ":")
		c, err := strconv.Atoi(strings.TrimSpace(k))
		if !ok || err != nil || (c != 0 && c != 1) {
			return ClassWeight{}, fmt.Errorf("want none, balanced or class:weight pairs like 0:1,1:5, got %q", part)
		}
		if seen[c] {
			return ClassWeight{}, fmt.Errorf("class %d is given twice", c)
		}
		seen[c] = true
		f, err := learn.ParseFloat(v)
		if err != nil || f < 0 {
			return ClassWeight{}, fmt.Errorf("class %d: weight %q is not a finite non-negative number", c, strings.TrimSpace(v))
		}
		w[c] = f
	}
	if w[0] == 0 && w[1] == 0 {
		return ClassWeight{}, fmt.Errorf("both class weights are zero")
	}
	return ExplicitClassWeight(w[0], w[1]), nil
}

// String writes the setting the way ParseClassWeight reads it.
func (c ClassWeight) String() string {
	switch {
	case c.balanced:
		return "balanced"
	case c.explicit:
		return "0:" + learn.FormatFloat(c.w[0]) + ",1:" + learn.FormatFloat(c.w[1])
	}
	return "none"
}

// IsNone tells whether every class weighs 1.
func (c ClassWeight) IsNone() bool { return !c.balanced && (!c.explicit || c.w == [2]float64{1, 1}) }

// Of returns the weights of class 0 and class 1 for labels y and row
// weights w (nil: 1 each): OfClasses' for two classes, or the explicit
// weights.
func (c ClassWeight) Of(y []int, w []float64) (w0, w1 float64) {
	if c.explicit {
		return c.w[0], c.w[1]
	}
	ws := c.balancedOf(y, w, 2)
	return ws[0], ws[1]
}

// OfMulti returns the weight of each of k classes for labels y (0..k-1)
// and row weights w (nil: 1 each): 1 each for "none"; for "balanced",
// w_c = n / (m n_c), m being the number of classes present and n and n_c
// sums of row weights (counts when w is nil), scikit-learn's
// compute_class_weight (a class absent weighs 1; for two classes, one
// absent, both weigh 1). Explicit weights name two classes and are
// refused.
func (c ClassWeight) OfMulti(y []int, w []float64, k int) ([]float64, error) {
	if c.explicit && !c.IsNone() {
		return nil, fmt.Errorf("%w: class_weight %s names two classes; multi-class labels take none or balanced", learn.ErrParam, c)
	}
	return c.balancedOf(y, w, k), nil
}

// balancedOf is OfMulti's weights for a setting that is not explicit:
// balanced ones, or 1 each.
func (c ClassWeight) balancedOf(y []int, w []float64, k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		out[i] = 1
	}
	if !c.balanced {
		return out
	}
	n := make([]float64, k)
	for i, yi := range y {
		if w == nil {
			n[yi]++
		} else {
			n[yi] += w[i]
		}
	}
	total, present := 0.0, 0
	for _, v := range n {
		if v > 0 {
			total += v
			present++
		}
	}
	for i, v := range n {
		if v > 0 {
			out[i] = total / (float64(present) * v)
		}
	}
	return out
}

// ClassWeightParam declares a class_weight parameter stored in field.
func ClassWeightParam[T any](key string, field func(*T) *ClassWeight) learn.ParamSpec[T] {
	return learn.ParamSpec[T]{Key: key,
		Help: "class weights multiplying row weights (none, balanced: n/(2 n_c), or 0:w0,1:w1)",
		Get:  func(s *T) string { return field(s).String() },
		Set: func(s *T, v string) error {
			c, err := ParseClassWeight(v)
			if err != nil {
				return err
			}
			*field(s) = c
			return nil
		}}
}
