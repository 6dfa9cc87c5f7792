package resample

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aer-go/aer/dataset"
	"gonum.org/v1/gonum/mat"
)

// sharedDatasets returns ../shared/datasets beside the repository root, or
// skips the test.
func sharedDatasets(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root not found")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", "datasets")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not found: the shared datasets sit beside the repository (../shared); skipping", p)
	}
	return p
}

// fastBrute is bruteTomek on the raw rows, for a few thousand rows.
func fastBrute(x *mat.Dense, y []int, strict bool) []Link {
	n, d := x.Dims()
	raw := x.RawMatrix()
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+d] }
	nn := make([]int, n)
	tied := make([]bool, n)
	for i := range n {
		a := row(i)
		best, bd := -1, 0.0
		for j := range n {
			if j == i {
				continue
			}
			b := row(j)
			var s float64
			for t := range a {
				v := a[t] - b[t]
				s += v * v
			}
			switch {
			case best < 0 || s < bd:
				best, bd, tied[i] = j, s, false
			case s == bd:
				tied[i] = true
			}
		}
		nn[i] = best
	}
	var links []Link
	for i := range n {
		j := nn[i]
		if y[i] == 1 && y[j] == 0 && nn[j] == i && !(strict && (tied[i] || tied[j])) {
			links = append(links, Link{i, j})
		}
	}
	return links
}

// TestTomekSharedDatasets compares TomekLinks with the brute-force finder on
// standardised real data; car_eval_34 (one-hot features) is full of exact
// duplicates and ties.
func TestTomekSharedDatasets(t *testing.T) {
	dir := sharedDatasets(t)
	for _, name := range []string{"ecoli", "car_eval_34", "abalone_19"} {
		d, err := dataset.Load(filepath.Join(dir, name+".csv"), dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		dataset.Impute(d.X, dataset.ColumnMeans(d.X))
		dataset.FitScaler(d.X).Transform(d.X)
		for _, strict := range []bool{false, true} {
			got, err := TomekLinks(d.X, d.Y, nil, &TomekOptions{Strict: strict})
			if err != nil {
				t.Fatal(err)
			}
			want := fastBrute(d.X, d.Y, strict)
			if !slices.Equal(got, want) {
				t.Errorf("%s strict %v: %d links, brute force %d", name, strict, len(got), len(want))
			}
			t.Logf("%s (%d rows) strict %v: %d Tomek links", name, d.Rows(), strict, len(got))
		}
	}
}
