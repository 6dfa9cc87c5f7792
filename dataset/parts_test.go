package dataset

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestParseRatio(t *testing.T) {
	if r, err := ParseRatio("3:1:1"); err != nil || !slices.Equal(r, []float64{3, 1, 1}) {
		t.Errorf("3:1:1: %v %v", r, err)
	}
	for _, bad := range []string{"3", "1:2:3:4", "3:-1", "a:b", "1e308:1e308"} {
		if _, err := ParseRatio(bad); !errors.Is(err, ErrPartition) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// Parts: every row in exactly one part of a split, in one test fold of
// a k-fold (and in the k-1 others' training parts); the classes spread
// over the parts; bad partitions refused.
func TestPartitionParts(t *testing.T) {
	y := make([]int, 100)
	for i := range y {
		y[i] = btoi(i%5 == 0)
	}
	parts, err := (&Partition{Ratios: []float64{3, 1, 1}, Seed: 7}).Parts(y)
	if err != nil || len(parts) != 3 || parts[0].Name != "train" || parts[2].Name != "test" {
		t.Fatalf("%v %v", parts, err)
	}
	split := SplitColumn(parts, len(y))
	for i, s := range split {
		if s == "" {
			t.Errorf("row %d in no part", i)
		}
	}
	if len(parts[0].Rows) != 60 || countPos(y, parts[0].Rows) != 12 || countPos(y, parts[2].Rows) != 4 {
		t.Errorf("sizes %d, %d positive train, %d test", len(parts[0].Rows), countPos(y, parts[0].Rows), countPos(y, parts[2].Rows))
	}
	skl, err := (&Partition{Ratios: []float64{3, 1, 1}, Protocol: ProtocolSklearn, Seed: 7}).Parts(y)
	train, _, _, _ := AnchorSplit(y, 7)
	if err != nil || !slices.Equal(skl[0].Rows, train) {
		t.Errorf("sklearn: %v", err)
	}
	folds, err := (&Partition{Folds: 4, Seed: 1}).Parts(y)
	if err != nil || len(folds) != 8 || folds[7].Name != "fold4.test" {
		t.Fatalf("folds: %v", err)
	}
	tested := make([]int, len(y))
	for k := 0; k < 8; k += 2 {
		if len(folds[k].Rows)+len(folds[k+1].Rows) != len(y) {
			t.Errorf("fold %d: train %d + test %d rows", k/2+1, len(folds[k].Rows), len(folds[k+1].Rows))
		}
		for _, i := range folds[k+1].Rows {
			tested[i]++
		}
	}
	for i, n := range tested {
		if n != 1 {
			t.Errorf("row %d tested %d times", i, n)
		}
	}
	for _, p := range []Partition{{Folds: 1}, {Ratios: []float64{1}}, {Ratios: []float64{2, 1, 1}, Protocol: ProtocolSklearn},
		{Folds: 3, Protocol: ProtocolSklearn}, {Ratios: []float64{3, 1, 1}, Protocol: ProtocolSklearn, Seed: 1 << 40}, {Ratios: []float64{1, 1}, Protocol: "x"}} {
		if _, err := p.Parts(y); !errors.Is(err, ErrPartition) {
			t.Errorf("%+v: %v", p, err)
		}
	}
}

func countPos(y, rows []int) int {
	n := 0
	for _, i := range rows {
		n += y[i]
	}
	return n
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ExamplePartition_Parts() {
	y := make([]int, 100) // 20 positive rows
	for i := 0; i < 100; i += 5 {
		y[i] = 1
	}
	p := Partition{Ratios: []float64{3, 1, 1}, Seed: 1}
	parts, err := p.Parts(y)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, part := range parts {
		fmt.Println(part.Name, len(part.Rows), countPos(y, part.Rows))
	}
	// Output:
	// train 60 12
	// valid 20 4
	// test 20 4
}
