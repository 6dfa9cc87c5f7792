package serve

import (
	"fmt"

	"github.com/aer-go/aer/internal/quote"

	"github.com/aer-go/aer/dataset"
	"github.com/aer-go/aer/explain"
)

// rawColumn is one column of the data a model was fitted on, as a
// request sends it: a numeric feature, or a categorical column one-hot
// encoded into the features feat, feat+1, ... (one per value of cat).
type rawColumn struct {
	name string
	feat int
	cat  *dataset.Category // nil for a numeric column
}

// width is the number of model features the column encodes to.
func (c *rawColumn) width() int {
	if c.cat == nil {
		return 1
	}
	return len(c.cat.Values)
}

// layout maps the columns of a request to a model's features: for a
// model without categorical columns each column is one feature; for one
// with them, a categorical column is sent by its raw value and encoded
// here as aer predict encodes it.
type layout struct {
	schema *dataset.Schema
	cols   []rawColumn
	byName map[string]int // column name -> index in cols
	names  []string       // column names, in the order of array rows
	// categorical: the model has categorical columns.
	categorical bool
	// oneHot maps a one-hot feature name (col=value) to its column, for
	// the hint when a request sends it.
	oneHot map[string]string
	// attrCols are cols as explain.Row attributes them.
	attrCols []explain.Column
}

// what names the columns in messages: "features" for models without
// categorical columns (as before they existed), else "columns".
func (l *layout) what() string {
	if l.categorical {
		return "columns"
	}
	return "features"
}

// newLayout builds the layout of a schema. A categorical column stands
// where its one-hot features start (they are contiguous, in the order of
// its values, as dataset encodes them); a column with no values (no
// feature) goes last.
func newLayout(s *dataset.Schema) (*layout, error) {
	l := &layout{schema: s, byName: make(map[string]int, len(s.Features)), categorical: len(s.Categories) > 0}
	start := make(map[string]int, len(s.Categories)) // first one-hot name -> category
	for k, c := range s.Categories {
		if len(c.Values) > 0 {
			start[c.Column+"="+c.Values[0]] = k
		}
	}
	placed := make([]bool, len(s.Categories))
	add := func(c rawColumn) error {
		if _, dup := l.byName[c.name]; dup {
			return fmt.Errorf("the schema names column %s twice", quote.Name(c.name))
		}
		l.byName[c.name] = len(l.cols)
		l.cols = append(l.cols, c)
		l.names = append(l.names, c.name)
		return nil
	}
	for j := 0; j < len(s.Features); {
		k, ok := start[s.Features[j]]
		if !ok || placed[k] {
			if err := add(rawColumn{name: s.Features[j], feat: j}); err != nil {
				return nil, err
			}
			j++
			continue
		}
		cat := &dataset.Category{Column: s.Categories[k].Column, Values: s.Categories[k].Values}
		names := cat.Names()
		if j+len(names) > len(s.Features) {
			return nil, fmt.Errorf("the schema's categorical column %s: its one-hot features are not all among the features", quote.Name(cat.Column))
		}
		for v, n := range names {
			if s.Features[j+v] != n {
				return nil, fmt.Errorf("the schema's categorical column %s: feature %d is %s, not its one-hot feature %s", quote.Name(cat.Column), j+v+1, quote.Name(s.Features[j+v]), quote.Name(n))
			}
			if l.oneHot == nil {
				l.oneHot = make(map[string]string)
			}
			l.oneHot[n] = cat.Column
		}
		placed[k] = true
		if err := add(rawColumn{name: cat.Column, feat: j, cat: cat}); err != nil {
			return nil, err
		}
		j += len(names)
	}
	for k, c := range s.Categories {
		if !placed[k] && len(c.Values) > 0 {
			return nil, fmt.Errorf("the schema's categorical column %s: its one-hot feature %s is not among the features", quote.Name(c.Column), quote.Name(c.Column+"="+c.Values[0]))
		}
		if !placed[k] {
			cat := &dataset.Category{Column: c.Column, Values: c.Values}
			if err := add(rawColumn{name: c.Column, feat: len(s.Features), cat: cat}); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range l.cols {
		ac := explain.Column{Name: c.name, Feature: c.feat}
		if c.cat != nil {
			ac.Values = c.cat.Values
			if ac.Values == nil {
				ac.Values = []string{} // categorical, with no feature
			}
		}
		l.attrCols = append(l.attrCols, ac)
	}
	return l, nil
}
