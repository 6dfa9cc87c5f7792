package learn_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/learn"
)

// table returns a 4x3 data set with labels 0, 1, 0, 1 and no weights.
func table() *learn.Data {
	return &learn.Data{
		X: mat.NewDense(4, 3, []float64{
			1, 2, 3,
			4, 5, 6,
			7, 8, 9,
			10, 11, 12,
		}),
		Y:        []int{0, 1, 0, 1},
		Features: []string{"a", "b", "c"},
	}
}

func TestDataCheck(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	// wide holds an infinite value in a column outside the 4x3 view that
	// view takes of it: Check must read the view's rows by its stride.
	wide := mat.NewDense(4, 4, []float64{
		1, 2, 3, inf,
		4, 5, 6, inf,
		7, 8, 9, inf,
		10, 11, 12, inf,
	})
	view := wide.Slice(0, 4, 0, 3).(*mat.Dense)
	viewInf := mat.DenseCopyOf(wide)
	viewInf.Set(3, 1, math.Inf(-1))
	for _, tc := range []struct {
		name   string
		edit   func(d *learn.Data) *learn.Data
		errHas []string // empty: no error
	}{
		{"valid", func(d *learn.Data) *learn.Data { return d }, nil},
		{"nil data", func(*learn.Data) *learn.Data { return nil }, []string{"train", "no rows"}},
		{"nil matrix", func(d *learn.Data) *learn.Data { d.X = nil; return d }, []string{"train", "no rows"}},
		{"empty matrix", func(d *learn.Data) *learn.Data { d.X = &mat.Dense{}; return d }, []string{"no rows"}},
		{"missing values are fine", func(d *learn.Data) *learn.Data { d.X.Set(2, 2, nan); return d }, nil},
		{"names are optional", func(d *learn.Data) *learn.Data { d.Features = nil; return d }, nil},
		{"zero weights are fine", func(d *learn.Data) *learn.Data { d.W = []float64{0, 1, 2.5, 0}; return d }, nil},
		{"too few labels", func(d *learn.Data) *learn.Data { d.Y = d.Y[:3]; return d }, []string{"4 rows but 3 labels"}},
		{"too many labels", func(d *learn.Data) *learn.Data { d.Y = append(d.Y, 0); return d }, []string{"4 rows but 5 labels"}},
		{"label 2", func(d *learn.Data) *learn.Data { d.Y[2] = 2; return d }, []string{"row 3", "label 2"}},
		{"label -1", func(d *learn.Data) *learn.Data { d.Y[0] = -1; return d }, []string{"row 1", "label -1"}},
		{"weights of the wrong length", func(d *learn.Data) *learn.Data { d.W = []float64{1, 1}; return d }, []string{"4 rows but 2 weights"}},
		{"negative weight", func(d *learn.Data) *learn.Data { d.W = []float64{1, -0.5, 1, 1}; return d }, []string{"row 2", "weight -0.5"}},
		{"NaN weight", func(d *learn.Data) *learn.Data { d.W = []float64{1, 1, 1, nan}; return d }, []string{"row 4", "weight NaN"}},
		{"infinite weight", func(d *learn.Data) *learn.Data { d.W = []float64{inf, 1, 1, 1}; return d }, []string{"row 1", "weight +Inf"}},
		{"feature names of the wrong length", func(d *learn.Data) *learn.Data { d.Features = []string{"a"}; return d }, []string{"3 features but 1 feature names"}},
		{"infinite value", func(d *learn.Data) *learn.Data { d.X.Set(1, 2, inf); return d }, []string{"row 2, feature 3", "+Inf"}},
		{"a view hides the infinite column", func(d *learn.Data) *learn.Data { d.X = view; return d }, nil},
		{"infinite value in a view", func(d *learn.Data) *learn.Data {
			d.X = viewInf.Slice(0, 4, 0, 3).(*mat.Dense)
			return d
		}, []string{"row 4, feature 2", "-Inf"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.edit(table()).Check("training data")
			if len(tc.errHas) == 0 {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Check: no error, want one saying %q", tc.errHas)
			}
			if !errors.Is(err, learn.ErrData) {
				t.Errorf("Check: %v does not wrap ErrData", err)
			}
			for _, s := range append(tc.errHas, "training data") {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Check: %q does not say %q", err, s)
				}
			}
		})
	}
}

func TestDataRowsCols(t *testing.T) {
	var nilData *learn.Data
	for _, tc := range []struct {
		name       string
		d          *learn.Data
		rows, cols int
	}{
		{"nil", nilData, 0, 0},
		{"no matrix", &learn.Data{}, 0, 0},
		{"empty matrix", &learn.Data{X: &mat.Dense{}}, 0, 0},
		{"4x3", table(), 4, 3},
	} {
		if r, c := tc.d.Rows(), tc.d.Cols(); r != tc.rows || c != tc.cols {
			t.Errorf("%s: Rows, Cols = %d, %d, want %d, %d", tc.name, r, c, tc.rows, tc.cols)
		}
	}
}

func TestDataSubset(t *testing.T) {
	d := table()
	d.W = []float64{0.5, 1, 2, 4}
	rows := []int{3, 0, 3}
	s := d.Subset(rows)

	if s.Rows() != 3 || s.Cols() != 3 {
		t.Fatalf("Subset is %dx%d, want 3x3", s.Rows(), s.Cols())
	}
	for k, i := range rows {
		if !slices.Equal(s.X.RawRowView(k), d.X.RawRowView(i)) {
			t.Errorf("row %d = %v, want row %d of the data %v", k, s.X.RawRowView(k), i, d.X.RawRowView(i))
		}
	}
	if want := []int{1, 0, 1}; !slices.Equal(s.Y, want) {
		t.Errorf("labels %v, want %v", s.Y, want)
	}
	if want := []float64{4, 0.5, 4}; !slices.Equal(s.W, want) {
		t.Errorf("weights %v, want %v", s.W, want)
	}
	if &s.Features[0] != &d.Features[0] {
		t.Error("feature names are copied, want them shared")
	}
	if err := s.Check("subset"); err != nil {
		t.Errorf("the subset of valid data: %v", err)
	}

	// Values, labels and weights are copies: changing the subset leaves
	// the data alone.
	s.X.Set(0, 0, -1)
	s.Y[0], s.W[0] = 0, 99
	if d.X.At(3, 0) != 10 || d.Y[3] != 1 || d.W[3] != 4 {
		t.Errorf("changing the subset changed the data: %v %v %v", d.X.RawRowView(3), d.Y, d.W)
	}
}

func TestDataSubsetEdges(t *testing.T) {
	d := table()
	if s := d.Subset(nil); s.Rows() != 0 || len(s.Y) != 0 || s.W != nil {
		t.Errorf("Subset(nil): %d rows, labels %v, weights %v", s.Rows(), s.Y, s.W)
	}
	if s := d.Subset([]int{1}); s.W != nil {
		t.Errorf("unweighted data: the subset has weights %v", s.W)
	}
	// A view whose stride is wider than its columns.
	wide := mat.NewDense(3, 4, []float64{1, 2, 3, 99, 4, 5, 6, 99, 7, 8, 9, 99})
	v := &learn.Data{X: wide.Slice(0, 3, 1, 3).(*mat.Dense), Y: []int{0, 1, 1}}
	s := v.Subset([]int{2, 1})
	if want := []float64{8, 9, 5, 6}; !slices.Equal(s.X.RawMatrix().Data, want) {
		t.Errorf("subset of a view: %v, want %v", s.X.RawMatrix().Data, want)
	}
}

func TestClassWeights(t *testing.T) {
	for _, tc := range []struct {
		name     string
		y        []int
		w        []float64
		neg, pos float64
	}{
		{"unweighted", []int{0, 1, 0, 0, 1}, nil, 3, 2},
		{"weighted", []int{0, 1, 0, 0, 1}, []float64{0.5, 2, 1, 0, 3}, 1.5, 5},
		{"one class", []int{0, 0}, nil, 2, 0},
		{"empty", nil, nil, 0, 0},
	} {
		d := &learn.Data{Y: tc.y, W: tc.w}
		neg, pos := d.ClassWeights()
		if neg != tc.neg || pos != tc.pos {
			t.Errorf("%s: ClassWeights = %v, %v, want %v, %v", tc.name, neg, pos, tc.neg, tc.pos)
		}
		for i := range tc.y {
			want := 1.0
			if tc.w != nil {
				want = tc.w[i]
			}
			if got := d.Weight(i); got != want {
				t.Errorf("%s: Weight(%d) = %v, want %v", tc.name, i, got, want)
			}
		}
	}
}

// TestAppendWeights: a nil side weighs 1 a row, both nil is nil.
func TestAppendWeights(t *testing.T) {
	if w := learn.AppendWeights(nil, 2, nil, 3); w != nil {
		t.Errorf("both nil: %v", w)
	}
	if w := learn.AppendWeights([]float64{2, 3}, 2, nil, 2); !slices.Equal(w, []float64{2, 3, 1, 1}) {
		t.Errorf("second nil: %v", w)
	}
	if w := learn.AppendWeights(nil, 1, []float64{0.5}, 1); !slices.Equal(w, []float64{1, 0.5}) {
		t.Errorf("first nil: %v", w)
	}
}
