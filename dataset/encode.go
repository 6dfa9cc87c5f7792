package dataset

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Encoded is a table encoded for a schema (see Dataset.Encode).
type Encoded struct {
	// X holds the rows, features in the schema's order; NaN is missing.
	X *mat.Dense
	// Y holds the labels in the schema's classes (1 = Classes[1]), nil
	// when the table has no label or a label value the schema lacks.
	Y []int
	// Unseen counts, per entry of the schema's Categories, the cells
	// whose value the schema's list lacks (encoded as all zeros).
	Unseen []int
	// Ignored names the table's feature columns the schema does not use.
	Ignored []string
}

// Encode maps d's columns onto schema s by name, whatever order they come
// in and however d was read: a numeric feature is copied; a categorical
// column is one-hot encoded with the schema's list of values (a value not
// in it, counted in Unseen, and a missing cell encode to all zeros),
// whether d read it as categorical or as numbers (codes, compared in
// canonical form); columns s does not use are ignored. A feature column s
// needs and d lacks is an ErrSchema error naming every such column, and a
// numeric feature that d holds as text an error naming it.
func (d *Dataset) Encode(s *Schema) (*Encoded, error) {
	n := d.Rows()
	catOf := map[string]int{} // feature name col=value -> index in s.Categories
	for k, c := range s.Categories {
		for _, name := range c.Names() {
			catOf[name] = k
		}
	}
	have := map[string]int{}
	for j, f := range d.Features {
		have[f] = j
	}
	dcats := map[string]Category{}
	dstart := map[string]int{} // first feature of a categorical column of d
	for _, c := range d.Categories {
		dcats[c.Column] = c
		if names := c.Names(); len(names) > 0 {
			dstart[c.Column] = have[names[0]]
		} else {
			dstart[c.Column] = -1
		}
	}
	var missing []string
	for _, f := range s.Features {
		if _, cat := catOf[f]; !cat {
			if _, ok := have[f]; !ok {
				if _, text := dcats[f]; text {
					return nil, &Error{File: d.Name, Column: f, Err: ErrSchema, Detail: "the column holds text, and the model reads it as numbers"}
				}
				missing = append(missing, f)
			}
		}
	}
	for _, c := range s.Categories {
		_, text := dcats[c.Column]
		_, num := have[c.Column]
		if !text && !num {
			missing = append(missing, c.Column)
		}
	}
	if len(missing) > 0 {
		return nil, &Error{File: d.Name, Err: ErrSchema, Detail: "missing column " + quoteList(missing)}
	}
	e := &Encoded{X: mat.NewDense(n, len(s.Features), nil), Unseen: make([]int, len(s.Categories))}
	raw := e.X.RawMatrix()
	src := d.X.RawMatrix()
	done := map[string]bool{}
	for j, f := range s.Features {
		if k, cat := catOf[f]; cat {
			if !done[s.Categories[k].Column] {
				done[s.Categories[k].Column] = true
				d.encodeCategory(s, k, j, raw, src, dcats, dstart, have, e)
			}
			continue
		}
		c := have[f]
		for i := range n {
			raw.Data[i*raw.Stride+j] = src.Data[i*src.Stride+c]
		}
	}
	e.Ignored = d.unused(s)
	e.Y = d.labelsFor(s)
	return e, nil
}

// unused returns d's columns that s does not use, in d's order
// (categorical ones by their column names).
func (d *Dataset) unused(s *Schema) []string {
	used := map[string]bool{}
	for _, f := range s.Features {
		used[f] = true
	}
	for _, c := range s.Categories {
		used[c.Column] = true
	}
	var out []string
	for _, c := range d.Categories {
		if !used[c.Column] {
			out = append(out, c.Column)
		}
		for _, name := range c.Names() {
			used[name] = true // its one-hot features are not columns of their own
		}
	}
	for _, f := range d.Features {
		if !used[f] {
			out = append(out, f)
		}
	}
	return out
}

// encodeCategory writes the one-hot block of s.Categories[k], which starts
// at feature j0 of the schema, from d's column of that name.
func (d *Dataset) encodeCategory(s *Schema, k, j0 int, raw, src blas64.General, dcats map[string]Category, dstart, have map[string]int, e *Encoded) {
	c := s.Categories[k]
	// pos maps a value's key to its offset in the schema's block.
	pos := make(map[string]int, len(c.Values))
	for i, v := range c.Values {
		pos[v] = i
	}
	n := d.Rows()
	set := func(i int, value string) {
		if off, ok := pos[categoryKey(value)]; ok {
			raw.Data[i*raw.Stride+j0+off] = 1
		} else {
			e.Unseen[k]++
		}
	}
	if dc, text := dcats[c.Column]; text {
		// Each of the table's values maps to one offset of the schema's
		// block (-1: unseen), found once, not per row.
		to := make([]int, len(dc.Values))
		for v, value := range dc.Values {
			off, ok := pos[categoryKey(value)]
			if !ok {
				off = -1
			}
			to[v] = off
		}
		start := dstart[c.Column]
		if len(to) == 0 {
			return // every cell missing: all zeros
		}
		for i := range n {
			row := src.Data[i*src.Stride+start : i*src.Stride+start+len(to)]
			for v, x := range row {
				if x != 1 {
					continue
				}
				if to[v] >= 0 {
					raw.Data[i*raw.Stride+j0+to[v]] = 1
				} else {
					e.Unseen[k]++
				}
				break
			}
		}
		return
	}
	col := have[c.Column]
	for i := range n {
		if v := src.Data[i*src.Stride+col]; !math.IsNaN(v) {
			set(i, FormatFloat(v))
		}
	}
}

// labelsFor returns d's labels in s's classes, nil when d has none or a
// class s lacks.
func (d *Dataset) labelsFor(s *Schema) []int {
	if d.Y == nil {
		return nil
	}
	// By name: every class of d's rows in s's; a class no row has may
	// be missing from s.
	to := make([]int, d.NumClasses())
	for c := range to {
		k := slices.Index(s.Classes, d.LabelName(c))
		if k < 0 {
			if d.hasClass(c) {
				return nil
			}
			k = 0
		}
		to[c] = k
	}
	y := make([]int, len(d.Y))
	for i, v := range d.Y {
		y[i] = to[v]
	}
	return y
}

// hasClass tells whether some row of d has label c.
func (d *Dataset) hasClass(c int) bool {
	return slices.Contains(d.Y, c)
}
