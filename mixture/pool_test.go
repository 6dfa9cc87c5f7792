package mixture

import (
	"fmt"
	"slices"
	"testing"
)

func TestParsePool(t *testing.T) {
	for in, want := range map[string]string{"3": "[3]", "2-8": "[2 3 4 5 6 7 8]", "2,4, 6": "[2 4 6]", "6,2-3,3": "[2 3 6]", "1-2,5": "[1 2 5]"} {
		got, err := ParsePool(in)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("ParsePool(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "0", "3-", "-2", "4-2", "2-", "1-1002", "2,,3"} {
		if _, err := ParsePool(bad); err == nil {
			t.Errorf("ParsePool(%q) accepted", bad)
		}
	}
}

func FuzzParsePool(f *testing.F) {
	for _, s := range []string{"3", "2-8", "2,4,6", "2-4,8", "x", "-", "1-1000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParsePool(s)
		if err != nil {
			return
		}
		if len(got) == 0 {
			t.Fatalf("%q: no error and no sizes", s)
		}
		for i, v := range got {
			if v < 1 || i > 0 && v <= got[i-1] {
				t.Fatalf("%q: %v not increasing positive", s, got)
			}
		}
	})
}

func TestFeasiblePool(t *testing.T) {
	if RowsPerComponent(Full, 4) != 5 || RowsPerComponent(Tied, 4) != 5 || RowsPerComponent(Diag, 4) != 2 || RowsPerComponent(Spherical, 9) != 2 {
		t.Error("RowsPerComponent")
	}
	// 20 rows of 4 features: full covariances need 5 rows per component.
	kept, dropped := FeasiblePool([]int{2, 3, 4, 5, 8}, Full, 4, 20)
	if !slices.Equal(kept, []int{2, 3, 4}) || !slices.Equal(dropped, []int{5, 8}) {
		t.Errorf("full: kept %v, dropped %v", kept, dropped)
	}
	kept, dropped = FeasiblePool([]int{2, 3, 4, 5, 8}, Diag, 4, 20)
	if len(kept) != 5 || dropped != nil {
		t.Errorf("diag: kept %v, dropped %v", kept, dropped)
	}
}

func TestParseInit(t *testing.T) {
	for in, want := range map[string]Init{"kmeans": InitKMeans, "k-means": InitKMeans, "kmeans++": InitKMeansPP, "k-means++": InitKMeansPP} {
		if got, err := ParseInit(in); err != nil || got != want {
			t.Errorf("ParseInit(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseInit("random"); err == nil {
		t.Error("random accepted")
	}
}
