package mixture

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// loadShared reads ../shared/datasets/name.csv (header; feature columns;
// optional "split" column; "label" last) and returns all rows and the
// labels. It skips the test when the file is absent.
func loadShared(t testing.TB, name string) (*mat.Dense, []int) {
	t.Helper()
	path := filepath.Join(sharedDir(t), "datasets", name+".csv")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("dataset %s absent: %v", path, err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	var cols []int
	for j, h := range head[:len(head)-1] {
		if h != "split" {
			cols = append(cols, j)
		}
	}
	x := mat.NewDense(len(recs)-1, len(cols), nil)
	y := make([]int, len(recs)-1)
	for i, r := range recs[1:] {
		for c, j := range cols {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Fatalf("%s line %d: %v", path, i+2, err)
			}
			x.Set(i, c, v)
		}
		y[i], _ = strconv.Atoi(r[len(r)-1])
	}
	return x, y
}

// majorityStandardized returns the label-0 rows, each column standardised
// (constant columns left centred with scale 1).
func majorityStandardized(x *mat.Dense, y []int) *mat.Dense {
	_, d := x.Dims()
	var rows []int
	for i, v := range y {
		if v == 0 {
			rows = append(rows, i)
		}
	}
	out := mat.NewDense(len(rows), d, nil)
	for r, i := range rows {
		out.SetRow(r, x.RawRowView(i))
	}
	standardize(out)
	return out
}

func standardize(x *mat.Dense) {
	n, d := x.Dims()
	for j := 0; j < d; j++ {
		m, s := 0.0, 0.0
		for i := 0; i < n; i++ {
			m += x.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			t := x.At(i, j) - m
			s += t * t
		}
		s = math.Sqrt(s / float64(n))
		if s == 0 {
			s = 1
		}
		for i := 0; i < n; i++ {
			x.Set(i, j, (x.At(i, j)-m)/s)
		}
	}
}

var sharedDatasets = []string{"abalone_19", "bioassay", "car_eval_34", "ecoli", "gmm10", "scene", "us_crime", "wine_quality"}
