package catsplit

import (
	"fmt"
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
