package resample

import (
	"fmt"
	"slices"
	"testing"

	"github.com/aer-go/aer/internal/rng"
	"gonum.org/v1/gonum/mat"
)

// handMade is a 2-D set whose links were worked out by hand:
//
//	rows 0 (min) and 1 (maj) at distance 1: a link, unless row 9 sits
//	    0.5 from row 1 and takes it away;
//	rows 2 and 3, both majority, are mutual neighbours: no link;
//	row 4 (min) is nearest to row 5 (maj), but row 5 is nearer to row 6:
//	    not mutual, no link;
//	rows 7 (maj) and 8 (min) at distance 2: a link;
//	rows 10 (min), 11 and 12 (maj) coincide: 10 and 11 are each other's
//	    nearest by the row-number tie-break, a link unless Strict.
func handMade() (*mat.Dense, []int) {
	x := mat.NewDense(13, 2, []float64{
		0, 0,
		1, 0,
		10, 0,
		10, 1,
		20, 0,
		22, 0,
		23, 0,
		30, 0,
		30, 2,
		1, 0.5,
		40, 0,
		40, 0,
		40, 0,
	})
	y := []int{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0}
	return x, y
}

func TestTomekHandMade(t *testing.T) {
	x, y := handMade()
	cases := []struct {
		name   string
		subset []int
		strict bool
		want   []Link
	}{
		{"without 9 and 12", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11}, false, []Link{{0, 1}, {8, 7}, {10, 11}}},
		{"all rows", nil, false, []Link{{8, 7}, {10, 11}}},
		{"all rows strict", nil, true, []Link{{8, 7}}},
		{"duplicate pair strict", []int{11, 10, 0, 1, 2}, true, []Link{{0, 1}, {10, 11}}},
		{"majority only", []int{1, 2, 3}, false, nil},
		{"one row", []int{0}, false, nil},
		{"two rows", []int{4, 7}, true, []Link{{4, 7}}},
	}
	for _, c := range cases {
		got, err := TomekLinks(x, y, c.subset, &TomekOptions{Strict: c.strict})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTomekErrors(t *testing.T) {
	x, y := handMade()
	if _, err := TomekLinks(x, y[:3], nil, nil); err == nil {
		t.Error("short labels accepted")
	}
	if _, err := TomekLinks(x, y, []int{1, 1}, nil); err == nil {
		t.Error("repeated row accepted")
	}
	if _, err := TomekLinks(x, y, []int{13}, nil); err == nil {
		t.Error("row out of range accepted")
	}
	bad := slices.Clone(y)
	bad[2] = 2
	if _, err := TomekLinks(x, bad, nil, nil); err == nil {
		t.Error("label 2 accepted")
	}
}

// bruteTomek checks every pair: nearest neighbour of each subset row by
// direct distance, ties to the smaller row.
func bruteTomek(x *mat.Dense, y []int, subset []int, strict bool) []Link {
	_, d := x.Dims()
	dist := func(a, b int) float64 {
		var s float64
		for t := range d {
			v := x.At(a, t) - x.At(b, t)
			s += v * v
		}
		return s
	}
	rows := slices.Sorted(slices.Values(subset))
	nn := make(map[int]int)
	tied := make(map[int]bool)
	for _, i := range rows {
		best, bd := -1, 0.0
		for _, j := range rows {
			if j == i {
				continue
			}
			dj := dist(i, j)
			if best < 0 || dj < bd {
				best, bd = j, dj
				tied[i] = false
			} else if dj == bd {
				tied[i] = true
			}
		}
		nn[i] = best
	}
	var links []Link
	for _, i := range rows {
		j := nn[i]
		if y[i] == 1 && j >= 0 && y[j] == 0 && nn[j] == i && !(strict && (tied[i] || tied[j])) {
			links = append(links, Link{i, j})
		}
	}
	return links
}

func TestTomekAgainstBrute(t *testing.T) {
	r := rng.New(11)
	total := 0
	for trial := range 12 {
		n := 50 + r.IntN(250)
		d := 1 + r.IntN(4)
		grid := trial%2 == 0
		x := mat.NewDense(n, d, nil)
		y := make([]int, n)
		pMin := []float64{0.05, 0.3, 0.7}[trial%3]
		for i := range n {
			if r.Float64() < pMin {
				y[i] = 1
			}
			for j := range d {
				if grid {
					x.Set(i, j, float64(r.IntN(4)))
				} else {
					x.Set(i, j, r.NormFloat64()+float64(y[i]))
				}
			}
		}
		var subset []int
		for i := range n {
			if r.IntN(3) > 0 {
				subset = append(subset, i)
			}
		}
		for _, strict := range []bool{false, true} {
			want := bruteTomek(x, y, subset, strict)
			total += len(want)
			for _, w := range []int{1, 2} {
				got, err := TomekLinks(x, y, subset, &TomekOptions{Strict: strict, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d strict %v workers %d: got %v, want %v", trial, strict, w, got, want)
				}
			}
		}
	}
	if total < 50 {
		t.Fatalf("only %d links in all trials: the comparison is too weak", total)
	}
	t.Logf("%d links compared", total)
}

// TestTomekWideAgainstBrute compares the links with the definition on
// data where the partners' checks (neighbors.SearchSelfWithin) run the
// panel kernels and give up early: hundreds of rows in 1 to 60 columns,
// grid ties, duplicates across classes, far outliers, and in two trials
// values outside float32's range (no float32 filter, huge margins).
func TestTomekWideAgainstBrute(t *testing.T) {
	r := rng.New(14)
	total := 0
	for trial, d := range []int{1, 2, 3, 20, 40, 60} {
		n := 700 + r.IntN(300)
		grid := trial%2 == 1
		x := mat.NewDense(n, d, nil)
		y := make([]int, n)
		for i := range n {
			if r.IntN(6) == 0 {
				y[i] = 1
			}
			if i > 0 && r.IntN(6) == 0 {
				mat.Row(x.RawRowView(i), r.IntN(i), x) // maybe of the other class
				continue
			}
			for j := range d {
				if grid {
					x.Set(i, j, float64(r.IntN(3)))
				} else {
					x.Set(i, j, r.NormFloat64()+0.7*float64(y[i]))
				}
			}
			switch r.IntN(40) {
			case 0: // a far outlier
				x.Set(i, r.IntN(d), 1e3)
			case 1: // beyond float32 in every third trial: no float32 filter
				if trial%3 == 2 {
					x.Set(i, r.IntN(d), 1e-300*float64(1+r.IntN(3)))
				}
			case 2:
				if trial%3 == 2 {
					x.Set(i, r.IntN(d), 1e60)
				}
			}
		}
		var subset []int
		for i := range n {
			if r.IntN(5) > 0 {
				subset = append(subset, i)
			}
		}
		for _, strict := range []bool{false, true} {
			want := bruteTomek(x, y, subset, strict)
			total += len(want)
			for _, w := range []int{1, 2} {
				got, err := TomekLinks(x, y, subset, &TomekOptions{Strict: strict, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("d=%d strict %v workers %d: %d links, the definition %d", d, strict, w, len(got), len(want))
				}
			}
		}
	}
	if total < 100 {
		t.Fatalf("only %d links in all trials: the comparison is too weak", total)
	}
	t.Logf("%d links compared", total)
}

func ExampleTomekLinks() {
	// Two overlapping points of different classes near the middle, and a
	// majority point far out.
	x := mat.NewDense(5, 1, []float64{0, 1, 4, 4.5, 9})
	y := []int{0, 0, 1, 0, 0}
	links, err := TomekLinks(x, y, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("links:", links)
	fmt.Println("cleaned rows:", DropMajority([]int{0, 1, 2, 3, 4}, links))
	// Output:
	// links: [{2 3}]
	// cleaned rows: [0 1 2 4]
}
