package quantize

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestCuts: thresholds come back exactly (negative zero, infinities and
// values one ulp apart included), one byte an index up to 256 cuts and
// two above.
func TestCuts(t *testing.T) {
	vals := [][]float64{{0.5, math.Copysign(0, -1), 0, math.Inf(-1), 1, math.Nextafter(1, 2)}, nil}
	for i := range 300 {
		vals[1] = append(vals[1], float64(i)/7)
	}
	c := NewCuts(2)
	for f, vs := range vals {
		for _, v := range vs {
			c.Add(f, v)
			c.Add(f, v)
		}
	}
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	var w Writer
	c.Append(&w)
	start := len(w.B)
	for f, vs := range vals {
		for _, v := range vs {
			c.Put(&w, f, v)
		}
	}
	if got, want := len(w.B)-start, len(vals[0])+2*len(vals[1]); got != want {
		t.Fatalf("indices take %d bytes, want %d", got, want)
	}
	r := NewReader(w.B)
	back := ReadCuts(r, 2)
	for f, vs := range vals {
		for _, v := range vs {
			if got := back.Get(r, f); math.Float64bits(got) != math.Float64bits(v) {
				t.Fatalf("feature %d: %v came back as %v", f, v, got)
			}
		}
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
}

// TestInts: a value comes back within half a step of its scale, the
// largest magnitude exactly at the top integer, and encoding the decoded
// values again gives the same bytes.
func TestInts(t *testing.T) {
	vals := []float64{0.3, -0.71, 0.0001, 0, -0.7099}
	for _, levels := range []int{127, 32767} {
		q := Ints{Levels: levels}
		s, err := q.Scale(0.71)
		if err != nil {
			t.Fatal(err)
		}
		var w Writer
		dec := make([]float64, len(vals))
		for i, v := range vals {
			dec[i] = q.Put(&w, v, s)
			if math.Abs(dec[i]-v) > float64(s)/2 {
				t.Fatalf("%d levels: %v came back as %v (scale %v)", levels, v, dec[i], s)
			}
		}
		var again Writer
		for _, v := range dec {
			q.Put(&again, v, s)
		}
		if string(again.B) != string(w.B) {
			t.Fatalf("%d levels: encoding again differs", levels)
		}
		r := NewReader(w.B)
		for i := range vals {
			if got := q.Get(r, s); got != dec[i] {
				t.Fatalf("%d levels: read %v, wrote %v", levels, got, dec[i])
			}
		}
	}
	if _, err := (Ints{Levels: 127}).Scale(math.Inf(1)); err == nil {
		t.Fatal("an infinite scale")
	}
	if _, err := (Ints{Levels: 127}).Scale(1e300); err == nil {
		t.Fatal("a scale beyond float32")
	}
}

// TestReader: counts beyond the bytes left, truncation and trailing bytes
// are errors wrapping ErrFormat, never a panic or a large allocation.
func TestReader(t *testing.T) {
	var w Writer
	w.Uvarint(1 << 40)
	r := NewReader(w.B)
	if n := r.Count("things", 8, math.MaxInt); n != 0 || !errors.Is(r.Err(), ErrFormat) {
		t.Fatalf("count %d, %v", n, r.Err())
	}
	r = NewReader([]byte{1, 2, 3})
	r.Float64()
	if !errors.Is(r.Err(), ErrFormat) || r.Byte() != 0 {
		t.Fatalf("truncated: %v", r.Err())
	}
	r = NewReader([]byte{1, 2})
	r.Byte()
	if err := r.Done(); !errors.Is(err, ErrFormat) {
		t.Fatalf("trailing byte: %v", err)
	}
}

// TestBounds: the sigmoid and softmax bounds hold on a grid of margins,
// and MonotoneBound covers the largest change of a steep map.
func TestBounds(t *testing.T) {
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	b := 0.3
	sb := SigmoidBound(b)
	for x := -10.0; x <= 10; x += 0.01 {
		if d := math.Abs(sig(x+b) - sig(x)); d > sb {
			t.Fatalf("sigmoid moved %v > %v at %v", d, sb, x)
		}
	}
	if math.Abs(sb-(sig(b/2)-sig(-b/2))) > 2e-12 {
		t.Fatalf("sigmoid bound %v is not attained", sb)
	}
	if SoftmaxBound(3) != 1 || math.Abs(SoftmaxBound(0.2)-0.1) > 2e-12 {
		t.Fatal("softmax bound")
	}
	steep := func(p float64) float64 { return sig(3*math.Log(p/(1-p)) + 1) }
	mb := MonotoneBound(steep, 1e-3)
	var worst float64
	for p := 0.0; p+1e-3 <= 1; p += 1e-5 {
		worst = math.Max(worst, math.Abs(steep(p+1e-3)-steep(p)))
	}
	if !(mb >= worst && mb < 2*worst+1e-3) {
		t.Fatalf("monotone bound %v, largest change seen %v", mb, worst)
	}
	if MonotoneBound(steep, 0) != 0 {
		t.Fatal("a zero bound grew")
	}
}

func TestScales(t *testing.T) {
	leaf := Ints{Levels: 127}
	s, err := Scales(Quantity{Name: "leaf values", Max: 2.54, Ints: leaf}, Quantity{Name: "covers", Max: 0, Ints: Wide})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := leaf.Scale(2.54)
	if len(s) != 2 || s[0] != want || s[1] != 0 {
		t.Fatalf("scales %v, want [%v 0]", s, want)
	}
	_, err = Scales(Quantity{Name: "leaf values", Max: 1, Ints: leaf}, Quantity{Name: "gains", Max: math.Inf(1), Ints: Wide})
	if err == nil || !strings.HasPrefix(err.Error(), "gains: ") {
		t.Fatalf("an infinite gain: %v, want an error naming the gains", err)
	}
}
