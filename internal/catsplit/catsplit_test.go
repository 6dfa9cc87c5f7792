package catsplit

import (
	"math"
	"testing"
)

func TestRight(t *testing.T) {
	codes := []int32{1, 3, 31, 32, 40}
	cases := []struct {
		v    float64
		want bool
	}{
		{0, false}, {1, true}, {2, false}, {3, true}, {31, true}, {32, true}, {40, true}, {41, false},
		{1.5, true},           // truncated to 1
		{3.9999, true},        // truncated to 3
		{2.9999999999, true},  // float32 rounds it to 3
		{-0.5, false},         // negative: no category
		{-1e-50, false},       // float32 -0 is code 0, not in codes
		{1e7, false},          // a code, not in the set
		{1 << 24, false},      // no category
		{16777215.9, false},   // rounds to 2^24
		{1e300, false},        // far out
		{math.Inf(1), false},  // far out
		{math.Inf(-1), false}, // negative
		{math.NaN(), false},   // callers send missing values their default way first
	}
	for _, c := range cases {
		if got := Right(codes, c.v); got != c.want {
			t.Errorf("Right(%v, %v) = %v, want %v", codes, c.v, got, c.want)
		}
	}
	if !Right([]int32{0}, -1e-50) {
		t.Error("-1e-50 rounds to float32 -0, code 0, which is in {0}")
	}
	if !Right([]int32{MaxCode - 1}, MaxCode-1) {
		t.Error("2^24-1 is a valid code")
	}
}

func TestCheck(t *testing.T) {
	for _, bad := range [][]int32{nil, {}, {-1}, {MaxCode}, {2, 1}, {1, 1}} {
		if Check(bad) == nil {
			t.Errorf("Check(%v) = nil, want an error", bad)
		}
	}
	if err := Check([]int32{0, 5, MaxCode - 1}); err != nil {
		t.Error(err)
	}
}

func TestRuleLightGBM(t *testing.T) {
	codes := []int32{0, 2, 33, 100}
	cases := []struct {
		v    float64
		want bool
	}{
		{0, true}, {-0.5, true}, {0.9, true}, {-1e-50, true}, // truncated toward zero: code 0
		{-1, false}, {-1.5, false}, {math.Inf(-1), false}, // negative codes: no category
		{2, true}, {2.9999999999, true}, // truncated, not rounded to float32 (XGBoost: code 3)
		{3, false}, {33, true}, {33.5, true}, {34, false}, {100, true},
		{1 << 24, false}, {1<<31 - 0.5, false}, {1 << 31, false}, {1e300, false}, {math.Inf(1), false},
		{math.NaN(), false},
	}
	for _, c := range cases {
		if got := LightGBM.Right(codes, c.v); got != c.want {
			t.Errorf("LightGBM.Right(%v, %v) = %v, want %v", codes, c.v, got, c.want)
		}
	}
	if !LightGBM.Right([]int32{1<<31 - 1}, 1<<31-0.5) {
		t.Error("2^31-0.5 is code 2^31-1 under LightGBM's rule")
	}
	// The two rules differ exactly where the brief says.
	if XGBoost.Right([]int32{0}, -0.5) || !LightGBM.Right([]int32{0}, -0.5) {
		t.Error("-0.5 is no category to XGBoost, code 0 to LightGBM")
	}
	if !XGBoost.Right([]int32{3}, 2.9999999999) || LightGBM.Right([]int32{3}, 2.9999999999) {
		t.Error("2.9999999999 is code 3 to XGBoost (float32), 2 to LightGBM")
	}
	for _, bad := range [][]int32{nil, {}, {-1}, {2, 1}, {1, 1}} {
		if LightGBM.Check(bad) == nil {
			t.Errorf("LightGBM.Check(%v) = nil, want an error", bad)
		}
	}
	if err := LightGBM.Check([]int32{0, MaxCode, 1<<31 - 1}); err != nil {
		t.Error(err)
	}
	if XGBoost.Check([]int32{MaxCode}) == nil || Rule("other").Check([]int32{1}) == nil {
		t.Error("XGBoost's range or an unknown rule not checked")
	}
}

func TestIsZero(t *testing.T) {
	if ZeroThreshold != 1.0000000180025095e-35 {
		t.Errorf("ZeroThreshold = %v, want LightGBM's 1e-35f as a double", ZeroThreshold)
	}
	for _, c := range []struct {
		v    float64
		want bool
	}{{0, true}, {math.Copysign(0, -1), true}, {1e-35, true}, {ZeroThreshold, true}, {-ZeroThreshold, true},
		{math.Nextafter(ZeroThreshold, 1), false}, {-math.Nextafter(ZeroThreshold, 1), false}, {1e-30, false}, {math.NaN(), false}} {
		if got := IsZero(c.v); got != c.want {
			t.Errorf("IsZero(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	if !math.IsNaN(AsMissing(1e-36, true)) || AsMissing(1e-36, false) != 1e-36 || AsMissing(1, true) != 1 {
		t.Error("AsMissing")
	}
}
