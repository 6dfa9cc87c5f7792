package dataset

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func labels(neg, pos int) []int {
	y := make([]int, neg+pos)
	for i := range pos {
		y[i*(neg+pos)/pos] = 1
	}
	return y
}

func TestStratifiedSplit(t *testing.T) {
	y := labels(4145, 32) // abalone_19's classes
	parts, err := StratifiedSplit(y, []float64{3, 1, 1}, 7)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]int, len(y))
	var posCounts, sizes []int
	for _, p := range parts {
		if !slices.IsSorted(p) {
			t.Error("part not sorted")
		}
		pos := 0
		for _, i := range p {
			seen[i]++
			pos += y[i]
		}
		posCounts = append(posCounts, pos)
		sizes = append(sizes, len(p))
	}
	for i, s := range seen {
		if s != 1 {
			t.Fatalf("row %d in %d parts", i, s)
		}
	}
	// 32 positives: 19.2, 6.4, 6.4 -> 19, 6, 7 (tied remainder to the later part).
	if !slices.Equal(posCounts, []int{19, 6, 7}) {
		t.Errorf("positives per part %v", posCounts)
	}
	// 4145 negatives: 2487, 829, 829.
	if !slices.Equal(sizes, []int{2487 + 19, 829 + 6, 829 + 7}) {
		t.Errorf("sizes %v", sizes)
	}
	again, _ := StratifiedSplit(y, []float64{3, 1, 1}, 7)
	other, _ := StratifiedSplit(y, []float64{3, 1, 1}, 8)
	if !slices.Equal(again[2], parts[2]) {
		t.Error("same seed, different split")
	}
	if slices.Equal(other[2], parts[2]) {
		t.Error("different seeds, same split")
	}
	for _, bad := range [][]float64{{1}, {1, 0}, {1, math.NaN()}, {-1, 2}} {
		if _, err := StratifiedSplit(y, bad, 0); err == nil {
			t.Errorf("ratios %v accepted", bad)
		}
	}
}

func TestStratifiedKFold(t *testing.T) {
	y := labels(301, 35) // ecoli
	folds, err := StratifiedKFold(y, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]int, len(y))
	for _, f := range folds {
		pos := 0
		for _, i := range f {
			seen[i]++
			pos += y[i]
		}
		if pos != 7 {
			t.Errorf("fold has %d positives, want 7", pos)
		}
		if len(f) < 67 || len(f) > 68 {
			t.Errorf("fold size %d, want 67 or 68", len(f))
		}
	}
	for i, s := range seen {
		if s != 1 {
			t.Fatalf("row %d in %d folds", i, s)
		}
	}
	if _, err := StratifiedKFold(y, 36, 0); err == nil {
		t.Error("more folds than positives accepted")
	}
	if _, err := StratifiedKFold(y, 1, 0); err == nil {
		t.Error("k = 1 accepted")
	}
}

func TestScaler(t *testing.T) {
	x := mat.NewDense(4, 3, []float64{
		1, 5, 2,
		2, 5, math.NaN(),
		3, 5, 4,
		6, 5, 6,
	})
	s := FitScaler(x)
	// Column 0: mean 3, population sd sqrt(3.5); column 1 constant -> scale 1;
	// column 2 ignores the NaN: mean 4, sd sqrt(8/3).
	want := []float64{3, 5, 4}
	wantSD := []float64{math.Sqrt(3.5), 1, math.Sqrt(8.0 / 3)}
	for j := range want {
		if math.Abs(s.Mean[j]-want[j]) > 1e-15 || math.Abs(s.Scale[j]-wantSD[j]) > 1e-15 {
			t.Errorf("col %d: mean %v scale %v", j, s.Mean[j], s.Scale[j])
		}
	}
	s.Transform(x)
	if !math.IsNaN(x.At(1, 2)) || x.At(0, 1) != 0 {
		t.Errorf("transform: %v", mat.Formatted(x))
	}
	after := FitScaler(x)
	for j := range 3 {
		if math.Abs(after.Mean[j]) > 1e-15 || (j != 1 && math.Abs(after.Scale[j]-1) > 1e-15) {
			t.Errorf("standardised col %d: mean %v sd %v", j, after.Mean[j], after.Scale[j])
		}
	}
}

func TestImpute(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, math.NaN(), math.NaN(), math.NaN(), 3, math.NaN()})
	m := ColumnMeans(x)
	if m[0] != 2 || m[1] != 0 {
		t.Errorf("means %v", m)
	}
	if n := Impute(x, m); n != 4 || x.At(1, 0) != 2 || x.At(2, 1) != 0 {
		t.Errorf("impute filled %d: %v", n, mat.Formatted(x))
	}
}

// Huge ratios: n*r overflowed to +Inf and apportioning rows never ended
// (aer split --ratio 1e308:1:1 hung).
func TestStratifiedSplitHugeRatios(t *testing.T) {
	y := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	parts, err := StratifiedSplit(y, []float64{1e308, 1, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(parts[0]) + len(parts[1]) + len(parts[2]); n != len(y) {
		t.Errorf("%d rows in the parts, want %d", n, len(y))
	}
	if len(parts[0]) != len(y) {
		t.Errorf("first part has %d rows, want all %d", len(parts[0]), len(y))
	}
	if _, err := StratifiedSplit(y, []float64{1e308, 1e308, 1}, 1); err == nil {
		t.Error("ratios whose sum overflows: no error")
	}
}
