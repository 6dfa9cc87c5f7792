package xgboost

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestThreshold checks, around many float32 conditions c, that a float64
// value v is below Threshold(c) exactly when float32(v) < c, as XGBoost
// decides: at the midpoints where rounding to float32 changes, on both
// sides of them, at c and the float32s beside it, and at random values
// between.
func TestThreshold(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	cs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, -0.1, 0.5, 1.5, 2.5, 3, 1e-45, -1e-45, 1e-38, 1.1754944e-38,
		math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), 16777216, 16777217, 0.26290113, 1.1519966}
	for range 20000 {
		c := math.Float32frombits(r.Uint32())
		if c == c && !math.IsInf(float64(c), 0) {
			cs = append(cs, c)
		}
	}
	for _, c := range cs {
		thr := Threshold(c)
		below := float64(math.Nextafter32(c, float32(math.Inf(-1))))
		above := float64(math.Nextafter32(c, float32(math.Inf(1))))
		vs := []float64{thr, math.Nextafter(thr, math.Inf(1)), math.Nextafter(thr, math.Inf(-1)), float64(c), below, above,
			math.Inf(1), math.Inf(-1), 0}
		for range 8 {
			lo, hi := below, float64(c)
			if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
				break
			}
			vs = append(vs, lo+(hi-lo)*r.Float64())
		}
		for _, v := range vs {
			if math.Abs(v) > math.MaxFloat32 && !math.IsInf(v, 0) {
				continue // Go leaves float32 of an out-of-range value to the platform
			}
			if got, want := v < thr, float32(v) < c; got != want {
				t.Fatalf("c = %v (bits %#x), v = %v: v < Threshold(c) = %v (Threshold %v), float32(v) < c = %v",
					c, math.Float32bits(c), v, got, thr, want)
			}
		}
	}
	// The midpoints of the top of the range round to ±Inf or back.
	top := math.MaxFloat32 + 0x1p103
	if Threshold(float32(math.Inf(1))) != top {
		t.Errorf("Threshold(+Inf) = %v, want MaxFloat32 + 2^103 = %v", Threshold(float32(math.Inf(1))), top)
	}
	if got := Threshold(-math.MaxFloat32); got != math.Nextafter(-top, 0) {
		t.Errorf("Threshold(-MaxFloat32) = %v, want just above -(MaxFloat32 + 2^103)", got)
	}
	if !math.IsInf(Threshold(float32(math.Inf(-1))), -1) {
		t.Error("Threshold(-Inf) is not -Inf")
	}
}

// TestThresholdNotNaive shows why thresholds are not float64(c): a value
// just below a float32 condition, as a float64, rounds up to it, and
// XGBoost sends it right.
func TestThresholdNotNaive(t *testing.T) {
	c := float32(0.1)
	v := math.Nextafter(float64(c), 0) // below c as a float64
	if float32(v) < c {
		t.Fatal("v should round to c")
	}
	if v < Threshold(c) {
		t.Errorf("%v < Threshold(%v) = %v: it would go left, XGBoost sends it right", v, c, Threshold(c))
	}
	if !(v < float64(c)) {
		t.Error("the naive threshold would have sent it right too: the test shows nothing")
	}
}
