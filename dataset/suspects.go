package dataset

import (
	"fmt"
	"math"
	"strings"
)

// Suspect is a feature column that is probably not a feature.
type Suspect struct {
	Column string `json:"column"`
	Reason string `json:"reason"`
}

// suspectMinRows is the fewest rows of each class for a perfect split to
// say something: with fewer, a feature separates them by chance.
const suspectMinRows = 10

// weightNames are the column names of row weights.
var weightNames = []string{"weight", "weights", "sample_weight", "sample_weights", "row_weight", "row_weights"}

// Suspects lists the features of d (labelled) that look like something
// else, as aer info flags them: a threshold on the feature separates the
// two classes exactly (a copy of the label, or a score computed from it:
// a model trained on it learns nothing else), with at least 10 rows of
// each class; or, when d has no weight column, a feature named like row
// weights. A fit on d trains on them as features all the same.
func (d *Dataset) Suspects() []Suspect {
	var out []Suspect
	if d.WeightColumn == "" {
		for _, f := range d.Features {
			for _, w := range weightNames {
				if strings.EqualFold(f, w) {
					out = append(out, Suspect{Column: f, Reason: "named like row weights, read as a feature (--weight " + f + " reads it as weights; --drop " + f + " leaves it out)"})
				}
			}
		}
	}
	if d.Y == nil || d.X == nil || d.NumClasses() > 2 {
		// The separation check is binary (multi-class tables: not yet).
		return out
	}
	n := d.ClassCounts()
	neg, pos := n[0], n[1]
	if neg < suspectMinRows || pos < suspectMinRows {
		return out
	}
	r, c := d.X.Dims()
	for j := range c {
		// Separable by a threshold: one class's values all below the
		// other's (missing cells aside).
		lo := [2]float64{math.Inf(1), math.Inf(1)}
		hi := [2]float64{math.Inf(-1), math.Inf(-1)}
		for i := range r {
			v := d.X.At(i, j)
			if v != v {
				continue
			}
			k := d.Y[i]
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
		if math.IsInf(lo[0], 1) || math.IsInf(lo[1], 1) {
			continue
		}
		if hi[0] < lo[1] || hi[1] < lo[0] {
			col := d.sourceColumn(d.Features[j])
			out = append(out, Suspect{Column: d.Features[j], Reason: fmt.Sprintf("a threshold on it separates the classes exactly (a copy of the label, or a score made from it?); --drop %s leaves it out", col)})
		}
	}
	return out
}

// sourceColumn is the file column of feature f: its categorical column
// when f is one of its one-hot features, else f.
func (d *Dataset) sourceColumn(f string) string {
	for _, c := range d.Categories {
		if strings.HasPrefix(f, c.Column+"=") {
			return c.Column
		}
	}
	return f
}
