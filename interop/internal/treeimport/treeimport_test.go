package treeimport

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/aer-go/aer/boost"
)

// zeros is an endless file of NUL bytes (/dev/zero) that counts what
// was read of it.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

func TestReadAll(t *testing.T) {
	errFormat, errUnsupported := errors.New("format"), errors.New("unsupported")
	data, err := ReadAll(strings.NewReader("abc"), nil, errFormat, errUnsupported)
	if err != nil || string(data) != "abc" {
		t.Fatalf("ReadAll = %q, %v; want abc, nil", data, err)
	}
	long := strings.Repeat("x", 3*chunk+17)
	data, err = ReadAll(strings.NewReader(long), func([]byte, bool) (bool, error) { return true, nil }, errFormat, errUnsupported)
	if err != nil || string(data) != long {
		t.Fatalf("ReadAll of %d bytes: %d bytes, %v", len(long), len(data), err)
	}

	// A sniffer that refuses: /dev/zero is refused after its first bytes.
	refuse := func(prefix []byte, eof bool) (bool, error) {
		if len(prefix) != SniffBytes || eof {
			t.Errorf("sniffed %d bytes, eof %v; want %d, false", len(prefix), eof, SniffBytes)
		}
		return false, errFormat
	}
	z := &zeros{}
	if _, err := ReadAll(z, refuse, errFormat, errUnsupported); !errors.Is(err, errFormat) {
		t.Fatalf("/dev/zero: %v, want the sniffer's error", err)
	}
	if z.read > SniffBytes {
		t.Errorf("read %d bytes of /dev/zero before refusing it, want %d", z.read, SniffBytes)
	}

	// A text format: the first NUL byte ends the read, wherever it is.
	text := func([]byte, bool) (bool, error) { return true, nil }
	z = &zeros{}
	if _, err := ReadAll(io.MultiReader(strings.NewReader(strings.Repeat("tree\n", 1000)), z), text, errFormat, errUnsupported); !errors.Is(err, errFormat) || !strings.Contains(err.Error(), "byte 5001 is NUL") {
		t.Fatalf("text then NULs: %v", err)
	}
	if z.read > chunk {
		t.Errorf("read %d bytes of NULs, want at most %d", z.read, chunk)
	}
	if _, err := ReadAll(strings.NewReader("tr\x00ee"), text, errFormat, errUnsupported); err == nil || !strings.Contains(err.Error(), "byte 3 is NUL") {
		t.Fatalf("a short text with a NUL: %v", err)
	}
	// Binary formats keep their NULs.
	if data, err := ReadAll(strings.NewReader("{\x00}"), nil, errFormat, errUnsupported); err != nil || len(data) != 3 {
		t.Fatalf("binary: %q, %v", data, err)
	}
}

func TestCodes(t *testing.T) {
	c := &Codes{Split: 10, Total: 25}
	for _, n := range []int{10, 10, 5} {
		if err := c.Add(n); err != nil {
			t.Fatalf("Add(%d): %v", n, err)
		}
	}
	if err := c.Add(1); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "too many category codes: 26 in the splits so far, more than the 25") {
		t.Errorf("over the total: %v", err)
	}
	if err := (&Codes{Split: 10}).Add(11); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "too many category codes: 11 in one split, more than the 10") {
		t.Errorf("over a split's: %v", err)
	}
	var d Codes
	if err := d.Add(MaxSplitCodes); err != nil {
		t.Errorf("the default split limit: %v", err)
	}
	if err := d.Add(MaxSplitCodes + 1); err == nil {
		t.Error("the default split limit is not MaxSplitCodes")
	}
}

func TestFinite(t *testing.T) {
	b := &boost.Tree{
		Left:      []int32{1, -1, -1},
		Threshold: []float64{0.5, 0, 0},
		Gain:      []float64{1, 0, 0},
		Cover:     []float64{2, 1, 1},
		Value:     []float64{0, 1, 3},
	}
	if _, _, _, ok := Finite(b); !ok {
		t.Fatal("a finite tree is not finite")
	}
	b.Threshold[0] = math.Inf(-1)
	if k, f, v, ok := Finite(b); ok || k != 0 || f != "threshold" || !math.IsInf(v, -1) {
		t.Errorf("threshold -Inf: %d %s %v %v", k, f, v, ok)
	}
	b.Categories = [][]int32{{1}, nil, nil} // a categorical split's threshold is not read
	if _, _, _, ok := Finite(b); !ok {
		t.Error("a categorical split's threshold counts")
	}
	b.Value[2] = math.Inf(1)
	if k, f, _, ok := Finite(b); ok || k != 2 || f != "value" {
		t.Errorf("leaf +Inf: %d %s %v", k, f, ok)
	}
}
func TestSplitValues(t *testing.T) {
	// Node 0 splits into 1 and 2; node 2 splits into 3 and 4.
	b := &boost.Tree{
		Left:  []int32{1, -1, 3, -1, -1},
		Cover: []float64{0, 1, 0, 3, 1},
		Value: []float64{0, 2, 0, 4, 8},
	}
	SplitValues(b)
	// Node 2: (3*4+1*8)/4 = 5; its cover stays 0 (unused for node 0's
	// children here: node 0 weighs node 1 (cover 1) and node 2 (cover 0)).
	if b.Value[2] != 5 {
		t.Errorf("Value[2] = %v, want 5", b.Value[2])
	}
	if b.Value[0] != 2 {
		t.Errorf("Value[0] = %v, want 2 (cover 1 on 2, cover 0 on 5)", b.Value[0])
	}
	z := &boost.Tree{Left: []int32{1, -1, -1}, Cover: []float64{0, 0, 0}, Value: []float64{0, 1, 3}}
	SplitValues(z)
	if z.Value[0] != 2 {
		t.Errorf("zero covers: Value[0] = %v, want the plain mean 2", z.Value[0])
	}
	// Products that overflow: the mean of finite values is finite.
	m := math.MaxFloat64
	o := &boost.Tree{Left: []int32{1, -1, -1}, Cover: []float64{0, 1e10, 3e10}, Value: []float64{0, m, m / 2}}
	SplitValues(o)
	if want := 0.25*m + 0.75*(m/2); o.Value[0] != want {
		t.Errorf("overflowing products: Value[0] = %v, want %v", o.Value[0], want)
	}
	o = &boost.Tree{Left: []int32{1, -1, -1}, Cover: []float64{0, 0, 0}, Value: []float64{0, m, m}}
	if SplitValues(o); o.Value[0] != m {
		t.Errorf("overflowing sum: Value[0] = %v, want %v", o.Value[0], m)
	}
}
