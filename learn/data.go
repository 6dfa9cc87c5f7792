package learn

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aer-go/aer/internal/hugepage"
)

// Data is a labelled table: the rows a method fits on or is tuned on.
type Data struct {
	// X holds one row per example, one column per feature; NaN marks a
	// missing value.
	X *mat.Dense
	// Y holds the labels: 1 for the positive (minority) class, else 0.
	Y []int
	// W holds optional non-negative row weights; nil means every row
	// weighs 1. A row of integer weight k counts as k copies of the row.
	W []float64
	// Features optionally names the columns of X (for reports).
	Features []string
	// Shared, when not nil, lets fits on these same X and W reuse work
	// derived from them (see Shared). Subset and the other methods that
	// derive a Data do not carry it over.
	Shared *Shared
}

// ErrData marks data that cannot be fitted on (wrapped with the reason).
var ErrData = errors.New("invalid data")

// Rows returns the number of rows.
func (d *Data) Rows() int {
	if d == nil || d.X == nil || d.X.IsEmpty() {
		return 0
	}
	r, _ := d.X.Dims()
	return r
}

// Cols returns the number of features.
func (d *Data) Cols() int {
	if d == nil || d.X == nil || d.X.IsEmpty() {
		return 0
	}
	_, c := d.X.Dims()
	return c
}

// Weight returns the weight of row i.
func (d *Data) Weight(i int) float64 {
	if d.W == nil {
		return 1
	}
	return d.W[i]
}

// ClassWeights returns the total weight of the negative and the positive
// rows.
func (d *Data) ClassWeights() (neg, pos float64) {
	for i, y := range d.Y {
		if y == 1 {
			pos += d.Weight(i)
		} else {
			neg += d.Weight(i)
		}
	}
	return neg, pos
}

// CheckClassWeights is an ErrData error unless both labels have rows of
// positive total weight (with no weight on a class, a fit can only learn
// a constant) and the weights' total is finite, below 1e300.
func (d *Data) CheckClassWeights(what string) error {
	neg, pos := d.ClassWeights()
	if !(neg > 0) || !(pos > 0) {
		return fmt.Errorf("%w: %s needs rows of both labels with positive weight (label 0: %v, label 1: %v)", ErrData, what, neg, pos)
	}
	// Weights near the float64 limit (1e308) sum to infinity, and the
	// fits' sums turn into NaN.
	if math.IsInf(neg+pos, 0) || neg+pos > 1e300 {
		return fmt.Errorf("%w: %s: the row weights sum to %v, past what the fits can add up; divide them by a constant (only their ratios matter)", ErrData, what, neg+pos)
	}
	return nil
}

// PositiveShare is the weighted share of rows labelled 1: the prior of
// the positive class in the population d stands for.
func (d *Data) PositiveShare() float64 {
	neg, pos := d.ClassWeights()
	return pos / (neg + pos)
}

// Check reports the first problem that makes d unusable: no rows or
// features, labels that are not 0 or 1 or not one per row, weights of the
// wrong length or not finite and non-negative, infinite feature values.
// what names the data in the message ("training data").
func (d *Data) Check(what string) error { return d.CheckClasses(what, 2) }

// CheckClasses is Check for labels of k classes, 0..k-1 (k >= 2).
func (d *Data) CheckClasses(what string, k int) error {
	if d.Rows() == 0 {
		return fmt.Errorf("%w: %s has no rows", ErrData, what)
	}
	r, c := d.X.Dims()
	if c == 0 {
		return fmt.Errorf("%w: %s has no features", ErrData, what)
	}
	if len(d.Y) != r {
		return fmt.Errorf("%w: %s has %d rows but %d labels", ErrData, what, r, len(d.Y))
	}
	for i, y := range d.Y {
		switch {
		case k == 2 && y != 0 && y != 1:
			return fmt.Errorf("%w: %s row %d: label %d is not 0 or 1", ErrData, what, i+1, y)
		case y < 0 || y >= k:
			return fmt.Errorf("%w: %s row %d: label %d is not a class of 0..%d", ErrData, what, i+1, y, k-1)
		}
	}
	if d.W != nil && len(d.W) != r {
		return fmt.Errorf("%w: %s has %d rows but %d weights", ErrData, what, r, len(d.W))
	}
	for i, w := range d.W {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("%w: %s row %d: weight %v is not a finite non-negative number", ErrData, what, i+1, w)
		}
	}
	if d.Features != nil && len(d.Features) != c {
		return fmt.Errorf("%w: %s has %d features but %d feature names", ErrData, what, c, len(d.Features))
	}
	raw := d.X.RawMatrix()
	for i := 0; i < r; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s row %d, feature %d: value %v is infinite", ErrData, what, i+1, j+1, v)
			}
		}
	}
	return nil
}

// Subset returns the given rows of d, in the given order, with their
// labels and weights; feature values are copied, names shared.
func (d *Data) Subset(rows []int) *Data {
	return &Data{X: Rows(d.X, rows), Y: Pick(d.Y, rows), W: Pick(d.W, rows), Features: d.Features}
}

// Rows returns a copy of the given rows of x, in the given order (an empty
// matrix for no rows).
func Rows(x *mat.Dense, rows []int) *mat.Dense {
	if len(rows) == 0 || x == nil || x.IsEmpty() {
		return &mat.Dense{}
	}
	_, c := x.Dims()
	out := mat.NewDense(len(rows), c, hugepage.Float64s(len(rows)*c))
	raw, dst := x.RawMatrix(), out.RawMatrix()
	for k, i := range rows {
		copy(dst.Data[k*c:(k+1)*c], raw.Data[i*raw.Stride:i*raw.Stride+c])
	}
	return out
}

// AppendWeights returns the row weights of n1 rows weighted w1 followed
// by n2 rows weighted w2, a nil side weighing 1 a row; nil when both are.
func AppendWeights(w1 []float64, n1 int, w2 []float64, n2 int) []float64 {
	if w1 == nil && w2 == nil {
		return nil
	}
	out := make([]float64, 0, n1+n2)
	for _, side := range []struct {
		w []float64
		n int
	}{{w1, n1}, {w2, n2}} {
		if side.w == nil {
			for range side.n {
				out = append(out, 1)
			}
			continue
		}
		out = append(out, side.w[:side.n]...)
	}
	return out
}

// Pick returns s[rows[0]], s[rows[1]], ...; nil for a nil s.
func Pick[T any](s []T, rows []int) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(rows))
	for k, i := range rows {
		out[k] = s[i]
	}
	return out
}
