package mixture

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestSelectionWarnings: a chosen L at either end of a pool of several is
// named with the pool, one inside it or alone is not, and each collapsed
// component of the chosen model (judged on the rows it was fitted on)
// gets a warning.
func TestSelectionWarnings(t *testing.T) {
	x := fourClusters(400, 5) // four clusters: BIC picks L = 4
	for _, c := range []struct {
		pool []int
		want []string
	}{
		{[]int{2, 3, 4}, []string{"BIC chose a mixture of L = 4 components, the largest of the pool 2-4: more may fit better"}},
		{[]int{4, 5, 7}, []string{"BIC chose a mixture of L = 4 components, the smallest of the pool 4-5,7: fewer may fit as well"}},
		{[]int{3, 4, 5}, nil},
		{[]int{4}, nil},
	} {
		sel, err := Select(context.Background(), x, c.pool, &Settings{NInit: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if sel.Components != 4 {
			t.Fatalf("pool %v chose L = %d", c.pool, sel.Components)
		}
		if got := sel.Warnings(0); !reflect.DeepEqual(got, c.want) {
			t.Errorf("pool %v: warnings %q, want %q", c.pool, got, c.want)
		}
	}
	// A component on a single repeated row collapses onto the ridge.
	sel := &Selection{Candidates: []Candidate{{Components: 2}}, Components: 2, Result: &FitResult{Rows: 100},
		Model: &Model{Covariance: Diag, Weights: []float64{0.98, 0.02}, Means: [][]float64{{0}, {5}},
			Covariances: [][]float64{{1}, {1e-6}}}}
	want := []string{"component 1 of the chosen mixture collapsed: variance 1e-06 of feature 1 is at the covariance ridge (1e-06)"}
	if got := sel.Warnings(0); !reflect.DeepEqual(got, want) {
		t.Errorf("collapse: %q, want %q", got, want)
	}
	if got := sel.Warnings(1e-9); got != nil {
		t.Errorf("a smaller ridge: %q", got)
	}
	// Components collapsed for the same reason are one line; another
	// reason has its own.
	sel = &Selection{Candidates: []Candidate{{Components: 4}}, Components: 4, Result: &FitResult{Rows: 100},
		Model: &Model{Covariance: Diag, Weights: []float64{0.49, 0.01, 0.01, 0.49}, Means: [][]float64{{0, 0}, {5, 5}, {6, 6}, {9, 9}},
			Covariances: [][]float64{{1, 1}, {1, 1e-6}, {1, 1e-6}, {1e-6, 1}}}}
	want = []string{
		"components 1-2 (2 of 4) of the chosen mixture collapsed: variance 1e-06 of feature 2 is at the covariance ridge (1e-06)",
		"component 3 of the chosen mixture collapsed: variance 1e-06 of feature 1 is at the covariance ridge (1e-06)",
	}
	if got := sel.Warnings(0); !reflect.DeepEqual(got, want) {
		t.Errorf("folded collapse: %q, want %q", got, want)
	}
	if got := (*Selection)(nil).Warnings(0); got != nil {
		t.Errorf("nil selection: %q", got)
	}
}

func TestLeftOutWarningAndFormatPool(t *testing.T) {
	kept, dropped := FeasiblePool([]int{2, 3, 4, 5, 7}, Full, 2, 10)
	if !reflect.DeepEqual(kept, []int{2, 3}) {
		t.Fatalf("kept %v", kept)
	}
	if got, want := LeftOutWarning(dropped, 10, 2, Full), "L = 4-5,7 left out: 10 rows are too few (full covariance needs 3 rows per component)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := LeftOutWarning(nil, 10, 2, Full); got != "" {
		t.Errorf("nothing dropped: %q", got)
	}
	for _, s := range []string{"2-8", "3", "2,4,6", "1-3,5,7-9"} {
		pool, err := ParsePool(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatPool(pool); got != s {
			t.Errorf("FormatPool(ParsePool(%q)) = %q", s, got)
		}
	}
	if got := FormatPool(nil); got != "" || strings.Contains(FormatPool([]int{1, 2}), ",") {
		t.Errorf("FormatPool: %q, %q", got, FormatPool([]int{1, 2}))
	}
}
