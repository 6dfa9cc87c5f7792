package catsplit

import (
	"fmt"
	"math"
	"slices"
)

// MaxCode bounds the codes XGBoost accepts: a value at or above 2^24 (the
// first float32 that does not hold every integer below it) is not a
// category, and goes left.
const MaxCode = 1 << 24

// Right tells whether a present (not NaN) value v goes right at a split
// whose right-hand categories are codes (sorted ascending). As XGBoost
// does, v is first rounded to float32; a negative value or one of 2^24 or
// more is no category and goes left; any other is truncated to an integer
// code, which goes right exactly when it is in codes. (So 2.5 is code 2,
// and -0.3 goes left while -1e-50, -0 once rounded, is code 0.)
func Right(codes []int32, v float64) bool {
	// Outside (-1, 2^25) the float32 is negative or at least 2^24 anyway;
	// inside it, the conversion cannot overflow.
	if !(v > -1 && v < 2*MaxCode) {
		return false
	}
	f := float32(v)
	if f < 0 || f >= MaxCode {
		return false
	}
	_, found := slices.BinarySearch(codes, int32(f))
	return found
}

// Check reports what is wrong with a split's codes: none, out of [0, 2^24),
// or not strictly ascending.
func Check(codes []int32) error {
	if len(codes) == 0 {
		return fmt.Errorf("no categories")
	}
	for i, c := range codes {
		if c < 0 || c >= MaxCode {
			return fmt.Errorf("category %d is outside [0, %d)", c, MaxCode)
		}
		if i > 0 && c <= codes[i-1] {
			return fmt.Errorf("categories are not strictly ascending (%d after %d)", c, codes[i-1])
		}
	}
	return nil
}

// Rule names the way a split turns a feature value into a category code:
// the rule of the library that trained the model. A split's codes are the
// ones whose rows go right under either rule.
type Rule string

const (
	// XGBoost is Right's rule (the zero value, the rule of every model
	// saved before LightGBM's were imported).
	XGBoost Rule = ""
	// LightGBM is LightGBM's Tree::CategoricalDecision (3.x and 4.x): the
	// value is truncated toward zero to an int, with no rounding to
	// float32 first; a value at or below -1, or at or above 2^31 (which
	// x86's conversion turns into a negative int), is no category. So
	// -0.5 and 0.9 are code 0, and 2.9999999999 is code 2. (LightGBM
	// sends the codes of its bitset left: an imported split swaps its
	// children so that they go right.)
	LightGBM Rule = "lightgbm"
)

// Right tells whether a present (not NaN) value v goes right at a split
// whose right-hand categories are codes (sorted ascending), under rule r.
func (r Rule) Right(codes []int32, v float64) bool {
	if r != LightGBM {
		return Right(codes, v)
	}
	if !(v > -1 && v < 1<<31) {
		return false
	}
	_, found := slices.BinarySearch(codes, int32(v))
	return found
}

// Check reports what is wrong with a split's codes under rule r, or with
// the rule itself: none, out of the rule's range ([0, 2^24) for XGBoost,
// [0, 2^31) for LightGBM), not strictly ascending, or an unknown rule.
func (r Rule) Check(codes []int32) error {
	switch r {
	case XGBoost:
		return Check(codes)
	case LightGBM:
	default:
		return fmt.Errorf("unknown category rule %q", string(r))
	}
	if len(codes) == 0 {
		return fmt.Errorf("no categories")
	}
	for i, c := range codes {
		if c < 0 {
			return fmt.Errorf("category %d is negative", c)
		}
		if i > 0 && c <= codes[i-1] {
			return fmt.Errorf("categories are not strictly ascending (%d after %d)", c, codes[i-1])
		}
	}
	return nil
}

// ZeroThreshold is LightGBM's kZeroThreshold (1e-35f, as a double): a
// value within it of 0 is zero to LightGBM. Its predictor drops such
// values from a row (they read as 0), and a split whose missing type is
// Zero sends them where it sends missing values.
const ZeroThreshold = float64(float32(1e-35))

// IsZero is LightGBM's Tree::IsZero: |v| <= ZeroThreshold (false for NaN).
func IsZero(v float64) bool { return v >= -ZeroThreshold && v <= ZeroThreshold }

// AsMissing returns NaN where a split that treats zero as missing
// (zeroMissing, LightGBM's missing type Zero) meets a zero value
// (IsZero), and v otherwise: the split then sends the value where it
// sends missing values.
func AsMissing(v float64, zeroMissing bool) float64 {
	if zeroMissing && IsZero(v) {
		return math.NaN()
	}
	return v
}
