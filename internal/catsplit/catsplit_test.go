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
