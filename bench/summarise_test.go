package bench

import (
	"math"
	"testing"
)

// TestSummarise: the mean and the sample (n-1) standard deviation; one
// value has no spread; no value has no mean.
func TestSummarise(t *testing.T) {
	m := Summarise([]float64{1, 2, 3, 6})
	if m.Mean != 3 || math.Abs(m.Std-math.Sqrt(14.0/3)) > 1e-15 {
		t.Errorf("1, 2, 3, 6: %+v", m)
	}
	if m := Summarise([]float64{0.25}); m != (MeanStd{0.25, 0}) {
		t.Errorf("one value: %+v", m)
	}
	if m := Summarise(nil); !math.IsNaN(m.Mean) || m.Std != 0 {
		t.Errorf("no value: %+v", m)
	}
}
