package lightgbm

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/boost"
)

// FuzzDecode: Decode returns a model or an error wrapping ErrFormat or
// ErrUnsupported, never panics; a model it returns converts, saves,
// loads, predicts and explains.
func FuzzDecode(f *testing.F) {
	bitset := "cat_boundaries=0 3\ncat_threshold=2 2 2147483649\n"
	f.Add([]byte(header("v4", "binary sigmoid:1") + stump(0, 0, "0.5", 4, "") + stump(1, 2, "0", 1, bitset) + tail))
	f.Add([]byte(header("v3", "cross_entropy") + "average_output\n" + stump(0, 1, "-1.0000000180025095e-35", 10, "") + tail))
	if b, err := os.ReadFile(filepath.Join("testdata", "lg_dart_breast_cancer.model")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(handMulticlass))
	// Hostile: a threshold with no float64 above it, a leaf that
	// overflows with its sigmoid, a bitset of full words, NULs.
	f.Add([]byte(header("v4", "binary sigmoid:1") + stump(0, 0, "1.7976931348623157e308", 2, "") + tail))
	f.Add([]byte(header("v4", "binary sigmoid:1e300") + stump(0, 0, "0.5", 2, "") + tail))
	f.Add([]byte(header("v4", "binary sigmoid:1") + stump(0, 2, "0", 1, "cat_boundaries=0 2\ncat_threshold=4294967295 4294967295\n") + tail))
	f.Add([]byte("tree\nversion=v4\x00\x00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v wraps neither ErrFormat nor ErrUnsupported", err)
			}
			return
		}
		if m.NumClass > 1 {
			fuzzMulti(t, m)
			return
		}
		bm, err := m.Boost()
		if err != nil {
			t.Fatalf("Decode accepted a model Boost refuses: %v", err)
		}
		b, err := bm.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back boost.Model
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatalf("the converted model does not load: %v", err)
		}
		x := mat.NewDense(3, m.NumFeature, nil)
		for j := range m.NumFeature {
			x.Set(1, j, math.NaN())
			x.Set(2, j, 33.5)
		}
		for _, v := range back.PredictMargin(x, nil) {
			if math.IsNaN(v) {
				t.Fatal("margin NaN")
			}
		}
		if _, err := back.SHAP(x, nil); err != nil {
			t.Fatalf("SHAP: %v", err)
		}
	})
}

// fuzzMulti: a multiclass model Decode accepts converts, saves and loads,
// and gives probabilities summing to 1.
func fuzzMulti(t *testing.T, m *Model) {
	mm, err := m.BoostMulti()
	if err != nil {
		t.Fatalf("Decode accepted a model BoostMulti refuses: %v", err)
	}
	b, err := mm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back boost.MultiModel
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatalf("the converted model does not load: %v", err)
	}
	x := mat.NewDense(2, m.NumFeature, nil)
	for j := range m.NumFeature {
		x.Set(1, j, math.NaN())
	}
	p, err := back.PredictProba(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		sum := 0.0
		for _, v := range p[i*m.NumClass : (i+1)*m.NumClass] {
			sum += v
		}
		if !(math.Abs(sum-1) < 1e-9) {
			t.Fatalf("row %d: probabilities sum to %v", i, sum)
		}
	}
}
