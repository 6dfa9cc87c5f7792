package dataset

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Scaler standardises features to zero mean and unit variance, as
// scikit-learn's StandardScaler does (population standard deviation). It is
// fitted on training rows and stored in models so that every later row is
// transformed the same way.
type Scaler struct {
	Mean  []float64 `json:"mean"`
	Scale []float64 `json:"scale"`
}

// FitScaler computes per-column means and standard deviations of x,
// ignoring missing values. A column that is constant (or entirely missing)
// gets scale 1, so it maps to zeros instead of NaN.
func FitScaler(x *mat.Dense) *Scaler {
	r, c := x.Dims()
	s := &Scaler{Mean: make([]float64, c), Scale: make([]float64, c)}
	raw := x.RawMatrix()
	n := make([]float64, c)
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if v == v {
				n[j]++
				s.Mean[j] += v
			}
		}
	}
	for j := range s.Mean {
		if n[j] > 0 {
			s.Mean[j] /= n[j]
		}
	}
	// Two-pass variance: exact enough where a one-pass sum of squares
	// would cancel.
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if v == v {
				d := v - s.Mean[j]
				s.Scale[j] += d * d
			}
		}
	}
	for j := range s.Scale {
		s.Scale[j] = scaleOf(s.Scale[j], n[j], s.Mean[j])
	}
	return s
}

// ScalerFrom returns the scaler of columns with the given means and sums
// of squared deviations from them over n rows, as FitScaler computes
// them: for an engine that sums over parts of the rows held apart.
func ScalerFrom(mean, sumSq []float64, n float64) *Scaler {
	s := &Scaler{Mean: slices.Clone(mean), Scale: make([]float64, len(mean))}
	for j := range s.Scale {
		s.Scale[j] = scaleOf(sumSq[j], n, mean[j])
	}
	return s
}

// scaleOf is the standard deviation of a column with sum of squared
// deviations ss over n values and the given mean, 1 for a column that
// is constant (or has no values).
func scaleOf(ss, n, mean float64) float64 {
	sd := 0.0
	if n > 0 {
		sd = math.Sqrt(ss / n)
	}
	// scikit-learn treats a scale below 10 eps of the mean as zero.
	if sd < 10*2.220446049250313e-16*math.Max(1, math.Abs(mean)) {
		sd = 1
	}
	return sd
}

// Check reports the first column whose mean or standard deviation is not
// finite: values near the float64 limit (1e308) overflow their sums, and
// standardising by them would turn every value of the column into 0 or
// NaN. features names the columns (nil: numbers).
func (s *Scaler) Check(features []string) error {
	for j := range s.Mean {
		what := ""
		switch {
		case math.IsInf(s.Mean[j], 0) || math.IsNaN(s.Mean[j]):
			what = "mean"
		case math.IsInf(s.Scale[j], 0) || math.IsNaN(s.Scale[j]):
			what = "standard deviation"
		default:
			continue
		}
		name := fmt.Sprintf("%d", j+1)
		if j < len(features) {
			name = fmt.Sprintf("%q", features[j])
		}
		return fmt.Errorf("feature %s: values too large to standardise (their %s overflows float64); rescale the column", name, what)
	}
	return nil
}

// Transform standardises x in place; missing values stay NaN.
func (s *Scaler) Transform(x *mat.Dense) {
	r, c := x.Dims()
	raw := x.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j := range row {
			row[j] = (row[j] - s.Mean[j]) / s.Scale[j]
		}
	}
}

// ColumnMeans returns the mean of each column of x ignoring missing values;
// a column with no values has mean 0.
func ColumnMeans(x *mat.Dense) []float64 {
	r, c := x.Dims()
	mean := make([]float64, c)
	n := make([]float64, c)
	raw := x.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if v == v {
				mean[j] += v
				n[j]++
			}
		}
	}
	for j := range mean {
		if n[j] > 0 {
			mean[j] /= n[j]
		}
	}
	return mean
}

// Impute replaces missing values in x by the given column means, in place,
// and returns how many cells it filled.
func Impute(x *mat.Dense, means []float64) int {
	r, c := x.Dims()
	raw := x.RawMatrix()
	filled := 0
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if v != v {
				row[j] = means[j]
				filled++
			}
		}
	}
	return filled
}
