package quantize

import (
	"fmt"
	"math"

	"github.com/aer-go/aer/learn"
)

// Levels is the largest integer of a leaf precision: 32767 for
// learn.PrecisionInt16, 127 for learn.PrecisionInt8.
func Levels(precision string) (int, error) {
	switch precision {
	case learn.PrecisionInt16, "":
		return math.MaxInt16, nil
	case learn.PrecisionInt8:
		return math.MaxInt8, nil
	}
	return 0, fmt.Errorf("%w: leaf precision %q", learn.ErrParam, precision)
}

// Ints writes and reads values as integers of Levels(precision) times a
// scale: a value v is stored as round(v/scale), off by at most scale/2.
type Ints struct {
	// Levels is the largest integer (127 or 32767).
	Levels int
}

// Scale returns the smallest float32 scale at which every value of
// magnitude up to maxAbs is stored without clipping; a maxAbs that is
// not finite, or beyond float32's range, is an error.
func (q Ints) Scale(maxAbs float64) (float32, error) {
	if !(maxAbs >= 0) || math.IsInf(maxAbs, 0) {
		return 0, fmt.Errorf("value magnitude %v", maxAbs)
	}
	if maxAbs == 0 {
		return 0, nil
	}
	want := maxAbs / float64(q.Levels)
	s := float32(want)
	if math.IsInf(float64(s), 0) {
		return 0, fmt.Errorf("value magnitude %g is beyond a float32 scale", maxAbs)
	}
	for float64(s) < want {
		s = math.Nextafter32(s, float32(math.Inf(1)))
	}
	return s, nil
}

// Put writes v at scale and returns the value Get reads back.
func (q Ints) Put(w *Writer, v float64, scale float32) float64 {
	k := 0
	if scale > 0 {
		k = int(math.Round(v / float64(scale)))
		k = max(-q.Levels, min(q.Levels, k))
	}
	if q.Levels > math.MaxInt8 {
		w.Uint16(uint16(int16(k)))
	} else {
		w.Byte(byte(int8(k)))
	}
	return float64(k) * float64(scale)
}

// Get reads a value written by Put at scale; an integer beyond Levels
// is an error of r.
func (q Ints) Get(r *Reader, scale float32) float64 {
	var k int
	if q.Levels > math.MaxInt8 {
		k = int(int16(r.Uint16()))
	} else {
		k = int(int8(r.Byte()))
	}
	if k < -q.Levels || k > q.Levels {
		r.Fail("quantised value %d beyond +-%d", k, q.Levels)
		return 0
	}
	return float64(k) * float64(scale)
}

// GetScale reads a scale written as Writer.Float32, which must be finite
// and not negative.
func GetScale(r *Reader) float32 {
	s := r.Float32()
	if !(s >= 0) || math.IsInf(float64(s), 0) {
		r.Fail("scale %v", s)
		return 0
	}
	return s
}

// Wide is the 16-bit precision of the numbers of a tree that only feed
// explanations and importances (covers, gains, weights, impurities).
var Wide = Ints{Levels: math.MaxInt16}

// Quantity is a named set of values of magnitude up to Max, stored at
// the precision of Ints.
type Quantity struct {
	Name string
	Max  float64
	Ints Ints
}

// Scales returns each quantity's Scale, in order; the error of the first
// that has none names it.
func Scales(qs ...Quantity) ([]float32, error) {
	out := make([]float32, len(qs))
	for i, q := range qs {
		s, err := q.Ints.Scale(q.Max)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q.Name, err)
		}
		out[i] = s
	}
	return out, nil
}
