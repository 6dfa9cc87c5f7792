package explain

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/learn"
)

// Column is one column of a model's input as a row's attributions show
// it: a numeric feature, or a categorical column whose one-hot features
// (one per value, contiguous, in the order of Values) are attributed
// together.
type Column struct {
	Name string
	// Feature is the index of the column's feature, or of the first
	// one-hot feature of a categorical column.
	Feature int
	// Values are a categorical column's values, not nil (but empty for
	// a column with no one-hot feature); nil for a numeric column.
	Values []string
}

// FeatureColumns returns the columns of p features taken one by one, a
// one-hot feature included: names[j], or f1, f2, ... past the names.
func FeatureColumns(names []string, p int) []Column {
	cols := make([]Column, p)
	for j := range cols {
		cols[j] = Column{Name: FeatureName(names, j), Feature: j}
	}
	return cols
}

// SchemaColumns are the columns of a model of schema s as a row's
// attributions show them: each numeric feature, and each categorical
// column once, at its first one-hot feature, with its values.
func SchemaColumns(s *dataset.Schema) []Column {
	first := map[string]dataset.Category{}
	inCat := map[string]bool{}
	for _, c := range s.Categories {
		if names := c.Names(); len(names) > 0 {
			first[names[0]] = c
			for _, n := range names {
				inCat[n] = true
			}
		}
	}
	var cols []Column
	for j, f := range s.Features {
		if c, ok := first[f]; ok {
			cols = append(cols, Column{Name: c.Column, Feature: j, Values: c.Values})
		} else if !inCat[f] {
			cols = append(cols, Column{Name: f, Feature: j})
		}
	}
	return cols
}

// FeatureName is names[j], or "f" and j+1 when names has no name for
// feature j.
func FeatureName(names []string, j int) string {
	if j < len(names) {
		return names[j]
	}
	return fmt.Sprintf("f%d", j+1)
}

// FeatureAttribution is one feature's (or categorical column's) value in
// a row and its attribution.
type FeatureAttribution struct {
	Feature string `json:"feature"`
	// Value is the row's value: a number (float64), a categorical
	// column's value (a string), or nil when missing (or, for a
	// categorical column, a value the model did not see).
	Value       any     `json:"value"`
	Attribution float64 `json:"attribution"`
}

// RowAttributions are one row's feature attributions: Output = Base + the
// sum of every column's attribution, in Space (the log-odds for boosted
// trees, logistic regression and AER's default preset, the probability
// for trees and forests).
type RowAttributions struct {
	Space  learn.Space `json:"space"`
	Base   float64     `json:"base"`
	Output float64     `json:"output"`
	// Shown is the number of Values; Total the number of columns
	// attributed.
	Shown int `json:"shown"`
	Total int `json:"total"`
	// Values are the Shown largest attributions by absolute value,
	// largest first (stable: ties keep the column order).
	Values []FeatureAttribution `json:"values"`
}

// Row returns row i of a, whose feature values are x, per column of cols
// (a categorical column's one-hot attributions summed, its value the one
// whose one-hot feature is 1): the top largest by absolute attribution,
// or all of them when top <= 0. It is what aer explain and aer serve show
// of a row.
func Row(a *learn.Attribution, i int, x []float64, cols []Column, top int) *RowAttributions {
	phi := a.Phi.RawRowView(i)
	vals := make([]FeatureAttribution, len(cols))
	for k, c := range cols {
		fa := FeatureAttribution{Feature: c.Name}
		if c.Values == nil {
			fa.Attribution = phi[c.Feature]
			if v := x[c.Feature]; !math.IsNaN(v) {
				fa.Value = v
			}
		} else {
			for v, name := range c.Values {
				fa.Attribution += phi[c.Feature+v]
				if x[c.Feature+v] == 1 {
					fa.Value = name
				}
			}
		}
		vals[k] = fa
	}
	slices.SortStableFunc(vals, func(p, q FeatureAttribution) int {
		return cmp.Compare(math.Abs(q.Attribution), math.Abs(p.Attribution))
	})
	total := len(vals)
	if top > 0 && top < total {
		vals = vals[:top]
	}
	return &RowAttributions{Space: a.Space, Base: a.Base[i], Output: a.Output(i), Shown: len(vals), Total: total, Values: vals}
}
